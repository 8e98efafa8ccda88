/**
 * `npm run bench`: figures, not pass/fail.
 *  1. Decode + model per format: the same generated capture (default 1M ranges + marks, 16
 *     threads; testkit/gen/) written as NVTXT, native `.nvtxc`, Chrome JSON and an nsys SQLite
 *     export to a temp dir, loaded through the page's pipeline (`loadModel(fileSource(path))`):
 *     wall and CPU time, events per second, and model memory: bytes per range (range columns plus
 *     their level-of-detail summaries) and bytes per event (every model buffer).
 *     Chrome JSON also as one trace (nested `args`, as Chrome and PyTorch write them) written twice,
 *     on one line and one event per line (`chromeJsonOneLine`): the two must decode at one speed.
 *     Chrome JSON side by side with `@paulirish/trace_engine` (`chromeJson`): the same generated
 *     file read by nvtxview's load path and by the engine of Chrome's Performance panel, each in a
 *     fresh process (bench/lib/chromeDecodeChild.ts), alternated --peer-runs times: wall and CPU
 *     time, peak memory, the ratio, and nvtxview's decode speed as a fresh load worker has it.
 *  2. Range statistics (`rangeStats`, per-name table with percentiles) on models of 1M and 10M
 *     ranges built directly with ModelBuilder from the same event generator: whole capture and
 *     the middle 10% of it, median of several runs after a warm-up. Then the same table on 1M
 *     ranges spread over more and more distinct names (`statsByNames`): its cost per name must stay
 *     flat (a table of 300k names once took 17 s for the object spreads of its rows).
 * Options: --events N, --formats a,b (importer ids), --decode-runs N (median of N loads),
 * --peer-runs N (alternated runs against trace_engine, 0: none),
 * --ranges N,N (stats model sizes), --stats-names N,N (distinct names of the 1M-range models), --runs N, --seed N, --keep (keep the generated files),
 * --json (one JSON object instead of the table).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { rangeStats } from '../../src/analysis/rangeStats.ts';
import { fileSource } from '../../src/import/nodeSource.ts';
import { loadModel } from '../../src/import/pipeline.ts';
import { ModelBuilder } from '../../src/model/builder.ts';
import { modelTransferables } from '../../src/model/transfer.ts';
import type { Model } from '../../src/model/types.ts';
import { EXTENSIONS, FORMATS, generateFile } from '../../testkit/gen/main.ts';
import { buildGeneratedModel } from '../../testkit/gen/model.ts';
import { rangeBytes } from '../lib/modelBytes.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    formats: { type: 'string', default: Object.keys(FORMATS).join(',') },
    'decode-runs': { type: 'string', default: '1' },
    'peer-runs': { type: 'string', default: '3' },
    ranges: { type: 'string', default: '1000000,10000000' },
    'stats-names': { type: 'string', default: '100,10000,100000,300000' },
    runs: { type: 'string', default: '5' },
    seed: { type: 'string', default: '1' },
    keep: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const events = Number(values.events);
const rangeSizes = values.ranges!.split(',').map(Number).filter((n) => n > 0);
const statsNames = values['stats-names']!.split(',').map(Number).filter((n) => n > 0);
const runs = Math.max(1, Number(values.runs));
const decodeRuns = Math.max(1, Number(values['decode-runs']));
const peerRuns = Math.max(0, Number(values['peer-runs']));
const formats = values.formats!.split(',').filter((f) => f !== '');
const seed = Number(values.seed);
const log = (line: string) => {
  if (!values.json) process.stdout.write(line + '\n');
};

function modelBytes(model: Model): number {
  return modelTransferables(model).reduce((sum, b) => sum + b.byteLength, 0);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * Median and min wall time (ms) of `runs` runs after one warm-up run, and the median CPU time of
 * this process (which on a busy machine shows how much of the wall time was waiting for a core).
 */
/** `ranges` push/pop ranges on one thread, one after another, cycling through `names` distinct names. */
function manyNamesModel(ranges: number, names: number): Model {
  const b = new ModelBuilder({ fileName: `stats-${names}-names`, format: 'nvtxt', byteSize: 0 });
  b.process(1, 'bench');
  const thread = b.thread(1, 1, 'main');
  const ids = Array.from({ length: names }, (_, k) => b.intern(`range ${k}`));
  let t = 0;
  for (let i = 0; i < ranges; i++) {
    b.push(thread, t, { nameId: ids[i % names] });
    t += 10 + (i % 7);
    b.pop(thread, t);
    t += 1;
  }
  return b.finish();
}

function timeRuns(f: () => void): { medianMs: number; minMs: number; cpuMs: number } {
  f();
  const times: number[] = [];
  const cpu: number[] = [];
  for (let k = 0; k < runs; k++) {
    const c = cpuMs();
    const t = performance.now();
    f();
    times.push(performance.now() - t);
    cpu.push(cpuMs() - c);
  }
  return { medianMs: median(times), minMs: Math.min(...times), cpuMs: median(cpu) };
}

/** Wall and CPU time (ms) of one load of `path`, and its model. */
async function timeLoad(path: string): Promise<{ ms: number; cpu: number; model: Model }> {
  const source = await fileSource(path);
  const c = cpuMs();
  const t = performance.now();
  const model = await loadModel(source);
  const ms = performance.now() - t;
  const cpu = cpuMs() - c;
  await source.close();
  return { ms, cpu, model };
}

/**
 * The same Chrome trace (nested args) on one line and one event per line, loaded alternately (at
 * least 3 times each, median), so that warm-up and the machine's load fall on both alike.
 */
async function benchChromeLayouts(): Promise<Record<string, unknown>> {
  const oneLinePath = join(dir, `one-line-${events}.json`);
  const linesPath = join(dir, `lines-${events}.json`);
  const written = await generateFile(oneLinePath, 'chrome-json', { events, seed, oneLine: true, nestedArgs: true });
  const lines = await generateFile(linesPath, 'chrome-json', { events, seed, nestedArgs: true });
  log(`chrome-json, one line: ${fmt(written.events)} ranges + marks, ${fmt(written.bytes / 1e6, 1)} MB (${fmt(lines.bytes / 1e6, 1)} MB one event per line), nested args`);
  const oneLineMs: number[] = [];
  const perLineMs: number[] = [];
  const oneLineCpu: number[] = [];
  const perLineCpu: number[] = [];
  let ranges = 0;
  for (let k = 0; k < Math.max(3, decodeRuns); k++) {
    const a = await timeLoad(oneLinePath);
    oneLineMs.push(a.ms);
    oneLineCpu.push(a.cpu);
    ranges = a.model.ranges.startNs.length;
    const b = await timeLoad(linesPath);
    perLineMs.push(b.ms);
    perLineCpu.push(b.cpu);
    if (ranges !== b.model.ranges.startNs.length) throw new Error('the two layouts of one trace gave different models');
  }
  const oneLine = { ms: median(oneLineMs) };
  const perLine = { ms: median(perLineMs) };
  const entry = {
    fileBytes: written.bytes,
    ranges,
    decodeAndModelMs: Math.round(oneLine.ms),
    megabytesPerSecond: Number((written.bytes / 1e6 / (oneLine.ms / 1000)).toFixed(2)),
    decodeAndModelCpuMs: Math.round(median(oneLineCpu)),
    oneEventPerLineMs: Math.round(perLine.ms),
    oneEventPerLineCpuMs: Math.round(median(perLineCpu)),
    oneLineVsOneEventPerLine: Number((oneLine.ms / perLine.ms).toFixed(2)),
  };
  log(
    `  decode + model   ${fmt(oneLine.ms / 1000, 2)} s (${fmt(entry.decodeAndModelCpuMs / 1000, 2)} s CPU) on one line, ` +
      `${fmt(perLine.ms / 1000, 2)} s (${fmt(entry.oneEventPerLineCpuMs / 1000, 2)} s CPU) one event per line (${fmt(entry.oneLineVsOneEventPerLine, 2)}x)   ${fmt(entry.megabytesPerSecond, 1)} MB/s`,
  );
  if (!values.keep) {
    rmSync(oneLinePath, { force: true });
    rmSync(linesPath, { force: true });
  }
  return entry;
}

/** One load of `path` in a fresh process by `side` (bench/lib/chromeDecodeChild.ts). */
function childLoad(side: 'nvtxview' | 'trace-engine', path: string): { wallMs: number; cpuMs: number; peakRssBytes: number } {
  const root = resolve(import.meta.dirname, '../..');
  const out = execFileSync(process.execPath, [join(root, 'scripts/run-ts.mjs'), join(root, 'bench/lib/chromeDecodeChild.ts'), side, path], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 20,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.trim().split('\n').pop()!) as { wallMs: number; cpuMs: number; peakRssBytes: number };
}

/**
 * The Chrome JSON file read by nvtxview and by `@paulirish/trace_engine`, alternated (a fresh
 * process each, nvtxview first in every pair), so that the machine's load falls on both alike.
 * The ratio is the median of the pairs' ratios; `mbPerSecond` is nvtxview's median wall time as
 * a fresh load worker has it (cold JIT, 4 MiB slices, decode + model).
 */
function benchTraceEngine(path: string, fileBytes: number): Record<string, unknown> {
  const ours: { wallMs: number; cpuMs: number; peakRssBytes: number }[] = [];
  const theirs: { wallMs: number; cpuMs: number; peakRssBytes: number }[] = [];
  const loads: number[] = [];
  for (let k = 0; k < peerRuns; k++) {
    loads.push(loadavg()[0]);
    ours.push(childLoad('nvtxview', path));
    theirs.push(childLoad('trace-engine', path));
  }
  const mb = fileBytes / 1e6;
  const oursMs = median(ours.map((r) => r.wallMs));
  const entry = {
    fileBytes,
    runs: peerRuns,
    mbPerSecond: Number((mb / (oursMs / 1000)).toFixed(1)),
    mbPerCpuSecond: Number((mb / (median(ours.map((r) => r.cpuMs)) / 1000)).toFixed(1)),
    nvtxviewMs: Math.round(oursMs),
    nvtxviewCpuMs: Math.round(median(ours.map((r) => r.cpuMs))),
    nvtxviewPeakRssBytes: Math.max(...ours.map((r) => r.peakRssBytes)),
    traceEngineMs: Math.round(median(theirs.map((r) => r.wallMs))),
    traceEngineCpuMs: Math.round(median(theirs.map((r) => r.cpuMs))),
    traceEnginePeakRssBytes: Math.max(...theirs.map((r) => r.peakRssBytes)),
    speedupVsTraceEngine: Number(median(ours.map((r, k) => theirs[k].wallMs / r.wallMs)).toFixed(2)),
    cpuSpeedupVsTraceEngine: Number(median(ours.map((r, k) => theirs[k].cpuMs / r.cpuMs)).toFixed(2)),
    pairsWallMs: ours.map((r, k) => [Math.round(r.wallMs), Math.round(theirs[k].wallMs)]),
    loadAverage1m: loads,
  };
  log(
    `  vs trace_engine  nvtxview ${fmt(oursMs / 1000, 2)} s (${fmt(entry.nvtxviewCpuMs / 1000, 2)} s CPU, ${fmt(entry.nvtxviewPeakRssBytes / 1e6)} MB peak), ` +
      `@paulirish/trace_engine ${fmt(entry.traceEngineMs / 1000, 2)} s (${fmt(entry.traceEngineCpuMs / 1000, 2)} s CPU, ${fmt(entry.traceEnginePeakRssBytes / 1e6)} MB peak): ` +
      `${fmt(entry.speedupVsTraceEngine, 1)}x wall, ${fmt(entry.cpuSpeedupVsTraceEngine, 1)}x CPU; nvtxview ${fmt(entry.mbPerSecond, 1)} MB/s as a fresh worker ` +
      `(${fmt(entry.mbPerCpuSecond, 1)} MB per CPU second), ${peerRuns} alternated pairs, load ${loads.map((l) => l.toFixed(1)).join(', ')}`,
  );
  return entry;
}

const fmt = (x: number, digits = 0) => x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const result: Record<string, unknown> = {
  node: process.version,
  cpus: cpus().length,
  loadAverage1m: loadavg()[0],
};
log(`nvtxview benchmark · node ${process.version} · ${cpus().length} CPUs · load average ${loadavg()[0].toFixed(2)}`);

// 1. Decode + model per format.
const dir = mkdtempSync(join(tmpdir(), 'nvtxview-bench-'));
try {
  const decodeResults: Record<string, unknown> = {};
  for (const format of formats) {
    const path = join(dir, `generated-${events}.${EXTENSIONS[format] ?? format}`);
    let t = performance.now();
    const written = await generateFile(path, format, { events, seed });
    const genMs = performance.now() - t;
    log(`${format}: ${fmt(written.events)} ranges + marks, ${fmt(written.bytes / 1e6, 1)} MB, generated in ${fmt(genMs / 1000, 1)} s`);
    const wall: number[] = [];
    const cpu: number[] = [];
    let model: Model | undefined;
    for (let k = 0; k < decodeRuns; k++) {
      model = undefined;
      const source = await fileSource(path);
      const c = cpuMs();
      t = performance.now();
      model = await loadModel(source);
      wall.push(performance.now() - t);
      cpu.push(cpuMs() - c);
      await source.close();
    }
    const m = model!;
    const decodeMs = median(wall);
    const ranges = m.ranges.startNs.length;
    const modelEvents = ranges + m.marks.timeNs.length;
    const bytes = modelBytes(m);
    const entry = {
      fileBytes: written.bytes,
      ranges,
      marks: m.marks.timeNs.length,
      issues: m.issues.length,
      decodeAndModelMs: Math.round(decodeMs),
      decodeAndModelCpuMs: Math.round(median(cpu)),
      eventsPerSecond: Math.round(modelEvents / (decodeMs / 1000)),
      megabytesPerSecond: Number((written.bytes / 1e6 / (decodeMs / 1000)).toFixed(2)),
      modelBytes: bytes,
      bytesPerRange: Number((rangeBytes(m) / ranges).toFixed(1)),
      bytesPerEvent: Number((bytes / modelEvents).toFixed(1)),
    };
    decodeResults[format] = entry;
    log(`  decode + model   ${fmt(decodeMs / 1000, 2)} s (${fmt(entry.decodeAndModelCpuMs / 1000, 2)} s CPU)   ${fmt(entry.eventsPerSecond)} events/s   ${fmt(entry.megabytesPerSecond, 1)} MB/s   (${fmt(entry.ranges)} ranges, ${fmt(entry.marks)} marks, ${entry.issues} load issues)`);
    log(`  model size       ${fmt(bytes / 1e6, 1)} MB   ${fmt(entry.bytesPerRange, 1)} bytes/range (columns + summaries)   ${fmt(entry.bytesPerEvent, 1)} bytes/event (all buffers)`);
    if (format === 'nvtxt') {
      const stats = timeRuns(() => rangeStats(m));
      log(`  stats, whole     ${fmt(stats.medianMs, 1)} ms median, ${fmt(stats.minMs, 1)} ms min, ${fmt(stats.cpuMs, 1)} ms CPU`);
      result.nvtxtStatsWholeMs = Number(stats.medianMs.toFixed(1));
    }
    model = undefined;
    if (format === 'chrome-json' && peerRuns > 0) result.chromeJson = benchTraceEngine(path, written.bytes);
    if (!values.keep) rmSync(path, { force: true });
  }
  result.decode = decodeResults;
  if (formats.includes('chrome-json')) result.chromeJsonOneLine = await benchChromeLayouts();

  // 2. Statistics on large models.
  const statsResults: Record<string, unknown>[] = [];
  for (const size of rangeSizes) {
    const t = performance.now();
    let big: Model | undefined = buildGeneratedModel({ events: size, seed, markShare: 0, startEndShare: 0.02 });
    const buildMs = performance.now() - t;
    const n = big.ranges.startNs.length;
    const span = [{ startNs: big.durationNs * 0.45, endNs: big.durationNs * 0.55 }];
    const whole = timeRuns(() => rangeStats(big!));
    const tenth = timeRuns(() => rangeStats(big!, { spans: span }));
    const inSpan = rangeStats(big, { spans: span }).rangeCount;
    const entry = {
      ranges: n,
      names: rangeStats(big).rows.length,
      buildMs: Math.round(buildMs),
      modelBytesPerRange: Number((rangeBytes(big) / n).toFixed(1)),
      wholeCaptureMs: Number(whole.medianMs.toFixed(1)),
      wholeCaptureMinMs: Number(whole.minMs.toFixed(1)),
      wholeCaptureCpuMs: Number(whole.cpuMs.toFixed(1)),
      tenPercentSpanMs: Number(tenth.medianMs.toFixed(1)),
      tenPercentSpanMinMs: Number(tenth.minMs.toFixed(1)),
      tenPercentSpanCpuMs: Number(tenth.cpuMs.toFixed(1)),
      rangesInSpan: inSpan,
    };
    statsResults.push(entry);
    log(
      `stats, ${fmt(n)} ranges, ${entry.names} names (model built in ${fmt(buildMs / 1000, 1)} s, ${fmt(entry.modelBytesPerRange, 1)} bytes/range)\n` +
        `  whole capture    ${fmt(entry.wholeCaptureMs, 1)} ms median, ${fmt(entry.wholeCaptureMinMs, 1)} ms min, ${fmt(entry.wholeCaptureCpuMs, 1)} ms CPU\n` +
        `  10% span         ${fmt(entry.tenPercentSpanMs, 1)} ms median, ${fmt(entry.tenPercentSpanMinMs, 1)} ms min, ${fmt(entry.tenPercentSpanCpuMs, 1)} ms CPU (${fmt(inSpan)} ranges)`,
    );
    big = undefined;
  }
  result.stats = statsResults;
  const byNames: Record<string, unknown>[] = [];
  for (const names of statsNames) {
    const m = manyNamesModel(1_000_000, names);
    const whole = timeRuns(() => rangeStats(m));
    const entry = { ranges: m.ranges.startNs.length, names, wholeCaptureMs: Number(whole.medianMs.toFixed(1)), wholeCaptureCpuMs: Number(whole.cpuMs.toFixed(1)), microsecondsPerName: Number(((whole.medianMs * 1000) / names).toFixed(2)) };
    byNames.push(entry);
    log(`stats, ${fmt(entry.ranges)} ranges over ${fmt(names)} names: ${fmt(entry.wholeCaptureMs, 1)} ms median, ${fmt(entry.wholeCaptureCpuMs, 1)} ms CPU`);
  }
  result.statsByNames = byNames;
  result.runs = runs;
} finally {
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
}
if (values.json) process.stdout.write(JSON.stringify(result) + '\n');
