/**
 * One file from bytes to model: read in slices (never the whole file as one buffer), gunzip when
 * the bytes say gzip, sniff the format, decode into a builder, finish the model. Used unchanged by
 * the worker, the CLI, the tests and the benchmarks.
 */
import { isOutOfMemory, ModelBuilder, ModelOverBudget, type BuilderOptions } from '../model/builder.ts';
import { TapeBuilder, TapeStopped } from '../model/tape/tapeBuilder.ts';
import type { Model } from '../model/types.ts';
import { detectFormat, importers } from './formats.ts';
import { gunzipChunks, type GzipProblem } from './gunzip.ts';
import { HEAD_BYTES, type ByteSource, type DecodeInput, type DecodeOptions, type Importer } from './importer.ts';

/** Bytes read from the source per step; also the progress granularity. */
export const CHUNK_BYTES = 4 * 1024 * 1024;

export interface LoadOptions {
  decode?: DecodeOptions;
  /** Called after each slice is read with the file bytes consumed so far. */
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
  signal?: AbortSignal;
  /** Force a format id instead of sniffing. */
  format?: string;
  /**
   * Awaited before each slice is handed to the decoder: a worker lets its messages in there (the
   * page asking it to leave a core to the page for a while, load.worker.ts).
   */
  checkpoint?: () => Promise<void>;
}

/** Thrown when a load is cancelled through its AbortSignal. */
export class LoadCancelled extends Error {
  constructor() {
    super('load cancelled');
    this.name = 'LoadCancelled';
  }
}

/** Thrown when nothing in the file could be decoded; the message names the file. */
export class LoadFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LoadFailed';
  }
}

function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/**
 * Bytes asked of the source per read after the first (which is one chunk, so that decoding starts
 * soon). A Blob read has a cost of its own besides the copy, so fewer, larger reads are cheaper
 * (docs/performance.md, "Figures behind constants").
 */
export const READ_BYTES = 4 * CHUNK_BYTES;
/** Reads under way ahead of the one being decoded. */
export const READ_AHEAD = 2;

/**
 * The raw file as chunks, reporting progress and honouring cancellation. The next reads are asked
 * for before the current one is handed over, so that reading (off-thread in the browser)
 * overlaps decoding; each read is handed on in CHUNK_BYTES views.
 */
export async function* rawChunks(source: ByteSource, options: LoadOptions): AsyncGenerator<Uint8Array> {
  const reads: { pos: number; end: number; read: Promise<Uint8Array> }[] = [];
  let asked = 0;
  const readAhead = () => {
    while (reads.length < READ_AHEAD && asked < source.size) {
      const end = Math.min(source.size, asked + (asked === 0 ? CHUNK_BYTES : READ_BYTES));
      const read = source.read(asked, end);
      // Handled here too: a consumer that stops early never awaits the last reads.
      read.catch(() => undefined);
      reads.push({ pos: asked, end, read });
      asked = end;
    }
  };
  readAhead();
  for (let next = reads.shift(); next; next = reads.shift()) {
    if (options.signal?.aborted) throw new LoadCancelled();
    const bytes = await next.read;
    if (bytes.length === 0) throw new LoadFailed(`${source.name}: could not read bytes ${next.pos}..${next.end}`);
    const pos = next.pos + bytes.length;
    if (pos < next.end) {
      // A short read: the reads asked for after it start past what came; ask again from here.
      reads.length = 0;
      asked = pos;
    }
    readAhead();
    for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
      if (options.checkpoint) await options.checkpoint();
      if (at > 0 && options.signal?.aborted) throw new LoadCancelled();
      const piece = bytes.length <= CHUNK_BYTES ? bytes : bytes.subarray(at, Math.min(bytes.length, at + CHUNK_BYTES));
      yield piece;
      options.onProgress?.(next.pos + at + piece.length, source.size);
    }
  }
}

/** Splits a chunk stream into its first HEAD_BYTES and a replayable whole. */
async function withHead(name: string, size: number, stream: AsyncIterator<Uint8Array>): Promise<DecodeInput> {
  const taken: Uint8Array[] = [];
  let have = 0;
  let done = false;
  while (have < HEAD_BYTES) {
    const next = await stream.next();
    if (next.done) {
      done = true;
      break;
    }
    taken.push(next.value);
    have += next.value.length;
  }
  const head = concat(taken, Math.min(have, HEAD_BYTES));
  let used = false;
  return {
    name,
    size,
    head,
    chunks() {
      if (used) throw new Error('DecodeInput.chunks() may be iterated once');
      used = true;
      return (async function* () {
        yield* taken;
        if (done) return;
        for (;;) {
          const next = await stream.next();
          if (next.done) return;
          yield next.value;
        }
      })();
    },
  };
}

/** The first `length` bytes of `parts` as one array. */
export function concat(parts: Uint8Array[], length = parts.reduce((n, p) => n + p.length, 0)): Uint8Array {
  if (parts.length === 1 && parts[0].length === length) return parts[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    if (at >= length) break;
    const take = Math.min(p.length, length - at);
    out.set(take === p.length ? p : p.subarray(0, take), at);
    at += take;
  }
  return out;
}

/** Decodes one file into a model. Problems inside the file end up in `model.issues`. */
export async function loadModel(source: ByteSource, options: LoadOptions = {}): Promise<Model> {
  return decodeRaw(source.name, source.size, rawChunks(source, options), options, source);
}

/**
 * Decodes a file that arrives as a stream of chunks (a download), so decoding overlaps the
 * transfer. `sizeHint` is the expected byte count when known (Content-Length), else 0; the
 * model's `byteSize` is the count actually received. Progress is the caller's to report: only it
 * knows how much arrived.
 */
export async function loadModelFromStream(
  name: string,
  chunks: AsyncIterable<Uint8Array>,
  sizeHint: number,
  options: LoadOptions = {},
): Promise<Model> {
  let received = 0;
  async function* counted(): AsyncGenerator<Uint8Array> {
    for await (const chunk of chunks) {
      if (options.signal?.aborted) throw new LoadCancelled();
      received += chunk.length;
      yield chunk;
    }
  }
  const model = await decodeRaw(name, sizeHint, counted(), options);
  model.capture.byteSize = received;
  return model;
}

/**
 * Makes the builder a decode goes into, once the format is known: a `ModelBuilder`, or for a
 * two-thread load a `TapeBuilder` (tapePipeline.ts); undefined when the format cannot go that way.
 */
export type MakeBuilder = (options: BuilderOptions, gzipped: boolean) => ModelBuilder | undefined;

const directBuilder: MakeBuilder = (options) => new ModelBuilder(options);

/** Thrown by a two-thread decode when the file's format is not decoded that way (`MakeBuilder` said no). */
export class FormatNotTaped extends Error {
  constructor(readonly format: string) {
    super(`format ${format} is decoded on one thread`);
    this.name = 'FormatNotTaped';
  }
}

async function decodeRaw(
  name: string,
  size: number,
  raw: AsyncGenerator<Uint8Array>,
  options: LoadOptions,
  random?: ByteSource,
): Promise<Model> {
  return (await decodeInto(name, size, raw, options, random, directBuilder)).finish();
}

/** A file's content once its head is read: gunzipped where the bytes say gzip, its importer found. */
export interface OpenedContent {
  input: DecodeInput;
  gzipped: boolean;
  /** Problems of the gzip layer, filled while the content is read. */
  gzipProblems: GzipProblem[];
  importer: Importer;
}

/** Reads the head of `raw` (gunzipping it where needed) and finds its importer; throws LoadFailed for an empty or unknown file. */
export async function openContent(name: string, size: number, raw: AsyncGenerator<Uint8Array>, options: LoadOptions): Promise<OpenedContent> {
  const source = { name, size };
  let input = await withHead(source.name, source.size, raw);
  let gzipped = false;
  const gzipProblems: GzipProblem[] = [];
  if (isGzip(input.head)) {
    gzipped = true;
    input = await withHead(source.name, source.size, gunzipChunks(input.chunks(), gzipProblems)[Symbol.asyncIterator]());
    if (input.head.length === 0 && gzipProblems.length > 0) throw new LoadFailed(`${source.name}: ${gzipProblems[0].message}`);
  }
  // Every format alike: an empty file is a failure that says so (not a capture with "no problems").
  if (input.head.length === 0) throw new LoadFailed(`${source.name}: the file is empty${gzipped ? ' (after gzip decompression)' : ''}`);
  const importer = options.format
    ? importers.find((imp) => imp.id === options.format)
    : detectFormat(input.head, source.name);
  if (!importer) {
    const known = importers.map((imp) => imp.label).join(', ');
    throw new LoadFailed(`${source.name}: not a format nvtxview knows (tried ${known})`);
  }
  return { input, gzipped, gzipProblems, importer };
}

/** Sniffs, decodes and reports into the builder `makeBuilder` gives; the caller finishes it. */
export async function decodeInto(
  name: string,
  size: number,
  raw: AsyncGenerator<Uint8Array>,
  options: LoadOptions,
  random: ByteSource | undefined,
  makeBuilder: MakeBuilder,
): Promise<ModelBuilder> {
  const source = { name, size };
  const opened = await openContent(name, size, raw, options);
  let input = opened.input;
  const { gzipped, gzipProblems, importer } = opened;
  const builder = makeBuilder({ fileName: source.name, format: importer.id, byteSize: source.size }, gzipped);
  if (!builder) throw new FormatNotTaped(importer.id);
  if (gzipped) builder.setProperty('compression', 'gzip');
  const budget = options.decode?.modelBudgetBytes;
  if (budget !== undefined) builder.setBudget(budget);
  // How far the decoder got: content bytes handed to it, or (read at random) file bytes read.
  const reached: Reached = { bytes: 0, randomAccess: false };
  if (!gzipped && random?.readSync) {
    const readSync = random.readSync.bind(random);
    const onRead = (done: number) => {
      reached.bytes = Math.min(done, random.size);
      reached.randomAccess = true;
      options.onProgress?.(reached.bytes, random.size);
    };
    input = { ...input, file: { size: random.size, readSync, onRead } };
  }
  input = budgetedChunks(input, builder, reached, !gzipped);
  try {
    await importer.decode(input, { builder, options: options.decode ?? {}, signal: options.signal });
  } catch (e) {
    // Stopped by the builder side of a two-thread load, which reported why.
    if (e instanceof TapeStopped) {
      // nothing to add
    } else if (!isOutOfMemory(e)) throw e;
    else reportOutOfMemory(builder, e, reached, source.size, gzipped);
  }
  if (builder instanceof TapeBuilder) builder.decodeEnd();
  // Known once the decoder has read the whole stream.
  for (const p of gzipProblems) builder.report(p.severity, p.message);
  if (options.signal?.aborted) throw new LoadCancelled();
  return builder;
}

/** Reports a load stopped for memory (`e`) after the decoder had `reached` into the content, and what of the file the model holds. */
export function reportOutOfMemory(builder: ModelBuilder, e: Error, reached: Reached, size: number, gzipped: boolean): void {
  const offset = reached.randomAccess || gzipped ? undefined : { offset: reached.bytes };
  builder.report('error', outOfMemoryMessage(e, reached, size, gzipped), offset);
  builder.setProperty('loaded only', reached.randomAccess ? `${reached.bytes} bytes read` : `bytes 0..${reached.bytes}${gzipped ? ' (decompressed)' : ''}`);
}

/** How far a decoder got in its input. */
export interface Reached {
  bytes: number;
  /** Set once the decoder reads the file at random (`DecodeInput.file`) rather than in order. */
  randomAccess: boolean;
}

/**
 * The input with the builder's memory budget checked before each chunk is handed on (a no-op
 * without a budget), counting the content bytes handed on in `reached`. Where those are file bytes
 * (`fileOrder`: not decompressed), the builder is told how far it is, to size its columns.
 */
function budgetedChunks(input: DecodeInput, builder: ModelBuilder, reached: Reached, fileOrder: boolean): DecodeInput {
  const chunks = input.chunks.bind(input);
  return {
    ...input,
    chunks: () =>
      (async function* () {
        for await (const chunk of chunks()) {
          // A tape marks the chunk boundary; its replay checks the real builder there.
          if (builder instanceof TapeBuilder) builder.checkBudget(reached.bytes);
          else builder.checkBudget();
          if (fileOrder) builder.inputRead(reached.bytes + chunk.length);
          yield chunk;
          reached.bytes += chunk.length;
        }
      })(),
  };
}

/** The load report's line for a model that stopped growing because memory ran out. */
function outOfMemoryMessage(e: Error, reached: Reached, size: number, gzipped: boolean): string {
  const reachedBytes = reached.bytes;
  const why = e instanceof ModelOverBudget ? e.message : `the JavaScript engine refused more memory (${e.message})`;
  const mb = (bytes: number) => (bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0);
  const where = reached.randomAccess
    ? `after reading ${mb(reachedBytes)} MB of the ${mb(size)} MB file`
    : gzipped
      ? `at byte ${reachedBytes} of the decompressed content (${mb(reachedBytes)} MB)`
      : `at byte ${reachedBytes} of ${size} (${mb(reachedBytes)} of ${mb(size)} MB, ${((100 * reachedBytes) / Math.max(1, size)).toFixed(1)}%)`;
  return (
    `the capture does not fit in memory: ${why}. Loading stopped ${where}; what was read before is shown, the rest of the file is not ` +
    `(ranges still open there are shown as never ended)`
  );
}

const fileReaderSync = (globalThis as { FileReaderSync?: new () => { readAsArrayBuffer(blob: Blob): ArrayBuffer } }).FileReaderSync;

/** A ByteSource over bytes already in memory (tests, benchmarks, postMessage embedding). */
export function memorySource(name: string, given: Uint8Array): ByteSource {
  // A Node Buffer's slice() shares its memory instead of copying, and its `buffer` may start before
  // it: decoders copy with slice() and read headers through `buffer`, so they get a plain view.
  const bytes = given.constructor === Uint8Array ? given : new Uint8Array(given.buffer, given.byteOffset, given.byteLength);
  return {
    name,
    size: bytes.length,
    read: async (start, end) => bytes.subarray(start, Math.min(end, bytes.length)),
    readSync: (start, end) => bytes.subarray(start, Math.min(end, bytes.length)),
  };
}

/** A ByteSource over a Blob/File, read with Blob.slice (the page and the worker). */
export function blobSource(blob: Blob, name = (blob as File).name ?? 'capture'): ByteSource {
  return {
    name,
    size: blob.size,
    read: async (start, end) => new Uint8Array(await blob.slice(start, end).arrayBuffer()),
    // Synchronous reads exist in workers only (FileReaderSync), which is where files are decoded.
    readSync: fileReaderSync ? (start, end) => new Uint8Array(new fileReaderSync().readAsArrayBuffer(blob.slice(start, end))) : undefined,
  };
}
