/// <reference lib="webworker" />
/** Thin worker shell: decode one file (or the first slice of one) with the shared pipeline and transfer the model back. */
import { blobSource, loadModel, loadModelFromStream } from '../import/pipeline.ts';
import { modelTransferables } from '../model/transfer.ts';
import type { DecodeOptions } from '../import/importer.ts';
import type { Model } from '../model/types.ts';
import { isOutOfMemory } from '../model/builder.ts';
import { defaultModelBudget } from './modelBudget.ts';
import { openDownload } from './fetchCapture.ts';
import { HOLD_MAX_MS, type FromWorker, type ToWorker } from './load.protocol.ts';
import { channelTask, HoldGate } from './holdGate.ts';
import { previewSlice } from './preview.ts';
import { stringSlices } from './stringSlices.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (msg: FromWorker, transfer: Transferable[] = []) => scope.postMessage(msg, transfer);

/** Posts a model with its buffers transferred and a large string table in slices before it. */
function postModel(msg: Extract<FromWorker, { type: 'partial' | 'done' }>): void {
  const slices = stringSlices(msg.model.strings);
  if (slices.length > 1) {
    for (const strings of slices) post({ type: 'strings', strings });
    msg = { ...msg, model: { ...msg.model, strings: [] } };
  }
  post(msg, modelTransferables(msg.model));
}

/** The whole-file decode's pause while the page takes a partial model in. */
const gate = new HoldGate(HOLD_MAX_MS, channelTask());
const checkpoint = () => gate.checkpoint();

/** Decodes and posts the first slice of a big file (preview.ts); a slice that fails is simply not shown. */
async function postPreview(file: Blob, name: string, options: DecodeOptions): Promise<void> {
  const slice = await previewSlice(file, name);
  if (!slice) return post({ type: 'no-partial' });
  try {
    const onProgress = (bytesDone: number, bytesTotal: number) => {
      if (bytesDone === bytesTotal) post({ type: 'slice-read' });
    };
    const model = await loadModel(blobSource(slice, name), { decode: options, onProgress });
    // The cut at the slice's end is not a problem of the file; the whole model reports what is.
    model.issues = [];
    model.capture.byteSize = file.size;
    postModel({ type: 'partial', model, bytesDone: slice.size });
  } catch {
    // The whole-file decode reports what is wrong.
    post({ type: 'no-partial' });
  }
}

scope.onmessage = async (event: MessageEvent<ToWorker>) => {
  const msg = event.data;
  if (msg.type === 'preview') return postPreview(msg.file, msg.name, msg.options);
  if (msg.type === 'hold') return gate.hold();
  if (msg.type === 'resume') return gate.release();
  const t0 = performance.now();
  let lastProgress = 0;
  const onProgress = (bytesDone: number, bytesTotal: number) => {
    const now = performance.now();
    if (now - lastProgress > 50 || bytesDone === bytesTotal) {
      lastProgress = now;
      post({ type: 'progress', bytesDone, bytesTotal });
    }
  };
  const deviceMemory = (navigator as { deviceMemory?: number }).deviceMemory;
  const options: DecodeOptions = { ...msg.options, modelBudgetBytes: msg.options.modelBudgetBytes ?? defaultModelBudget(deviceMemory) };
  try {
    let model: Model;
    if (msg.type === 'load') {
      model = await loadModel(blobSource(msg.file, msg.name), { decode: options, onProgress, checkpoint });
    } else {
      const download = await openDownload(msg.url, msg.name, { onProgress, pageOrigin: scope.location.origin });
      model = await loadModelFromStream(msg.name, download.chunks, download.sizeHint, { decode: options });
    }
    postModel({ type: 'done', model, decodeMs: performance.now() - t0 });
  } catch (e) {
    // Memory ran out after the decode stopped (laying the model out): nothing to show, but say why.
    const message = isOutOfMemory(e)
      ? `${msg.name}: the capture does not fit in this browser's memory (${e.message}); try a smaller part of it, or the nvtxview CLI`
      : e instanceof Error
        ? e.message
        : String(e);
    post({ type: 'failed', message });
  }
};
