/**
 * The timeline's canvases rastered in a worker: both (static and overlay) are handed over to it
 * (`transferControlToOffscreen`), each frame is recorded on the main thread (`DrawRecorder`) and
 * replayed there, so the canvas calls, their raster and the canvases' hand-over to the compositor
 * leave the main thread. Opt-in (`?raster=worker`): see docs/performance.md, "Main-thread CPU per
 * frame at 10M: the static canvas rastered in a worker".
 */
import type { RecordedDraw } from './drawRecorder.ts';
import type { RasterReply, RasterRequest } from './raster.protocol.ts';

/** `?raster=worker` in the page's URL asks for the worker; anything else draws on the main thread. */
export function rasterInWorkerFromQuery(search: string): boolean {
  return new URLSearchParams(search).get('raster') === 'worker';
}

/** True when this browser can hand a canvas to a worker. */
export function canRasterInWorker(canvas: HTMLCanvasElement): boolean {
  return typeof Worker === 'function' && typeof OffscreenCanvas === 'function' && typeof canvas.transferControlToOffscreen === 'function';
}

/** A canvas can be handed over once: the client of each handed-over static canvas, for a controller made again on it (React's StrictMode mounts twice). */
const clients = new WeakMap<HTMLCanvasElement, RasterClient>();

export class RasterClient {
  /** The client of `canvas`, handing it over to a new worker the first time. */
  static attach(
    canvas: HTMLCanvasElement,
    overlay: HTMLCanvasElement,
    callbacks: {
      recycle: (ops: Float64Array<ArrayBuffer> | null, overlayOps: Float64Array<ArrayBuffer> | null) => void;
      onFailure: (message: string) => void;
      onRestored: () => void;
    },
  ): RasterClient {
    let client = clients.get(canvas);
    if (!client) clients.set(canvas, (client = new RasterClient(canvas, overlay)));
    client.recycle = callbacks.recycle;
    client.onFailure = callbacks.onFailure;
    client.onRestored = callbacks.onRestored;
    return client;
  }

  private readonly worker: Worker;
  private recycle: (ops: Float64Array<ArrayBuffer> | null, overlayOps: Float64Array<ArrayBuffer> | null) => void = () => {};
  private onFailure: (message: string) => void = () => {};
  private onRestored: () => void = () => {};
  private nextId = 1;
  private lastDrawn = 0;
  private readonly drawnWaiters: { id: number; resolve: () => void }[] = [];
  private readonly pixelWaiters = new Map<number, (p: { width: number; height: number; data: Uint8ClampedArray }) => void>();
  private width = 0;
  private height = 0;

  private constructor(canvas: HTMLCanvasElement, overlay: HTMLCanvasElement) {
    this.worker = new Worker(new URL('./raster.worker.ts', import.meta.url), { type: 'module', name: 'nvtxview-raster' });
    this.worker.onmessage = (e: MessageEvent<RasterReply>) => this.onReply(e.data);
    this.worker.onerror = (e) => this.onFailure(`raster worker: ${e.message}`);
    const offscreen = canvas.transferControlToOffscreen();
    const overlayOffscreen = overlay.transferControlToOffscreen();
    this.post({ kind: 'init', canvas: offscreen, overlay: overlayOffscreen }, [offscreen, overlayOffscreen]);
  }

  /** Sizes both canvases (device pixels); a new size clears them. */
  resize(width: number, height: number): void {
    if (width === this.width && height === this.height) return;
    this.width = width;
    this.height = height;
    this.post({ kind: 'size', width, height });
  }

  /** Sends a frame's recordings, either may be null (their buffers are transferred); returns its id. */
  draw(draw: RecordedDraw | null, overlay: RecordedDraw | null): number {
    const id = this.nextId++;
    this.post({ kind: 'draw', id, draw, overlay }, [draw, overlay].flatMap((d) => (d ? [d.ops.buffer] : [])));
    return id;
  }

  /** Resolves once every frame sent so far has been replayed. */
  whenReplayed(): Promise<void> {
    const id = this.nextId - 1;
    if (id <= this.lastDrawn) return Promise.resolve();
    return new Promise((resolve) => this.drawnWaiters.push({ id, resolve }));
  }

  /** The canvas's pixels after the frames sent so far (RGBA, device pixels). */
  pixels(): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pixelWaiters.set(id, resolve);
      this.post({ kind: 'pixels', id });
    });
  }

  /** Stops waiting; the worker stays with its canvas, which cannot be taken back. */
  detach(): void {
    this.recycle = () => {};
    this.onFailure = () => {};
    this.onRestored = () => {};
    for (const w of this.drawnWaiters.splice(0)) w.resolve();
  }

  private post(message: RasterRequest, transfer: Transferable[] = []): void {
    this.worker.postMessage(message, transfer);
  }

  private onReply(m: RasterReply): void {
    if (m.kind === 'drawn') {
      this.lastDrawn = Math.max(this.lastDrawn, m.id);
      this.recycle(m.ops, m.overlayOps);
      for (let i = this.drawnWaiters.length - 1; i >= 0; i--) {
        if (this.drawnWaiters[i].id <= this.lastDrawn) this.drawnWaiters.splice(i, 1)[0].resolve();
      }
    } else if (m.kind === 'pixels') {
      // Replies come in order: every draw sent before this request has been replayed.
      this.lastDrawn = Math.max(this.lastDrawn, m.id);
      this.pixelWaiters.get(m.id)?.(m);
      this.pixelWaiters.delete(m.id);
    } else if (m.kind === 'restored') {
      this.onRestored();
    } else {
      this.onFailure(m.message);
    }
  }
}
