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
import { throttledProgress } from './progressThrottle.ts';
import { stringSlices } from './stringSlices.ts';
import { runTapeBuild, runTapeDecode } from './tapeRoles.ts';
import { warmUp } from './warmUp.ts';
import { readerSource, serveReads, type ReaderSource } from './blobReader.ts';

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
const gate = new HoldGate(HOLD_MAX_MS, channelTask(), () => post({ type: 'held' }));
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

/** The message for a load that failed as a whole. */
function failureMessage(name: string, e: unknown): string {
  // Memory ran out after the decode stopped (laying the model out): nothing to show, but say why.
  return isOutOfMemory(e)
    ? `${name}: the capture does not fit in this browser's memory (${e.message}); try a smaller part of it, or the nvtxview CLI`
    : e instanceof Error
      ? e.message
      : String(e);
}

/** The build side of a two-thread load, when this worker is one: 'hold'/'resume' go to both sides. */
let tapeBuild: { hold(): void; resume(): void } | undefined;

/** Set by the first message that is not 'warm': the warm-up stops before its next load. */
let busy = false;

/** This worker's reads when a reader worker makes them ('load' with a `readPort`). */
let reads: ReaderSource | undefined;

scope.onmessage = async (event: MessageEvent<ToWorker>) => {
  const msg = event.data;
  if (msg.type === 'warm') return void warmUp(() => busy, undefined, undefined, msg.split === true);
  busy = true;
  if (msg.type === 'preview') return postPreview(msg.file, msg.name, msg.options);
  if (msg.type === 'read') return serveReads(msg.port, msg.file);
  if (msg.type === 'read-here') return reads?.readHere();
  if (msg.type === 'hold') return tapeBuild ? tapeBuild.hold() : gate.hold();
  if (msg.type === 'resume') return tapeBuild ? tapeBuild.resume() : gate.release();
  const t0 = performance.now();
  const onProgress = throttledProgress((bytesDone, bytesTotal) => post({ type: 'progress', bytesDone, bytesTotal }));
  const deviceMemory = (navigator as { deviceMemory?: number }).deviceMemory;
  const options: DecodeOptions = { ...msg.options, modelBudgetBytes: msg.options.modelBudgetBytes ?? defaultModelBudget(deviceMemory) };
  if (msg.type === 'tape-decode') return runTapeDecode(msg.port, msg.file, msg.name, options, gate, msg.plan);
  if (msg.type === 'tape-build') {
    const { file, name } = msg;
    tapeBuild = runTapeBuild(msg.port, options, gate, {
      onProgress,
      onModel: (model, path) => postModel({ type: 'done', model, decodeMs: performance.now() - t0, path }),
      onFailed: (e) => post({ type: 'failed', message: failureMessage(name, e) }),
      onNotTaped: () => {
        tapeBuild = undefined;
        void loadHere(() => loadModel(blobSource(file, name), { decode: options, onProgress, checkpoint }), name, t0);
      },
    });
    return;
  }
  const load = msg;
  return loadHere(async () => {
    if (load.type === 'load') {
      const local = blobSource(load.file, load.name);
      if (load.readPort) reads = readerSource(load.readPort, local);
      return loadModel(reads ?? local, { decode: options, onProgress, checkpoint });
    }
    const download = await openDownload(load.url, load.name, { onProgress, pageOrigin: scope.location.origin });
    return loadModelFromStream(load.name, download.chunks, download.sizeHint, { decode: options });
  }, load.name, t0);
};

/** A one-worker load: the model or why not to the page. */
async function loadHere(load: () => Promise<Model>, name: string, t0: number): Promise<void> {
  try {
    const model = await load();
    postModel({ type: 'done', model, decodeMs: performance.now() - t0, path: 'single' });
  } catch (e) {
    post({ type: 'failed', message: failureMessage(name, e) });
  }
}
