/**
 * Where the panel's statistics run. Small captures are computed on the page at once (a few
 * milliseconds, no copy). Captures of `WORKER_MIN_EVENTS` events or more go to one statistics
 * worker, which is sent a copy of the model the first time it needs it (see README.md for the
 * memory decision). Requests are coalesced per slot: while the worker is busy, a newer request of
 * the same slot and capture replaces the queued one (its promise resolves to null), so dragging a
 * span never builds a backlog.
 */
import { modelTransferables } from '../../model/transfer.ts';
import type { Model } from '../../model/types.ts';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import { compareCaptures, endedInstances, nthByStart, type CompareResult } from '../../analysis/compare/index.ts';
import type { RangeStatsOptions } from '../../analysis/rangeStats.ts';
import { computeStats, type StatsRequest, type StatsResult } from './compute.ts';
import { stringSlices } from '../../worker/stringSlices.ts';
import type { MotionGate } from './viewMotion.ts';
import type { FromStatsWorker, ToStatsWorker } from './stats.protocol.ts';

/**
 * Events (ranges + marks + counter samples) from which a capture's statistics run in the worker.
 * A whole-capture table is cheap on the page's thread once the code is warm, but the first table
 * of a session runs cold code, and from about this size it may pass 50 ms (docs/performance.md,
 * "Figures behind constants").
 */
export const WORKER_MIN_EVENTS = 20_000;

export interface StatsAnswer {
  result: StatsResult;
  /** Computation time (ms), without the messaging. */
  ms: number;
  where: 'page' | 'worker';
}

export interface InstancesAnswer {
  /** Ended instances sorted by duration, and their RangeIndex in that capture. */
  durations: Float64Array;
  ranges: Int32Array;
  ms: number;
  where: 'page' | 'worker';
}

export interface CompareAnswer {
  /** With the page's own models (the worker's rows carry the same group keys). */
  result: CompareResult;
  ms: number;
  where: 'page' | 'worker';
}

/** Bytes copied at a time; the clock is read between chunks. */
const COPY_CHUNK_BYTES = 1 << 20;
/**
 * Longest copying time per slice. An idle period of a quiet page lasts up to 50 ms, and input that
 * arrives meanwhile waits for the slice to end. A fixed byte count is no bound on time under load
 * (docs/performance.md, "Figures behind constants").
 */
const COPY_BUDGET_MS = 8;
/** Longest wait for an idle period: past it, a slice runs anyway (at least one chunk). */
const IDLE_TIMEOUT_MS = 100;

/**
 * Waits for the page's next idle period and resolves to the time (performance.now()) at which the
 * work done in it should stop: copying a model for the worker is background work, and must not
 * delay the frames of someone zooming the timeline meanwhile. At most COPY_BUDGET_MS; without
 * requestIdleCallback (Safari, Node), the next task and that budget.
 */
function idleSlice(): Promise<number> {
  if (typeof requestIdleCallback === 'function') {
    return new Promise((resolve) =>
      requestIdleCallback((deadline) => resolve(performance.now() + Math.min(COPY_BUDGET_MS, deadline.timeRemaining())), {
        timeout: IDLE_TIMEOUT_MS,
      }),
    );
  }
  return new Promise((resolve) => setTimeout(() => resolve(performance.now() + COPY_BUDGET_MS), 0));
}

export interface CopyPacing {
  chunkBytes: number;
  /** Resolves when the next slice of copying may start, to the time it should end. */
  slice(): Promise<number>;
  now(): number;
}

const PACING: CopyPacing = { chunkBytes: COPY_CHUNK_BYTES, slice: idleSlice, now: () => performance.now() };

/**
 * The model with every typed array replaced by a copy (nested plain objects followed), other
 * values shared: a message whose copied buffers can be transferred. The copying is a memcpy in
 * chunks, done in the page's idle periods (`pacing.slice`), at least one chunk per period, so a
 * model of hundreds of megabytes never holds the page for long nor takes time from its frames.
 * Typed arrays reached twice (e.g. a column and the summary built from it) stay one array.
 */
export async function copyColumns<T>(value: T, pacing: CopyPacing = PACING): Promise<T> {
  let sliceEnd = await pacing.slice();
  const copies = new Map<unknown, unknown>();
  const copy = async (v: unknown): Promise<unknown> => {
    if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
      const done = copies.get(v);
      if (done) return done;
      const src = v as Uint8Array;
      const out = new (src.constructor as new (n: number) => Uint8Array)(src.length);
      copies.set(v, out);
      const step = Math.max(1, Math.floor(pacing.chunkBytes / src.BYTES_PER_ELEMENT));
      for (let i = 0; i < src.length; i += step) {
        out.set(src.subarray(i, Math.min(src.length, i + step)), i);
        if (pacing.now() >= sliceEnd) sliceEnd = await pacing.slice();
      }
      return out;
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof Map || v instanceof Set) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = await copy(x);
    return out;
  };
  return (await copy(value)) as T;
}

export function modelEvents(model: Model): number {
  return model.ranges.startNs.length + model.marks.timeNs.length + model.counters.timeNs.length;
}

type WorkerFactory = () => Worker;

const defaultFactory: WorkerFactory = () =>
  new Worker(new URL('./stats.worker.ts', import.meta.url), { type: 'module', name: 'nvtxview-stats' });

/** What the worker is sent of a capture. */
type HeldCapture = Pick<LoadedCapture, 'id' | 'model'>;

type Answer = Extract<FromStatsWorker, { type: 'result' | 'compared' | 'instances' | 'prepared' | 'nth' }>;

interface Job {
  key: string;
  /** The captures the worker must hold before `message` is posted. */
  captures: HeldCapture[];
  message(id: number): ToStatsWorker;
  /** Turns the worker's answer into what the job's promise resolves to. */
  answer(msg: Answer): unknown;
  /** Work ahead of time (`prepare`): every other queued job runs before it. */
  background?: boolean;
  id: number;
  resolve(answer: unknown): void;
  reject(error: Error): void;
}

export class StatsService {
  private worker: Worker | null = null;
  /** Models the worker holds, by capture id. */
  private readonly sent = new Map<number, Model>();
  /** Waited on before each computation starts in the worker (viewMotion.ts); none: at once. */
  private motion: MotionGate | null = null;
  private readonly queue: Job[] = [];
  private inFlight: Job | null = null;
  private nextId = 1;

  constructor(
    private readonly createWorker: WorkerFactory = defaultFactory,
    readonly minWorkerEvents = WORKER_MIN_EVENTS,
  ) {}

  /** Worker computations start once `gate` says the timeline's view is still (null: at once). */
  setMotionGate(gate: MotionGate | null): void {
    this.motion = gate;
  }

  /** Whether a capture's statistics run in the worker. */
  usesWorker(model: Model): boolean {
    return modelEvents(model) >= this.minWorkerEvents;
  }

  /**
   * Answers `request` for `capture`; resolves to null when a newer request of the same `slot`
   * for the same capture replaced it before it ran.
   */
  run(capture: LoadedCapture, request: StatsRequest, slot: string): Promise<StatsAnswer | null> {
    if (!this.usesWorker(capture.model)) {
      try {
        const t0 = performance.now();
        const result = computeStats(capture.model, request);
        return Promise.resolve({ result, ms: performance.now() - t0, where: 'page' });
      } catch (e) {
        return Promise.reject(e instanceof Error ? e : new Error(String(e)));
      }
    }
    return this.enqueue<StatsAnswer>({
      key: `${slot}|${capture.id}`,
      captures: [capture],
      message: (id) => ({ type: 'run', id, capture: capture.id, request }),
      answer: (msg) => (msg.type === 'result' ? { result: msg.result, ms: msg.ms, where: 'worker' } : null),
    });
  }

  /**
   * `compareCaptures(base, candidate, baseOptions, candidateOptions)`: on the page when both
   * models are small, else in the worker (which is sent whichever model it lacks). Resolves to
   * null when a newer comparison of the same `slot` replaced it before it ran.
   */
  compare(base: HeldCapture, candidate: HeldCapture, baseOptions: RangeStatsOptions, candidateOptions: RangeStatsOptions, slot: string): Promise<CompareAnswer | null> {
    if (!this.usesWorker(base.model) && !this.usesWorker(candidate.model)) {
      try {
        const t0 = performance.now();
        const result = compareCaptures(base.model, candidate.model, baseOptions, candidateOptions);
        return Promise.resolve({ result, ms: performance.now() - t0, where: 'page' });
      } catch (e) {
        return Promise.reject(e instanceof Error ? e : new Error(String(e)));
      }
    }
    return this.enqueue<CompareAnswer>({
      key: `${slot}|compare`,
      captures: base.id === candidate.id ? [base] : [base, candidate],
      message: (id) => ({ type: 'compare', id, base: base.id, candidate: candidate.id, baseOptions, candidateOptions }),
      answer: (msg) =>
        msg.type === 'compared'
          ? {
              result: {
                groupBy: msg.groupBy,
                rows: msg.rows,
                base: { model: base.model, options: msg.baseOptions },
                candidate: { model: candidate.model, options: msg.candidateOptions },
              },
              ms: msg.ms,
              where: 'worker',
            }
          : null,
    });
  }

  /**
   * A comparison row's ended instances in one capture (`endedInstances`): on the page for a small
   * model, else in the worker (a 1M-instance group of a 10M capture takes most of a second).
   */
  instances(capture: HeldCapture, options: RangeStatsOptions, key: string, slot: string): Promise<InstancesAnswer | null> {
    if (!this.usesWorker(capture.model)) {
      try {
        const t0 = performance.now();
        const found = endedInstances(capture.model, options, key);
        return Promise.resolve({ ...found, ms: performance.now() - t0, where: 'page' });
      } catch (e) {
        return Promise.reject(e instanceof Error ? e : new Error(String(e)));
      }
    }
    return this.enqueue<InstancesAnswer>({
      key: `${slot}|instances`,
      captures: [capture],
      message: (id) => ({ type: 'instances', id, capture: capture.id, options, key }),
      answer: (msg) => (msg.type === 'instances' ? { durations: msg.durations, ranges: msg.ranges, ms: msg.ms, where: 'worker' } : null),
    });
  }

  /**
   * Has the worker compute `capture`'s half of a comparison with `options` (`compareSide`) ahead
   * of time and keep it, sending the model first when the worker lacks it: background work that
   * yields to every other request. Resolves to true once kept, false for a model compared on the
   * page (nothing to prepare), null when a newer `prepare` of the capture replaced it.
   */
  prepare(capture: HeldCapture, options: RangeStatsOptions): Promise<boolean | null> {
    if (!this.usesWorker(capture.model)) return Promise.resolve(false);
    return this.enqueue<boolean>({
      key: `prepare|${capture.id}`,
      captures: [capture],
      background: true,
      message: (id) => ({ type: 'prepare', id, capture: capture.id, options }),
      answer: (msg) => (msg.type === 'prepared' ? true : null),
    });
  }

  /**
   * The `n`-th ended instance by start time of a comparison row in one capture (`key`: its
   * `SideFigures.key`), a RangeIndex or -1: on the page for a small model, else in the worker
   * (reading a 1M-instance group takes most of a second).
   */
  nth(capture: HeldCapture, options: RangeStatsOptions, key: string, n: number, slot: string): Promise<{ range: number; ms: number; where: 'page' | 'worker' } | null> {
    if (!this.usesWorker(capture.model)) {
      try {
        const t0 = performance.now();
        const range = nthByStart(capture.model.ranges.startNs, endedInstances(capture.model, options, key).ranges, n);
        return Promise.resolve({ range, ms: performance.now() - t0, where: 'page' });
      } catch (e) {
        return Promise.reject(e instanceof Error ? e : new Error(String(e)));
      }
    }
    return this.enqueue({
      key: `${slot}|nth`,
      captures: [capture],
      message: (id) => ({ type: 'nth', id, capture: capture.id, options, key, n }),
      answer: (msg) => (msg.type === 'nth' ? { range: msg.range, ms: msg.ms, where: 'worker' as const } : null),
    });
  }

  private enqueue<T>(job: Pick<Job, 'key' | 'captures' | 'message' | 'answer' | 'background'>): Promise<T | null> {
    return new Promise<T | null>((resolve, reject) => {
      const queued = this.queue.findIndex((j) => j.key === job.key);
      if (queued >= 0) this.queue.splice(queued, 1)[0].resolve(null);
      this.queue.push({ ...job, id: 0, resolve: resolve as (answer: unknown) => void, reject });
      this.pump();
    });
  }

  /** Requests queued or running (background ones included): 0 once the service is idle. */
  pendingJobs(): number {
    return this.queue.length + (this.inFlight ? 1 : 0);
  }

  /** Drops the worker's copies of captures that were closed or reloaded. */
  sync(captures: readonly LoadedCapture[]): void {
    for (const [id, model] of [...this.sent]) {
      if (captures.some((c) => c.id === id && c.model === model)) continue;
      this.sent.delete(id);
      this.post({ type: 'drop', capture: id });
    }
  }

  /** Bytes of model columns the worker holds copies of. */
  copiedBytes(): number {
    let bytes = 0;
    for (const model of this.sent.values()) for (const b of modelTransferables(model)) bytes += b.byteLength;
    return bytes;
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
    this.sent.clear();
    for (const job of this.queue.splice(0)) job.resolve(null);
    this.inFlight?.resolve(null);
    this.inFlight = null;
  }

  private post(msg: ToStatsWorker): void {
    this.worker?.postMessage(msg);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = this.createWorker();
    worker.onmessage = (event: MessageEvent<FromStatsWorker>) => this.onMessage(event.data);
    worker.onerror = (event) => {
      event.preventDefault?.();
      // A crash (out of memory...) loses the worker's models: start over with a fresh one.
      worker.terminate();
      if (this.worker === worker) this.worker = null;
      this.sent.clear();
      const job = this.inFlight;
      this.inFlight = null;
      job?.reject(new Error(`The statistics worker stopped: ${event.message || 'unknown error'}`));
      this.pump();
    };
    this.worker = worker;
    return worker;
  }

  private onMessage(msg: FromStatsWorker): void {
    const job = this.inFlight;
    if (!job || job.id !== msg.id) return;
    this.inFlight = null;
    if (msg.type === 'failed') job.reject(new Error(msg.message));
    else job.resolve(job.answer(msg));
    this.pump();
  }

  private pump(): void {
    if (this.inFlight || this.queue.length === 0) return;
    const next = this.queue.findIndex((j) => !j.background);
    const job = this.queue.splice(next >= 0 ? next : 0, 1)[0];
    job.id = this.nextId++;
    this.inFlight = job;
    const worker = this.ensureWorker();
    const post = () => {
      // Disposed, or the worker crashed while a copy was made or the view moved.
      if (this.inFlight !== job || this.worker !== worker) return;
      this.post(job.message(job.id));
    };
    // A computation takes a core for up to seconds: not while someone pans or zooms.
    const motion = this.motion;
    const send = () => (motion ? void motion.whenStill().then(post) : post());
    // Still the job and the worker it was made for, and the capture still has this model.
    const current = (captureId: number, model: Model) => this.inFlight === job && this.worker === worker && this.sent.get(captureId) === model;
    const sendModel = async ({ id: captureId, model }: HeldCapture): Promise<boolean> => {
      if (this.sent.get(captureId) === model) return true;
      // The page keeps drawing from its own columns: the worker gets copies, transferred. A memcpy
      // is far cheaper than structured cloning (src/ui/stats/README.md has the figures).
      this.sent.set(captureId, model);
      try {
        const copy = await copyColumns(model);
        // A big string table goes in slices, each cloned in a task of its own (stringSlices.ts).
        const slices = stringSlices(copy.strings);
        if (slices.length > 1) {
          for (const strings of slices) {
            if (!current(captureId, model)) return false;
            worker.postMessage({ type: 'strings', capture: captureId, strings } satisfies ToStatsWorker);
            await idleSlice();
          }
          copy.strings = [];
        }
        if (!current(captureId, model)) return false;
        worker.postMessage({ type: 'model', capture: captureId, model: copy } satisfies ToStatsWorker, modelTransferables(copy));
        return true;
      } catch (e) {
        if (this.sent.get(captureId) === model) this.sent.delete(captureId);
        throw e;
      }
    };
    if (job.captures.every((c) => this.sent.get(c.id) === c.model)) {
      send();
      return;
    }
    const sendModels = async (): Promise<boolean> => {
      for (const capture of job.captures) if (!(await sendModel(capture))) return false;
      return true;
    };
    sendModels().then(
      (sent) => {
        // Disposed, or the worker crashed meanwhile (its handler settled the job).
        if (this.inFlight !== job || this.worker !== worker) return;
        if (!sent) {
          // A capture was closed or reloaded while it was copied.
          this.inFlight = null;
          job.resolve(null);
          this.pump();
          return;
        }
        send();
      },
      (e: unknown) => {
        if (this.inFlight !== job) return;
        this.inFlight = null;
        job.reject(e instanceof Error ? e : new Error(String(e)));
        this.pump();
      },
    );
  }
}
