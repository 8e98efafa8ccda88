/**
 * One decode of a Chrome trace JSON file in a fresh process, for the side-by-side case of
 * `npm run bench` (suites/pipeline.ts): a fresh process per load is what a fresh load worker is
 * (cold JIT, empty heap), and the two readers never share a heap or a garbage collector.
 *
 *   node scripts/run-ts.mjs bench/lib/chromeDecodeChild.ts nvtxview|trace-engine FILE
 *
 * Prints one JSON line: wall and CPU time (ms) from the first byte read to the finished model,
 * the process's peak resident memory, and a count of what the reader made.
 * - nvtxview: `loadModel(fileSource(FILE))`, the load worker's path (4 MiB slices, decode, model).
 * - trace-engine: `@paulirish/trace_engine`'s own file entry (`analyzeTrace`: read, `JSON.parse`,
 *   `Model.parse` with all handlers), as Chrome's Performance panel and Lighthouse read a trace.
 * Imports happen before the clock starts. Never imported by the app.
 */
import { resourceUsage } from 'node:process';
import { fileSource } from '../../src/import/nodeSource.ts';
import { loadModel } from '../../src/import/pipeline.ts';

/** What `analyzeTrace` returns, as far as this file reads it. */
interface TraceEngineResult {
  parsedTrace: { data?: { Renderer?: { entryToNode?: Map<unknown, unknown> } } };
}

/** The engine's file entry; a variable specifier so that the type checker does not need its types. */
const TRACE_ENGINE_ENTRY = '@paulirish/trace_engine/analyze-trace.mjs';

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

const [side, path] = process.argv.slice(2);
if ((side !== 'nvtxview' && side !== 'trace-engine') || path === undefined) {
  process.stderr.write('usage: chromeDecodeChild.ts nvtxview|trace-engine FILE\n');
  process.exit(2);
}

let result: Record<string, number>;
if (side === 'nvtxview') {
  const c = cpuMs();
  const t = performance.now();
  const source = await fileSource(path);
  const model = await loadModel(source);
  const wallMs = performance.now() - t;
  const cpu = cpuMs() - c;
  await source.close();
  result = { wallMs, cpuMs: cpu, ranges: model.ranges.startNs.length, marks: model.marks.timeNs.length };
} else {
  const engine = (await import(TRACE_ENGINE_ENTRY)) as { analyzeTrace(file: string): Promise<TraceEngineResult> };
  const c = cpuMs();
  const t = performance.now();
  const analyzed = await engine.analyzeTrace(path);
  const wallMs = performance.now() - t;
  const cpu = cpuMs() - c;
  result = { wallMs, cpuMs: cpu, treeEntries: analyzed.parsedTrace.data?.Renderer?.entryToNode?.size ?? 0 };
}
// maxRSS is in KiB.
result.peakRssBytes = resourceUsage().maxRSS * 1024;
process.stdout.write(JSON.stringify(result) + '\n');
