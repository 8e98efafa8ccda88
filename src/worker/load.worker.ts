/// <reference lib="webworker" />
/** Thin worker shell: decode one file with the shared pipeline and transfer the model back. */
import { blobSource, loadModel } from '../import/pipeline.ts';
import { modelTransferables } from '../model/transfer.ts';
import type { FromWorker, ToWorker } from './load.protocol.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (msg: FromWorker, transfer: Transferable[] = []) => scope.postMessage(msg, transfer);

scope.onmessage = async (event: MessageEvent<ToWorker>) => {
  const msg = event.data;
  if (msg.type !== 'load') return;
  const t0 = performance.now();
  let lastProgress = 0;
  try {
    const model = await loadModel(blobSource(msg.file, msg.name), {
      decode: msg.options,
      onProgress: (bytesDone, bytesTotal) => {
        const now = performance.now();
        if (now - lastProgress > 50 || bytesDone === bytesTotal) {
          lastProgress = now;
          post({ type: 'progress', bytesDone, bytesTotal });
        }
      },
    });
    post({ type: 'done', model, decodeMs: performance.now() - t0 }, modelTransferables(model));
  } catch (e) {
    post({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
  }
};
