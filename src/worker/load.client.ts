/**
 * Page side of the load worker: one worker per file (so Cancel is a terminate), at most
 * `maxParallel` at once, promises for results. A big file's partial model (preview.ts) is decoded
 * by a second worker while the first decodes the whole file, so on two cores it costs the whole
 * load nothing (docs/performance.md). Spare workers are started while the page is idle
 * (`warmWhenIdle`), so a dropped file does not wait for a worker's script to load: about 55 ms of
 * the ~180 ms a 1M-event Chrome trace spent outside the worker's decode. The spares that the next
 * load and its partial model take also warm up their JIT on small built-in captures until that
 * load comes (warmUp.ts).
 */
import type { Model } from '../model/types.ts';
import type { DecodeOptions } from '../import/importer.ts';
import type { FromWorker, LoadPath, ToWorker, TwoWorkerPlan } from './load.protocol.ts';
import { mayPreview } from './previewSize.ts';
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
  /**
   * A model of the file's start, while the whole file still decodes (big files only). May return
   * a promise of its first drawing, which lets the held whole-file decode go on as soon as it is on
   * screen instead of when the page is next idle.
   */
  onPartial?(model: Model): Promise<void> | void;
}

export class LoadCancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'LoadCancelledError';
  }
}

type WorkerFactory = () => Worker;

/** The longest `warmWhenIdle` waits for the page to be idle. */
const IDLE_TIMEOUT_MS = 1000;
/**
 * The longest a partial model waits for the whole-file worker to say it has stopped ('held'):
 * about two of its 4 MiB slices on this 2-core machine (docs/performance.md).
 */
export const HOLD_CONFIRM_MS = 120;

/** Spare workers kept: one for the next file and one for its partial model (more: `LoadClient.warm`). */
const SPARES = 2;

/**
 * Files from this size on are read by a second worker (blobReader.ts) on a machine with two cores
 * or more: a Blob read costs the reading thread about 4 ms per 4 MiB (docs/performance.md, "The
 * whole 10M native capture in the page"), a few tasks below this size.
 */
export const READER_MIN_BYTES = 32 * 1024 * 1024;

/**
 * Files from this size on are decoded in one worker and built in another (src/worker/tapeRoles.ts)
 * on a machine with `TAPE_MIN_CORES`; below it the second worker's start and the tape cost more
 * than the overlap gains (docs/performance.md, "Two workers").
 */
export const TAPE_MIN_BYTES = 16 * 1024 * 1024;

/**
 * Cores the two-worker load needs to be used unasked: one each for the decode, the build, the
 * partial model's worker and the page. The tape costs CPU of its own, so without a free core the
 * load is slower than on one worker (docs/performance.md, "Two workers").
 */
export const TAPE_MIN_CORES = 4;

/**
 * Chrome traces from this size on are parsed in one worker and built in another
 * (src/import/chromeSplit.ts) on a machine with `SPLIT_MIN_CORES`. Below it a file is one or two
 * 16 MiB reads, which leaves little to overlap; a guess, not measured (the split gains nothing on
 * the 2-core machine it was measured on, at any size).
 */
export const SPLIT_MIN_BYTES = 32 * 1024 * 1024;
/**
 * Cores the split load needs to be used unasked. In the page the two sides together cost about 40%
 * more CPU than one worker (each side about three quarters of it), so it gains only where the
 * second side finds a free core: on this 2-core machine, busy, it was slower, and the quiet-host
 * figure is still to be taken (docs/performance.md, "Chrome JSON on two workers"). As for the tape:
 * one core each for the two sides, the partial model's worker and the page.
 */
export const SPLIT_MIN_CORES = 4;

/** When to load on two workers: by size and cores ('auto'), or always/never (`?tape=` and `?split=` in the page's URL, for tests and benchmarks). */
export type TapeChoice = 'auto' | 'always' | 'never';

/** The `?tape=always|never` (or `?split=...` with `key` 'split') of a page URL's query, else 'auto'. */
export function tapeChoiceFromQuery(search: string, key: 'tape' | 'split' = 'tape'): TapeChoice {
  const raw = new URLSearchParams(search).get(key);
  return raw === 'always' || raw === 'never' ? raw : 'auto';
}

/** Runs `then` once the page is idle (after the frames that a new model causes), or after IDLE_TIMEOUT_MS. */
function whenPageIdle(then: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(then, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(then, 0);
}

const defaultFactory: WorkerFactory = () =>
  new Worker(new URL('./load.worker.ts', import.meta.url), { type: 'module', name: 'nvtxview-load' });

/** A worker started before a file came; `failed` once its script could not load or run; `warming` once asked to warm up its JIT. */
interface Spare {
  worker: Worker;
  failed: boolean;
  warming: boolean;
}

export class LoadClient {
  private running = 0;
  private readonly queue: Array<() => void> = [];
  private spares: Spare[] = [];

  constructor(
    private readonly maxParallel = Math.max(1, Math.min(4, globalThis.navigator?.hardwareConcurrency ?? 2)),
    private readonly createWorker: WorkerFactory = defaultFactory,
    /** Memory budget of each model (`DecodeOptions.modelBudgetBytes`); the worker's default when unset. */
    private readonly modelBudgetBytes?: number,
    /** With one core the two workers would only share it: the whole file then waits for the partial model (at most HOLD_MAX_MS). */
    private readonly cores = globalThis.navigator?.hardwareConcurrency ?? 2,
    private readonly tape: TapeChoice = 'auto',
    /**
     * Chrome traces parsed and built on two workers (`?split=`; the page passes 'auto'). 'auto' applies
     * only where `tape` is 'auto' too: `?tape=never` keeps one worker, `?tape=always` the tape.
     */
    private readonly split: TapeChoice = 'never',
    /** Files from this size on are read by a second worker where there are two cores (Infinity: never). */
    private readonly readerMinBytes = READER_MIN_BYTES,
  ) {}

  /** Whether a file of `size` bytes is read for its load worker by another (blobReader.ts). */
  private readByReader(size: number): boolean {
    return this.cores >= 2 && size >= this.readerMinBytes;
  }

  /** How each finished load went, in order (the page's test hooks show it). */
  readonly paths: { name: string; path: LoadPath }[] = [];

  /** How long each hold of a whole-file worker lasted, from 'hold' to 'resume', in order (test hooks and benchmarks read it). */
  readonly holds: { name: string; holdMs: number }[] = [];

  /** How a file of `size` bytes is loaded on two workers, or undefined for one. */
  private twoWorkers(size: number): TwoWorkerPlan | undefined {
    const tape = this.tape !== 'auto' ? this.tape === 'always' : this.cores >= TAPE_MIN_CORES && size >= TAPE_MIN_BYTES;
    const split = this.split !== 'auto' ? this.split === 'always' : this.tape === 'auto' && this.cores >= SPLIT_MIN_CORES && size >= SPLIT_MIN_BYTES;
    return tape || split ? { tape, split } : undefined;
  }

  /**
   * Starts the workers for the next load now (idempotent): a new worker's module takes tens of
   * milliseconds to fetch, compile and run before it can read a byte.
   */
  warm(): void {
    // One more to read a big file for the first where there are two cores, and one more where big
    // files load on two workers (`plan`: how the biggest file would, so the split's code is warmed too).
    const plan = this.twoWorkers(Infinity);
    const spares = SPARES + (this.cores >= 2 && this.readerMinBytes !== Infinity ? 1 : 0) + (plan ? 1 : 0);
    while (this.spares.length < spares) {
      const spare: Spare = { worker: this.createWorker(), failed: false, warming: false };
      // A script that fails reports it once, before any load: the load that takes this worker gets
      // a fresh one with its own error handling instead of waiting on a dead one.
      spare.worker.onerror = () => {
        spare.failed = true;
      };
      this.spares.push(spare);
    }
    // The next load takes the first spare (and the second for its decode side where files load on
    // two workers), then the one for its partial model: they warm up their JIT meanwhile
    // (warmUp.ts) and stop at the load's message. A cold partial model's worker compiled the same
    // decoder and builder as the whole-file worker at the same time, and V8's background compiler
    // threads took the cores from both (docs/performance.md, "What the page adds to the whole 10M
    // native load").
    const warmed = (plan ? 2 : 1) + 1;
    this.spares.slice(0, warmed).forEach((next, k) => {
      if (next.warming) return;
      next.warming = true;
      // Only the load's own workers take the split's code; the partial model loads on one.
      next.worker.postMessage({ type: 'warm', split: plan?.split === true && k < warmed - 1 } satisfies ToWorker);
    });
  }

  /**
   * Waited on before the spares are warmed again after a load (the page passes: the timeline's view
   * has been still a while). The warm-up takes the other core for ~0.3 s, and right after a load
   * is when someone pans what was loaded: on two cores the frames then wait for a core
   * (docs/performance.md, "Frame time at 10M: what else runs during a pan").
   */
  afterLoadGate: () => Promise<void> = () => Promise.resolve();

  /** `warm` once the page is idle (start-up done, a loaded capture drawn) and `gate` resolved. */
  warmWhenIdle(gate: () => Promise<void> = () => Promise.resolve()): void {
    whenPageIdle(() => {
      void gate().then(() => {
        if (this.running === 0) this.warm();
      });
    });
  }

  /** A spare worker if one is sound, else a new one. */
  private takeWorker(): Worker {
    for (let spare = this.spares.shift(); spare; spare = this.spares.shift()) {
      if (!spare.failed) return spare.worker;
      spare.worker.terminate();
    }
    return this.createWorker();
  }

  /**
   * A second worker that decodes the file's first slice and hands its model to `onPartial`, unless
   * the whole model came first; it ends itself after its one answer. While the page takes the
   * partial model in and draws it, the whole-file worker (`whole`) holds (load.protocol.ts,
   * 'hold'): with two cores or more from the end of the slice's decode, with one core from the
   * start, until the page is idle. The partial model is handed on once that worker has stopped
   * ('held', through `onWholeHeld`) or after HOLD_CONFIRM_MS. Returns its terminate.
   */
  private startPreview(taken: Worker, file: Blob, request: LoadRequest, whole: () => Worker | undefined, onWholeHeld: (listener: () => void) => void): () => void {
    let worker: Worker | undefined = taken;
    let holding = false;
    /** Whether the whole-file worker said it stopped on the current hold. */
    let stopped = false;
    let ended = false;
    /** Shows the partial model that waits for the whole-file worker to stop. */
    let waiting: { show(): void; timer: ReturnType<typeof setTimeout> } | undefined;
    /** When the current hold was asked (performance.now()). */
    let heldSince = 0;
    const holdWhole = () => {
      holding = whole() !== undefined;
      stopped = false;
      heldSince = performance.now();
      whole()?.postMessage({ type: 'hold' } satisfies ToWorker);
    };
    const resumeWhole = () => {
      if (holding) {
        whole()?.postMessage({ type: 'resume' } satisfies ToWorker);
        this.holds.push({ name: request.name, holdMs: performance.now() - heldSince });
      }
      holding = false;
    };
    onWholeHeld(() => {
      stopped = true;
      waiting?.show();
    });
    const stop = () => {
      worker?.terminate();
      worker = undefined;
    };
    const strings = new StringCollector();
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      const msg = event.data;
      if (msg.type === 'strings') return strings.add(msg.strings);
      if (msg.type === 'slice-read') {
        // From here, so that the whole-file worker has stopped (at its next slice) by the time the
        // partial model reaches the page (docs/performance.md, "The whole 10M native capture in
        // the page").
        if (!holding) holdWhole();
        return;
      }
      stop();
      if (msg.type === 'partial' && whole()) {
        const model = withStrings(msg.model, strings);
        const show = () => {
          if (waiting) clearTimeout(waiting.timer);
          waiting = undefined;
          if (ended || !whole()) return;
          const drawn = request.onPartial?.(model);
          // Once the timeline has drawn it (the task after that frame), or when the page is next
          // idle if that comes first or no drawing is promised. Not sooner (e.g. after two
          // animation frames): the timeline draws the new capture only after React has rendered
          // it, and a whole-file worker resumed before that stretched those tasks past 50 ms on a
          // busy host (docs/performance.md).
          if (drawn) void drawn.then(() => setTimeout(resumeWhole, 0));
          whenPageIdle(resumeWhole);
        };
        // The page's tasks with the new model would share the machine with the whole file's
        // decode until it reaches its next slice: wait for it to stop, a slice's decode at most.
        if (!holding || stopped) show();
        else waiting = { show, timer: setTimeout(show, HOLD_CONFIRM_MS) };
      } else resumeWhole();
    };
    // A partial model is a courtesy: the whole load reports what is wrong.
    worker.onerror = () => {
      stop();
      resumeWhole();
    };
    const msg: ToWorker = { type: 'preview', file, name: request.name, options: request.options };
    worker.postMessage(msg);
    if (this.cores < 2) holdWhole();
    return () => {
      ended = true;
      if (waiting) clearTimeout(waiting.timer);
      waiting = undefined;
      stop();
    };
  }

  load(request: LoadRequest): LoadHandle {
    let worker: Worker | undefined;
    /** The decode worker of a two-worker load (`worker` builds). */
    let decoder: Worker | undefined;
    /** The worker that reads a big file for `worker` (blobReader.ts). */
    let reader: Worker | undefined;
    let stopPreview: (() => void) | undefined;
    /** Told when the whole-file worker has stopped on a hold ('held'). */
    let onHeld: (() => void) | undefined;
    let cancelled = false;
    let rejectFn: (e: Error) => void = () => {};
    const promise = new Promise<{ model: Model; decodeMs: number }>((resolve, reject) => {
      rejectFn = reject;
      const start = () => {
        if (cancelled) return this.release();
        this.running++;
        worker = this.takeWorker();
        const finish = () => {
          stopPreview?.();
          worker?.terminate();
          worker = undefined;
          decoder?.terminate();
          decoder = undefined;
          reader?.terminate();
          reader = undefined;
          this.running--;
          this.release();
          // The next file gets a started worker too.
          if (this.running === 0) this.warmWhenIdle(this.afterLoadGate);
        };
        const strings = new StringCollector();
        worker.onmessage = (event: MessageEvent<FromWorker>) => {
          const msg = event.data;
          if (msg.type === 'strings') strings.add(msg.strings);
          else if (msg.type === 'progress') request.onProgress(msg.bytesDone, msg.bytesTotal);
          else if (msg.type === 'held') onHeld?.();
          else if (msg.type === 'done') {
            finish();
            this.paths.push({ name: request.name, path: msg.path ?? 'single' });
            resolve({ model: withStrings(msg.model, strings), decodeMs: msg.decodeMs });
          } else if (msg.type === 'failed') {
            finish();
            reject(new Error(msg.message));
          }
        };
        worker.onerror = (event) => {
          finish();
          reject(new Error(`${request.name}: the decoder crashed: ${event.message || 'unknown error'}`));
        };
        const { file, name } = request;
        const options = this.modelBudgetBytes === undefined ? request.options : { ...request.options, modelBudgetBytes: this.modelBudgetBytes };
        const plan = file instanceof Blob ? this.twoWorkers(file.size) : undefined;
        if (file instanceof Blob && plan) decoder = this.takeWorker();
        // Taken before a reader: the spare after the load's own is the one warmed for a partial model (`warm`).
        const partialWorker = file instanceof Blob && request.onPartial && mayPreview(file.size) ? this.takeWorker() : undefined;
        if (file instanceof Blob && plan && decoder) {
          decoder.onerror = worker.onerror;
          const channel = new MessageChannel();
          worker.postMessage({ type: 'tape-build', file, name, options, port: channel.port1 } satisfies ToWorker, [channel.port1]);
          decoder.postMessage({ type: 'tape-decode', file, name, options, port: channel.port2, plan } satisfies ToWorker, [channel.port2]);
        } else if (file instanceof Blob && this.readByReader(file.size)) {
          reader = this.takeWorker();
          const whole = worker;
          // A reader that fails leaves the reads to the load worker.
          reader.onerror = () => {
            reader?.terminate();
            reader = undefined;
            whole.postMessage({ type: 'read-here' } satisfies ToWorker);
          };
          const channel = new MessageChannel();
          reader.postMessage({ type: 'read', file, port: channel.port2 } satisfies ToWorker, [channel.port2]);
          worker.postMessage({ type: 'load', file, name, options, readPort: channel.port1 } satisfies ToWorker, [channel.port1]);
        } else {
          const msg: ToWorker =
            file instanceof Blob ? { type: 'load', file, name, options } : { type: 'load-url', url: file.url, name, options };
          worker.postMessage(msg);
        }
        if (file instanceof Blob && partialWorker) stopPreview = this.startPreview(partialWorker, file, request, () => worker, (listener) => (onHeld = listener));
      };
      if (this.running < this.maxParallel) start();
      else this.queue.push(start);
    });
    return {
      promise,
      cancel: () => {
        if (cancelled) return;
        cancelled = true;
        stopPreview?.();
        decoder?.terminate();
        decoder = undefined;
        reader?.terminate();
        reader = undefined;
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
