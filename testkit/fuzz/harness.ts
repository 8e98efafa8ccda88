/**
 * Runs fuzz cases of one format in a worker thread with a time bound per case, tallies the
 * outcomes, and saves the inputs that hang, throw or break the model as reproducers.
 *
 * Time bound: the valid seed's decode time (measured in the same worker before the cases) times
 * `factor`, scaled by how much larger the case is than its seed, plus `floorMs` for the noise of
 * a shared machine. A case over it is ended with its worker and run again in a fresh one with three
 * times the bound; over that too, it is a hang.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CaseResult, Outcome } from './check.ts';
import { EXTENSION, makeCase, seedInputs, type FuzzCase, type FuzzFormat, type SeedInput } from './cases.ts';
import type { MutationScale } from './mutate.ts';
import type { WorkerReply } from './protocol.ts';

export interface FuzzRunOptions {
  format: FuzzFormat;
  /** Cases to run, numbered from `first`. */
  cases: number;
  first?: number;
  seed: number;
  scale?: MutationScale;
  /** Real fixtures up to this size join the seeds (0: generated seeds only). */
  fixtureBytes?: number;
  /** At most this many events per generated seed (cheaper cases for long runs). */
  seedEvents?: number;
  /** The summary of an earlier, stopped run of the same cases: it goes on after its last case. */
  resume?: FuzzSummary;
  factor?: number;
  floorMs?: number;
  /** Worker heap limit; a case over it counts as an exception ("out of memory"). */
  heapMb?: number;
  /** Where reproducers go (none saved when unset). */
  saveTo?: string;
  /** Called after each case (progress, logs). */
  onCase?: (c: FuzzCase, result: CaseResult) => void;
  /** Called every 100 cases with the summary so far (a long run can be stopped without losing it). */
  onSummary?: (soFar: FuzzSummary) => void;
}

export interface FuzzFailure {
  index: number;
  from: string;
  outcome: Outcome;
  detail?: string;
  ms: number;
  bytes: number;
  /** Path of the saved input. */
  saved?: string;
}

export interface FuzzSummary {
  format: FuzzFormat;
  seed: number;
  /** The first case's number; `cases` were run from it. */
  first: number;
  cases: number;
  counts: Record<Outcome, number>;
  /** Slowest case that answered. */
  slowest: { index: number; from: string; ms: number; bytes: number; outcome: Outcome } | undefined;
  /** Valid seeds' decode time, ms (the base of the time bound). */
  seedMs: Record<string, number>;
  failures: FuzzFailure[];
  /** Cases over the bound that were run again (a hang only when the second try was over 3x the bound too). */
  retried: number;
  /** Run time, ms (summed over the sessions of a resumed run). */
  wallMs: number;
  /** Checking time of the cases alone (worker answers), ms: the rest of `wallMs` is the harness's. */
  caseMs: number;
  /** 1-minute load average of the machine, sampled every 100 cases: lowest, mean, highest. */
  load: { min: number; mean: number; max: number; samples: number };
}

const FAILED: readonly Outcome[] = ['exception', 'invalid-model', 'hang'];

/** One worker thread that answers one request at a time; restarted after a hang. */
class CaseWorker {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private nextId = 1;

  constructor(private readonly heapMb: number) {}

  private start(): Promise<void> {
    const worker = new Worker(new URL('./worker.mjs', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb },
      stdout: true,
      stderr: true,
    });
    this.worker = worker;
    // Decoders do not log; a stray line from a case must not flood the run's output.
    worker.stdout.resume();
    worker.stderr.resume();
    return new Promise<void>((resolve, reject) => {
      const onMessage = (m: WorkerReply) => {
        if ('ready' in m) {
          worker.off('message', onMessage);
          worker.off('error', reject);
          resolve();
        }
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
  }

  /** Checks one input; `limitMs` undefined waits without bound (seed timing). */
  async check(name: string, bytes: Uint8Array, limitMs: number | undefined): Promise<CaseResult> {
    this.ready ??= this.start();
    await this.ready;
    const worker = this.worker!;
    const id = this.nextId++;
    const t0 = performance.now();
    return new Promise<CaseResult>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = (result: CaseResult) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve(result);
      };
      const restart = () => {
        this.ready = undefined;
        void worker.terminate();
      };
      const onMessage = (m: WorkerReply) => {
        if ('id' in m && m.id === id) done(m.result);
      };
      const onError = (e: Error) => {
        restart();
        const code = (e as NodeJS.ErrnoException).code;
        done({ outcome: 'exception', detail: code === 'ERR_WORKER_OUT_OF_MEMORY' ? `out of memory (heap limit ${this.heapMb} MB)` : `worker: ${e.message}`, ms: performance.now() - t0 });
      };
      const onExit = (code: number) => {
        restart();
        done({ outcome: 'exception', detail: `worker exited with code ${code}`, ms: performance.now() - t0 });
      };
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      if (limitMs !== undefined) {
        timer = setTimeout(() => {
          restart();
          done({ outcome: 'hang', detail: `no answer within ${Math.round(limitMs)} ms`, ms: performance.now() - t0 });
        }, limitMs);
      }
      // A copy is sent: the case's bytes stay here to be saved.
      worker.postMessage({ id, name, bytes });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    if (worker) await worker.terminate();
  }
}

/** Decode time of each valid seed (the second of two runs, so the first pays for warm-up). */
async function timeSeeds(worker: CaseWorker, seeds: readonly SeedInput[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const seed of seeds) {
    await worker.check(seed.name, seed.bytes, undefined);
    out[seed.name] = (await worker.check(seed.name, seed.bytes, undefined)).ms;
  }
  return out;
}

export async function runFuzz(options: FuzzRunOptions): Promise<FuzzSummary> {
  const started = performance.now();
  const scale = options.scale ?? { maxDepth: 200 };
  const factor = options.factor ?? 10;
  const floorMs = options.floorMs ?? 2000;
  const first = options.first ?? 0;
  const seeds = await seedInputs(options.format, { fixtureBytes: options.fixtureBytes ?? 0, seedEvents: options.seedEvents });
  const bySeed = new Map(seeds.map((s) => [s.name, s]));
  const worker = new CaseWorker(options.heapMb ?? 2048);
  const before = options.resume;
  if (before && (before.format !== options.format || before.seed !== options.seed || before.first !== first)) {
    throw new Error(`cannot resume: the summary is of ${before.format} seed ${before.seed} from case ${before.first}`);
  }
  const counts: Record<Outcome, number> = before ? { ...before.counts } : { loaded: 0, refused: 0, exception: 0, 'invalid-model': 0, hang: 0 };
  const failures: FuzzFailure[] = before ? before.failures.slice() : [];
  let retried = before?.retried ?? 0;
  let slowest: FuzzSummary['slowest'] = before?.slowest;
  let seedMs: Record<string, number> = {};
  let caseMs = before?.caseMs ?? 0;
  const load = before?.load ? { ...before.load } : { min: Infinity, mean: 0, max: 0, samples: 0 };
  const sampleLoad = () => {
    const l = loadavg()[0];
    load.mean = (load.mean * load.samples + l) / (load.samples + 1);
    load.samples++;
    load.min = Math.min(load.min, l);
    load.max = Math.max(load.max, l);
  };
  const summary = (cases: number): FuzzSummary => ({
    format: options.format,
    seed: options.seed,
    first,
    cases,
    counts: { ...counts },
    slowest,
    seedMs,
    failures: failures.slice(),
    retried,
    wallMs: (before?.wallMs ?? 0) + Math.round(performance.now() - started),
    caseMs: Math.round(caseMs),
    load: { ...load, mean: Math.round(load.mean * 100) / 100 },
  });
  try {
    seedMs = await timeSeeds(worker, seeds);
    if (options.saveTo) mkdirSync(options.saveTo, { recursive: true });
    sampleLoad();
    for (let index = first + (before?.cases ?? 0); index < first + options.cases; index++) {
      const c = await makeCase(options.format, index, options.seed, seeds, scale);
      const seed = bySeed.get(c.from);
      const baseMs = seed ? seedMs[seed.name] * Math.max(1, c.bytes.length / seed.bytes.length) : Math.max(...Object.values(seedMs));
      const limitMs = floorMs + factor * baseMs;
      let result = await worker.check(c.name, c.bytes, limitMs);
      caseMs += result.ms;
      if (result.outcome === 'hang') {
        // A busy shared machine stalls a case now and then: a hang counts only when a fresh
        // worker, given three times the bound, does not answer either.
        const again = await worker.check(c.name, c.bytes, 3 * limitMs);
        result = again.outcome === 'hang' ? { ...again, detail: `no answer within ${Math.round(limitMs)} ms, nor within ${Math.round(3 * limitMs)} ms on a second try` } : { ...again, detail: again.detail ?? `answered in ${Math.round(again.ms)} ms on a second try` };
        retried++;
      }
      counts[result.outcome]++;
      if (result.outcome !== 'hang' && (!slowest || result.ms > slowest.ms)) {
        slowest = { index, from: c.from, ms: Math.round(result.ms), bytes: c.bytes.length, outcome: result.outcome };
      }
      if (FAILED.includes(result.outcome)) {
        const failure: FuzzFailure = { index, from: c.from, outcome: result.outcome, detail: result.detail, ms: Math.round(result.ms), bytes: c.bytes.length };
        if (options.saveTo) {
          failure.saved = join(options.saveTo, `${options.format}-s${options.seed}-${index}-${result.outcome}.${EXTENSION[options.format]}`);
          writeFileSync(failure.saved, c.bytes);
        }
        failures.push(failure);
      }
      options.onCase?.(c, result);
      const done = index - first + 1;
      if (done % 100 === 0) sampleLoad();
      if (done % 100 === 0 && done < options.cases) options.onSummary?.(summary(done));
    }
    return summary(options.cases);
  } finally {
    await worker.close();
  }
}

/** Checks given files (the saved reproducers) with the same worker and bound as a run. */
export async function checkFiles(files: readonly { name: string; bytes: Uint8Array }[], limitMs: number, heapMb = 2048): Promise<CaseResult[]> {
  const worker = new CaseWorker(heapMb);
  try {
    const out: CaseResult[] = [];
    for (const f of files) out.push(await worker.check(f.name, f.bytes, limitMs));
    return out;
  } finally {
    await worker.close();
  }
}
