/**
 * Runs a regular expression over names in a worker with a time bound: past it the worker is ended
 * (a backtracking expression cannot be interrupted any other way) and a fresh one serves the next
 * request. One request at a time, in order.
 */
import type { RegexReply, RegexRequest } from './regex.protocol.ts';

/** How long one expression may run over a capture's names before it is given up. */
export const REGEX_TIME_LIMIT_MS = 1000;

export type RegexResult = { matches: Uint8Array } | { error: string } | { timedOut: true };

export type RegexWorkerFactory = () => Worker;

const defaultFactory: RegexWorkerFactory = () =>
  new Worker(new URL('./regex.worker.ts', import.meta.url), { type: 'module', name: 'nvtxview-regex' });

export class RegexClient {
  private worker: Worker | undefined;
  private nextId = 1;
  private queue: Promise<void> = Promise.resolve();
  private pending: { id: number; resolve: (r: RegexResult) => void; timer: ReturnType<typeof setTimeout> } | undefined;

  constructor(
    private readonly factory: RegexWorkerFactory = defaultFactory,
    private readonly limitMs = REGEX_TIME_LIMIT_MS,
  ) {}

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = this.factory();
    worker.onmessage = (e: MessageEvent<RegexReply>) => {
      const p = this.pending;
      if (!p || p.id !== e.data.id) return;
      this.settle('error' in e.data ? { error: e.data.error } : { matches: e.data.matches });
    };
    worker.onerror = (e) => {
      e.preventDefault?.();
      this.stopWorker();
      this.settle({ error: e.message || 'the search worker failed' });
    };
    this.worker = worker;
    return worker;
  }

  private settle(result: RegexResult): void {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    clearTimeout(p.timer);
    p.resolve(result);
  }

  private stopWorker(): void {
    this.worker?.terminate();
    this.worker = undefined;
  }

  /** Tests `source`/`flags` on every name; requests run one after another, each with its own bound. */
  match(source: string, flags: string, names: string[]): Promise<RegexResult> {
    const run = this.queue.then(() => this.run(source, flags, names));
    this.queue = run.then(() => undefined);
    return run;
  }

  private run(source: string, flags: string, names: string[]): Promise<RegexResult> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<RegexResult>((resolve) => {
      const timer = setTimeout(() => {
        // A backtracking expression cannot be interrupted: end the worker, a fresh one takes the next.
        this.stopWorker();
        this.settle({ timedOut: true });
      }, this.limitMs);
      this.pending = { id, resolve, timer };
      worker.postMessage({ id, source, flags, names } satisfies RegexRequest);
    });
  }

  dispose(): void {
    this.stopWorker();
    this.settle({ timedOut: true });
  }
}
