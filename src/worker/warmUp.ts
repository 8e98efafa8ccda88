/**
 * JIT warm-up of a spare load worker while the page is idle: a fresh worker runs its first load's
 * hot loops unoptimised for a good part of the file (a 1M-event Chrome trace cost about a quarter
 * more CPU as a worker's first load than as a later one: docs/performance.md). Loading a small
 * built-in trace a few dozen times through the ordinary path lets V8 optimise that code first.
 *
 * The drop wins: each warm-up load is short, and between two the worker returns to its message
 * loop, so a file that arrives stops the warm-up after at most one of them.
 */
import { chromeWarmUpSample } from '../import/chrome/warmUpSample.ts';
import { loadModel, memorySource } from '../import/pipeline.ts';

/** Events of the warm-up trace (about 150 kB): one load takes a few ms once optimised, tens of ms cold. */
export const WARM_UP_EVENTS = 1000;
/** Warm-up loads at most: enough for V8 to optimise the decoder's and builder's hot functions (docs/performance.md). */
export const WARM_UP_LOADS = 30;
/**
 * Events of the first loads: the first runs everything unoptimised (and compiles it), so it is kept
 * short: a file that comes then waits for a few ms, not for a thousand cold events.
 */
const FIRST_LOADS_EVENTS = [100, 300, 500];

/** Lets queued messages (a file to load) run before the next warm-up load. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Loads the warm-up trace up to `loads` times, stopping as soon as `stop()` says a real load came;
 * returns how many loads ran. Failures end the warm-up silently: it is only ever a head start.
 */
export async function warmUp(stop: () => boolean, loads = WARM_UP_LOADS, events = WARM_UP_EVENTS): Promise<number> {
  const samples = new Map<number, Uint8Array>();
  let done = 0;
  try {
    while (done < loads && !stop()) {
      const n = Math.min(events, FIRST_LOADS_EVENTS[done] ?? events);
      let sample = samples.get(n);
      if (!sample) samples.set(n, (sample = chromeWarmUpSample(n)));
      await loadModel(memorySource('warm-up.json', sample));
      done++;
      await nextTask();
    }
  } catch {
    // A head start only: the real load reports whatever is wrong.
  }
  return done;
}
