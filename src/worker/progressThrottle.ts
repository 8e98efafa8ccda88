/**
 * The load worker's 'progress' posts, thinned: each one costs the page a render of its load strip
 * and a frame (about 3.5 ms of main-thread CPU plus the compositor's), CPU that a big load's decode
 * waits for on a 2-core machine. At 50 ms apart that was ~250 ms of the page's main thread over
 * the 10M native load (docs/performance.md, "What the page adds to the whole 10M native load").
 */

/**
 * The least time between two posts: two and a half a second still moves the bar. At 200 ms the
 * posts were about a sixth of the page's main-thread CPU during the 10M native load on a busy host
 * (docs/performance.md, "What else takes CPU while the 10M native capture loads").
 */
export const PROGRESS_INTERVAL_MS = 400;

/**
 * An `onProgress` that passes a report on to `post` when `intervalMs` has passed since the last one
 * it passed, and always the first and the last (all bytes done).
 */
export function throttledProgress(
  post: (bytesDone: number, bytesTotal: number) => void,
  now: () => number = () => performance.now(),
  intervalMs = PROGRESS_INTERVAL_MS,
): (bytesDone: number, bytesTotal: number) => void {
  let last = -Infinity;
  return (bytesDone, bytesTotal) => {
    const t = now();
    if (t - last < intervalMs && bytesDone !== bytesTotal) return;
    last = t;
    post(bytesDone, bytesTotal);
  };
}
