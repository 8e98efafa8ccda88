/**
 * UI state of one viewer, React Flow style: a store factory (a fresh store per test and per
 * viewer), provided through context, read with named selectors. The canvas subscribes to it
 * directly so that pan/zoom at 60 fps never re-renders React.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { SearchQuery } from '../analysis/nameSearch.ts';
import type { Model, Nanoseconds } from '../model/types.ts';
import type { CompareView } from './compareView.ts';
import { NO_FILTERS, type EventFilters } from './filters.ts';

/** A loaded file. */
export interface LoadedCapture {
  /** Stable id for this viewer session. */
  id: number;
  model: Model;
  /** Shift of this capture's time zero on the shared axis (captures on one clock are aligned). */
  offsetNs: Nanoseconds;
  decodeMs: number;
  /** A model of the file's start, shown while the whole file still decodes (its model replaces it). */
  partial?: boolean;
}

/** A file being loaded. */
export interface PendingLoad {
  id: number;
  name: string;
  bytesDone: number;
  bytesTotal: number;
  cancel(): void;
}

/** A load that failed as a whole (the file could not be decoded at all). */
export interface FailedLoad {
  id: number;
  name: string;
  message: string;
}

/** What is selected: one range or mark of one capture. */
export type Selection =
  | { kind: 'range'; capture: number; index: number }
  | { kind: 'mark'; capture: number; index: number }
  | null;

export type ThemeChoice = 'system' | 'light' | 'dark';

export interface ViewerState {
  captures: LoadedCapture[];
  loads: PendingLoad[];
  failed: FailedLoad[];
  /** Visible time window on the shared axis. */
  viewStartNs: Nanoseconds;
  viewEndNs: Nanoseconds;
  selection: Selection;
  /** Selected time span (drag on the time axis), or null. */
  span: { startNs: Nanoseconds; endNs: Nanoseconds } | null;
  /** Track tree nodes the user collapsed, by node key. */
  collapsed: Record<string, true>;
  theme: ThemeChoice;
  showShortcuts: boolean;
  /** The open secondary panel ('report': the load report), or null; kept in the URL hash. */
  panel: string | null;
  /** Tick rates for NVTXT Qpc/Rdtsc time bases (the file cannot tell them). */
  qpcHz: number;
  rdtscHz: number;
  /** Ranges the statistics panel points out on the timeline (a histogram's duration band), or null. */
  highlight: { capture: number; ranges: Int32Array } | null;
  /**
   * The latest request to bring an event into view: the timeline zooms to it with some context,
   * expands the collapsed tree nodes above its row and scrolls the row into view. `seq` grows with
   * every request, so asking twice for the same event reveals it twice.
   */
  reveal: { kind: 'range' | 'mark'; capture: number; index: number; seq: number } | null;
  /**
   * Hidden domains, categories, processes, threads and names (src/state/filters.ts): hidden events
   * leave the timeline, the tables and the statistics (`captureFilter(model, filters)`).
   */
  filters: EventFilters;
  /** The name search (src/analysis/nameSearch.ts); text '' = no search. Matches are highlighted on the timeline. */
  search: SearchQuery;
  /** The comparison of two captures (src/ui/compare/), or null; kept in the URL hash. */
  compare: CompareView | null;
}

export interface ViewerActions {
  addCapture(capture: Omit<LoadedCapture, 'id' | 'offsetNs'>): number;
  removeCapture(id: number): void;
  /** Swaps the model of a loaded capture (reload with other decode options), keeping its id. */
  replaceCapture(id: number, capture: Omit<LoadedCapture, 'id' | 'offsetNs'>): void;
  startLoad(load: PendingLoad): void;
  progressLoad(id: number, bytesDone: number, bytesTotal: number): void;
  endLoad(id: number): void;
  failLoad(failure: FailedLoad): void;
  dismissFailure(id: number): void;
  setView(startNs: Nanoseconds, endNs: Nanoseconds): void;
  zoomToFit(): void;
  select(selection: Selection): void;
  setSpan(span: ViewerState['span']): void;
  toggleCollapsed(key: string): void;
  setTheme(theme: ThemeChoice): void;
  setShowShortcuts(show: boolean): void;
  setPanel(panel: string | null): void;
  setTickRates(rates: { qpcHz?: number; rdtscHz?: number }): void;
  setHighlight(highlight: ViewerState['highlight']): void;
  /** Selects a range or mark and asks the timeline to show it (see `reveal`). */
  revealEvent(target: NonNullable<Selection>): void;
  setFilters(filters: EventFilters): void;
  setSearch(search: SearchQuery): void;
  setCompare(compare: CompareView | null): void;
}

export type ViewerStore = StoreApi<ViewerState & ViewerActions>;

/** Smallest visible window: zooming stops at 1 ns for the whole view... well below 1 µs. */
export const MIN_VIEW_NS = 10;

export function createViewerStore(initial: Partial<ViewerState> = {}): ViewerStore {
  let nextCaptureId = 1;
  return createStore<ViewerState & ViewerActions>()((set, get) => ({
    captures: [],
    loads: [],
    failed: [],
    viewStartNs: 0,
    viewEndNs: 1_000_000,
    selection: null,
    span: null,
    collapsed: {},
    theme: 'system',
    showShortcuts: false,
    panel: null,
    qpcHz: 10_000_000,
    rdtscHz: 1_000_000_000,
    highlight: null,
    reveal: null,
    filters: NO_FILTERS,
    search: { text: '', regex: false, matchCase: false },
    compare: null,
    ...initial,

    addCapture(capture) {
      const id = nextCaptureId++;
      const first = get().captures.length === 0;
      set((s) => ({ captures: [...s.captures, { ...capture, id, offsetNs: alignOffset(s.captures, capture.model) }] }));
      if (first) get().zoomToFit();
      return id;
    },
    removeCapture(id) {
      set((s) => ({
        captures: s.captures.filter((c) => c.id !== id),
        selection: s.selection && s.selection.capture === id ? null : s.selection,
        highlight: s.highlight && s.highlight.capture === id ? null : s.highlight,
        compare: s.compare && (s.compare.base === id || s.compare.candidate === id) ? null : s.compare,
      }));
    },
    replaceCapture(id, capture) {
      set((s) => {
        const others = s.captures.filter((c) => c.id !== id);
        const selection = s.selection;
        const keep =
          !selection ||
          selection.capture !== id ||
          selection.index < (selection.kind === 'range' ? capture.model.ranges.startNs : capture.model.marks.timeNs).length;
        return {
          captures: s.captures.map((c) => (c.id === id ? { ...capture, id, offsetNs: alignOffset(others, capture.model) } : c)),
          selection: keep ? selection : null,
          // Range indices of the old model mean nothing in the new one.
          highlight: s.highlight && s.highlight.capture === id ? null : s.highlight,
        };
      });
    },
    startLoad(load) {
      set((s) => ({ loads: [...s.loads, load] }));
    },
    progressLoad(id, bytesDone, bytesTotal) {
      set((s) => ({ loads: s.loads.map((l) => (l.id === id ? { ...l, bytesDone, bytesTotal } : l)) }));
    },
    endLoad(id) {
      set((s) => ({ loads: s.loads.filter((l) => l.id !== id) }));
    },
    failLoad(failure) {
      set((s) => ({ failed: [...s.failed, failure] }));
    },
    dismissFailure(id) {
      set((s) => ({ failed: s.failed.filter((f) => f.id !== id) }));
    },
    setView(startNs, endNs) {
      let a = Math.min(startNs, endNs);
      let b = Math.max(startNs, endNs);
      if (b - a < MIN_VIEW_NS) {
        const mid = (a + b) / 2;
        a = mid - MIN_VIEW_NS / 2;
        b = mid + MIN_VIEW_NS / 2;
      }
      set({ viewStartNs: a, viewEndNs: b });
    },
    zoomToFit() {
      const { start, end } = captureExtent(get().captures);
      const pad = Math.max((end - start) * 0.02, 1);
      get().setView(start - pad, end + pad);
    },
    select(selection) {
      set({ selection });
    },
    setSpan(span) {
      set({ span: span && span.endNs < span.startNs ? { startNs: span.endNs, endNs: span.startNs } : span });
    },
    toggleCollapsed(key) {
      set((s) => {
        const collapsed = { ...s.collapsed };
        if (collapsed[key]) delete collapsed[key];
        else collapsed[key] = true;
        return { collapsed };
      });
    },
    setTheme(theme) {
      set({ theme });
    },
    setShowShortcuts(show) {
      set({ showShortcuts: show });
    },
    setPanel(panel) {
      set({ panel });
    },
    setTickRates(rates) {
      set((s) => ({ qpcHz: rates.qpcHz ?? s.qpcHz, rdtscHz: rates.rdtscHz ?? s.rdtscHz }));
    },
    setHighlight(highlight) {
      set({ highlight });
    },
    revealEvent(target) {
      set((s) => ({ selection: target, reveal: { ...target, seq: (s.reveal?.seq ?? 0) + 1 } }));
    },
    setFilters(filters) {
      set({ filters });
    },
    setCompare(compare) {
      set({ compare });
    },
    setSearch(search) {
      set((s) =>
        s.search.text === search.text && s.search.regex === search.regex && s.search.matchCase === search.matchCase ? s : { search },
      );
    },
  }));
}

/** [start, end] on the shared axis covering every capture. */
export function captureExtent(captures: LoadedCapture[]): { start: number; end: number } {
  if (captures.length === 0) return { start: 0, end: 1_000_000 };
  let start = Infinity;
  let end = -Infinity;
  for (const c of captures) {
    start = Math.min(start, c.offsetNs);
    end = Math.max(end, c.offsetNs + c.model.durationNs);
  }
  return { start, end: Math.max(end, start + 1) };
}

/**
 * Captures on the same clock are placed by their absolute origin relative to the first capture on
 * that clock; captures on an unknown or different clock start at 0.
 */
function alignOffset(existing: LoadedCapture[], model: Model): Nanoseconds {
  const sameClock = existing.find((c) => c.model.capture.clock === model.capture.clock && model.capture.clock !== 'unknown');
  if (!sameClock) return 0;
  const delta = BigInt(model.capture.originNs) - BigInt(sameClock.model.capture.originNs);
  const offset = Number(delta) + sameClock.offsetNs;
  // Files from unrelated runs on one clock kind can be days apart: then compare them side by side.
  return Math.abs(offset) < 3600e9 ? offset : 0;
}

