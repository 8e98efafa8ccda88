/**
 * The one requestAnimationFrame loop of a timeline. Any number of redraw requests between two
 * frames collapse into one frame; each frame first advances running animations (which may change
 * the view and so request more drawing for this same frame), then draws the layers asked for.
 */

export interface FrameLayers {
  /** Rows, ruler, grid: redrawn when data, view, scroll, size or theme change. */
  static: boolean;
  /** Hover, selection, span, cursor: redrawn on pointer moves and selection changes. */
  overlay: boolean;
}

export interface FrameCallbacks {
  /** Advances animations to `nowMs`; returns true while one still runs (another frame follows). */
  animate(nowMs: number): boolean;
  draw(layers: FrameLayers, nowMs: number): void;
}

export class FrameScheduler {
  private handle = 0;
  private staticDirty = false;
  private overlayDirty = false;
  private animating = false;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly callbacks: FrameCallbacks,
    private readonly raf: (cb: FrameRequestCallback) => number = (cb) => requestAnimationFrame(cb),
    private readonly caf: (handle: number) => void = (h) => cancelAnimationFrame(h),
  ) {}

  /** Asks for a layer to be redrawn on the next frame (the static layer implies the overlay). */
  request(layer: keyof FrameLayers): void {
    if (layer === 'static') this.staticDirty = true;
    this.overlayDirty = true;
    this.schedule();
  }

  /** Runs `animate` on every frame until it returns false. */
  startAnimation(): void {
    this.animating = true;
    this.schedule();
  }

  /** True while a frame is scheduled. */
  get pending(): boolean {
    return this.handle !== 0;
  }

  /** Resolves after the next frame has drawn, or now when nothing is scheduled. */
  whenDrawn(): Promise<void> {
    if (!this.pending) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  destroy(): void {
    if (this.handle) this.caf(this.handle);
    this.handle = 0;
    this.animating = false;
    this.flushWaiters();
  }

  private schedule(): void {
    if (this.handle === 0) this.handle = this.raf((now) => this.frame(now));
  }

  private frame(nowMs: number): void {
    this.handle = 0;
    if (this.animating) this.animating = this.callbacks.animate(nowMs);
    const layers: FrameLayers = { static: this.staticDirty, overlay: this.overlayDirty };
    this.staticDirty = false;
    this.overlayDirty = false;
    if (layers.static || layers.overlay) this.callbacks.draw(layers, nowMs);
    if (this.animating) this.schedule();
    if (!this.pending) this.flushWaiters();
  }

  private flushWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
