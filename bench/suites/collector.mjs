#!/usr/bin/env node
/**
 * Collector overhead: the cost of an nvtxRangePushA + nvtxRangePop pair without a tool, and with
 * the collector attached on 1 and 8 threads, plus the rate at which events are written.
 *
 *   npm run bench:collector -- [--json] [--runs N] [--pairs N]
 *
 * Builds collector/ (make) first. Each figure is the median of N runs (default 5); per-pair costs
 * are measured with each thread's CPU clock, so 8 threads on fewer cores are not charged for
 * waiting. Captures go to a temporary directory that is removed afterwards.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const collector = join(root, 'collector');
const args = process.argv.slice(2);
const json = args.includes('--json');
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : fallback;
};
const runs = option('--runs', 5);
const pairs = option('--pairs', 4_000_000);

const made = spawnSync('make', ['-s', '-C', collector, 'bench'], { encoding: 'utf8' });
if (made.status !== 0) {
  process.stderr.write(`bench-collector: make -C collector bench failed\n${made.stdout}${made.stderr}`);
  process.exit(1);
}
const program = join(collector, 'build', 'bench', 'pushpop');
const library = join(collector, 'build', 'libnvtxcapture.so');
const work = mkdtempSync(join(tmpdir(), 'nvtxview-bench-'));

/** One run of the benchmark program; returns its JSON plus the capture size in bytes. */
function once(threads, count, withCollector) {
  const env = { ...process.env };
  delete env.NVTX_INJECTION64_PATH;
  if (withCollector) {
    env.NVTX_INJECTION64_PATH = library;
    env.NVTXCAPTURE_OUTPUT = join(work, 'bench.%p.nvtxc');
  }
  const result = spawnSync(program, [String(threads), String(count)], { env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`pushpop ${threads} ${count} failed: ${result.stderr}`);
  const figures = JSON.parse(result.stdout);
  let bytes = 0;
  for (const f of readdirSync(work)) {
    bytes += statSync(join(work, f)).size;
    rmSync(join(work, f));
  }
  if (withCollector && figures.pushRet < 0) throw new Error('the collector did not attach (push returned no level)');
  return { ...figures, bytes };
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function measure(threads, count, withCollector) {
  const results = [];
  for (let i = 0; i < runs; i++) results.push(once(threads, count, withCollector));
  return {
    nsPerPair: median(results.map((r) => r.nsPerPair)),
    // Events recorded per second of wall time, all threads together (2 events per pair).
    eventsPerSecond: median(results.map((r) => (2 * threads * count) / (r.wallNs / 1e9))),
    // Capture bytes per event, warm-up pairs (100k per thread) included.
    bytesPerEvent: median(results.map((r) => r.bytes / (2 * threads * (count + 100_000)))),
  };
}

try {
  const noTool = measure(1, pairs * 2, false);
  const one = measure(1, pairs, true);
  const eight = measure(8, Math.max(1, Math.round(pairs / 4)), true);
  const report = {
    nsPerPairNoTool: round(noTool.nsPerPair),
    nsPerPair1Thread: round(one.nsPerPair),
    nsPerPair8Threads: round(eight.nsPerPair),
    eventsPerSecond1Thread: Math.round(one.eventsPerSecond),
    eventsPerSecond8Threads: Math.round(eight.eventsPerSecond),
    bytesPerEvent: round(eight.bytesPerEvent),
    runs,
    pairs,
  };
  if (json) {
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } else {
    const line = (label, value) => process.stdout.write(`  ${label.padEnd(34)} ${value}\n`);
    process.stdout.write(`nvtxRangePushA + nvtxRangePop, median of ${runs} runs (${pairs} pairs per run and thread on 1 thread)\n`);
    line('no tool', `${report.nsPerPairNoTool} ns per pair`);
    line('collector, 1 thread', `${report.nsPerPair1Thread} ns per pair`);
    line('collector, 8 threads', `${report.nsPerPair8Threads} ns per pair (CPU time of each thread)`);
    line('events written, 1 thread', `${(report.eventsPerSecond1Thread / 1e6).toFixed(1)} M events/s`);
    line('events written, 8 threads', `${(report.eventsPerSecond8Threads / 1e6).toFixed(1)} M events/s (all threads)`);
    line('capture size', `${report.bytesPerEvent} bytes per event`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

function round(x) {
  return Math.round(x * 100) / 100;
}
