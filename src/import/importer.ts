/**
 * The contract every importer fulfils: sniff the format from the first bytes, then decode the
 * whole byte stream into a `ModelBuilder`. Importers are pure TypeScript with no DOM dependency;
 * they run in the worker, in Node (CLI, tests, benchmarks) and in the page alike.
 */
import type { ModelBuilder } from '../model/builder.ts';

/** Random access to the bytes of one input file (a Blob in the page, a file descriptor in Node). */
export interface ByteSource {
  /** File name as the user gave it (used in messages and as a last-resort format hint). */
  readonly name: string;
  /** Total size in bytes. */
  readonly size: number;
  /** Bytes [start, end), end clamped to size. */
  read(start: number, end: number): Promise<Uint8Array>;
  /**
   * The same, synchronously, where the environment allows it (memory, a File in a worker through
   * FileReaderSync, a file descriptor in Node): lets a decoder read only the parts it needs.
   */
  readSync?(start: number, end: number): Uint8Array;
}

/** Synchronous random access to an input file's bytes (see `DecodeInput.file`). */
export interface RandomAccessInput {
  readonly size: number;
  /** Bytes [start, end), end clamped to size. */
  readSync(start: number, end: number): Uint8Array;
  /** To be told how many bytes were read so far (load progress). */
  onRead?(bytesRead: number): void;
}

/** The (decompressed) content of one file as importers see it. */
export interface DecodeInput {
  readonly name: string;
  /** Size of the file on disk (compressed size for .gz): for messages only. */
  readonly size: number;
  /** The first bytes of the content (up to `HEAD_BYTES`, less for a shorter file). */
  readonly head: Uint8Array;
  /** The whole content from byte 0, in order, as chunks. Iterate once. */
  chunks(): AsyncIterable<Uint8Array>;
  /**
   * Random access to the file instead of `chunks()`, when its source allows it and it is not
   * compressed (SQLite exports are read page by page, only where their queries lead).
   */
  readonly file?: RandomAccessInput;
}

/** User-adjustable decoding options (e.g. tick rates an NVTXT file cannot tell). */
export interface DecodeOptions {
  /** NVTXT: ticks per second of the Qpc time base (default 10 MHz, Windows' usual rate). */
  qpcHz?: number;
  /** NVTXT: ticks per second of the Rdtsc time base (default 1 GHz, stated in the load report). */
  rdtscHz?: number;
  /**
   * Nsight Systems SQLite: copy the whole file into sql.js's memory, as before exports were read page
   * by page; for side-by-side benchmarks only (exports over about 2 GB do not open this way).
   */
  nsysWholeFile?: boolean;
  /**
   * The most bytes the model may hold while it is built (the worker sets it from the device's
   * memory; tests set it small). Past it decoding stops and the model of what was read so far is
   * kept, with an error in the load report naming the byte offset reached.
   */
  modelBudgetBytes?: number;
}

export interface DecodeContext {
  builder: ModelBuilder;
  options: DecodeOptions;
  /** Set when the user cancels: importers may check it in long loops (the pipeline checks per chunk). */
  signal?: AbortSignal;
}

export interface Importer {
  /** Stable id, stored in `CaptureInfo.format`. */
  readonly id: string;
  /** Human name, e.g. "NVTXT text". */
  readonly label: string;
  /** Usual file name endings, lower case, without dot (a hint only: sniffing uses bytes). */
  readonly extensions: readonly string[];
  /** True if `head` (the first bytes of the content) looks like this format. */
  sniff(head: Uint8Array): boolean;
  decode(input: DecodeInput, ctx: DecodeContext): Promise<void>;
}

/** How many bytes sniffing sees. */
export const HEAD_BYTES = 64 * 1024;
