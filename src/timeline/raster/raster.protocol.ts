/** Messages between the timeline and the worker that rasters its static canvas (`raster.worker.ts`). */
import type { RecordedDraw } from './drawRecorder.ts';

export type RasterRequest =
  /** The static canvas, handed over once (transferControlToOffscreen). */
  | { kind: 'init'; canvas: OffscreenCanvas }
  /** The canvas's backing-store size in device pixels (a resize clears it and resets its state). */
  | { kind: 'size'; width: number; height: number }
  /** A frame's (or a slice's) calls to replay; `id` comes back in 'drawn'. */
  | { kind: 'draw'; id: number; draw: RecordedDraw }
  /** The canvas's pixels, for tests and benchmarks. */
  | { kind: 'pixels'; id: number };

export type RasterReply =
  /** The draw `id` was replayed; `ops` is its buffer, handed back for the next recording. */
  | { kind: 'drawn'; id: number; ops: Float64Array<ArrayBuffer> }
  | { kind: 'pixels'; id: number; width: number; height: number; data: Uint8ClampedArray<ArrayBuffer> }
  /** The browser gave the canvas back blank (its backing store was dropped): draw it again. */
  | { kind: 'restored' }
  | { kind: 'failed'; message: string };
