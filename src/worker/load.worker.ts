/// <reference lib="webworker" />
/** Thin worker shell: decode one file with the shared pipeline and transfer the model back. */
import { blobSource, loadModel, loadModelFromStream } from '../import/pipeline.ts';
import { modelTransferables } from '../model/transfer.ts';
import type { DecodeOptions } from '../import/importer.ts';
import type { Model } from '../model/types.ts';
import { isOutOfMemory } from '../model/builder.ts';
import { defaultModelBudget } from './modelBudget.ts';
import { openDownload } from './fetchCapture.ts';
import { RESUME_AFTER_MS, type FromWorker, type ToWorker } from './load.protocol.ts';
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

/** Resolves the wait for the page's 'resume'. */
let resume: (() => void) | undefined;

/**
 * Waits until the page says it is idle again after a partial model, at most RESUME_AFTER_MS. On two
 * cores the decode would otherwise take one while the page's first frame of the new capture
 * (style and layout of the new panels, the first rows) shares the other with the browser's own
 * threads, and that frame's wall time doubled or tripled (docs/performance.md).
 */
function pageIdle(): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(() => {
      resume = undefined;
      done();
    }, RESUME_AFTER_MS);
    resume = () => {
      clearTimeout(timer);
      resume = undefined;
      done();
    };
  });
}

/** Decodes and posts the first slice of a big file (preview.ts); a slice that fails is simply not shown. */
async function postPreview(file: Blob, name: string, options: DecodeOptions): Promise<void> {
  const slice = await previewSlice(file, name);
  if (!slice) return;
  try {
    const model = await loadModel(blobSource(slice, name), { decode: options });
    // The cut at the slice's end is not a problem of the file; the whole model reports what is.
    model.issues = [];
    model.capture.byteSize = file.size;
    postModel({ type: 'partial', model, bytesDone: slice.size });
    await pageIdle();
  } catch {
    // The whole-file decode reports what is wrong.
  }
}

scope.onmessage = async (event: MessageEvent<ToWorker>) => {
  const msg = event.data;
  if (msg.type === 'resume') {
    resume?.();
    return;
  }
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
      await postPreview(msg.file, msg.name, options);
      model = await loadModel(blobSource(msg.file, msg.name), { decode: options, onProgress });
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
