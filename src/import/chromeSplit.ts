/**
 * A Chrome trace JSON load on two threads, split where the work halves: the parse side reads the
 * file (gunzip included), runs the document reader and the event parsers, and sends each slice's
 * bytes (transferred, not copied) with a columnar record of its events (src/import/chrome/
 * splitSides.ts); the build side runs the decoder's dispatch from those records into the real
 * builder and finishes the model. The builder-call tape (tapePipeline.ts) still carries the other
 * formats: it records every builder call on the decode side, which here would cost more than it
 * saves (docs/performance.md, "Chrome JSON on two workers").
 *
 * The two ends talk through `SplitMessage`s in order (a MessageChannel between two workers, or a
 * direct call in one thread: tests); the build side hands each slice back for reuse, and the parse
 * side waits at its next chunk while `MAX_SLICES_IN_FLIGHT` are out.
 */
import { isOutOfMemory, ModelBuilder, type BuilderOptions } from '../model/builder.ts';
import type { Model } from '../model/types.ts';
import { CHROME_FORMAT_ID, type DocumentSummary } from './chrome/chrome.ts';
import { ChromeBuildSide, ChromeParseSide, type ChunkStart, type RecordedSlice } from './chrome/splitSides.ts';
import type { GzipProblem } from './gunzip.ts';
import type { ByteSource } from './importer.ts';
import { CHUNK_BYTES, LoadCancelled, openContent, rawChunks, reportOutOfMemory, type LoadOptions } from './pipeline.ts';
import type { BuildSideHooks } from './tapePipeline.ts';

/**
 * Slices the parse side lets the build side hold before it waits (between chunks): most slices are
 * one 16 MiB read of the file, so this bounds the bytes in flight to about 64 MiB.
 */
export const MAX_SLICES_IN_FLIGHT = 3;

/** From the parse side to the build side, in order. */
export type SplitMessage =
  | { type: 'split-begin'; options: BuilderOptions; gzipped: boolean }
  | { type: 'split-slice'; slice: RecordedSlice }
  | { type: 'split-progress'; bytesDone: number; bytesTotal: number }
  /** The content is read (or the build side asked to stop): `document` for the decoder's finish, every gzip problem. */
  | { type: 'split-end'; document: DocumentSummary; gzipProblems: GzipProblem[] }
  /** The load failed as a whole (empty file, read error, cancelled...): no model. */
  | { type: 'failed'; message: string };

/** The parse side of one load. */
export class ChromeSplitParse {
  private side: ChromeParseSide | undefined;
  private stopAsked = false;
  private inFlight = 0;
  private wake: (() => void) | undefined;

  constructor(
    private readonly send: (msg: SplitMessage) => void,
    /** Content bytes at least in a slice (smaller in tests, for many slice boundaries). */
    private readonly minSliceBytes = CHUNK_BYTES,
  ) {}

  /** A slice the build side is done with. */
  recycle(slice: RecordedSlice): void {
    this.inFlight--;
    this.side?.recycle(slice);
    this.wakeUp();
  }

  /** The build side's model went over its budget: stop at the next chunk. */
  stop(): void {
    this.stopAsked = true;
    this.wakeUp();
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private async inFlightAtMost(n: number): Promise<void> {
    while (this.inFlight > n && !this.stopAsked) await new Promise<void>((resolve) => (this.wake = resolve));
  }

  /**
   * Reads `source` into messages. A file whose content is not a Chrome trace sends nothing and
   * resolves to its format id (the caller loads it another way); never throws (a failure is a message).
   */
  async run(source: ByteSource, options: LoadOptions): Promise<{ notChrome: string } | undefined> {
    let begun = false;
    const onProgress = (bytesDone: number, bytesTotal: number) => {
      if (begun) this.send({ type: 'split-progress', bytesDone, bytesTotal });
      else options.onProgress?.(bytesDone, bytesTotal);
    };
    const checkpoint = async () => {
      await options.checkpoint?.();
      await this.inFlightAtMost(MAX_SLICES_IN_FLIGHT);
    };
    const opts: LoadOptions = { ...options, onProgress, checkpoint };
    const raw = rawChunks(source, opts);
    try {
      const opened = await openContent(source.name, source.size, raw, opts);
      if (opened.importer.id !== CHROME_FORMAT_ID) {
        await raw.return(undefined);
        return { notChrome: opened.importer.id };
      }
      const builderOptions: BuilderOptions = { fileName: source.name, format: opened.importer.id, byteSize: source.size };
      this.send({ type: 'split-begin', options: builderOptions, gzipped: opened.gzipped });
      begun = true;
      const side = new ChromeParseSide(
        (slice) => {
          this.inFlight++;
          this.send({ type: 'split-slice', slice });
        },
        builderOptions,
        this.minSliceBytes,
      );
      this.side = side;
      let reached = 0;
      for await (const chunk of opened.input.chunks()) {
        if (this.stopAsked) break;
        // As the one-thread decoder: a cancel seen at a chunk ends the load.
        if (options.signal?.aborted) break;
        side.chunk(chunk, reached, opened.gzipProblems.length);
        reached += chunk.length;
      }
      if (options.signal?.aborted) throw new LoadCancelled();
      if (!this.stopAsked) side.end(reached);
      this.send({ type: 'split-end', document: side.document, gzipProblems: opened.gzipProblems });
    } catch (e) {
      this.send({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
    }
    return undefined;
  }
}

/** The build side of one load: takes the messages in order, `result` once `split-end` came. */
export class ChromeSplitBuild {
  private builder: ModelBuilder | undefined;
  private side: ChromeBuildSide | undefined;
  private size = 0;
  private gzipped = false;
  /** Content bytes before the chunk being decoded (where a stop is reported). */
  private reached = 0;
  /** Gzip problems known at that chunk. */
  private gzipKnown = 0;
  private stopped = false;
  private outcome: { model: Model } | { failed: string } | undefined;

  constructor(
    private readonly budgetBytes: number | undefined,
    private readonly hooks: BuildSideHooks<RecordedSlice>,
  ) {}

  get result(): { model: Model } | { failed: string } | undefined {
    return this.outcome;
  }

  accept(msg: SplitMessage): void {
    switch (msg.type) {
      case 'split-begin': {
        // As the one-thread pipeline sets its builder up (pipeline.ts decodeInto).
        const builder = new ModelBuilder(msg.options);
        if (msg.gzipped) builder.setProperty('compression', 'gzip');
        if (this.budgetBytes !== undefined) builder.setBudget(this.budgetBytes);
        this.builder = builder;
        this.side = new ChromeBuildSide(builder);
        this.size = msg.options.byteSize;
        this.gzipped = msg.gzipped;
        return;
      }
      case 'split-slice':
        if (!this.stopped) this.slice(msg.slice);
        this.hooks.recycle?.(msg.slice);
        return;
      case 'split-progress':
        this.hooks.onProgress?.(msg.bytesDone, msg.bytesTotal);
        return;
      case 'split-end':
        this.end(msg.document, msg.gzipProblems);
        return;
      case 'failed':
        this.outcome = { failed: msg.message };
        return;
    }
  }

  private readonly onChunk = (chunk: ChunkStart): boolean => {
    if (chunk.gzipProblems < 0) {
      // The end of the content: what is decoded from here on is past every chunk.
      this.reached = chunk.reached;
      this.gzipKnown = -1;
      return true;
    }
    this.reached = chunk.reached;
    this.gzipKnown = chunk.gzipProblems;
    // Throws when the model is over its budget (caught in `slice`), as the one-thread pipeline's check before each chunk.
    this.builder!.checkBudget();
    if (!this.gzipped) this.builder!.inputRead(chunk.reached + chunk.length);
    return true;
  };

  private slice(slice: RecordedSlice): void {
    if (!this.side) throw new Error('chrome split: slice before begin');
    try {
      this.side.replay(slice, this.onChunk);
    } catch (e) {
      if (!isOutOfMemory(e)) throw e;
      this.stop(e);
    }
  }

  private stop(e: Error): void {
    this.stopped = true;
    reportOutOfMemory(this.builder!, e, { bytes: this.reached, randomAccess: false }, this.size, this.gzipped);
    this.hooks.stopDecode();
  }

  private end(document: DocumentSummary, gzipProblems: GzipProblem[]): void {
    const builder = this.builder;
    if (!builder) throw new Error('chrome split: end before begin');
    if (!this.stopped) {
      try {
        this.side!.finish(document);
      } catch (e) {
        if (!isOutOfMemory(e)) throw e;
        this.stop(e);
      }
    }
    // The one-thread pipeline reports the gzip problems known when its decode ended.
    const known = this.stopped && this.gzipKnown >= 0 ? this.gzipKnown : gzipProblems.length;
    for (const p of gzipProblems.slice(0, known)) builder.report(p.severity, p.message);
    this.outcome = { model: builder.finish() };
  }
}

/**
 * A whole split load in one thread (tests): every slice is decoded as it is made. Resolves to the
 * model, or says the file is no Chrome trace; a failure throws as `loadModel` would.
 */
export async function loadModelThroughChromeSplit(source: ByteSource, options: LoadOptions = {}, minSliceBytes?: number): Promise<Model | { notChrome: string }> {
  let parse: ChromeSplitParse | undefined = undefined;
  const build = new ChromeSplitBuild(options.decode?.modelBudgetBytes, {
    stopDecode: () => parse!.stop(),
    onProgress: options.onProgress,
    recycle: (slice) => parse!.recycle(slice),
  });
  parse = new ChromeSplitParse((msg) => build.accept(msg), minSliceBytes);
  const other = await parse.run(source, options);
  if (other) return other;
  const r = build.result;
  if (!r) throw new Error('chrome split: the parse ended without a result');
  if ('failed' in r) throw new Error(r.failed);
  if (options.signal?.aborted) throw new LoadCancelled();
  return r.model;
}
