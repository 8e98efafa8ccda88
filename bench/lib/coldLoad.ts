/**
 * What a fresh process pays for a load that a warm one does not (docs/performance.md, "Chrome
 * JSON one-worker CPU, third pass"): `loadModel(fileSource(FILE))` LOADS times in this process, and
 * per load its wall time, the CPU of the thread that runs it and of all other threads of the
 * process (V8's compiler and GC helpers, libuv's file reads), and the minor page faults (first
 * touches of memory). Linux only (reads /proc/self/task/N/stat).
 *
 *   node scripts/run-ts.mjs bench/lib/coldLoad.ts FILE [LOADS] [--json]
 *
 * The first load is what `npm run bench` and the CLI pay; the later ones are a warm worker's.
 * Page faults move far less with the host's load than CPU times do: on a shared host they show a
 * change of memory behaviour that CPU medians cannot separate from the noise.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resourceUsage } from 'node:process';
import { fileSource } from '../../src/import/nodeSource.ts';
import { loadModel } from '../../src/import/pipeline.ts';

/** Clock ticks per second of /proc's utime/stime (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU ms of each thread of this process, by thread id. */
function threadCpuMs(): Map<number, number> {
  const byThread = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byThread.set(Number(tid), ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return byThread;
}

interface ColdLoadRow {
  load: number;
  wallMs: number;
  mainThreadCpuMs: number;
  otherThreadsCpuMs: number;
  minorFaults: number;
  ranges: number;
}

const args = process.argv.slice(2);
const json = args.includes('--json');
const [path, loadsArg] = args.filter((a) => a !== '--json');
if (path === undefined) {
  process.stderr.write('usage: coldLoad.ts FILE [LOADS] [--json]\n');
  process.exit(2);
}
const loads = Number(loadsArg ?? 3);
const mainThread = process.pid;
const rows: ColdLoadRow[] = [];
const loadBefore = loadavg()[0];
for (let load = 1; load <= loads; load++) {
  const cpu0 = threadCpuMs();
  const faults0 = resourceUsage().minorPageFault;
  const t0 = performance.now();
  const source = await fileSource(path);
  const model = await loadModel(source);
  await source.close();
  const wallMs = performance.now() - t0;
  const faults = resourceUsage().minorPageFault - faults0;
  const cpu1 = threadCpuMs();
  let other = 0;
  for (const [tid, ms] of cpu1) if (tid !== mainThread) other += ms - (cpu0.get(tid) ?? 0);
  rows.push({
    load,
    wallMs: Math.round(wallMs),
    mainThreadCpuMs: Math.round((cpu1.get(mainThread) ?? 0) - (cpu0.get(mainThread) ?? 0)),
    otherThreadsCpuMs: Math.round(other),
    minorFaults: faults,
    ranges: model.ranges.startNs.length,
  });
}
const peakRssMB = Math.round(resourceUsage().maxRSS / 1024);
if (json) process.stdout.write(JSON.stringify({ file: path, loadAverage: [loadBefore, loadavg()[0]], peakRssMB, rows }) + '\n');
else {
  process.stdout.write(`${path}, load average ${loadBefore.toFixed(2)} -> ${loadavg()[0].toFixed(2)}, peak RSS ${peakRssMB} MB\n`);
  process.stdout.write('load  wall ms  main-thread CPU ms  other threads CPU ms  minor faults\n');
  for (const r of rows) {
    process.stdout.write(`${String(r.load).padStart(4)}  ${String(r.wallMs).padStart(7)}  ${String(r.mainThreadCpuMs).padStart(18)}  ${String(r.otherThreadsCpuMs).padStart(20)}  ${String(r.minorFaults).padStart(12)}\n`);
  }
}
