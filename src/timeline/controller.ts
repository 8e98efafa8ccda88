/**
 * The imperative side of the timeline: owns the two canvases, the frame scheduler, the store
 * subscription (pan and zoom never re-render React), size and theme tracking, and input. React
 * only mounts the elements and hands over the track layout.
 */
import { trackOfMark, trackOfRange } from '../model/query.ts';
import { modelsDrawn } from '../state/modelsDrawn.ts';
import { captureExtent, type ViewerState, type ViewerStore } from '../state/viewerStore.ts';
import { drawStaticSlice, hitTestFrame, locateRange, RULER_HEIGHT_CSS, type Frame } from './frame.ts';
import { attachInput, captureToShift, type DragMode } from './input.ts';
import { HeldKeys } from './keyboard.ts';
import type { MenuTarget } from './menu/menuItems.ts';
import { viewAround, viewLimits, type ViewLimits } from './navigation.ts';
import { buildHighlightIndex, type HighlightIndex } from './renderers/highlight.ts';
import { drawOverlay, overlayIsBlank, type OverlayState } from './renderers/overlay.ts';
import { RectStrips, type StripCanvas } from './renderers/rectStrips.ts';
import { DrawRecorder } from './raster/drawRecorder.ts';
import { canRasterInWorker, RasterClient } from './raster/raster.client.ts';
import { collapsedAbove, revealWindow, scrollToShow } from './reveal.ts';
import type { Hit } from './renderers/trackRenderer.ts';
import { FrameScheduler, type FrameLayers } from './scheduler.ts';
import { TextMeasurer } from './text.ts';
import { readTheme, type Theme } from './theme.ts';
import { TimeScale } from './timeScale.ts';
import { renderTooltip, tooltipContent } from './tooltip.ts';
import type { TrackLayout } from './trackLayout.ts';
import { cssToDevice, type CssPx } from './units.ts';

export interface TimelineElements {
  /** The whole timeline: theme properties are read from it, the tooltip is placed in it. */
  root: HTMLElement;
  /** Gives the canvases their CSS size. */
  canvasHost: HTMLElement;
  staticCanvas: HTMLCanvasElement;
  overlayCanvas: HTMLCanvasElement;
  /** Scrolls the rows vertically (the tree scrolls natively; the canvas follows its scrollTop). */
  scroller: HTMLElement;
  tooltip: HTMLElement;
}

const TOOLTIP_OFFSET_CSS: CssPx = 14;
/** Time a frame may spend on a sliced static draw, with the style and layout work it forced. */
const STATIC_SLICE_MS = 16;

/** A canvas for the rows' box strips (`RectStrips`): offscreen where the browser has OffscreenCanvas. */
function stripCanvas(width: number, height: number): StripCanvas | null {
  const canvas = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(width, height) : Object.assign(document.createElement('canvas'), { width, height });
  return canvas as unknown as StripCanvas;
}

export class TimelineController {
  readonly keys = new HeldKeys();
  private layout: TrackLayout;
  private widthCss: CssPx = 1;
  private heightCss: CssPx = 1;
  private dpr = 1;
  private sizeDirty = true;
  /** Read at the first draw (or the first hit test before it), not when the timeline mounts. */
  private theme: Theme | null = null;
  private themeDirty = true;
  private pointer: { xCss: CssPx; yCss: CssPx } | null = null;
  private dragging: DragMode | null = null;
  private tooltipKey = '';
  private cursorShown = '';
  private frameCount = 0;
  /** Next row of a static frame drawn in slices, or -1 when none is under way. */
  private resumeRow = -1;
  /** The layout of the last static frame drawn to the end; a different one is drawn in slices. */
  private layoutDrawn: TrackLayout | null = null;
  private highlight: HighlightIndex | null = null;
  /** The overlay canvas holds nothing (cleared, nothing drawn since): a blank overlay is not redrawn. */
  private overlayBlank = false;
  /** A revealed event whose row is not on screen yet (waiting for the expanded layout). */
  private pendingReveal: { captureId: number; track: number } | null = null;
  private readonly scheduler: FrameScheduler;
  private readonly text: TextMeasurer;
  /** The canvases' contexts, or null when a worker rasters them (`raster`). */
  private readonly staticCtx: CanvasRenderingContext2D | null;
  private readonly overlayCtx: CanvasRenderingContext2D | null;
  private readonly strips: RectStrips | null;
  /** With `rasterInWorker`: the worker that owns both canvases, and what records their frames. */
  private readonly raster: RasterClient | null = null;
  private readonly recorder: DrawRecorder | null = null;
  private readonly overlayRecorder: DrawRecorder | null = null;
  private readonly cleanups: (() => void)[] = [];
  /** Called on a right-click on the canvas (the React shell shows the menu). */
  onMenu: ((target: MenuTarget, clientX: number, clientY: number) => void) | null = null;
  /** Called when a flag is clicked or dropped (the React shell shows its note editor). */
  onFlag: ((id: number, clientX: number, clientY: number) => void) | null = null;

  constructor(
    readonly store: ViewerStore,
    private readonly el: TimelineElements,
    layout: TrackLayout,
    /** Raster the static canvas in a worker (`?raster=worker`), where the browser can. */
    rasterInWorker = false,
  ) {
    this.layout = layout;
    if (rasterInWorker && canRasterInWorker(el.staticCanvas)) {
      // The frame is recorded here and replayed in the worker; text is measured here, in the same font.
      const measuring = new OffscreenCanvas(1, 1).getContext('2d')!;
      const measure = (text: string, font: string) => {
        if (measuring.font !== font) measuring.font = font;
        return measuring.measureText(text).width;
      };
      const recorder = new DrawRecorder(measure);
      const overlayRecorder = new DrawRecorder(measure);
      this.recorder = recorder;
      this.overlayRecorder = overlayRecorder;
      // Both canvases go to the worker, so that the rows and the outlines over them reach the screen together.
      this.raster = RasterClient.attach(el.staticCanvas, el.overlayCanvas, {
        recycle: (ops, overlayOps) => {
          if (ops) recorder.recycle(ops);
          if (overlayOps) overlayRecorder.recycle(overlayOps);
        },
        onFailure: (message) => console.error(message),
        // As for a canvas of the page (below): a blank canvas given back is drawn again, in full.
        onRestored: () => {
          this.layoutDrawn = null;
          this.scheduler.request('static');
        },
      });
      this.staticCtx = null;
      this.overlayCtx = null;
      this.strips = null;
      this.text = new TextMeasurer((s) => measure(s, this.currentTheme().labelFont));
    } else {
      const staticCtx = el.staticCanvas.getContext('2d', { alpha: false })!;
      this.staticCtx = staticCtx;
      this.overlayCtx = el.overlayCanvas.getContext('2d')!;
      this.text = new TextMeasurer((s) => staticCtx.measureText(s).width);
      this.strips = new RectStrips(staticCtx, stripCanvas);
    }
    // No theme read here: computed styles read while React mounts the page force a style pass over
    // everything it just added (~55 ms, traced, when a 10M capture's page appears). The first
    // frame reads it, once style is due anyway.
    this.scheduler = new FrameScheduler({
      animate: (now) => this.animate(now),
      draw: (layers) => this.draw(layers),
    });

    this.cleanups.push(
      store.subscribe((s, prev) => {
        if (s.viewStartNs !== prev.viewStartNs || s.viewEndNs !== prev.viewEndNs) this.scheduler.request('static');
        else if (s.selection !== prev.selection || s.span !== prev.span || s.flags !== prev.flags) this.scheduler.request('overlay');
        if (s.theme !== prev.theme) this.invalidateTheme();
        if (s.highlight !== prev.highlight || s.captures !== prev.captures) this.updateHighlight(s.highlight);
        if (s.reveal !== prev.reveal && s.reveal) this.reveal(s.reveal);
      }),
    );

    const resize = new ResizeObserver(() => this.invalidateSize());
    resize.observe(el.canvasHost);
    this.cleanups.push(() => resize.disconnect());
    this.watchDevicePixelRatio();

    // The app switches themes through <html data-theme>; the system preference matters under 'system'.
    const themeObserver = new MutationObserver(() => this.invalidateTheme());
    themeObserver.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class', 'style'] });
    this.cleanups.push(() => themeObserver.disconnect());
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const onScheme = () => this.invalidateTheme();
    media.addEventListener('change', onScheme);
    this.cleanups.push(() => media.removeEventListener('change', onScheme));

    // Chromium may drop a 2D canvas's backing store (GPU memory reclaimed, GPU process reset,
    // a tab in the background) and give it back blank with a 'contextrestored' event: redraw
    // then, or the rows stay blank until the next pan. A layout drawn before counts as new again.
    const onRestored = () => {
      this.layoutDrawn = null;
      this.scheduler.request('static');
    };
    for (const canvas of [el.staticCanvas, el.overlayCanvas]) {
      canvas.addEventListener('contextrestored', onRestored);
      this.cleanups.push(() => canvas.removeEventListener('contextrestored', onRestored));
    }
    // Coming back to a hidden tab is when a dropped backing store shows: draw once more.
    const onVisible = () => {
      if (document.visibilityState === 'visible') this.scheduler.request('static');
    };
    document.addEventListener('visibilitychange', onVisible);
    this.cleanups.push(() => document.removeEventListener('visibilitychange', onVisible));

    const onScroll = () => this.scheduler.request('static');
    el.scroller.addEventListener('scroll', onScroll, { passive: true });
    this.cleanups.push(() => el.scroller.removeEventListener('scroll', onScroll));

    this.cleanups.push(
      attachInput(el.overlayCanvas, {
        store,
        frame: () => this.currentFrame(),
        limits: () => this.limits(),
        setPointer: (p) => {
          this.pointer = p;
          this.scheduler.request('overlay');
        },
        setDragging: (mode) => {
          this.dragging = mode;
          this.scheduler.request('overlay');
        },
        keys: this.keys,
        startKeyAnimation: () => this.scheduler.startAnimation(),
        scroller: el.scroller,
        openMenu: (target, x, y) => this.onMenu?.(target, x, y),
        openFlag: (id, x, y) => this.onFlag?.(id, x, y),
        pointer: () => this.pointer,
        canvasRect: () => el.overlayCanvas.getBoundingClientRect(),
      }),
    );
    this.updateHighlight(store.getState().highlight);
    this.scheduler.request('static');
  }

  setLayout(layout: TrackLayout): void {
    if (layout === this.layout) return;
    this.layout = layout;
    this.scheduler.request('static');
    this.scrollToPendingReveal();
  }

  private updateHighlight(highlight: ViewerState['highlight']): void {
    if (!highlight && !this.highlight) return;
    const capture = highlight && this.store.getState().captures.find((c) => c.id === highlight.capture);
    this.highlight = capture ? buildHighlightIndex(capture.id, capture.model, capture.offsetNs, highlight.ranges) : null;
    this.scheduler.request('overlay');
  }

  /** Zooms to the event with context, expands the tree nodes hiding its row, then scrolls to the row. */
  private reveal(target: NonNullable<ViewerState['reveal']>): void {
    const s = this.store.getState();
    const capture = s.captures.find((c) => c.id === target.capture);
    if (!capture) return;
    const model = capture.model;
    const count = target.kind === 'range' ? model.ranges.startNs.length : model.marks.timeNs.length;
    if (target.index < 0 || target.index >= count) return;
    const track = target.kind === 'range' ? trackOfRange(model, target.index) : trackOfMark(model, target.index);
    const startNs = (target.kind === 'range' ? model.ranges.startNs : model.marks.timeNs)[target.index] + capture.offsetNs;
    const endNs = target.kind === 'range' ? model.ranges.endNs[target.index] + capture.offsetNs : startNs;
    const view = revealWindow(startNs, endNs, { startNs: s.viewStartNs, endNs: s.viewEndNs }, this.limits());
    s.setView(view.startNs, view.endNs);
    if (track < 0) return;
    this.pendingReveal = { captureId: capture.id, track };
    for (const key of collapsedAbove(capture, s.collapsed, track)) s.toggleCollapsed(key);
    this.scrollToPendingReveal();
  }

  private scrollToPendingReveal(): void {
    const pending = this.pendingReveal;
    if (!pending) return;
    const r = this.layout.rowOfTrack(pending.captureId, pending.track);
    // Still hidden: the expanded layout is on its way.
    if (r < 0) return;
    this.pendingReveal = null;
    const row = this.layout.rows[r];
    const scroller = this.el.scroller;
    // A pinned row is always in view; the others must clear the pinned band at the top.
    if (row.pinned) return;
    const band = this.layout.pinnedHeightCss;
    const top = scrollToShow(row.yCss - band, row.heightCss, scroller.scrollTop, scroller.clientHeight - band);
    if (top !== scroller.scrollTop) scroller.scrollTop = top;
  }

  destroy(): void {
    this.scheduler.destroy();
    this.raster?.detach();
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }

  /** Shows [startNs, endNs] (shared axis) with a margin, inside the zoom limits. */
  zoomTo(startNs: number, endNs: number): void {
    const view = viewAround(startNs, endNs, this.limits());
    this.store.getState().setView(view.startNs, view.endNs);
  }

  /** Resolves once the current state has been drawn (and, with the worker, replayed on the canvas). */
  async whenDrawn(): Promise<void> {
    await this.scheduler.whenDrawn();
    await this.raster?.whenReplayed();
  }

  /** The static canvas's pixels (RGBA, device pixels), for tests and benchmarks. */
  async staticPixels(): Promise<Uint8ClampedArray> {
    await this.whenDrawn();
    if (this.raster) return (await this.raster.pixels()).data;
    const canvas = this.el.staticCanvas;
    return this.staticCtx!.getImageData(0, 0, canvas.width, canvas.height).data;
  }

  /** Client (viewport) CSS px of the centre of a range's visible box, or null if it is not drawn as its own box. */
  hitTestRange(captureId: number, rangeIndex: number): { x: number; y: number } | null {
    const frame = this.currentFrame();
    const box = locateRange(frame, captureId, rangeIndex);
    if (!box) return null;
    const x0 = Math.max(box.x0, 0);
    const x1 = Math.min(box.x1, frame.widthCss);
    const y = box.y + box.h / 2;
    if (x1 - x0 < 1 || y < (box.clipTopCss ?? RULER_HEIGHT_CSS) || y > frame.heightCss) return null;
    const x = (x0 + x1) / 2;
    // Only where a click would select this very range (not a deeper one folded over it).
    const hit = hitTestFrame(frame, x, y);
    if (!hit || hit === 'ruler' || hit.kind !== 'range' || hit.index !== rangeIndex || hit.row.captureId !== captureId) return null;
    const rect = this.el.overlayCanvas.getBoundingClientRect();
    return { x: rect.left + x, y: rect.top + y };
  }

  /** The frame the current state gives (what the next draw will show). */
  currentFrame(): Frame {
    const s = this.store.getState();
    return {
      layout: this.layout,
      scale: new TimeScale(s.viewStartNs, s.viewEndNs, this.widthCss),
      scrollTopCss: this.el.scroller.scrollTop,
      widthCss: this.widthCss,
      heightCss: this.heightCss,
      theme: this.currentTheme(),
      dpr: this.dpr,
      strips: this.strips,
    };
  }

  private limits(): ViewLimits {
    return viewLimits(captureExtent([...this.layout.captures]), this.widthCss);
  }

  private currentTheme(): Theme {
    return (this.theme ??= readTheme(this.el.root));
  }

  private invalidateSize(): void {
    this.sizeDirty = true;
    this.scheduler.request('static');
  }

  private invalidateTheme(): void {
    this.themeDirty = true;
    this.scheduler.request('static');
  }

  private watchDevicePixelRatio(): void {
    // A media query on the current ratio fires once when it changes (window moved to another screen, zoom).
    let media: MediaQueryList | null = null;
    const listen = () => {
      media?.removeEventListener('change', onChange);
      media = window.matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`);
      media.addEventListener('change', onChange);
    };
    const onChange = () => {
      this.invalidateSize();
      listen();
    };
    listen();
    this.cleanups.push(() => media?.removeEventListener('change', onChange));
  }

  private applySize(): void {
    const rect = this.el.canvasHost.getBoundingClientRect();
    this.widthCss = Math.max(1, rect.width);
    this.heightCss = Math.max(1, rect.height);
    this.dpr = window.devicePixelRatio || 1;
    const w = cssToDevice(this.widthCss, this.dpr);
    const h = cssToDevice(this.heightCss, this.dpr);
    // Canvases handed to the worker are sized there.
    this.raster?.resize(w, h);
    for (const canvas of this.raster ? [] : [this.el.staticCanvas, this.el.overlayCanvas]) {
      if (canvas.width !== w) canvas.width = w;
      if (canvas.height !== h) canvas.height = h;
    }
    // A resized canvas is cleared and its context state reset: the overlay is drawn again.
    this.overlayBlank = false;
    this.sizeDirty = false;
  }

  private animate(nowMs: number): boolean {
    if (!this.keys.active) return false;
    const s = this.store.getState();
    const view = { startNs: s.viewStartNs, endNs: s.viewEndNs };
    const scale = new TimeScale(view.startNs, view.endNs, this.widthCss);
    const anchor = this.pointer ? scale.toNs(this.pointer.xCss) : (view.startNs + view.endNs) / 2;
    const next = this.keys.step(view, nowMs, anchor, this.limits());
    if (next.startNs !== view.startNs || next.endNs !== view.endNs) s.setView(next.startNs, next.endNs);
    return this.keys.active;
  }

  private draw(layers: FrameLayers): void {
    const startMs = performance.now();
    let drawStatic = layers.static;
    let staticDrawn = false;
    if (this.themeDirty) {
      this.theme = readTheme(this.el.root);
      this.themeDirty = false;
      drawStatic = true;
    }
    if (this.sizeDirty) {
      this.applySize();
      drawStatic = true;
    }
    const frame = this.currentFrame();
    if (drawStatic || this.resumeRow >= 0) {
      // A layout not drawn yet (new or replaced captures, rows expanded or filtered) is drawn in
      // slices of about a frame: its first draw runs cold code over every visible row (up to
      // ~100 ms in one frame when a 10M capture appeared) together with the page's own style and
      // layout work (counted: they are forced by the reads above). View changes draw whole frames.
      const sliced = this.layout !== this.layoutDrawn;
      const from = drawStatic ? null : this.resumeRow;
      this.resumeRow = drawStaticSlice(this.recorder ?? this.staticCtx!, frame, this.text, from, sliced ? startMs + STATIC_SLICE_MS : Infinity);
      staticDrawn = true;
      if (this.resumeRow >= 0) {
        // The next frame goes on where this one stopped (a frame is what a request buys).
        this.scheduler.request('overlay');
      } else {
        if (this.layoutDrawn !== this.layout) modelsDrawn(this.layout.captures.map((c) => c.model));
        this.layoutDrawn = this.layout;
        this.frameCount++;
        document.body.dataset.timelineFrame = String(this.frameCount);
      }
    }
    const s = this.store.getState();
    let hover: Hit | null = null;
    if (this.pointer && this.dragging === null) {
      const hit = hitTestFrame(frame, this.pointer.xCss, this.pointer.yCss);
      hover = hit === 'ruler' ? null : hit;
    }
    const overlay: OverlayState = { pointer: this.pointer, hover, selection: s.selection, span: s.span, highlight: this.highlight, flags: s.flags };
    const blank = overlayIsBlank(overlay);
    const overlayDrawn = !blank || !this.overlayBlank;
    if (overlayDrawn) drawOverlay(this.overlayRecorder ?? this.overlayCtx!, frame, overlay);
    this.overlayBlank = blank;
    // One message per frame: the worker replays both canvases in one task.
    if (this.raster && (staticDrawn || overlayDrawn)) {
      this.raster.draw(staticDrawn ? this.recorder!.take() : null, overlayDrawn ? this.overlayRecorder!.take() : null);
    }
    this.updateTooltip(hover);
    // Written only when it changes: an inline style write, even of the same value, is style work in the next frame.
    const cursor = this.cursor(frame, hover);
    if (cursor !== this.cursorShown) {
      this.el.overlayCanvas.style.cursor = cursor;
      this.cursorShown = cursor;
    }
  }

  private cursor(frame: Frame, hover: Hit | null): string {
    if (this.dragging === 'pan') return 'grabbing';
    if (this.dragging === 'shift') return 'ew-resize';
    if (!this.pointer) return 'default';
    if (this.pointer.yCss < RULER_HEIGHT_CSS) return 'col-resize';
    if (hover) return 'pointer';
    return captureToShift(frame, this.pointer.yCss) ? 'ew-resize' : 'default';
  }

  private updateTooltip(hover: Hit | null): void {
    const tip = this.el.tooltip;
    if (!hover || !this.pointer) {
      if (!tip.hidden) tip.hidden = true;
      this.tooltipKey = '';
      return;
    }
    const content = tooltipContent(hover, this.currentTheme().dark);
    if (content.key !== this.tooltipKey) {
      renderTooltip(tip, content);
      this.tooltipKey = content.key;
    }
    tip.hidden = false;
    // Place it beside the pointer, flipped to stay inside the timeline.
    const root = this.el.root.getBoundingClientRect();
    const host = this.el.canvasHost.getBoundingClientRect();
    const px = host.left - root.left + this.pointer.xCss;
    const py = host.top - root.top + this.pointer.yCss;
    const w = tip.offsetWidth;
    const h = tip.offsetHeight;
    let left = px + TOOLTIP_OFFSET_CSS;
    let top = py + TOOLTIP_OFFSET_CSS;
    if (left + w > root.width - 4) left = Math.max(4, px - TOOLTIP_OFFSET_CSS - w);
    if (top + h > root.height - 4) top = Math.max(4, py - TOOLTIP_OFFSET_CSS - h);
    tip.style.transform = `translate(${Math.round(left)}px, ${Math.round(top)}px)`;
  }
}
