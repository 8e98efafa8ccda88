/** Messages between the page and a load worker (one worker per file). */
import type { Model } from '../model/types.ts';
import type { DecodeOptions } from '../import/importer.ts';

export type ToWorker = {
  type: 'load';
  /** The file to decode: a File/Blob (read in slices) or bytes (postMessage embedding, URLs). */
  file: Blob;
  name: string;
  options: DecodeOptions;
} | {
  /** Fetch a capture (CORS) and decode it while it downloads. */
  type: 'load-url';
  /** Absolute URL: the worker resolves relative URLs against its own script, not the page. */
  url: string;
  name: string;
  options: DecodeOptions;
} | {
  /**
   * The page has taken the partial model in and is idle: decode the whole file now. Until then
   * (or `RESUME_AFTER_MS`) the worker leaves the page's first frames of the new capture a core.
   */
  type: 'resume';
};

/** The longest the worker waits for 'resume' after a partial model. */
export const RESUME_AFTER_MS = 1000;

export type FromWorker =
  | { type: 'progress'; bytesDone: number; bytesTotal: number }
  /**
   * A slice of the next model's string table (stringSlices.ts). A model whose strings came in
   * slices is posted with `strings: []`; the slices, in order, are its strings.
   */
  | { type: 'strings'; strings: string[] }
  /** A model of the file's first `bytesDone` bytes, shown while the whole file decodes (preview.ts). */
  | { type: 'partial'; model: Model; bytesDone: number }
  | { type: 'done'; model: Model; decodeMs: number }
  | { type: 'failed'; message: string };
