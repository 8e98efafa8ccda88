/**
 * JIT warm-up of a spare load worker while the page is idle: a fresh worker runs its first load's
 * hot loops unoptimised for a good part of the file (a 1M-event Chrome trace cost about a quarter
 * more CPU as a worker's first load than as a later one, a 1M-event native capture about 40%:
 * docs/performance.md). Loading small built-in captures a few dozen times through the ordinary
 * path lets V8 optimise that code first: a Chrome trace, then a native capture (the two formats
 * of big files; the builder and `finish()` they share are warmed by both). Where the page may load
 * Chrome traces split, half the Chrome loads go through the split's two sides
 * (src/import/chromeSplit.ts), whose own code is cold otherwise.
 *
 * The drop wins: each warm-up load is short, and between two the worker returns to its message
 * loop, so a file that arrives stops the warm-up after at most one of them.
 */
import { chromeWarmUpSample } from '../import/chrome/warmUpSample.ts';
import { loadModelThroughChromeSplit } from '../import/chromeSplit.ts';
import { loadModel, memorySource } from '../import/pipeline.ts';
import { nativeWarmUpSample } from './nativeWarmUpSample.ts';

/** Events of the Chrome warm-up trace (about 150 kB): one load takes a few ms once optimised, tens of ms cold. */
export const WARM_UP_EVENTS = 1000;
/** Warm-up loads at most, half of each format: 30 of each cut a cold load's CPU most (docs/performance.md). */
export const WARM_UP_LOADS = 60;
/**
 * Events of the first Chrome loads: the first runs everything unoptimised (and compiles it), so it
 * is kept short: a file that comes then waits for a few ms, not for a thousand cold events. The
 * first native load is of a 100-event capture for the same reason.
 */
const FIRST_LOADS_EVENTS = [100, 300, 500];

/** Chrome JSON loads of the warm-up, before the native ones. */
const CHROME_LOADS = WARM_UP_LOADS / 2;

/**
 * The `k`-th warm-up load: Chrome JSON first (of how many events), then native captures (the first
 * one small). Chrome first: in the page, a Chrome load after a half-done warm-up that took both
 * formats in turn was no faster than a cold one, after 30 Chrome loads it was (docs/performance.md).
 */
export function warmUpLoad(k: number, events: number): { format: 'chrome'; events: number } | { format: 'native'; small: boolean } {
  if (k >= CHROME_LOADS) return { format: 'native', small: k === CHROME_LOADS };
  return { format: 'chrome', events: Math.min(events, FIRST_LOADS_EVENTS[k] ?? events) };
}

/** Lets queued messages (a file to load) run before the next warm-up load. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Loads the warm-up captures up to `loads` times (Chrome JSON, then native: `warmUpLoad`; `split`:
 * half the Chrome ones through the split load's two sides),
 * stopping as soon as `stop()` says a real load came; returns how many loads ran. Failures end the
 * warm-up silently: it is only ever a head start.
 */
export async function warmUp(stop: () => boolean, loads = WARM_UP_LOADS, events = WARM_UP_EVENTS, split = false): Promise<number> {
  const chrome = new Map<number, Uint8Array>();
  const native = new Map<boolean, Uint8Array>();
  let done = 0;
  try {
    while (done < loads && !stop()) {
      const load = warmUpLoad(done, events);
      if (load.format === 'chrome') {
        let sample = chrome.get(load.events);
        if (!sample) chrome.set(load.events, (sample = chromeWarmUpSample(load.events)));
        // Where files may load split, every other Chrome load (after the first, short ones) takes
        // its two sides joined in this thread: either spare may become a parse or a build side.
        if (split && done >= FIRST_LOADS_EVENTS.length && done % 2 === 1) await loadModelThroughChromeSplit(memorySource('warm-up.json', sample));
        else await loadModel(memorySource('warm-up.json', sample));
      } else {
        let sample = native.get(load.small);
        if (!sample) native.set(load.small, (sample = nativeWarmUpSample(load.small)));
        await loadModel(memorySource('warm-up.nvtxc', sample));
      }
      done++;
      await nextTask();
    }
  } catch {
    // A head start only: the real load reports whatever is wrong.
  }
  return done;
}
