import { afterEach, describe, expect, it, vi } from 'vitest';
import { ModelBuilder } from '../model/builder.ts';
import type { Model } from '../model/types.ts';
import { HOLD_CONFIRM_MS, LoadClient, READER_MIN_BYTES, SPLIT_MIN_BYTES, SPLIT_MIN_CORES, TAPE_MIN_BYTES, TAPE_MIN_CORES, type TapeChoice } from './load.client.ts';
import type { FromWorker } from './load.protocol.ts';
import { PREVIEW_MIN_BYTES } from './previewSize.ts';

/** Big enough for a partial model (the worker decides whether its format gets one). */
const bigFile = new (class extends Blob {
  override get size(): number {
    return Math.min(...Object.values(PREVIEW_MIN_BYTES));
  }
})([]);

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

/** A client whose every new worker is a fresh FakeWorker, listed in `made`; files are read by their load worker unless `readerMinBytes` says otherwise. */
function clientMakingWorkers(maxParallel = 1, tape: TapeChoice = 'never', cores = 2, split: TapeChoice = 'never', readerMinBytes = Infinity): { made: FakeWorker[]; client: LoadClient } {
  const made: FakeWorker[] = [];
  const client = new LoadClient(
    maxParallel,
    () => {
      const w = new FakeWorker();
      made.push(w);
      return w as unknown as Worker;
    },
    undefined,
    cores,
    tape,
    split,
    readerMinBytes,
  );
  return { made, client };
}

describe('LoadClient', () => {
  it('puts a model together with the string slices posted before it, for the partial and the whole model', async () => {
    const { made, client } = clientMakingWorkers();
    const partials: Model[] = [];
    const handle = client.load({ file: bigFile, name: 'm.test', options: {}, onProgress: () => {}, onPartial: (m) => void partials.push(m) });
    const [whole, preview] = made;

    const first = model(['a', 'b']);
    const strings = first.strings;
    preview.send({ type: 'strings', strings: strings.slice(0, 1) });
    preview.send({ type: 'strings', strings: strings.slice(1) });
    preview.send({ type: 'partial', model: { ...first, strings: [] }, bytesDone: 1 });
    expect(partials[0].strings).toEqual(strings);

    // A model posted whole keeps its own strings.
    const all = model(['a', 'b', 'c']);
    whole.send({ type: 'done', model: all, decodeMs: 1 });
    expect((await handle.promise).model.strings).toEqual(all.strings);
  });

  it('decodes the partial model in a second worker while the first decodes the whole file', async () => {
    const { made, client } = clientMakingWorkers();
    const partials: Model[] = [];
    const handle = client.load({ file: bigFile, name: 'm.test', options: {}, onProgress: () => {}, onPartial: (m) => void partials.push(m) });
    expect(made).toHaveLength(2);
    expect(made.map((w) => (w.posted[0] as { type: string }).type)).toEqual(['load', 'preview']);
    let stopped = 0;
    made[1].terminate = () => void stopped++;
    made[1].send({ type: 'partial', model: model(['a']), bytesDone: 1 });
    expect(partials).toHaveLength(1);
    expect(stopped).toBe(1);
    made[0].send({ type: 'done', model: model(['a', 'b']), decodeMs: 1 });
    expect((await handle.promise).model.ranges.startNs.length).toBe(2);
  });

  it('holds the whole-file worker from the end of the slice decode until the page has taken the partial model in', async () => {
    const { made, client } = clientMakingWorkers();
    const handle = client.load({ file: bigFile, name: 'm.test', options: {}, onProgress: () => {}, onPartial: () => {} });
    const [whole, preview] = made;
    const sent = () => whole.posted.map((m) => (m as { type: string }).type);
    // While the slice decodes, the whole file goes on.
    expect(sent()).toEqual(['load']);
    preview.send({ type: 'slice-read' });
    expect(sent()).toEqual(['load', 'hold']);
    whole.send({ type: 'held' });
    preview.send({ type: 'partial', model: model(['a']), bytesDone: 1 });
    expect(sent()).toEqual(['load', 'hold']);
    // Node has no requestIdleCallback: the page counts as idle after the current task.
    await new Promise((r) => setTimeout(r, 0));
    expect(sent()).toEqual(['load', 'hold', 'resume']);
    whole.send({ type: 'done', model: model(['a', 'b']), decodeMs: 1 });
    await handle.promise;

    // A slice that gave no model releases the hold at once.
    const { made: made2, client: client2 } = clientMakingWorkers();
    client2.load({ file: bigFile, name: 'm.test', options: {}, onProgress: () => {}, onPartial: () => {} });
    made2[1].send({ type: 'slice-read' });
    made2[1].send({ type: 'no-partial' });
    expect(made2[0].posted.map((m) => (m as { type: string }).type)).toEqual(['load', 'hold', 'resume']);
  });

  describe('with animation frames and idle callbacks (as in the page)', () => {
    /** Callbacks the test runs by hand, as the page's frames and idle periods would. */
    let frames: (() => void)[] = [];
    let idles: (() => void)[] = [];
    const stubPage = () => {
      frames = [];
      idles = [];
      vi.stubGlobal('requestAnimationFrame', (f: () => void) => frames.push(f));
      vi.stubGlobal('requestIdleCallback', (f: () => void) => idles.push(f));
    };
    const runFrame = () => frames.splice(0).forEach((f) => f());
    afterEach(() => vi.unstubAllGlobals());

    // On two cores the whole-file worker holds once the slice is read; on one, from the start.
    it.each([2, 1])('on %i core(s), resumes the whole-file worker when the page is idle, not after its next frames', (cores) => {
      stubPage();
      const { made, client } = clientMakingWorkers(1, 'never', cores);
      client.load({ file: bigFile, name: 'm.test', options: {}, onProgress: () => {}, onPartial: () => {} });
      const sent = () => made[0].posted.map((m) => (m as { type: string }).type);
      if (cores > 1) made[1].send({ type: 'slice-read' });
      made[0].send({ type: 'held' });
      made[1].send({ type: 'partial', model: model(['a']), bytesDone: 1 });
      // Frames can come before React has rendered the new capture and the timeline has drawn it.
      runFrame();
      runFrame();
      expect(sent()).toEqual(['load', 'hold']);
      idles.splice(0).forEach((f) => f());
      expect(sent()).toEqual(['load', 'hold', 'resume']);
    });
  });

  it('resumes the whole-file worker in the task after the partial model is drawn, when the page promises its drawing, before the page is idle', async () => {
    vi.stubGlobal('requestIdleCallback', () => {});
    try {
      let drawn = () => {};
      const { made, client } = clientMakingWorkers();
      client.load({ file: bigFile, name: 'm.test', options: {}, onProgress: () => {}, onPartial: () => new Promise<void>((r) => (drawn = r)) });
      const sent = () => made[0].posted.map((m) => (m as { type: string }).type);
      made[1].send({ type: 'slice-read' });
      made[0].send({ type: 'held' });
      made[1].send({ type: 'partial', model: model(['a']), bytesDone: 1 });
      await new Promise((r) => setTimeout(r, 0));
      expect(sent()).toEqual(['load', 'hold']);
      drawn();
      await Promise.resolve();
      // Not in the drawing frame's own task: the page commits that frame first.
      expect(sent()).toEqual(['load', 'hold']);
      await new Promise((r) => setTimeout(r, 0));
      expect(sent()).toEqual(['load', 'hold', 'resume']);
      expect(client.holds).toHaveLength(1);
      expect(client.holds[0].name).toBe('m.test');
      expect(client.holds[0].holdMs).toBeGreaterThanOrEqual(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('on one core, holds the whole-file worker from the start until the partial model is in', async () => {
    const made: FakeWorker[] = [];
    const client = new LoadClient(1, () => (made.push(new FakeWorker()), made[made.length - 1] as unknown as Worker), undefined, 1);
    client.load({ file: bigFile, name: 'm.test', options: {}, onProgress: () => {}, onPartial: () => {} });
    const sent = () => made[0].posted.map((m) => (m as { type: string }).type);
    expect(sent()).toEqual(['load', 'hold']);
    made[0].send({ type: 'held' });
    made[1].send({ type: 'partial', model: model(['a']), bytesDone: 1 });
    await new Promise((r) => setTimeout(r, 0));
    expect(sent()).toEqual(['load', 'hold', 'resume']);
  });

  it('hands the partial model on once the whole-file worker has stopped, or after HOLD_CONFIRM_MS, never after the whole model', async () => {
    vi.useFakeTimers();
    try {
      const partials: Model[] = [];
      const { made, client } = clientMakingWorkers();
      client.load({ file: bigFile, name: 'm.test', options: {}, onProgress: () => {}, onPartial: (m) => void partials.push(m) });
      made[1].send({ type: 'slice-read' });
      made[1].send({ type: 'partial', model: model(['a']), bytesDone: 1 });
      // Still decoding up to its next slice: the page waits.
      expect(partials).toHaveLength(0);
      made[0].send({ type: 'held' });
      expect(partials).toHaveLength(1);

      // A worker that does not say so in time (inside its finish(), say): shown after the bound.
      const late = clientMakingWorkers();
      const latePartials: Model[] = [];
      late.client.load({ file: bigFile, name: 'm.test', options: {}, onProgress: () => {}, onPartial: (m) => void latePartials.push(m) });
      late.made[1].send({ type: 'slice-read' });
      late.made[1].send({ type: 'partial', model: model(['a']), bytesDone: 1 });
      vi.advanceTimersByTime(HOLD_CONFIRM_MS - 1);
      expect(latePartials).toHaveLength(0);
      vi.advanceTimersByTime(1);
      expect(latePartials).toHaveLength(1);

      // The whole model came first: the waiting partial model is dropped.
      const first = clientMakingWorkers();
      const firstPartials: Model[] = [];
      const handle = first.client.load({ file: bigFile, name: 'm.test', options: {}, onProgress: () => {}, onPartial: (m) => void firstPartials.push(m) });
      first.made[1].send({ type: 'slice-read' });
      first.made[1].send({ type: 'partial', model: model(['a']), bytesDone: 1 });
      first.made[0].send({ type: 'done', model: model(['a', 'b']), decodeMs: 1 });
      await handle.promise;
      vi.advanceTimersByTime(HOLD_CONFIRM_MS);
      first.made[0].send({ type: 'held' });
      expect(firstPartials).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops a partial model that comes after the whole one, and asks for none without onPartial', async () => {
    const { made, client } = clientMakingWorkers();
    const partials: Model[] = [];
    const handle = client.load({ file: bigFile, name: 'm.test', options: {}, onProgress: () => {}, onPartial: (m) => void partials.push(m) });
    made[0].send({ type: 'done', model: model(['a', 'b']), decodeMs: 1 });
    await handle.promise;
    made[1].send({ type: 'partial', model: model(['a']), bytesDone: 1 });
    expect(partials).toHaveLength(0);

    const { made: made2, client: client2 } = clientMakingWorkers(2);
    client2.load({ file: bigFile, name: 'm.test', options: {}, onProgress: () => {} });
    client2.load({ file: new Blob(['small']), name: 'small.test', options: {}, onProgress: () => {}, onPartial: () => {} });
    // One worker each: no partial model asked for, and a file too small for one.
    expect(made2).toHaveLength(2);
  });

  it('hands a warmed worker to the next load and warms another when loads are done', async () => {
    const { made, client } = clientMakingWorkers();
    client.warm();
    client.warm();
    // One for the file, one for its partial model.
    expect(made).toHaveLength(2);
    const handle = client.load({ file: bigFile, name: 'm.test', options: {}, onProgress: () => {}, onPartial: () => {} });
    expect(made).toHaveLength(2);
    // The workers for the file and for its partial model warmed up their JIT until the file came.
    expect(made.map((w) => w.posted.map((m) => (m as { type: string }).type))).toEqual([['warm', 'load'], ['warm', 'preview']]);
    made[1].send({ type: 'no-partial' });
    made[0].send({ type: 'done', model: model(['a']), decodeMs: 1 });
    await handle.promise;
    await new Promise((r) => setTimeout(r, 0));
    expect(made).toHaveLength(4);
    expect(made.slice(2).map((w) => w.posted.map((m) => (m as { type: string }).type))).toEqual([['warm'], ['warm']]);
    // Where files load on two workers, a third for the build side.
    const two = clientMakingWorkers(1, 'auto', TAPE_MIN_CORES);
    two.client.warm();
    expect(two.made).toHaveLength(3);
    // All three warm up, as load() takes them: build side, decode side, partial model.
    expect(two.made.map((w) => w.posted.length)).toEqual([1, 1, 1]);
  });

  it('after a load, starts and warms the next spares only once afterLoadGate resolves (the view still a while)', async () => {
    const { made, client } = clientMakingWorkers();
    let open!: () => void;
    client.afterLoadGate = () => new Promise<void>((resolve) => (open = resolve));
    const handle = client.load({ file: new Blob(['x']), name: 'm.test', options: {}, onProgress: () => {} });
    made[0].send({ type: 'done', model: model(['a']), decodeMs: 1 });
    await handle.promise;
    await new Promise((r) => setTimeout(r, 0));
    expect(made).toHaveLength(1);
    open();
    await new Promise((r) => setTimeout(r, 0));
    expect(made.slice(1).map((w) => w.posted.map((m) => (m as { type: string }).type))).toEqual([['warm'], ['warm']]);
  });

  it('warms each spare once, the one left over from a load included', async () => {
    const { made, client } = clientMakingWorkers();
    client.warm();
    const handle = client.load({ file: new Blob(['small']), name: 'small.test', options: {}, onProgress: () => {} });
    made[0].send({ type: 'done', model: model(['a']), decodeMs: 1 });
    await handle.promise;
    await new Promise((r) => setTimeout(r, 0));
    // made[1] (warmed for a partial model) is left over and now the next load's; the new spare warms for the partial model.
    expect(made[1].posted.map((m) => (m as { type: string }).type)).toEqual(['warm']);
    client.warm();
    expect(made[1].posted).toHaveLength(1);
    expect(made.slice(2).map((w) => w.posted.length)).toEqual([1]);
  });

  it('replaces a warmed worker whose script failed, instead of waiting on it', async () => {
    const { made, client } = clientMakingWorkers();
    client.warm();
    made[0].onerror?.({ message: 'script failed' } as ErrorEvent);
    made[1].onerror?.({ message: 'script failed' } as ErrorEvent);
    const handle = client.load({ file: bigFile, name: 'm.test', options: {}, onProgress: () => {} });
    expect(made).toHaveLength(3);
    made[2].send({ type: 'done', model: model(['a']), decodeMs: 1 });
    expect((await handle.promise).model.ranges.startNs.length).toBe(1);
  });

  it('loads a big file on two workers joined by a channel, and ends both', async () => {
    const terminated: FakeWorker[] = [];
    const { made, client } = clientMakingWorkers(1, 'auto', TAPE_MIN_CORES);
    const big = new (class extends Blob {
      override get size(): number {
        return TAPE_MIN_BYTES;
      }
    })([]);
    const handle = client.load({ file: big, name: 'big.nvtxc', options: {}, onProgress: () => {} });
    const [build, decode] = made;
    for (const w of made) w.terminate = () => void terminated.push(w);
    const toBuild = build.posted[0] as { type: string; port: MessagePort };
    const toDecode = decode.posted[0] as { type: string; port: MessagePort };
    expect([toBuild.type, toDecode.type]).toEqual(['tape-build', 'tape-decode']);
    // The two ends of one channel.
    const got = new Promise((resolve) => (toBuild.port.onmessage = (e) => resolve(e.data)));
    toDecode.port.postMessage('batch');
    expect(await got).toBe('batch');
    toBuild.port.close();
    build.send({ type: 'done', model: model(['a']), decodeMs: 1, path: 'tape' });
    await handle.promise;
    expect(terminated).toEqual(expect.arrayContaining([build, decode]));
    expect(client.paths).toEqual([{ name: 'big.nvtxc', path: 'tape' }]);
  });

  it('has a big file read by another worker on two cores, passes the reads on if it fails, and ends it with the load', async () => {
    const { made, client } = clientMakingWorkers(1, 'never', 2, 'never', READER_MIN_BYTES);
    client.warm();
    // One for the file, one for its partial model, one to read it: the first two warm up, as load() takes them.
    expect(made).toHaveLength(3);
    expect(made.map((w) => w.posted.length)).toEqual([1, 1, 0]);
    const handle = client.load({ file: bigFile, name: 'm.test', options: {}, onProgress: () => {}, onPartial: () => {} });
    const [whole, preview, reader] = made;
    const first = (w: FakeWorker) => w.posted.find((m) => (m as { type: string }).type !== 'warm') as { type: string; port?: MessagePort };
    expect([whole, reader, preview].map((w) => first(w).type)).toEqual(['load', 'read', 'preview']);
    // The two ends of one channel: the load worker's reads reach the reader.
    const got = new Promise((resolve) => (first(reader).port!.onmessage = (e) => resolve(e.data)));
    (whole.posted[1] as { readPort: MessagePort }).readPort.postMessage({ id: 0, start: 0, end: 4 });
    expect(await got).toEqual({ id: 0, start: 0, end: 4 });
    // A reader whose script fails leaves the reads to the load worker.
    let ended = 0;
    reader.terminate = () => void ended++;
    reader.onerror?.({ message: 'failed' } as ErrorEvent);
    expect(whole.posted.map((m) => (m as { type: string }).type)).toEqual(['warm', 'load', 'read-here']);
    expect(ended).toBe(1);
    whole.send({ type: 'done', model: model(['a']), decodeMs: 1 });
    await handle.promise;
    first(reader).port!.close();

    // Smaller files, and one core, read in the load worker.
    const small = clientMakingWorkers(1, 'never', 2, 'never', READER_MIN_BYTES);
    small.client.load({ file: new Blob(['small']), name: 'small.test', options: {}, onProgress: () => {} });
    expect(small.made).toHaveLength(1);
    const one = clientMakingWorkers(1, 'never', 1, 'never', READER_MIN_BYTES);
    one.client.warm();
    expect(one.made).toHaveLength(2);
  });

  it('keeps one worker for a small file, and for any file with fewer cores', async () => {
    for (const [size, cores] of [[TAPE_MIN_BYTES - 1, TAPE_MIN_CORES], [TAPE_MIN_BYTES * 4, TAPE_MIN_CORES - 1], [TAPE_MIN_BYTES * 4, 1]]) {
      const { made, client } = clientMakingWorkers(1, 'auto', cores);
      const file = new (class extends Blob {
        override get size(): number {
          return size;
        }
      })([]);
      const handle = client.load({ file, name: 'f.nvtxc', options: {}, onProgress: () => {} });
      expect(made).toHaveLength(1);
      expect((made[0].posted[0] as { type: string }).type).toBe('load');
      made[0].send({ type: 'done', model: model(['a']), decodeMs: 1, path: 'single' });
      await handle.promise;
    }
  });

  it('splits a big file over two workers from SPLIT_MIN_CORES (a Chrome trace is parsed on one, built on the other), not a small one', async () => {
    const sized = (size: number) =>
      new (class extends Blob {
        override get size(): number {
          return size;
        }
      })([]);
    const tapeToo = (size: number, cores: number) => size >= TAPE_MIN_BYTES && cores >= TAPE_MIN_CORES;
    for (const [size, cores, tape, expected] of [
      [SPLIT_MIN_BYTES, SPLIT_MIN_CORES, 'auto', { split: true, tape: tapeToo(SPLIT_MIN_BYTES, SPLIT_MIN_CORES) }],
      [SPLIT_MIN_BYTES * 4, Math.max(TAPE_MIN_CORES, SPLIT_MIN_CORES), 'auto', { split: true, tape: true }],
      [SPLIT_MIN_BYTES - 1, 1, 'auto', undefined],
      [Math.min(SPLIT_MIN_BYTES, TAPE_MIN_BYTES) - 1, Math.max(TAPE_MIN_CORES, SPLIT_MIN_CORES), 'auto', undefined],
      [SPLIT_MIN_BYTES * 4, Math.min(SPLIT_MIN_CORES, TAPE_MIN_CORES) - 1, 'auto', undefined],
      // ?tape=never keeps one worker, ?tape=always the tape.
      [SPLIT_MIN_BYTES * 4, SPLIT_MIN_CORES, 'never', undefined],
      [SPLIT_MIN_BYTES * 4, SPLIT_MIN_CORES, 'always', { split: false, tape: true }],
    ] as const) {
      const { made, client } = clientMakingWorkers(1, tape, cores, 'auto');
      const handle = client.load({ file: sized(size), name: 'f.json', options: {}, onProgress: () => {} });
      if (expected === undefined) {
        expect(made).toHaveLength(1);
        expect((made[0].posted[0] as { type: string }).type).toBe('load');
        made[0].send({ type: 'done', model: model(['a']), decodeMs: 1, path: 'single' });
      } else {
        const [build, decode] = made;
        expect((build.posted[0] as { type: string }).type).toBe('tape-build');
        expect(decode.posted[0]).toMatchObject({ type: 'tape-decode', plan: expected });
        build.send({ type: 'done', model: model(['a']), decodeMs: 1, path: 'split' });
      }
      await handle.promise;
      expect(client.paths).toEqual([{ name: 'f.json', path: expected ? 'split' : 'single' }]);
    }
    // `?split=always` on one core too.
    const { made, client } = clientMakingWorkers(1, 'auto', 1, 'always');
    void client.load({ file: sized(1000), name: 'f.json', options: {}, onProgress: () => {} });
    expect(made[1].posted[0]).toMatchObject({ type: 'tape-decode', plan: { split: true, tape: false } });
  });
});
