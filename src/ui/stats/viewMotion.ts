/**
 * Whether the timeline's view is moving (pan, zoom, a fit after a load), for work that would take
 * the core a panning user's frames wait for on a 2-core machine (docs/performance.md, "Statistics
 * while the view moves", "Frame time at 10M: what else runs during a pan"). The statistics service
 * starts its next worker computation once the view has been still for `stillMs`, or after
 * `maxWaitMs` whatever the view does, so a table always comes (`whenStill`); the load client warms
 * its spare workers after a load once the view has been quiet a while (`whenQuietFor`).
 */
import type { ViewerStore } from '../../state/viewerStore.ts';

/** What the statistics service waits on before it starts a computation in the worker. */
export interface MotionGate {
  /** Resolves once the view is still (at once when it is). */
  whenStill(): Promise<void>;
}

/** Still this long after the last view change: a wheel or drag gesture's events come every frame or so. */
export const STILL_MS = 250;
/** The longest a computation waits for the view to be still: a table comes within seconds even while the view never stops. */
export const MAX_WAIT_MS = 5000;

export class ViewMotion implements MotionGate {
  private lastMoveAt = -Infinity;
  private readonly unsubscribe: () => void;

  constructor(
    store: ViewerStore,
    private readonly stillMs = STILL_MS,
    private readonly maxWaitMs = MAX_WAIT_MS,
    private readonly now: () => number = () => performance.now(),
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.unsubscribe = store.subscribe((state, previous) => {
      if (state.viewStartNs !== previous.viewStartNs || state.viewEndNs !== previous.viewEndNs) this.lastMoveAt = this.now();
    });
  }

  async whenStill(): Promise<void> {
    const giveUpAt = this.now() + this.maxWaitMs;
    return this.until(() => Math.min(this.lastMoveAt + this.stillMs, giveUpAt));
  }

  /**
   * Resolves once the view has not moved for `quietMs`, counted from this call at the earliest; no
   * upper bound (for work that nothing waits on, such as warming a spare load worker).
   */
  async whenQuietFor(quietMs: number): Promise<void> {
    const from = this.now();
    return this.until(() => Math.max(from, this.lastMoveAt) + quietMs);
  }

  /** Sleeps until the time `at()` gives, asked again after each sleep (a move pushes it later). */
  private async until(at: () => number): Promise<void> {
    for (;;) {
      const t = this.now();
      const due = at();
      if (t >= due) return;
      await this.sleep(due - t);
    }
  }

  dispose(): void {
    this.unsubscribe();
  }
}
