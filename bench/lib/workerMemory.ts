/**
 * Memory of the page's load workers, sampled while a file loads: the Chrome DevTools protocol's
 * `Runtime.getHeapUsage` in each dedicated worker (attached through the page's session), which
 * gives the worker's V8 heap and the backing stores of its array buffers, WebAssembly memory
 * included (SQLite's heap). A worker busy in a long synchronous decode still answers: the
 * inspector runs between JavaScript instructions. The peak over the samples is what the load
 * needed at most; a sample every `intervalMs`.
 */
import type { CDPSession } from '@playwright/test';

export interface WorkerMemoryPeak {
  /** Largest heap + backing store of one load worker over the samples. */
  peakBytes: number;
  /** Its parts at that sample. */
  heapBytes: number;
  backingBytes: number;
  samples: number;
}

interface HeapUsage {
  usedSize: number;
  backingStorageSize?: number;
}

export class WorkerMemorySampler {
  private readonly workers = new Set<string>();
  private readonly pending = new Map<number, string>();
  private nextId = 1;
  private timer: ReturnType<typeof setInterval> | undefined;
  private best: WorkerMemoryPeak = { peakBytes: 0, heapBytes: 0, backingBytes: 0, samples: 0 };

  private constructor(private readonly cdp: CDPSession) {}

  /** Starts watching the page's workers whose script URL contains `urlPart`; call before the load starts. */
  static async start(cdp: CDPSession, urlPart = 'load.worker', intervalMs = 100): Promise<WorkerMemorySampler> {
    const sampler = new WorkerMemorySampler(cdp);
    cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { type: string; url: string } }) => {
      if (e.targetInfo.type === 'worker' && e.targetInfo.url.includes(urlPart)) sampler.workers.add(e.sessionId);
    });
    cdp.on('Target.detachedFromTarget', (e: { sessionId: string }) => sampler.workers.delete(e.sessionId));
    cdp.on('Target.receivedMessageFromTarget', (e: { sessionId: string; message: string }) => sampler.received(e.message));
    await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
    sampler.timer = setInterval(() => sampler.sample(), intervalMs);
    return sampler;
  }

  private sample(): void {
    for (const sessionId of this.workers) {
      const id = this.nextId++;
      this.pending.set(id, sessionId);
      const message = JSON.stringify({ id, method: 'Runtime.getHeapUsage' });
      // A worker that has just ended answers with an error: ignore it.
      this.cdp.send('Target.sendMessageToTarget', { sessionId, message }).catch(() => this.pending.delete(id));
    }
  }

  private received(text: string): void {
    const msg = JSON.parse(text) as { id?: number; result?: HeapUsage };
    if (msg.id === undefined || !this.pending.delete(msg.id) || !msg.result) return;
    const heap = msg.result.usedSize;
    const backing = msg.result.backingStorageSize ?? 0;
    this.best.samples++;
    if (heap + backing > this.best.peakBytes) this.best = { ...this.best, peakBytes: heap + backing, heapBytes: heap, backingBytes: backing };
  }

  /** Stops sampling; the peak so far. */
  stop(): WorkerMemoryPeak {
    clearInterval(this.timer);
    return { ...this.best };
  }

  /** Whether any worker matching the URL was seen. */
  get watching(): number {
    return this.workers.size;
  }
}
