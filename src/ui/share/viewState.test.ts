import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../../model/builder.ts';
import type { Model } from '../../model/types.ts';
import { createViewerStore, NO_ARRANGEMENT, type ViewerStore } from '../../state/viewerStore.ts';
import { decodeViewHash, encodeViewHash } from './hashState.ts';
import { findRange, matchCaptures, resolveViewHash, selectionRef, viewHashState } from './viewState.ts';

/** Thread 1: outer [0, 100] with children a [10, 20], b [30, 60]; thread 2: marks at 5 and 50. Origin in ms. */
function model(fileName: string, originMs: number): Model {
  const b = new ModelBuilder({ fileName, format: 'test', byteSize: 1 });
  b.setClock('CLOCK_TEST', BigInt(originMs) * 1_000_000n);
  const t1 = b.thread(7, 1, 'main');
  const t2 = b.thread(7, 2, 'io');
  b.push(t1, 0, { name: 'outer' });
  b.push(t1, 10, { name: 'a' });
  b.pop(t1, 20);
  b.push(t1, 30, { name: 'b' });
  b.pop(t1, 60);
  b.pop(t1, 100);
  b.mark(t2, 5, { name: 'tick' });
  b.mark(t2, 50, { name: 'tock' });
  return b.finish();
}

function rangeNamed(m: Model, name: string): number {
  return Array.from(m.ranges.style).findIndex((s) => m.strings[m.styles.name[s]] === name);
}

function markNamed(m: Model, name: string): number {
  return Array.from(m.marks.style).findIndex((s) => m.strings[m.styles.name[s]] === name);
}

/** A store with the given captures loaded in this order. */
function storeWith(...models: Model[]): ViewerStore {
  const store = createViewerStore();
  for (const m of models) store.getState().addCapture({ model: m, decodeMs: 0 });
  return store;
}

describe('view state <-> hash state', () => {
  it('reproduces window, span, selection and panel after the same files load in another order', () => {
    const first = storeWith(model('x.nvtxt', 0), model('y.nvtxt', 2));
    const s1 = first.getState();
    const y1 = s1.captures[1];
    expect(y1.offsetNs).toBe(2_000_000);
    s1.setView(y1.offsetNs + 10, y1.offsetNs + 70);
    s1.setSpan({ startNs: y1.offsetNs + 30, endNs: y1.offsetNs + 40 });
    s1.select({ kind: 'range', capture: y1.id, index: rangeNamed(y1.model, 'b') });
    s1.setPanel('report');
    const hash = encodeViewHash(viewHashState(first.getState())!);

    // Reopened: y finishes loading first, so the shared axis starts at y.
    const second = storeWith(model('y.nvtxt', 2), model('x.nvtxt', 0));
    const s2 = second.getState();
    const y2 = s2.captures[0];
    expect(y2.offsetNs).toBe(0);
    const view = resolveViewHash(decodeViewHash(hash).state!, s2.captures);
    expect(view.window).toEqual({ startNs: 10, endNs: 70 });
    expect(view.span).toEqual({ startNs: 30, endNs: 40 });
    expect(view.selection).toEqual({ kind: 'range', capture: y2.id, index: rangeNamed(y2.model, 'b') });
    expect(view.panel).toBe('report');
    expect(view.missing).toEqual([]);
  });

  it('identifies a selected range by track, level and start time, and a mark by track and time', () => {
    const store = storeWith(model('x.nvtxt', 0));
    const c = store.getState().captures[0];
    const b = rangeNamed(c.model, 'b');
    const ref = selectionRef([c], { kind: 'range', capture: c.id, index: b });
    expect(ref).toMatchObject({ kind: 'range', capture: 0, level: 1, startNs: 30 });
    expect(c.model.tracks[ref!.kind === 'range' ? ref!.track : -1].kind).toBe('pushpop');
    expect(findRange(c.model, ref!.track, 1, 30)).toBe(b);
    expect(findRange(c.model, ref!.track, 1, 31)).toBe(-1);
    expect(findRange(c.model, ref!.track, 5, 30)).toBe(-1);
    expect(findRange(c.model, 999, 0, 0)).toBe(-1);

    const tock = markNamed(c.model, 'tock');
    const markRef = selectionRef([c], { kind: 'mark', capture: c.id, index: tock });
    expect(markRef).toMatchObject({ kind: 'mark', capture: 0, timeNs: 50 });
    const resolved = resolveViewHash({ captures: ['x.nvtxt'], selection: markRef, extra: [] }, [c]);
    expect(resolved.selection).toEqual({ kind: 'mark', capture: c.id, index: tock });
  });

  it('pairs repeated file names by occurrence', () => {
    const store = storeWith(model('a', 0), model('b', 0), model('a', 0));
    const caps = store.getState().captures;
    expect(matchCaptures(['a', 'a', 'b', 'a'], caps)).toEqual([caps[0], caps[2], caps[1], undefined]);
  });

  it('names what a link needs but is not loaded, and keeps what it can', () => {
    const store = storeWith(model('x.nvtxt', 0));
    const c = store.getState().captures[0];
    const view = resolveViewHash(
      {
        captures: ['x.nvtxt', 'gone.json'],
        window: { startNs: 1, endNs: 2 },
        selection: { kind: 'range', capture: 0, track: 0, level: 0, startNs: 12345 },
        extra: [],
      },
      [c],
    );
    expect(view.window).toEqual({ startNs: 1, endNs: 2 });
    expect(view.selection).toBeNull();
    expect(view.missing).toEqual(['capture gone.json is not loaded', 'the selected range is not in x.nvtxt']);

    // Without its first capture the link's times have no reference: the window is left alone.
    const orphan = resolveViewHash({ captures: ['gone.json'], window: { startNs: 1, endNs: 2 }, extra: [] }, [c]);
    expect(orphan.window).toBeUndefined();
  });

  it('has no state without captures, and passes unknown fields through', () => {
    expect(viewHashState(createViewerStore().getState())).toBeNull();
    const store = storeWith(model('x.nvtxt', 0));
    const state = viewHashState(store.getState(), { extra: [['later', '1']] })!;
    expect(state.extra).toEqual([['later', '1']]);
    expect(state.selection).toBeUndefined();
    expect(state.search).toBeUndefined();
    expect(state.filter).toBeUndefined();
  });

  it('carries the name search and the event filters', () => {
    const store = storeWith(model('x.nvtxt', 0));
    const s = store.getState();
    s.setSearch({ text: 'ti.k', regex: true, matchCase: true });
    s.setFilters({ hidden: [{ kind: 'thread', pid: 7, tid: 2 }, { kind: 'name', domain: '', name: 'a, b: c' }] });
    const hash = encodeViewHash(viewHashState(store.getState())!);
    const view = resolveViewHash(decodeViewHash(hash).state!, store.getState().captures);
    expect(view.search).toEqual({ text: 'ti.k', regex: true, matchCase: true });
    expect(view.filters).toEqual(store.getState().filters);
    expect(view.missing).toEqual([]);

    const bad = resolveViewHash({ captures: ['x.nvtxt'], filter: 'p:7,zz:1', extra: [] }, store.getState().captures);
    expect(bad.filters.hidden).toEqual([{ kind: 'process', pid: 7 }]);
    expect(bad.missing).toEqual(['ignored the filter item "zz:1"']);
  });

  it('keeps pinned, hidden and reordered rows, heights and the name filter, whatever the capture ids and load order', () => {
    const first = storeWith(model('x.nvtxt', 0), model('y.nvtxt', 2));
    const s1 = first.getState();
    const [x1, y1] = s1.captures.map((c) => c.id);
    s1.setRowPinned(`${y1}/Process 7/main (1)/Push%2FPop`, true);
    s1.setRowPinned(`${x1}/Process 7/io (2)/Marks`, true);
    s1.setRowHidden(`${x1}/Process 7/main (1)`, true);
    s1.setRowOrder(`${y1}/Process 7`, [`${y1}/Process 7/io (2)`, `${y1}/Process 7/main (1)`]);
    s1.setRowHeight(`${y1}/Process 7/io (2)/Marks`, 90);
    s1.setTrackNameFilter('mai');
    const hash = encodeViewHash(viewHashState(first.getState())!);

    // Reopened later in the session (other ids), y loading first.
    const second = storeWith(model('z.nvtxt', 0), model('y.nvtxt', 2), model('x.nvtxt', 0));
    const s2 = second.getState();
    const [, y2, x2] = s2.captures.map((c) => c.id);
    expect([x2, y2]).not.toEqual([x1, y1]);
    const view = resolveViewHash(decodeViewHash(hash).state!, s2.captures);
    expect(view.tracks).toEqual({
      pinned: [`${y2}/Process 7/main (1)/Push%2FPop`, `${x2}/Process 7/io (2)/Marks`],
      hidden: { [`${x2}/Process 7/main (1)`]: true },
      order: { [`${y2}/Process 7`]: [`${y2}/Process 7/io (2)`, `${y2}/Process 7/main (1)`] },
      heights: { [`${y2}/Process 7/io (2)/Marks`]: 90 },
      nameFilter: 'mai',
    });
    expect(view.missing).toEqual([]);
    // Rows of a capture that is not loaded are left out; a link without rows arranges nothing.
    const alone = resolveViewHash(decodeViewHash(hash).state!, [s2.captures[2]]);
    expect(alone.tracks.pinned).toEqual([`${x2}/Process 7/io (2)/Marks`]);
    expect(resolveViewHash({ captures: ['x.nvtxt'], extra: [] }, s2.captures).tracks).toEqual(NO_ARRANGEMENT);
  });

  it('keeps captures placed by hand, relative to the first capture, whatever the load order', () => {
    // Different clocks: nothing aligns them but the user.
    const a = () => model('a.nvtxt', 0);
    const b = () => {
      const m = model('b.nvtxt', 0);
      m.capture.clock = 'OTHER';
      return m;
    };
    const first = storeWith(a(), b());
    const s1 = first.getState();
    s1.setCaptureOffset(s1.captures[1].id, 12_345);
    const state = viewHashState(first.getState())!;
    expect(state.offsets).toEqual([{ capture: 1, offsetNs: 12_345 }]);
    const hash = encodeViewHash(state);
    expect(hash).toContain('o=1_12345');

    const second = storeWith(b(), a());
    const s2 = second.getState();
    const view = resolveViewHash(decodeViewHash(hash).state!, s2.captures);
    const bId = s2.captures.find((c) => c.model.capture.fileName === 'b.nvtxt')!.id;
    expect(view.offsets).toEqual([{ capture: bId, offsetNs: s2.captures.find((c) => c.model.capture.fileName === 'a.nvtxt')!.offsetNs + 12_345 }]);
    // Nothing placed by hand: no offsets in the link.
    expect(viewHashState(storeWith(a(), b()).getState())!.offsets).toBeUndefined();
  });

  it('keeps flags relative to the first capture', () => {
    const first = storeWith(model('x.nvtxt', 0), model('y.nvtxt', 2));
    const y = first.getState().captures[1];
    first.getState().addFlag(y.offsetNs + 40, 'stall');
    const hash = encodeViewHash(viewHashState(first.getState())!);
    const second = storeWith(model('y.nvtxt', 2), model('x.nvtxt', 0));
    const view = resolveViewHash(decodeViewHash(hash).state!, second.getState().captures);
    // x (the link's first capture) sits at -2 ms on the new axis, so the flag is again 40 ns into y.
    expect(view.flags).toEqual([{ timeNs: 40, note: 'stall' }]);
  });
});
