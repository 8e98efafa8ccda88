/**
 * The two workers of a two-thread load (src/import/tapePipeline.ts), over a MessageChannel the page
 * gives both: the decode side reads the file and posts tape batches (transferred), the build side
 * replays them into the real builder, finishes the model and posts it to the page as a one-worker
 * load does. The page talks to the build side only; it forwards 'hold'/'resume' and the budget stop.
 */
import type { DecodeOptions } from '../import/importer.ts';
import { blobSource } from '../import/pipeline.ts';
import { TapeBuild, TapeDecode, type TapeMessage } from '../import/tapePipeline.ts';
import { batchTransferables, type TapeBatch } from '../model/tape/tape.ts';
import type { Model } from '../model/types.ts';
import type { HoldGate } from './holdGate.ts';

/** From the build side to the decode side. */
export type ToDecodeSide = { type: 'stop' } | { type: 'hold' } | { type: 'resume' } | { type: 'recycle'; batch: TapeBatch };

/** Decode side: `file` into tape messages on `port`; 'hold' from the build side pauses it between slices. */
export async function runTapeDecode(port: MessagePort, file: Blob, name: string, options: DecodeOptions, gate: HoldGate): Promise<void> {
  const decode = new TapeDecode((msg: TapeMessage) => port.postMessage(msg, msg.type === 'batch' ? batchTransferables(msg.batch) : []));
  port.onmessage = (event: MessageEvent<ToDecodeSide>) => {
    const msg = event.data;
    if (msg.type === 'recycle') decode.recycle(msg.batch);
    else if (msg.type === 'stop') decode.stop();
    else if (msg.type === 'hold') gate.hold();
    else gate.release();
  };
  await decode.run(blobSource(file, name), { decode: options, checkpoint: () => gate.checkpoint() });
}

export interface BuildSideHandlers {
  onProgress(bytesDone: number, bytesTotal: number): void;
  onModel(model: Model): void;
  onFailed(error: unknown): void;
  /** The file's format is decoded on one thread: load it as a one-worker load would. */
  onNotTaped(): void;
}

/** Build side: replays what comes on `port`, in order, holding between batches while `gate` is held. */
export function runTapeBuild(port: MessagePort, options: DecodeOptions, gate: HoldGate, on: BuildSideHandlers): { hold(): void; resume(): void } {
  const build = new TapeBuild(options.modelBudgetBytes, {
    stopDecode: () => port.postMessage({ type: 'stop' } satisfies ToDecodeSide),
    onProgress: on.onProgress,
    recycle: (batch) => port.postMessage({ type: 'recycle', batch } satisfies ToDecodeSide, batchTransferables(batch)),
  });
  let queue = Promise.resolve();
  let over = false;
  port.onmessage = (event: MessageEvent<TapeMessage>) => {
    const msg = event.data;
    queue = queue.then(async () => {
      if (over) return;
      // Batches wait here while the page takes a partial model in.
      if (gate.holding) await gate.checkpoint();
      try {
        build.accept(msg);
      } catch (e) {
        over = true;
        port.close();
        return on.onFailed(e);
      }
      const r = build.result;
      if (!r) return;
      over = true;
      port.close();
      if ('model' in r) on.onModel(r.model);
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
