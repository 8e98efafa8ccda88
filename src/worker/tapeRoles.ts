/**
 * The two workers of a two-thread load, over a MessageChannel the page gives both. The decode side
 * reads the file and posts, for a Chrome trace on the split path, slices of bytes with the records
 * of their events (src/import/chromeSplit.ts), else builder-call tape batches
 * (src/import/tapePipeline.ts), transferred; the build side builds the model from them, finishes it
 * and posts it to the page as a one-worker load does. The page talks to the build side only; it
 * forwards 'hold'/'resume' and the budget stop.
 */
import { ChromeSplitBuild, ChromeSplitParse, type SplitMessage } from '../import/chromeSplit.ts';
import { sliceTransferables, type RecordedSlice } from '../import/chrome/splitSides.ts';
import type { DecodeOptions } from '../import/importer.ts';
import { blobSource, type LoadOptions } from '../import/pipeline.ts';
import { TapeBuild, TapeDecode, type TapeMessage } from '../import/tapePipeline.ts';
import { batchTransferables, type TapeBatch } from '../model/tape/tape.ts';
import type { Model } from '../model/types.ts';
import type { HoldGate } from './holdGate.ts';
import type { LoadPath, TwoWorkerPlan } from './load.protocol.ts';

/** From the build side to the decode side. */
export type ToDecodeSide =
  | { type: 'stop' }
  | { type: 'hold' }
  | { type: 'resume' }
  | { type: 'recycle'; batch: TapeBatch }
  /** A slice's record arrays, back for reuse (its bytes are not sent back). */
  | { type: 'split-recycle'; slice: RecordedSlice };

/** Decode side: `file` into split or tape messages on `port` as `plan` says; 'hold' from the build side pauses it between slices. */
export async function runTapeDecode(port: MessagePort, file: Blob, name: string, options: DecodeOptions, gate: HoldGate, plan: TwoWorkerPlan): Promise<void> {
  let parse: ChromeSplitParse | undefined;
  let decode: TapeDecode | undefined;
  port.onmessage = (event: MessageEvent<ToDecodeSide>) => {
    const msg = event.data;
    if (msg.type === 'recycle') decode?.recycle(msg.batch);
    else if (msg.type === 'split-recycle') parse?.recycle(msg.slice);
    else if (msg.type === 'stop') {
      decode?.stop();
      parse?.stop();
    } else if (msg.type === 'hold') gate.hold();
    else gate.release();
  };
  const source = blobSource(file, name);
  const loadOptions: LoadOptions = { decode: options, checkpoint: () => gate.checkpoint() };
  if (plan.split) {
    parse = new ChromeSplitParse((msg: SplitMessage) => port.postMessage(msg, msg.type === 'split-slice' ? sliceTransferables(msg.slice) : []));
    const other = await parse.run(source, loadOptions);
    if (!other) return;
    parse = undefined;
    if (!plan.tape) return port.postMessage({ type: 'not-taped', format: other.notChrome } satisfies TapeMessage);
  }
  decode = new TapeDecode((msg: TapeMessage) => port.postMessage(msg, msg.type === 'batch' ? batchTransferables(msg.batch) : []));
  await decode.run(source, loadOptions);
}

export interface BuildSideHandlers {
  onProgress(bytesDone: number, bytesTotal: number): void;
  onModel(model: Model, path: LoadPath): void;
  onFailed(error: unknown): void;
  /** The file's format is decoded on one thread: load it as a one-worker load would. */
  onNotTaped(): void;
}

/** Build side: builds from what comes on `port`, in order, holding between messages while `gate` is held. */
export function runTapeBuild(port: MessagePort, options: DecodeOptions, gate: HoldGate, on: BuildSideHandlers): { hold(): void; resume(): void } {
  const stopDecode = () => port.postMessage({ type: 'stop' } satisfies ToDecodeSide);
  const tape = new TapeBuild(options.modelBudgetBytes, {
    stopDecode,
    onProgress: on.onProgress,
    recycle: (batch) => port.postMessage({ type: 'recycle', batch } satisfies ToDecodeSide, batchTransferables(batch)),
  });
  const split = new ChromeSplitBuild(options.modelBudgetBytes, {
    stopDecode,
    onProgress: on.onProgress,
    recycle: (slice) =>
      port.postMessage({ type: 'split-recycle', slice: { ...slice, buffers: [], views: [], calls: [] } } satisfies ToDecodeSide, [slice.ints.buffer as ArrayBuffer, slice.nums.buffer as ArrayBuffer]),
  });
  /** Set by the first message: which of the two builds this load is. */
  let splitLoad = false;
  let queue = Promise.resolve();
  let over = false;
  port.onmessage = (event: MessageEvent<TapeMessage | SplitMessage>) => {
    const msg = event.data;
    queue = queue.then(async () => {
      if (over) return;
      // Messages wait here while the page takes a partial model in.
      if (gate.holding) await gate.checkpoint();
      if (msg.type === 'split-begin') splitLoad = true;
      try {
        if (splitLoad) split.accept(msg as SplitMessage);
        else tape.accept(msg as TapeMessage);
      } catch (e) {
        over = true;
        port.close();
        return on.onFailed(e);
      }
      const r = splitLoad ? split.result : tape.result;
      if (!r) return;
      over = true;
      port.close();
      if ('model' in r) on.onModel(r.model, splitLoad ? 'split' : 'tape');
      else if ('failed' in r) on.onFailed(new Error(r.failed));
      else on.onNotTaped();
    });
  };
  return {
    hold: () => {
      gate.hold();
      port.postMessage({ type: 'hold' } satisfies ToDecodeSide);
    },
    resume: () => {
      gate.release();
      port.postMessage({ type: 'resume' } satisfies ToDecodeSide);
    },
  };
}
