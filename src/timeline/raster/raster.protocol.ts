/** Messages between the timeline and the worker that rasters its static canvas (`raster.worker.ts`). */
import type { RecordedDraw } from './drawRecorder.ts';

export type RasterRequest =
  /** The static and overlay canvases, handed over once (transferControlToOffscreen). */
  | { kind: 'init'; canvas: OffscreenCanvas; overlay: OffscreenCanvas }
  /** Both canvases' backing-store size in device pixels (a resize clears them and resets their state). */
  | { kind: 'size'; width: number; height: number }
  /**
   * A frame's calls to replay: the static canvas's (a whole frame or a slice) and the overlay's, each
   * when drawn; replayed in one task, so that both canvases reach the screen together. `id` comes back in 'drawn'.
   */
  | { kind: 'draw'; id: number; draw: RecordedDraw | null; overlay: RecordedDraw | null }
  /** The canvas's pixels, for tests and benchmarks. */
  | { kind: 'pixels'; id: number };

export type RasterReply =
  /** The draw `id` was replayed; its buffers are handed back for the next recordings. */
  | { kind: 'drawn'; id: number; ops: Float64Array<ArrayBuffer> | null; overlayOps: Float64Array<ArrayBuffer> | null }
  | { kind: 'pixels'; id: number; width: number; height: number; data: Uint8ClampedArray<ArrayBuffer> }
  /** The browser gave the canvas back blank (its backing store was dropped): draw it again. */
  | { kind: 'restored' }
  | { kind: 'failed'; message: string };
