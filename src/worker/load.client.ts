/**
 * Page side of the load worker: one worker per file (so Cancel is a terminate), at most
 * `maxParallel` at once, promises for results.
 */
import type { Model } from '../model/types.ts';
import type { DecodeOptions } from '../import/types.ts';
import { RESUME_AFTER_MS, type FromWorker, type ToWorker } from './load.protocol.ts';
import { StringCollector } from './stringSlices.ts';

/** The model with the string slices that came before it, if any. */
function withStrings(model: Model, strings: StringCollector): Model {
  const sliced = strings.take();
  if (sliced) model.strings = sliced;
  return model;
}

export interface LoadHandle {
  promise: Promise<{ model: Model; decodeMs: number }>;
  cancel(): void;
}

/** A capture the worker downloads itself (fetch in CORS mode, decoded while it arrives). */
export interface RemoteFile {
  /** Absolute URL (resolve page-relative URLs first: a worker resolves against its own script). */
  url: string;
}

export interface LoadRequest {
  file: Blob | RemoteFile;
  name: string;
  options: DecodeOptions;
  onProgress(bytesDone: number, bytesTotal: number): void;
  /** A model of the file's start, while the whole file still decodes (big files only). */
  onPartial?(model: Model): void;
}

export class LoadCancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'LoadCancelledError';
  }
}

type WorkerFactory = () => Worker;

/** Runs `then` once the page is idle (after the frames that a new model causes), or after RESUME_AFTER_MS. */
function whenPageIdle(then: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(then, { timeout: RESUME_AFTER_MS });
  else setTimeout(then, 0);
}

const defaultFactory: WorkerFactory = () =>
  new Worker(new URL('./load.worker.ts', import.meta.url), { type: 'module', name: 'nvtxview-load' });

export class LoadClient {
  private running = 0;
  private readonly queue: Array<() => void> = [];

  constructor(
    private readonly maxParallel = Math.max(1, Math.min(4, globalThis.navigator?.hardwareConcurrency ?? 2)),
    private readonly createWorker: WorkerFactory = defaultFactory,
  ) {}

  load(request: LoadRequest): LoadHandle {
    let worker: Worker | undefined;
    let cancelled = false;
    let rejectFn: (e: Error) => void = () => {};
    const promise = new Promise<{ model: Model; decodeMs: number }>((resolve, reject) => {
      rejectFn = reject;
      const start = () => {
        if (cancelled) return this.release();
        this.running++;
        worker = this.createWorker();
        const finish = () => {
          worker?.terminate();
          worker = undefined;
          this.running--;
          this.release();
        };
        const strings = new StringCollector();
        worker.onmessage = (event: MessageEvent<FromWorker>) => {
          const msg = event.data;
          if (msg.type === 'strings') strings.add(msg.strings);
          else if (msg.type === 'progress') request.onProgress(msg.bytesDone, msg.bytesTotal);
          else if (msg.type === 'partial') {
            request.onPartial?.(withStrings(msg.model, strings));
            // The worker waits (load.worker.ts) until the page has shown the partial model.
            const current = worker;
            whenPageIdle(() => current?.postMessage({ type: 'resume' } satisfies ToWorker));
          }
          else if (msg.type === 'done') {
            finish();
            resolve({ model: withStrings(msg.model, strings), decodeMs: msg.decodeMs });
          } else {
            finish();
            reject(new Error(msg.message));
          }
        };
        worker.onerror = (event) => {
          finish();
          reject(new Error(`${request.name}: the decoder crashed: ${event.message || 'unknown error'}`));
        };
        const { file, name, options } = request;
        const msg: ToWorker =
          file instanceof Blob ? { type: 'load', file, name, options } : { type: 'load-url', url: file.url, name, options };
        worker.postMessage(msg);
      };
      if (this.running < this.maxParallel) start();
      else this.queue.push(start);
    });
    return {
      promise,
      cancel: () => {
        if (cancelled) return;
        cancelled = true;
        if (worker) {
          worker.terminate();
          worker = undefined;
          this.running--;
          this.release();
        }
        rejectFn(new LoadCancelledError());
      },
    };
  }

  private release(): void {
    while (this.running < this.maxParallel && this.queue.length > 0) {
      this.queue.shift()!();
      if (this.running >= this.maxParallel) break;
    }
  }
}
