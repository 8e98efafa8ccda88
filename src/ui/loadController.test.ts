import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../model/builder.ts';
import type { Model } from '../model/types.ts';
import { createViewerStore } from '../state/viewerStore.ts';
import { LoadCancelledError, type LoadHandle, type LoadRequest } from '../worker/load.client.ts';
import { byOpenOrder, decodeOptions, LoadController, usesTimeBase, type CaptureLoader } from './loadController.ts';

/** A model whose single range lasts `durationNs`, on the given clock. */
function model(name: string, durationNs: number, clock = 'FileTime'): Model {
  const b = new ModelBuilder({ fileName: name, format: 'test', byteSize: 10 });
  b.setClock(clock, 0n);
  b.push(b.thread(1, 1), 0, { name: 'r' });
  b.pop(b.thread(1, 1), durationNs);
  return b.finish();
}

/** A loader the test drives by hand: every request waits until resolved, failed or cancelled. */
class ManualLoader implements CaptureLoader {
  readonly requests: Array<{
    request: LoadRequest;
    resolve(m: Model): void;
    fail(message: string): void;
    cancelled: boolean;
  }> = [];

  load(request: LoadRequest): LoadHandle {
    let resolve!: (v: { model: Model; decodeMs: number }) => void;
    let reject!: (e: Error) => void;
    const promise = new Promise<{ model: Model; decodeMs: number }>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const entry = {
      request,
      resolve: (m: Model) => resolve({ model: m, decodeMs: 1 }),
      fail: (message: string) => reject(new Error(message)),
      cancelled: false,
    };
    this.requests.push(entry);
    return {
      promise,
      cancel: () => {
        entry.cancelled = true;
        reject(new LoadCancelledError());
      },
    };
  }
}

const settle = () => new Promise((r) => setTimeout(r, 0));
const file = (name: string) => new File(['x'.repeat(10)], name);

describe('LoadController', () => {
  it('tracks progress per file and turns finished models into captures', async () => {
    const store = createViewerStore();
    const loader = new ManualLoader();
    new LoadController(store, loader).open([file('a.nvtxt'), file('b.nvtxt')]);
    expect(store.getState().loads.map((l) => l.name)).toEqual(['a.nvtxt', 'b.nvtxt']);
    loader.requests[0].request.onProgress(5, 10);
    expect(store.getState().loads[0]).toMatchObject({ bytesDone: 5, bytesTotal: 10 });

    loader.requests[1].resolve(model('b.nvtxt', 100));
    await settle();
    expect(store.getState().captures.map((c) => c.model.capture.fileName)).toEqual(['b.nvtxt']);
    expect(store.getState().loads.map((l) => l.name)).toEqual(['a.nvtxt']);
  });

  it('compares dropped files in drop order, not in the order their loads finished', async () => {
    const store = createViewerStore();
    const loader = new ManualLoader();
    const controller = new LoadController(store, loader);
    const done = controller.openToCompare([file('big.nvtxt'), file('small.nvtxt')]);
    expect(store.getState().panel).toBe('compare');
    // The second (small) file finishes first: it is added to the store first.
    loader.requests[1].resolve(model('small.nvtxt', 10));
    await settle();
    loader.requests[0].resolve(model('big.nvtxt', 1000));
    await done;
    const { captures, compare } = store.getState();
    expect(captures.map((c) => c.model.capture.fileName)).toEqual(['small.nvtxt', 'big.nvtxt']);
    const id = (name: string) => captures.find((c) => c.model.capture.fileName === name)!.id;
    expect(compare).toEqual({ base: id('big.nvtxt'), candidate: id('small.nvtxt'), groupBy: 'name', row: null });
    expect([...captures].sort(byOpenOrder).map((c) => c.model.capture.fileName)).toEqual(['big.nvtxt', 'small.nvtxt']);

    // One file dropped to compare: B, against the baseline shown (A)...
    const one = controller.openToCompare([file('third.nvtxt')]);
    loader.requests[2].resolve(model('third.nvtxt', 10));
    await one;
    expect(store.getState().compare).toMatchObject({ base: id('big.nvtxt'), candidate: store.getState().captures.at(-1)!.id });
    // ...or without a picked one, the Compare tab's default A: the capture opened first.
    store.getState().setCompare(null);
    const fourth = controller.openToCompare([file('fourth.nvtxt')]);
    loader.requests[3].resolve(model('fourth.nvtxt', 10));
    await fourth;
    const now = store.getState().captures;
    expect(store.getState().compare).toMatchObject({ base: id('big.nvtxt'), candidate: now[3].id });
  });

  it('keeps the open order through a preview and a reload, and compares nothing when a file failed', async () => {
    const store = createViewerStore();
    const loader = new ManualLoader();
    const controller = new LoadController(store, loader);
    const done = controller.openToCompare([file('a.nvtxt'), file('b.nvtxt')]);
    loader.requests[0].request.onPartial?.(model('a.nvtxt', 5));
    expect(store.getState().captures[0].openOrder).toBeDefined();
    const order = store.getState().captures[0].openOrder;
    loader.requests[0].resolve(model('a.nvtxt', 50));
    loader.requests[1].fail('bad header');
    await done;
    expect(store.getState().captures.map((c) => c.openOrder)).toEqual([order]);
    expect(store.getState().compare).toBeNull();
  });

  it('records whole-file failures and forgets cancelled loads silently', async () => {
    const store = createViewerStore();
    const loader = new ManualLoader();
    new LoadController(store, loader).open([file('bad.bin'), file('big.nvtxt')]);
    loader.requests[0].fail('bad.bin: not a format nvtxview knows');
    store.getState().loads[1].cancel();
    await settle();
    const s = store.getState();
    expect(s.loads).toEqual([]);
    expect(s.captures).toEqual([]);
    expect(s.failed.map((f) => f.message)).toEqual(['bad.bin: not a format nvtxview knows']);
    expect(loader.requests[1].cancelled).toBe(true);
  });

  it('reloads only the captures that used a changed time base, keeping their ids', async () => {
    const store = createViewerStore();
    const loader = new ManualLoader();
    new LoadController(store, loader).open([file('qpc.nvtxt'), file('ft.nvtxt')]);
    loader.requests[0].resolve(model('qpc.nvtxt', 100, 'Qpc@10MHz'));
    loader.requests[1].resolve(model('ft.nvtxt', 100, 'FileTime'));
    await settle();
    const qpcId = store.getState().captures.find((c) => c.model.capture.fileName === 'qpc.nvtxt')!.id;

    store.getState().setTickRates({ rdtscHz: 2e9 });
    expect(loader.requests.length).toBe(2);
    store.getState().setTickRates({ qpcHz: 5e6 });
    expect(loader.requests.length).toBe(3);
    expect(loader.requests[2].request.name).toBe('qpc.nvtxt');
    expect(loader.requests[2].request.options.qpcHz).toBe(5e6);

    loader.requests[2].resolve(model('qpc.nvtxt', 200, 'Qpc@5MHz'));
    await settle();
    const captures = store.getState().captures;
    expect(captures.length).toBe(2);
    expect(captures.find((c) => c.id === qpcId)!.model.durationNs).toBe(200);
  });

  it('cancels an older reload when the rate changes again', async () => {
    const store = createViewerStore();
    const loader = new ManualLoader();
    new LoadController(store, loader).open([file('q.nvtxt')]);
    loader.requests[0].resolve(model('q.nvtxt', 100, 'Qpc@10MHz'));
    await settle();
    store.getState().setTickRates({ qpcHz: 1e6 });
    store.getState().setTickRates({ qpcHz: 2e6 });
    expect(loader.requests[1].cancelled).toBe(true);
    expect(loader.requests[2].cancelled).toBe(false);
  });
});

describe('LoadController.dispose', () => {
  it('cancels pending loads and stops reacting to tick-rate changes', async () => {
    const store = createViewerStore();
    const loader = new ManualLoader();
    const controller = new LoadController(store, loader);
    controller.open([file('q.nvtxt'), file('r.nvtxt')]);
    loader.requests[0].resolve(model('q.nvtxt', 100, 'Qpc@10MHz'));
    await settle();
    controller.dispose();
    expect(loader.requests[1].cancelled).toBe(true);
    store.getState().setTickRates({ qpcHz: 1e6 });
    expect(loader.requests.length).toBe(2);
  });
});

describe('LoadController.openUrl', () => {
  it('fetches, then loads the bytes, staying pending in between', async () => {
    const store = createViewerStore();
    const loader = new ManualLoader();
    let answer!: (r: Response) => void;
    const fetchStub = (() => new Promise<Response>((r) => (answer = r))) as unknown as typeof fetch;
    new LoadController(store, loader).openUrl('./demo/demo.nvtxt', 'demo.nvtxt', fetchStub);
    expect(store.getState().loads.map((l) => l.name)).toEqual(['demo.nvtxt']);
    answer(new Response('Marker, 1'));
    await settle();
    await settle();
    expect(loader.requests.map((r) => r.request.name)).toEqual(['demo.nvtxt']);
    expect(store.getState().loads.length).toBe(1);
    loader.requests[0].resolve(model('demo.nvtxt', 10));
    await settle();
    expect(store.getState().loads).toEqual([]);
    expect(store.getState().captures.length).toBe(1);
  });

  it('reports an HTTP error as a failed load naming the file', async () => {
    const store = createViewerStore();
    const fetchStub = (async () => new Response('missing', { status: 404 })) as unknown as typeof fetch;
    new LoadController(store, new ManualLoader()).openUrl('./demo/demo.nvtxt', 'demo.nvtxt', fetchStub);
    await settle();
    await settle();
    expect(store.getState().failed.map((f) => f.message)).toEqual([
      'demo.nvtxt: could not fetch ./demo/demo.nvtxt (HTTP 404)',
    ]);
    expect(store.getState().loads).toEqual([]);
  });
});

describe('usesTimeBase', () => {
  it('reads the clock name and the list of time bases a file used', () => {
    expect(usesTimeBase(model('a', 1, 'Qpc@10MHz'), 'Qpc')).toBe(true);
    expect(usesTimeBase(model('a', 1, 'FileTime'), 'Qpc')).toBe(false);
    const mixed = model('a', 1, 'FileTime');
    mixed.capture.properties['Rdtsc rate'] = '1 GHz (default)';
    expect(usesTimeBase(mixed, 'Rdtsc')).toBe(true);
    expect(usesTimeBase(mixed, 'Qpc')).toBe(false);
  });

  it('leaves default rates out of the decode options so the decoder reports them as assumed', () => {
    expect(decodeOptions({ qpcHz: 10_000_000, rdtscHz: 3e9 })).toEqual({ qpcHz: undefined, rdtscHz: 3e9 });
  });
});
