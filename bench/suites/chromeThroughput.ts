/**
 * Prints Chrome JSON decode throughput in Node (a measurement, not a test):
 *   node scripts/run-ts.mjs bench/run.ts chrome-throughput [--events 1000000] [--seed 1]
 * Generates the capture to a temporary file (testkit/gen/chromeJson.ts), then times, separately,
 * the importer alone (file read in 4 MiB slices + decode into a builder) and `finish()`, and the
 * whole `loadModel()`. Never imported by the app.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeChromeJson } from '../../testkit/gen/chromeJson.ts';
import { FileSink } from '../../testkit/gen/sink.ts';
import { ModelBuilder } from '../../src/model/builder.ts';
import { fileSource } from '../../src/import/nodeSource.ts';
import { CHUNK_BYTES, loadModel } from '../../src/import/pipeline.ts';
import { HEAD_BYTES } from '../../src/import/importer.ts';
import { chromeImporter } from '../../src/import/chrome/chrome.ts';

/** CPU time (user + system, all threads of the process) since `start`. */
function cpuMs(start: NodeJS.CpuUsage): number {
  const c = process.cpuUsage(start);
  return (c.user + c.system) / 1000;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { events: { type: 'string', default: '1000000' }, seed: { type: 'string', default: '1' } } });
  const events = Number(values.events);
  const dir = mkdtempSync(join(tmpdir(), 'nvtxview-chrome-'));
  const path = join(dir, 'generated.json');
  try {
    let t0 = performance.now();
    const sink = new FileSink(path);
    const written = writeChromeJson(sink, { events, seed: Number(values.seed) });
    sink.close();
    const bytes = statSync(path).size;
    const genMs = performance.now() - t0;

    // Importer alone, then finish(), on the same slicing as the pipeline.
    const source = await fileSource(path);
    const builder = new ModelBuilder({ fileName: 'generated.json', format: chromeImporter.id, byteSize: bytes });
    t0 = performance.now();
    let c0 = process.cpuUsage();
    await chromeImporter.decode(
      {
        name: source.name,
        size: bytes,
        head: await source.read(0, HEAD_BYTES),
        chunks: async function* () {
          for (let pos = 0; pos < bytes; pos += CHUNK_BYTES) yield await source.read(pos, pos + CHUNK_BYTES);
        },
      },
      { builder, options: {} },
    );
    const decodeMs = performance.now() - t0;
    const decodeCpu = cpuMs(c0);
    t0 = performance.now();
    c0 = process.cpuUsage();
    const model = builder.finish();
    const finishMs = performance.now() - t0;
    const finishCpu = cpuMs(c0);
    await source.close();
    const jsonEvents = Number(model.capture.properties['chrome.events']);

    const again = await fileSource(path);
    t0 = performance.now();
    c0 = process.cpuUsage();
    const loaded = await loadModel(again);
    const loadMs = performance.now() - t0;
    const loadCpu = cpuMs(c0);
    await again.close();

    const mb = bytes / 1e6;
    const rows = [
      ['generated', `${written} ranges+marks, ${jsonEvents} JSON events, ${mb.toFixed(1)} MB in ${genMs.toFixed(0)} ms`],
      ['decode (importer)', `${decodeMs.toFixed(0)} ms (cpu ${decodeCpu.toFixed(0)} ms)  ${(mb / (decodeMs / 1000)).toFixed(0)} MB/s  ${((jsonEvents / decodeMs) * 1000 / 1e6).toFixed(2)} M events/s`],
      ['finish (builder)', `${finishMs.toFixed(0)} ms (cpu ${finishCpu.toFixed(0)} ms)`],
      ['loadModel total', `${loadMs.toFixed(0)} ms (cpu ${loadCpu.toFixed(0)} ms)  (${loaded.ranges.startNs.length} ranges, ${loaded.marks.timeNs.length} marks, ${loaded.counters.value.length} counter samples, ${loaded.issues.length} issues)`],
      ['heap used after', `${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`],
      ['machine load', `${loadavg()[0].toFixed(1)} (1-min average, ${availableParallelism()} CPUs): wall times above include waiting for a CPU`],
    ];
    for (const [k, v] of rows) process.stdout.write(`${k.padEnd(20)} ${v}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
