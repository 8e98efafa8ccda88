/**
 * Where the page's long main-thread tasks go while a capture loads: opens nvtxview in headless
 * Chromium with a performance trace running (the DevTools timeline categories plus V8's sampling
 * profiler), picks a file through the app's file input, waits for the loaded timeline and a quiet
 * second, then lists every main-thread task over the threshold with what ran inside it: the trace's
 * own events (script, style, layout, paint, GC) and the JavaScript functions with the most samples.
 * Use an unminified build for readable names: `npx vite build --minify false --outDir /tmp/x`.
 *
 *   node scripts/run-ts.mjs bench/run.ts profile-load --dist /tmp/x --file capture.nvtxc [--threshold 50] [--top 12] [--trace out.json] [--summary] [--query '?tape=always'] [--light] [--threads] [--pick-after-ms N]
 *
 * Wall time and CPU time of a task differ on a loaded machine (the thread waits for a core): both
 * are printed. `--summary` prints one line: the tasks over the threshold as wall/CPU ms, the
 * longest CPU time of any main-thread task from the pick to the end of the trace, and the main
 * thread's CPU time before and after the loaded draw (until the trace ends, `--settle` ms later).
 * `--threads` prints, per thread of the page's renderer (main thread, each worker), its busy and CPU
 * time from the pick to the loaded draw and a strip of its busy-ness per 100 ms (0-9), which shows
 * which worker ran when and where one waited; `--light` leaves the sampling profiler out, whose
 * own cost otherwise slows the workers.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { launchChromium, serve } from '../lib/chromiumApp.ts';
import { installProbes, readProbes } from '../lib/pageProbes.ts';
import { frameName, profileSamples, type ProfileNode, type TraceEvent } from '../lib/traceProfile.ts';

const { values } = parseArgs({
  options: {
    dist: { type: 'string' },
    file: { type: 'string' },
    threshold: { type: 'string', default: '50' },
    top: { type: 'string', default: '12' },
    trace: { type: 'string' },
    settle: { type: 'string', default: '1500' },
    summary: { type: 'boolean', default: false },
    /** Without V8's sampling profiler (and the `v8` category): wall times near an untraced load's, no JavaScript samples. */
    light: { type: 'boolean', default: false },
    /** Per thread from the pick to the loaded draw: busy and CPU time, and busy-ness per 100 ms (where each worker waits). */
    threads: { type: 'boolean', default: false },
    /** Wait this long after the app is ready before picking the file (spare workers warm up meanwhile, as for a user). */
    'pick-after-ms': { type: 'string', default: '0' },
    /** A query for the page's URL, e.g. '?tape=always'. */
    query: { type: 'string', default: '' },
  },
});
if (!values.dist || !values.file) {
  process.stderr.write('usage: bench/run.ts profile-load --dist DIR --file CAPTURE [--threshold MS] [--top N] [--trace OUT.json]\n');
  process.exit(2);
}
const thresholdMs = Number(values.threshold);
const topN = Number(values.top);

async function main(): Promise<void> {
  const app = await serve(values.dist!, '/nvtxview/');
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
    const page = await context.newPage();
    await installProbes(page);
    await page.goto(app.url + values.query);
    await page.waitForFunction(() => (window as unknown as { __nvtxview?: { idle?: unknown } }).__nvtxview?.idle !== undefined);
    const pickAfterMs = Number(values['pick-after-ms']);
    if (pickAfterMs > 0) await page.waitForTimeout(pickAfterMs);
    await browser.startTracing(page, {
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'v8.execute',
        ...(values.light ? [] : ['v8', 'disabled-by-default-v8.cpu_profiler']),
        'blink.user_timing',
      ],
    });
    await page.getByTestId('open-input').setInputFiles(values.file!);
    await page.waitForFunction(() => (window as unknown as { __bench: { loadedDrawAt: number | null } }).__bench.loadedDrawAt !== null, null, {
      timeout: 600_000,
      polling: 100,
    });
    await page.waitForTimeout(Number(values.settle));
    const probes = await readProbes(page);
    const buffer = await browser.stopTracing();
    if (values.trace) writeFileSync(values.trace, buffer);
    const events = (JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;

    // The page's main thread: the renderer thread named CrRendererMain that ran the most tasks.
    const mains = events.filter((e) => e.name === 'thread_name' && (e.args as { name?: string })?.name === 'CrRendererMain');
    let main = mains[0];
    let most = -1;
    for (const m of mains) {
      const n = events.filter((e) => e.pid === m.pid && e.tid === m.tid && e.name === 'RunTask').length;
      if (n > most) {
        most = n;
        main = m;
      }
    }
    const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
    const tasks = onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) / 1000 > thresholdMs).sort((a, b) => a.ts - b.ts);
    const { nodes, samples } = profileSamples(events, main.pid, main.tid);
    const navStart = events.find((e) => e.name === 'TracingStartedInBrowser')?.ts ?? tasks[0]?.ts ?? 0;

    // The file input's change event: where the load starts (the page's own start-up comes before).
    const pickTs = onMain.find((e) => e.name === 'EventDispatch' && (e.args?.data as { type?: string } | undefined)?.type === 'change')?.ts;
    const afterPick = onMain.filter((e) => e.name === 'RunTask' && e.ts >= (pickTs ?? 0));
    if (values.threads && pickTs !== undefined) {
      const loadedTs = pickTs + (probes.loadedDrawAt! - probes.pickedAt!) * 1000;
      process.stdout.write(`${values.file}: first draw ${(probes.firstDrawAt! - probes.pickedAt!).toFixed(0)} ms, loaded draw ${(probes.loadedDrawAt! - probes.pickedAt!).toFixed(0)} ms after the pick\n`);
      process.stdout.write(threadStrips(events, main.pid, pickTs, loadedTs));
    }
    if (values.summary) {
      const maxCpu = Math.max(0, ...afterPick.map((e) => (e.tdur ?? e.dur ?? 0) / 1000));
      const list = tasks.filter((e) => e.ts >= (pickTs ?? 0)).map((e) => `${(e.dur! / 1000).toFixed(0)}/${((e.tdur ?? e.dur!) / 1000).toFixed(0)}`);
      // Main-thread CPU from the pick to the loaded draw, and after it until the trace ends (--settle):
      // what the page's own thread spends around a load, e.g. on a model copy for the statistics worker.
      const loadedTs = (pickTs ?? 0) + (probes.loadedDrawAt! - probes.pickedAt!) * 1000;
      const cpuMs = (list: TraceEvent[]) => list.reduce((sum, e) => sum + (e.tdur ?? e.dur ?? 0), 0) / 1000;
      const before = cpuMs(afterPick.filter((e) => e.ts < loadedTs));
      const after = cpuMs(afterPick.filter((e) => e.ts >= loadedTs));
      process.stdout.write(
        `tasks over ${thresholdMs} ms (wall/CPU): [${list.join(', ')}]; longest CPU time of a task: ${maxCpu.toFixed(1)} ms; ` +
          `main-thread CPU: ${before.toFixed(0)} ms to the loaded draw (${(probes.loadedDrawAt! - probes.pickedAt!).toFixed(0)} ms after the pick), ${after.toFixed(0)} ms in the ${values.settle} ms after it\n`,
      );
      await context.close();
      return;
    }
    process.stdout.write(
      `${values.file}: first draw ${(probes.firstDrawAt! - probes.pickedAt!).toFixed(0)} ms, loaded draw ${(probes.loadedDrawAt! - probes.pickedAt!).toFixed(0)} ms after the pick; ` +
        `longtask API: ${probes.longTasks.filter(([s]) => s >= probes.pickedAt!).map(([, d]) => d.toFixed(0)).join(', ') || 'none'} ms\n`,
    );
    process.stdout.write(`${tasks.length} main-thread task(s) over ${thresholdMs} ms:\n`);
    for (const task of tasks) {
      const end = task.ts + task.dur!;
      const cpu = task.tdur !== undefined ? `, ${(task.tdur / 1000).toFixed(1)} ms on the CPU` : '';
      process.stdout.write(`\n  task at +${((task.ts - navStart) / 1000).toFixed(0)} ms (trace clock): ${(task.dur! / 1000).toFixed(1)} ms${cpu}\n`);
      // Trace events directly or deeply inside the task, by name (nested ones overlap their parents).
      const inside = new Map<string, number>();
      for (const e of onMain) {
        if (e === task || e.ts < task.ts || e.ts >= end || e.name === 'RunTask') continue;
        let key = e.name;
        const data = e.args?.data as { functionName?: string; type?: string; url?: string } | undefined;
        if (e.name === 'FunctionCall' && data?.functionName) key += ` ${data.functionName}`;
        if (e.name === 'EventDispatch' && data?.type) key += ` ${data.type}`;
        if ((e.dur ?? 0) >= 1000) inside.set(key, (inside.get(key) ?? 0) + e.dur! / 1000);
      }
      for (const [k, ms] of [...inside].sort((a, b) => b[1] - a[1]).slice(0, topN)) process.stdout.write(`    ${ms.toFixed(1).padStart(7)} ms  ${k}\n`);
      // JavaScript samples in the task: self time per function, and inclusive time per function.
      const self = new Map<string, number>();
      const total = new Map<string, number>();
      let count = 0;
      for (let i = 0; i < samples.length; i++) {
        const [t, id] = samples[i];
        if (t < task.ts || t >= end) continue;
        const dt = (i + 1 < samples.length ? samples[i + 1][0] : t) - t;
        count++;
        const node = nodes.get(id);
        if (!node) continue;
        const name = frameName(node);
        self.set(name, (self.get(name) ?? 0) + dt / 1000);
        const seen = new Set<string>();
        for (let n: ProfileNode | undefined = node; n; n = n.parent !== undefined ? nodes.get(n.parent) : undefined) {
          const key = frameName(n);
          if (seen.has(key)) continue;
          seen.add(key);
          total.set(key, (total.get(key) ?? 0) + dt / 1000);
        }
      }
      process.stdout.write(`    samples: ${count}; self time:\n`);
      for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, topN)) process.stdout.write(`    ${ms.toFixed(1).padStart(7)} ms  ${k}\n`);
      process.stdout.write(`    inclusive:\n`);
      for (const [k, ms] of [...total].sort((a, b) => b[1] - a[1]).slice(0, topN * 2)) process.stdout.write(`    ${ms.toFixed(1).padStart(7)} ms  ${k}\n`);
    }
    await context.close();
  } finally {
    await browser.close();
    await app.close();
  }
}

const STRIP_MS = 100;

/**
 * Per thread of the renderer process `pid`, its top-level tasks between `fromTs` and `toTs` (trace
 * clock, µs): busy (wall) and CPU ms, and one digit per STRIP_MS for the share of it spent in tasks.
 */
function threadStrips(events: TraceEvent[], pid: number, fromTs: number, toTs: number): string {
  const names = new Map<number, string>();
  for (const e of events) if (e.pid === pid && e.name === 'thread_name') names.set(e.tid, (e.args as { name?: string }).name ?? '?');
  const bins = Math.ceil((toTs - fromTs) / 1000 / STRIP_MS);
  const lines: string[] = [];
  for (const [tid, name] of names) {
    const tasks = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.name === 'RunTask' && e.ts + (e.dur ?? 0) > fromTs && e.ts < toTs);
    let busy = 0;
    let cpu = 0;
    const strip = new Float64Array(bins);
    for (const e of tasks) {
      const start = Math.max(e.ts, fromTs);
      const end = Math.min(e.ts + (e.dur ?? 0), toTs);
      busy += end - start;
      cpu += ((e.tdur ?? e.dur ?? 0) * (end - start)) / Math.max(1, e.dur ?? 0);
      for (let t = start; t < end; ) {
        const bin = Math.floor((t - fromTs) / 1000 / STRIP_MS);
        const binEnd = fromTs + (bin + 1) * STRIP_MS * 1000;
        const take = Math.min(end, binEnd) - t;
        strip[Math.min(bin, bins - 1)] += take;
        t += take;
      }
    }
    if (busy < 20_000) continue;
    const digits = Array.from(strip, (us) => String(Math.min(9, Math.floor(us / 1000 / STRIP_MS * 10)))).join('');
    lines.push(`  ${`${name} ${tid}`.padEnd(30)} busy ${(busy / 1000).toFixed(0).padStart(5)} ms, CPU ${(cpu / 1000).toFixed(0).padStart(5)} ms  ${digits}\n`);
  }
  return `threads from the pick to the loaded draw (a digit per ${STRIP_MS} ms: tenths of it in tasks):\n${lines.join('')}`;
}

main().catch((e: unknown) => {
  process.stderr.write(`profile-load: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
