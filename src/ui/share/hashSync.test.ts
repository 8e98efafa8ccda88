import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ModelBuilder } from '../../model/builder.ts';
import type { Model } from '../../model/types.ts';
import { createViewerStore, type ViewerStore } from '../../state/viewerStore.ts';
import { decodeViewHash } from './hashState.ts';
import { HashSync, type HistoryHost } from './hashSync.ts';

function model(fileName: string): Model {
  const b = new ModelBuilder({ fileName, format: 'test', byteSize: 1 });
  const t = b.thread(1, 1);
  b.push(t, 0, { name: 'outer' });
  b.push(t, 100, { name: 'inner' });
  b.pop(t, 200);
  b.pop(t, 1000);
  return b.finish();
}

/** A history with entries, a position, and Back/Forward that notify like the browser does. */
class FakeHistory implements HistoryHost {
  entries: string[];
  at = 0;
  private listener: (() => void) | undefined;
  constructor(initial = '') {
    this.entries = [initial];
  }
  hash() {
    return this.entries[this.at];
  }
  replace(hash: string) {
    this.entries[this.at] = hash;
  }
  push(hash: string) {
    this.entries.splice(this.at + 1, Infinity, hash);
    this.at++;
  }
  onNavigate(listener: () => void) {
    this.listener = listener;
    return () => (this.listener = undefined);
  }
  go(delta: number) {
    this.at += delta;
    this.listener?.();
  }
  /** Typing another hash into the address bar. */
  edit(hash: string) {
    this.push(hash);
    this.listener?.();
  }
}

let clock = 0;
const now = () => clock;

function setup(initialHash = '') {
  const store = createViewerStore();
  const history = new FakeHistory(initialHash);
  const notices: string[] = [];
  const sync = new HashSync(store, history, { debounceMs: 300, burstMs: 1000, now, onNotice: (m) => notices.push(m) });
  return { store, history, sync, notices };
}

function load(store: ViewerStore, ...names: string[]): number[] {
  return names.map((n) => store.getState().addCapture({ model: model(n), decodeMs: 0 }));
}

const innerIndex = (store: ViewerStore) => {
  const m = store.getState().captures[0].model;
  return Array.from(m.ranges.style).findIndex((s) => m.strings[m.styles.name[s]] === 'inner');
};

beforeEach(() => {
  vi.useFakeTimers();
  clock = 0;
});
afterEach(() => vi.useRealTimers());

describe('HashSync', () => {
  it('writes the view after loading and rewrites the entry while panning, debounced', () => {
    const { store, history } = setup();
    load(store, 'a.nvtxt');
    expect(history.entries).toEqual(['']);
    vi.advanceTimersByTime(300);
    expect(history.entries).toHaveLength(1);
    expect(decodeViewHash(history.hash()).state?.captures).toEqual(['a.nvtxt']);

    for (let i = 0; i < 20; i++) {
      store.getState().setView(i * 10, i * 10 + 500);
      vi.advanceTimersByTime(50);
    }
    expect(decodeViewHash(history.hash()).state?.window?.startNs).not.toBe(190);
    vi.advanceTimersByTime(300);
    expect(history.entries).toHaveLength(1);
    expect(decodeViewHash(history.hash()).state?.window).toEqual({ startNs: 190, endNs: 690 });
  });

  it('adds entries for selections; Back and Forward restore selection and window', () => {
    const { store, history } = setup();
    load(store, 'a.nvtxt');
    vi.advanceTimersByTime(300);
    const s = store.getState();
    const id = s.captures[0].id;
    s.setView(0, 400);
    // The click comes before the pan's debounced write: the left entry still gets the new window.
    s.select({ kind: 'range', capture: id, index: innerIndex(store) });
    expect(history.entries).toHaveLength(2);
    expect(decodeViewHash(history.entries[0]).state?.window).toEqual({ startNs: 0, endNs: 400 });
    store.getState().setView(50, 150);
    vi.advanceTimersByTime(300);

    history.go(-1);
    expect(store.getState().selection).toBeNull();
    expect([store.getState().viewStartNs, store.getState().viewEndNs]).toEqual([0, 400]);
    history.go(1);
    expect(store.getState().selection).toEqual({ kind: 'range', capture: id, index: innerIndex(store) });
    expect([store.getState().viewStartNs, store.getState().viewEndNs]).toEqual([50, 150]);
    // Applying an entry does not write a new one.
    expect(history.entries).toHaveLength(2);
  });

  it('makes one entry for a span drag (a burst of span changes)', () => {
    const { store, history } = setup();
    load(store, 'a.nvtxt');
    vi.advanceTimersByTime(300);
    for (let x = 10; x <= 200; x += 10) {
      store.getState().setSpan({ startNs: 0, endNs: x });
      clock += 16;
    }
    vi.advanceTimersByTime(300);
    expect(history.entries).toHaveLength(2);
    expect(decodeViewHash(history.hash()).state?.span).toEqual({ startNs: 0, endNs: 200 });
    clock += 5000;
    store.getState().setSpan(null);
    expect(history.entries).toHaveLength(3);
  });

  it('applies a link once its captures have loaded, without writing over it before', () => {
    const link = 'v=1&c=a.nvtxt&t=100_300&span=120_180&sel=r_0_0_1_100';
    const { store, history } = setup(link);
    store.getState().startLoad({ id: 1, name: 'a.nvtxt', bytesDone: 0, bytesTotal: 1, cancel() {} });
    load(store, 'a.nvtxt');
    vi.advanceTimersByTime(1000);
    expect(history.hash()).toBe(link);
    store.getState().endLoad(1);
    const s = store.getState();
    expect([s.viewStartNs, s.viewEndNs]).toEqual([100, 300]);
    expect(s.span).toEqual({ startNs: 120, endNs: 180 });
    expect(s.selection).toEqual({ kind: 'range', capture: s.captures[0].id, index: innerIndex(store) });
    expect(history.hash()).toBe(link);
    expect(history.entries).toHaveLength(1);
    // The next change writes the view in this load's terms.
    store.getState().setView(100, 200);
    vi.advanceTimersByTime(300);
    expect(decodeViewHash(history.hash()).state?.window).toEqual({ startNs: 100, endNs: 200 });
  });

  it('tells what a link names but cannot show, and reports malformed fields', () => {
    const { store, notices } = setup('v=1&c=a.nvtxt&c=b.nvtxt&t=oops&sel=r_1_0_0_0');
    load(store, 'a.nvtxt');
    expect(notices).toEqual(['Link: ignored the time window "oops".', 'Link: capture b.nvtxt is not loaded.']);
  });

  it('applies a hash typed into the address bar', () => {
    const { store, history } = setup();
    load(store, 'a.nvtxt');
    vi.advanceTimersByTime(300);
    history.edit('v=1&c=a.nvtxt&t=10_20&panel=report');
    expect([store.getState().viewStartNs, store.getState().viewEndNs]).toEqual([10, 20]);
    expect(store.getState().panel).toBe('report');
  });

  it('removes the hash when the last capture is closed', () => {
    const { store, history } = setup();
    const [id] = load(store, 'a.nvtxt');
    vi.advanceTimersByTime(300);
    expect(history.hash()).not.toBe('');
    store.getState().removeCapture(id);
    vi.advanceTimersByTime(300);
    expect(history.hash()).toBe('');
  });

  it('keeps parameters of a newer build through rewrites', () => {
    const { store, history } = setup('v=1&c=a.nvtxt&q=gemm&later=7');
    load(store, 'a.nvtxt');
    store.getState().setView(0, 10);
    vi.advanceTimersByTime(300);
    const state = decodeViewHash(history.hash()).state!;
    expect(state.search).toEqual({ text: 'gemm', regex: false, matchCase: false });
    expect(state.extra).toEqual([['later', '7']]);
  });

  it('adds an entry when filters change and rewrites it while a search is typed', () => {
    const { store, history } = setup();
    load(store, 'a.nvtxt');
    vi.advanceTimersByTime(300);
    for (const text of ['o', 'ou', 'out']) store.getState().setSearch({ text, regex: false, matchCase: false });
    vi.advanceTimersByTime(300);
    expect(history.entries).toHaveLength(1);
    expect(decodeViewHash(history.hash()).state?.search?.text).toBe('out');
    store.getState().setFilters({ hidden: [{ kind: 'name', domain: '', name: 'inner' }] });
    expect(history.entries).toHaveLength(2);
    expect(decodeViewHash(history.hash()).state?.filter).toBe('n::inner');
    history.go(-1);
    expect(store.getState().filters.hidden).toEqual([]);
    expect(store.getState().search.text).toBe('out');
  });
  it('pinning, hiding and moving rows add entries that Back undoes; a link arranges the rows once loaded', () => {
    const { store, history } = setup();
    const [id] = load(store, 'a.nvtxt');
    vi.advanceTimersByTime(300);
    const entries = history.entries.length;
    const row = `${id}/Process 1/Thread 1/Push%2FPop`;
    store.getState().setRowPinned(row, true);
    expect(history.entries.length).toBe(entries + 1);
    expect(decodeViewHash(history.hash()).state!.tracks!.pinned).toEqual([{ capture: 0, path: 'Process 1/Thread 1/Push%2FPop' }]);
    store.getState().setRowHidden(`${id}/Process 1/Thread 1`, true);
    expect(history.entries.length).toBe(entries + 2);
    // Typing the track filter rewrites the entry, debounced.
    store.getState().setTrackNameFilter('thr');
    vi.advanceTimersByTime(300);
    expect(history.entries.length).toBe(entries + 2);
    expect(decodeViewHash(history.hash()).state!.tracks!.nameFilter).toBe('thr');
    history.go(-1);
    expect(store.getState().tracks.hidden).toEqual({});
    expect(store.getState().tracks.pinned).toEqual([row]);
    history.go(-1);
    expect(store.getState().tracks.pinned).toEqual([]);
    const link = history.entries[entries + 1];

    // The link opened in a new tab: applied when the capture is loaded, under its new id.
    const other = setup(link);
    const [id2] = load(other.store, 'a.nvtxt');
    expect(other.store.getState().tracks.pinned).toEqual([`${id2}/Process 1/Thread 1/Push%2FPop`]);
    expect(other.store.getState().tracks.hidden).toEqual({ [`${id2}/Process 1/Thread 1`]: true });
  });
});
