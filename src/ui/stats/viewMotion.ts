/**
 * Whether the timeline's view is moving (pan, zoom, a fit after a load), for the statistics
 * service: a computation in the statistics worker takes a core for up to seconds at 10M events, and
 * on a 2-core machine the frames of someone panning then wait for one (docs/performance.md,
 * "Statistics while the view moves"). The service starts its next worker computation once the view has
 * been still for `stillMs`, or after `maxWaitMs` whatever the view does, so a table always comes.
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
    for (;;) {
      const t = this.now();
      const stillAt = this.lastMoveAt + this.stillMs;
      if (t >= stillAt || t >= giveUpAt) return;
      await this.sleep(Math.min(stillAt, giveUpAt) - t);
    }
  }

  /**
   * Resolves once the view has not moved for `quietMs`, counted from this call at the earliest; no
   * upper bound (for work that nothing waits on, such as warming a spare load worker).
   */
  async whenQuietFor(quietMs: number): Promise<void> {
    const from = this.now();
    for (;;) {
      const t = this.now();
      const quietAt = Math.max(from, this.lastMoveAt) + quietMs;
      if (t >= quietAt) return;
      await this.sleep(quietAt - t);
    }
  }

  dispose(): void {
    this.unsubscribe();
  }
}
