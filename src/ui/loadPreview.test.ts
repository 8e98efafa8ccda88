/** Partial models of big files: shown at once, replaced by the whole model in the same capture. */
import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../model/builder.ts';
import type { Model } from '../model/types.ts';
import { createViewerStore } from '../state/viewerStore.ts';
import { LoadCancelledError, type LoadHandle, type LoadRequest } from '../worker/load.client.ts';
import { LoadController, type CaptureLoader } from './loadController.ts';

function model(durationNs: number): Model {
  const b = new ModelBuilder({ fileName: 'big.nvtxc', format: 'test', byteSize: 10 });
  b.push(b.thread(1, 1), 0, { name: 'r' });
  b.pop(b.thread(1, 1), durationNs);
  return b.finish();
}

class Loader implements CaptureLoader {
  request!: LoadRequest;
  resolve!: (m: Model) => void;
  reject!: (e: Error) => void;
  load(request: LoadRequest): LoadHandle {
    this.request = request;
    const promise = new Promise<{ model: Model; decodeMs: number }>((res, rej) => {
      this.resolve = (m) => res({ model: m, decodeMs: 1 });
      this.reject = rej;
    });
    return { promise, cancel: () => this.reject(new LoadCancelledError()) };
  }
}

const settle = () => new Promise((r) => setTimeout(r, 0));
const file = () => new File(['x'], 'big.nvtxc');

describe('partial models while a big file loads', () => {
  it('the preview shows at once; the whole model replaces it in the same capture and the view fits it', async () => {
    const store = createViewerStore();
    const loader = new Loader();
    const done = new LoadController(store, loader).open([file()]);
    loader.request.onPartial!(model(1000));
    const s = store.getState();
    expect(s.captures).toHaveLength(1);
    expect(s.captures[0].partial).toBe(true);
    expect(s.loads).toHaveLength(1);
    expect(s.viewEndNs - s.viewStartNs).toBeLessThan(2000);
    const id = s.captures[0].id;
    loader.resolve(model(100_000));
    const [outcome] = await done;
    const after = store.getState();
    expect(outcome).toEqual({ ok: true, name: 'big.nvtxc', captureId: id });
    expect(after.captures.map((c) => [c.id, c.model.durationNs, c.partial])).toEqual([[id, 100_000, undefined]]);
    expect(after.viewEndNs - after.viewStartNs).toBeGreaterThan(100_000);
    expect(after.loads).toEqual([]);
  });

  it('a view the user chose on the preview is kept', async () => {
    const store = createViewerStore();
    const loader = new Loader();
    const done = new LoadController(store, loader).open([file()]);
    loader.request.onPartial!(model(1000));
    store.getState().setView(100, 200);
    loader.resolve(model(100_000));
    await done;
    expect([store.getState().viewStartNs, store.getState().viewEndNs]).toEqual([100, 200]);
  });

  it('a preview goes away with a load that fails or is cancelled', async () => {
    for (const end of ['fail', 'cancel'] as const) {
      const store = createViewerStore();
      const loader = new Loader();
      const done = new LoadController(store, loader).open([file()]);
      loader.request.onPartial!(model(1000));
      expect(store.getState().captures).toHaveLength(1);
      if (end === 'fail') loader.reject(new Error('big.nvtxc: broken'));
      else store.getState().loads[0].cancel();
      await done;
      await settle();
      expect(store.getState().captures).toEqual([]);
    }
  });
});
