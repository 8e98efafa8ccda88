/**
 * What the browser benchmark measures inside a page, installed before the page's own scripts run:
 * when a file was picked (the file input's change event), long main-thread tasks
 * (PerformanceObserver 'longtask'), and, for nvtxview, when the timeline drew a frame holding a
 * capture (its `data-timeline-frame` counter) while the load was pending and once it finished.
 * Readings are collected into `window.__bench` and read back with `readProbes`.
 */
import type { CDPSession, Page } from '@playwright/test';

export interface ProbeReadings {
  /** performance.now() of the file input's change event. */
  pickedAt: number | null;
  /** First timeline frame drawn with a capture in the store (nvtxview only). */
  firstDrawAt: number | null;
  /** First timeline frame drawn after the last load finished (nvtxview only). */
  loadedDrawAt: number | null;
  /** Long tasks: [startTime, duration] in ms. */
  longTasks: [number, number][];
}

/**
 * The probe script, as source text: Playwright serialises functions given to `addInitScript`,
 * and the TypeScript runner's helpers (e.g. `__name`) do not exist in the page.
 */
const PROBE_SCRIPT = `(() => {
  const bench = { pickedAt: null, firstDrawAt: null, loadedDrawAt: null, longTasks: [] };
  window.__bench = bench;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) bench.longTasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  document.addEventListener('change', (e) => {
    if (e.target && e.target.type === 'file' && bench.pickedAt === null) bench.pickedAt = performance.now();
  }, true);
  function watchFrames() {
    new MutationObserver(() => {
      const store = window.__nvtxview && window.__nvtxview.store;
      const s = store && store.getState();
      if (!s || s.captures.length === 0) return;
      const now = performance.now();
      if (bench.firstDrawAt === null) bench.firstDrawAt = now;
      if (s.loads.length === 0 && bench.loadedDrawAt === null) bench.loadedDrawAt = now;
    }).observe(document.body, { attributes: true, attributeFilter: ['data-timeline-frame'] });
  }
  if (document.body) watchFrames();
  else document.addEventListener('DOMContentLoaded', watchFrames);
})();`;

/** Installs the probes; call before `page.goto`. */
export async function installProbes(page: Page): Promise<void> {
  await page.addInitScript(PROBE_SCRIPT);
}

export function readProbes(page: Page): Promise<ProbeReadings> {
  return page.evaluate(() => (window as unknown as { __bench: ProbeReadings }).__bench);
}

/** Durations of the long tasks (over 50 ms) that started in [from, to], in order. */
export function longTasks(readings: ProbeReadings, from: number, to: number): number[] {
  return readings.longTasks.filter(([start]) => start >= from && start <= to).map(([, duration]) => duration);
}

/** Longest long task that started in [from, to] (0 when none passed the API's 50 ms threshold). */
export function longestTask(readings: ProbeReadings, from: number, to: number): number {
  let longest = 0;
  for (const [start, duration] of readings.longTasks) if (start >= from && start <= to && duration > longest) longest = duration;
  return longest;
}

/**
 * JS memory of the page's main thread after a full garbage collection: the V8 heap plus the array
 * buffers it holds (typed-array models live there, not in the heap proper).
 */
export async function pageMemory(cdp: CDPSession): Promise<{ heapBytes: number; arrayBufferBytes: number }> {
  await cdp.send('HeapProfiler.collectGarbage');
  const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; backingStorageSize?: number };
  return { heapBytes: usage.usedSize, arrayBufferBytes: usage.backingStorageSize ?? 0 };
}
