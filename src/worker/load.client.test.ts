import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../model/builder.ts';
import type { Model } from '../model/types.ts';
import { LoadClient } from './load.client.ts';
import type { FromWorker } from './load.protocol.ts';

/** A load worker the test drives by hand. */
class FakeWorker {
  onmessage: ((e: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  posted: unknown[] = [];
  postMessage(msg: unknown): void {
    this.posted.push(msg);
  }
  terminate(): void {}
  send(msg: FromWorker): void {
    this.onmessage?.({ data: msg } as MessageEvent<FromWorker>);
  }
}

function model(names: string[]): Model {
  const b = new ModelBuilder({ fileName: 'm.test', format: 'test', byteSize: 0 });
  const t = b.thread(1, 1);
  names.forEach((name, k) => b.range(t, k, k + 1, { name }));
  return b.finish();
}

/** A client whose every new worker is a fresh FakeWorker, listed in `made`. */
function clientMakingWorkers(): { made: FakeWorker[]; client: LoadClient } {
  const made: FakeWorker[] = [];
  const client = new LoadClient(1, () => {
    const w = new FakeWorker();
    made.push(w);
    return w as unknown as Worker;
  });
  return { made, client };
}

describe('LoadClient', () => {
  it('puts a model together with the string slices posted before it, for the partial and the whole model', async () => {
    const worker = new FakeWorker();
    const partials: Model[] = [];
    const client = new LoadClient(1, () => worker as unknown as Worker);
    const handle = client.load({ file: new Blob([]), name: 'm.test', options: {}, onProgress: () => {}, onPartial: (m) => partials.push(m) });

    const first = model(['a', 'b']);
    const strings = first.strings;
    worker.send({ type: 'strings', strings: strings.slice(0, 1) });
    worker.send({ type: 'strings', strings: strings.slice(1) });
    worker.send({ type: 'partial', model: { ...first, strings: [] }, bytesDone: 1 });
    expect(partials[0].strings).toEqual(strings);

    // A model posted whole keeps its own strings; slices never leak into the next model.
    const whole = model(['a', 'b', 'c']);
    worker.send({ type: 'done', model: whole, decodeMs: 1 });
    expect((await handle.promise).model.strings).toEqual(whole.strings);
  });

  it('tells the worker to go on once the page has taken in a partial model (it waits for that)', async () => {
    const worker = new FakeWorker();
    const client = new LoadClient(1, () => worker as unknown as Worker);
    const handle = client.load({ file: new Blob([]), name: 'm.test', options: {}, onProgress: () => {}, onPartial: () => {} });
    expect(worker.posted.map((m) => (m as { type: string }).type)).toEqual(['load']);
    worker.send({ type: 'partial', model: model(['a']), bytesDone: 1 });
    // Node has no requestIdleCallback: the page counts as idle after the current task.
    await new Promise((r) => setTimeout(r, 0));
    expect(worker.posted.map((m) => (m as { type: string }).type)).toEqual(['load', 'resume']);
    worker.send({ type: 'done', model: model(['a', 'b']), decodeMs: 1 });
    await handle.promise;
  });

  it('hands a warmed worker to the next load and warms another when loads are done', async () => {
    const { made, client } = clientMakingWorkers();
    client.warm();
    client.warm();
    expect(made).toHaveLength(1);
    const handle = client.load({ file: new Blob([]), name: 'm.test', options: {}, onProgress: () => {} });
    expect(made).toHaveLength(1);
    expect(made[0].posted).toHaveLength(1);
    made[0].send({ type: 'done', model: model(['a']), decodeMs: 1 });
    await handle.promise;
    await new Promise((r) => setTimeout(r, 0));
    expect(made).toHaveLength(2);
  });

  it('replaces a warmed worker whose script failed, instead of waiting on it', async () => {
    const { made, client } = clientMakingWorkers();
    client.warm();
    made[0].onerror?.({ message: 'script failed' } as ErrorEvent);
    const handle = client.load({ file: new Blob([]), name: 'm.test', options: {}, onProgress: () => {} });
    expect(made).toHaveLength(2);
    made[1].send({ type: 'done', model: model(['a']), decodeMs: 1 });
    expect((await handle.promise).model.ranges.startNs.length).toBe(1);
  });
});
