/** Messages between the page and a load worker (one worker per file, and one per partial model). */
import type { Model } from '../model/types.ts';
import type { DecodeOptions } from '../import/importer.ts';

export type ToWorker = {
  /** Decode the whole file and post it ('done'). */
  type: 'load';
  /** The file to decode: a File/Blob (read in slices) or bytes (postMessage embedding, URLs). */
  file: Blob;
  name: string;
  options: DecodeOptions;
  /** Where a reader worker ('read') answers this worker's reads of `file` (blobReader.ts); else it reads itself. */
  readPort?: MessagePort;
} | {
  /** To a reader worker: answer the reads that come on `port` with slices of `file` (blobReader.ts). Posts nothing to the page. */
  type: 'read';
  file: Blob;
  port: MessagePort;
} | {
  /** To a 'load' worker whose reader worker failed: read the file itself from now on. */
  type: 'read-here';
} | {
  /** Fetch a capture (CORS) and decode it while it downloads. */
  type: 'load-url';
  /** Absolute URL: the worker resolves relative URLs against its own script, not the page. */
  url: string;
  name: string;
  options: DecodeOptions;
} | {
  /**
   * Decode the first slice of a big file (preview.ts) and post it ('partial'), or say there is
   * none ('no-partial'). A second worker does this while the first decodes the whole file, so the
   * partial model costs the whole load no time on a machine with two cores or more.
   */
  type: 'preview';
  file: Blob;
  name: string;
  options: DecodeOptions;
} | {
  /**
   * To the whole-file worker: a partial model is about to reach the page; stop decoding after the
   * current slice until 'resume' (or HOLD_MAX_MS), so that the page's first frames of the new
   * capture have a core while the browser's own threads take the other (docs/performance.md).
   */
  type: 'hold';
} | {
  type: 'resume';
} | {
  /**
   * To a spare worker while the page is idle: load a small built-in trace a few times so that the
   * first real load runs optimised code (warmUp.ts). Any other message stops it.
   */
  type: 'warm';
  /** The page may load Chrome traces split (tapeRoles.ts): warm that code too. */
  split?: boolean;
} | {
  /**
   * Two-thread load, decode side: read and decode the file into tape batches posted on `port`
   * (src/worker/tapeRoles.ts). Posts nothing to the page.
   */
  type: 'tape-decode';
  file: Blob;
  name: string;
  options: DecodeOptions;
  port: MessagePort;
  plan: TwoWorkerPlan;
} | {
  /**
   * Two-thread load, build side: replay the batches that come on `port` and post the model
   * ('done'), progress and failures as 'load' does; `file` is loaded here on one thread when its
   * format is not decoded on two. 'hold'/'resume' go to this worker.
   */
  type: 'tape-build';
  file: Blob;
  name: string;
  options: DecodeOptions;
  port: MessagePort;
};

/**
 * What the decode side of a two-worker load does with the file (src/worker/tapeRoles.ts): `split`,
 * a Chrome trace is parsed there and built from the records on the other side
 * (src/import/chromeSplit.ts); `tape`, a format decoded in order goes on the builder-call tape
 * (Chrome JSON too, unless `split`). Anything else is loaded by the build side alone.
 */
export interface TwoWorkerPlan {
  split: boolean;
  tape: boolean;
}

/** How a file was loaded: one worker, or two (src/worker/tapeRoles.ts): on the builder-call tape, or a Chrome trace parsed on one and built on the other. */
export type LoadPath = 'single' | 'tape' | 'split';

/** The longest a whole-file worker stays on 'hold'. */
export const HOLD_MAX_MS = 1000;

export type FromWorker =
  | { type: 'progress'; bytesDone: number; bytesTotal: number }
  /**
   * A slice of the next model's string table (stringSlices.ts). A model whose strings came in
   * slices is posted with `strings: []`; the slices, in order, are its strings.
   */
  | { type: 'strings'; strings: string[] }
  /** A model of the file's first `bytesDone` bytes, shown while the whole file decodes (preview.ts). */
  | { type: 'partial'; model: Model; bytesDone: number }
  /** From the worker making a partial model: its slice is read and decoded; the model follows after the builder's finish. */
  | { type: 'slice-read' }
  /** From a whole-file worker on 'hold': its decode has stopped (the page shows the partial model from then on). */
  | { type: 'held' }
  /** The answer to 'preview' when the file gets no partial model (small, gzip, a format without a readable prefix, a slice that failed). */
  | { type: 'no-partial' }
  /** `path`: how the file was loaded (`LoadPath`); absent means 'single'. */
  | { type: 'done'; model: Model; decodeMs: number; path?: LoadPath }
  | { type: 'failed'; message: string };
