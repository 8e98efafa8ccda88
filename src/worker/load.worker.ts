/// <reference lib="webworker" />
/** Thin worker shell: decode one file with the shared pipeline and transfer the model back. */
import { blobSource, loadModel, loadModelFromStream } from '../import/pipeline.ts';
import { modelTransferables } from '../model/transfer.ts';
import type { Model } from '../model/types.ts';
import { openDownload } from './fetchCapture.ts';
import type { FromWorker, ToWorker } from './load.protocol.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (msg: FromWorker, transfer: Transferable[] = []) => scope.postMessage(msg, transfer);

scope.onmessage = async (event: MessageEvent<ToWorker>) => {
  const msg = event.data;
  if (msg.type !== 'load' && msg.type !== 'load-url') return;
  const t0 = performance.now();
  let lastProgress = 0;
  const onProgress = (bytesDone: number, bytesTotal: number) => {
    const now = performance.now();
    if (now - lastProgress > 50 || bytesDone === bytesTotal) {
      lastProgress = now;
      post({ type: 'progress', bytesDone, bytesTotal });
    }
  };
  try {
    let model: Model;
    if (msg.type === 'load') {
      model = await loadModel(blobSource(msg.file, msg.name), { decode: msg.options, onProgress });
    } else {
      const download = await openDownload(msg.url, msg.name, { onProgress, pageOrigin: scope.location.origin });
      model = await loadModelFromStream(msg.name, download.chunks, download.sizeHint, { decode: msg.options });
    }
    post({ type: 'done', model, decodeMs: performance.now() - t0 }, modelTransferables(model));
  } catch (e) {
    post({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
  }
};
