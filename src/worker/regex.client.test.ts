import { describe, expect, it } from 'vitest';
import { RegexClient } from './regex.client.ts';
import { testNames } from './regexTest.ts';

/** A worker stand-in that runs the job on a later turn, or never answers (a stuck expression). */
class FakeWorker {
  onmessage: ((e: MessageEvent) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  terminated = false;
  constructor(private readonly stuck: (source: string) => boolean) {}
  postMessage(data: { id: number; source: string; flags: string; names: string[] }): void {
    if (this.stuck(data.source)) return;
    setTimeout(() => {
      if (!this.terminated) this.onmessage?.({ data: { id: data.id, matches: testNames(data.source, data.flags, data.names) } } as MessageEvent);
    }, 1);
  }
  terminate(): void {
    this.terminated = true;
  }
}

describe('RegexClient', () => {
  it('answers matches, gives up a stuck expression after its bound, and serves the next in a fresh worker', async () => {
    const workers: FakeWorker[] = [];
    const client = new RegexClient(() => {
      const w = new FakeWorker((source) => source === '^(a+)+$');
      workers.push(w);
      return w as unknown as Worker;
    }, 50);
    const stuck = client.match('^(a+)+$', 'iu', ['a'.repeat(40) + 'b']);
    const next = client.match('step', 'iu', ['step 1', 'Step 2', 'other']);
    expect(await stuck).toEqual({ timedOut: true });
    expect(workers[0].terminated).toBe(true);
    expect(await next).toEqual({ matches: new Uint8Array([1, 1, 0]) });
    expect(workers).toHaveLength(2);
    client.dispose();
  });

  it('the worker job: an expression over names', () => {
    expect(Array.from(testNames('^a.c$', 'u', ['abc', 'ABC', 'abcd']))).toEqual([1, 0, 0]);
  });
});
