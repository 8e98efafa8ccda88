/**
 * A load on two threads: one decodes the file into a `TapeBuilder` (model/tape/), the other
 * replays the tape into the real `ModelBuilder` and finishes the model, so that parsing and
 * building overlap. The two ends talk through `TapeMessage`s in order (a MessageChannel between
 * two workers, or a direct call in one thread: tests, the CLI). Formats whose decoders read the
 * file at random (Nsight SQLite) stay on one thread: the decode side says `not-taped`.
 */
import { isOutOfMemory, ModelBuilder, ModelOverBudget, type BuilderOptions } from '../model/builder.ts';
import { TapeReplay } from '../model/tape/replay.ts';
import type { TapeBatch } from '../model/tape/tape.ts';
import { TapeBuilder } from '../model/tape/tapeBuilder.ts';
import type { Model } from '../model/types.ts';
import type { ByteSource } from './importer.ts';
import { decodeInto, FormatNotTaped, LoadCancelled, rawChunks, reportOutOfMemory, type LoadOptions } from './pipeline.ts';

/** Formats decoded on two threads (their decoders read the content in order). */
export const TAPE_FORMATS: ReadonlySet<string> = new Set(['nvtxc', 'chrome-json', 'nvtxt']);

/**
 * Tape batches the decode side lets the build side hold before it waits (between chunks): bounds
 * the memory of a load whose replay is slower than its decode, whatever the file's size.
 */
export const MAX_BATCHES_IN_FLIGHT = 8;

/** From the decode side to the build side, in order. */
export type TapeMessage =
  | { type: 'begin'; options: BuilderOptions; gzipped: boolean }
  | { type: 'batch'; batch: TapeBatch }
  | { type: 'end' }
  /** The decode failed as a whole (empty file, unknown format, cancelled...): no model. */
  | { type: 'failed'; message: string }
  /** The file's format is decoded on one thread: the build side loads it itself. */
  | { type: 'not-taped'; format: string };

/** The decode side of one load. */
export class TapeDecode {
  private tape: TapeBuilder | undefined;
  private stopAsked = false;

  constructor(
    private readonly send: (msg: TapeMessage) => void,
    private readonly batchRows?: number,
  ) {}

  /** A batch the build side has replayed, back for reuse. */
  recycle(batch: TapeBatch): void {
    this.tape?.recycle(batch);
  }

  /** The build side's model went over its budget: stop at the next chunk. */
  stop(): void {
    this.stopAsked = true;
    this.tape?.requestStop();
  }

  /** Decodes `source` into tape messages; never throws (a failure is a message). */
  async run(source: ByteSource, options: LoadOptions): Promise<void> {
    const onProgress = (done: number, total: number) => (this.tape ? this.tape.progress(done, total) : options.onProgress?.(done, total));
    const checkpoint = async () => {
      await options.checkpoint?.();
      await this.tape?.inFlightAtMost(MAX_BATCHES_IN_FLIGHT);
    };
    const opts: LoadOptions = { ...options, onProgress, checkpoint };
    try {
      const tape = (await decodeInto(source.name, source.size, rawChunks(source, opts), opts, source, (builderOptions, gzipped) => {
        if (!TAPE_FORMATS.has(builderOptions.format)) return undefined;
        this.send({ type: 'begin', options: builderOptions, gzipped });
        this.tape = new TapeBuilder(builderOptions, (batch) => this.send({ type: 'batch', batch }), this.batchRows);
        if (this.stopAsked) this.tape.requestStop();
        return this.tape;
      })) as TapeBuilder;
      tape.flush();
      this.send({ type: 'end' });
    } catch (e) {
      if (e instanceof FormatNotTaped) this.send({ type: 'not-taped', format: e.format });
      else this.send({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
    }
  }
}

/** What the build side of a two-thread load answers (the tape's; the Chrome split's, chromeSplit.ts, with its slices). */
export interface BuildSideHooks<Item> {
  /** Asks the decode side to stop (the model went over its budget, or memory ran out). */
  stopDecode(): void;
  onProgress?(bytesDone: number, bytesTotal: number): void;
  /** Hands a built batch or slice back to the decode side for reuse. */
  recycle?(item: Item): void;
}

/** The build side of one load: takes the messages in order, `result` once `end` came. */
export class TapeBuild {
  private builder: ModelBuilder | undefined;
  private replay: TapeReplay | undefined;
  private size = 0;
  private gzipped = false;
  /** Content bytes the decoder had at the last chunk boundary replayed. */
  private reachedBytes = 0;
  private outcome: { model: Model } | { failed: string } | { notTaped: string } | undefined;

  constructor(
    private readonly budgetBytes: number | undefined,
    private readonly hooks: BuildSideHooks<TapeBatch>,
  ) {}

  /** Set once the load is over: the model, a failure, or that the format goes on one thread. */
  get result(): { model: Model } | { failed: string } | { notTaped: string } | undefined {
    return this.outcome;
  }

  accept(msg: TapeMessage): void {
    switch (msg.type) {
      case 'begin':
        this.begin(msg.options, msg.gzipped);
        return;
      case 'batch':
        this.batch(msg.batch);
        this.hooks.recycle?.(msg.batch);
        return;
      case 'end':
        if (!this.builder) throw new Error('tape: end before begin');
        this.outcome = { model: this.builder.finish() };
        return;
      case 'failed':
        this.outcome = { failed: msg.message };
        return;
      case 'not-taped':
        this.outcome = { notTaped: msg.format };
        return;
    }
  }

  private begin(options: BuilderOptions, gzipped: boolean): void {
    const builder = new ModelBuilder(options);
    if (this.budgetBytes !== undefined) builder.setBudget(this.budgetBytes);
    this.builder = builder;
    this.size = options.byteSize;
    this.gzipped = gzipped;
    this.replay = new TapeReplay(builder, {
      onBudget: (reached) => {
        this.reachedBytes = reached;
        try {
          builder.checkBudget();
          return false;
        } catch (e) {
          if (!(e instanceof ModelOverBudget)) throw e;
          this.overBudget(e);
          return true;
        }
      },
      onProgress: this.hooks.onProgress,
    });
  }

  private batch(batch: TapeBatch): void {
    if (!this.replay) throw new Error('tape: batch before begin');
    try {
      this.replay.replay(batch);
    } catch (e) {
      // The engine refused memory while building: keep what was built, as the one-thread load does.
      if (!isOutOfMemory(e)) throw e;
      this.overBudget(e);
      this.replay.skipToDecodeEnd();
    }
  }

  private overBudget(e: Error): void {
    reportOutOfMemory(this.builder!, e, { bytes: this.reachedBytes, randomAccess: false }, this.size, this.gzipped);
    this.hooks.stopDecode();
  }
}

/**
 * A whole two-sided load in one thread (tests, the CLI): every batch is replayed as it is made.
 * Resolves to the model; a failure throws as `loadModel` would.
 */
export async function loadModelThroughTape(source: ByteSource, options: LoadOptions = {}, batchRows?: number): Promise<Model | { notTaped: string }> {
  let decode: TapeDecode | undefined = undefined;
  const build = new TapeBuild(options.decode?.modelBudgetBytes, {
    stopDecode: () => decode!.stop(),
    onProgress: options.onProgress,
    recycle: (batch) => decode!.recycle(batch),
  });
  decode = new TapeDecode((msg) => build.accept(msg), batchRows);
  await decode.run(source, options);
  const r = build.result;
  if (!r) throw new Error('tape: the decode ended without a result');
  if ('failed' in r) throw new Error(r.failed);
  if ('notTaped' in r) return r;
  // Progress reaches the caller through the tape, so a cancel it makes can come after the decode side's last check.
  if (options.signal?.aborted) throw new LoadCancelled();
  return r.model;
}
