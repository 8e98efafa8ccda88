/**
 * UI state of one viewer, React Flow style: a store factory (a fresh store per test and per
 * viewer), provided through context, read with named selectors. The canvas subscribes to it
 * directly so that pan/zoom at 60 fps never re-renders React.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { SearchQuery } from '../analysis/nameSearch.ts';
import type { Model, Nanoseconds } from '../model/types.ts';
import { offsetToAlign } from './alignment.ts';
import { NO_FILTERS, type EventFilters } from '../analysis/eventFilters.ts';
import type { CompareView } from './compareView.ts';

/** A loaded file. */
export interface LoadedCapture {
  /** Stable id for this viewer session. */
  id: number;
  model: Model;
  /** Shift of this capture's time zero on the shared axis (captures on one clock are aligned). */
  offsetNs: Nanoseconds;
  /** The user placed this capture (dragged it, aligned it on a range, or a link did): kept in the URL. */
  alignedByUser?: boolean;
  decodeMs: number;
  /** A model of the file's start, shown while the whole file still decodes (its model replaces it). */
  partial?: boolean;
  /**
   * When the user opened the capture's file, counted over the session (drop and picker order, a
   * file's place among several dropped at once): a comparison's A and B follow it, never the order
   * in which loads finished. Kept when the capture is replaced (whole model, reload).
   */
  openOrder?: number;
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

/** The user's arrangement of the track list, by track tree node key (see src/timeline/trackLayout.ts). */
export interface TrackArrangementState {
  hidden: Record<string, true>;
  pinned: string[];
  order: Record<string, string[]>;
  heights: Record<string, number>;
  nameFilter: string;
}

/** A flag on the time axis. */
export interface TimeFlag {
  id: number;
  timeNs: Nanoseconds;
  note: string;
}

export const NO_ARRANGEMENT: TrackArrangementState = { hidden: {}, pinned: [], order: {}, heights: {}, nameFilter: '' };

export interface ViewerState {
  captures: LoadedCapture[];
  loads: PendingLoad[];
  failed: FailedLoad[];
  /** Visible time window on the shared axis. */
  viewStartNs: Nanoseconds;
  viewEndNs: Nanoseconds;
  /**
   * The view is the fit of every capture and follows them: a capture that finishes loading (or
   * grows from its partial model, or is closed) refits it. Any other view change clears it.
   */
  viewFitted: boolean;
  selection: Selection;
  /** Selected time span (drag on the time axis), or null. */
  span: { startNs: Nanoseconds; endNs: Nanoseconds } | null;
  /** Track tree nodes the user collapsed, by node key. */
  collapsed: Record<string, true>;
  /** Rows deeper than the timeline's fold that the user opened to show every level, by node key. */
  allLevels: Record<string, true>;
  /** The user's arrangement of the track list: hidden, pinned, reordered rows, counter heights, name filter. */
  tracks: TrackArrangementState;
  /** Flags on the time axis (Perfetto's markers): a time on the shared axis and a note; kept in the URL hash. */
  flags: TimeFlag[];
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
   * Hidden domains, categories, processes, threads and names (src/analysis/eventFilters.ts): hidden events
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
  /** Places a capture on the shared axis by hand (drag, align on a range, a link). */
  setCaptureOffset(id: number, offsetNs: Nanoseconds): void;
  /** Puts a capture back where the clocks place it. */
  resetCaptureOffset(id: number): void;
  /**
   * Moves every other capture so that its instance of the range's name with the same ordinal (the
   * N-th "step", by start time) starts with this range; returns the captures that have none.
   */
  alignOnRange(captureId: number, rangeIndex: number): string[];
  select(selection: Selection): void;
  setSpan(span: ViewerState['span']): void;
  toggleCollapsed(key: string): void;
  toggleAllLevels(key: string): void;
  /** Hides a row of the track list (with its children), or shows it again. */
  setRowHidden(key: string, hidden: boolean): void;
  /** Shows every row the user hid. */
  showHiddenRows(): void;
  /** Pins a track row first under its capture, or unpins it. */
  setRowPinned(key: string, pinned: boolean): void;
  /** Sets the order of a parent's children (their keys, first to last). */
  setRowOrder(parentKey: string, childKeys: string[]): void;
  /** Sets a counter row's height (CSS px), or null for the default. */
  setRowHeight(key: string, heightCss: number | null): void;
  setTrackNameFilter(text: string): void;
  /** Replaces the whole arrangement of the track list (a link's). */
  setTrackArrangement(tracks: TrackArrangementState): void;
  /** Drops a flag at a time on the shared axis; returns its id. */
  addFlag(timeNs: Nanoseconds, note?: string): number;
  setFlagNote(id: number, note: string): void;
  removeFlag(id: number): void;
  /** Replaces every flag (a link's). */
  setFlags(flags: { timeNs: Nanoseconds; note: string }[]): void;
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
  let nextFlagId = 1;
  return createStore<ViewerState & ViewerActions>()((set, get) => {
    const refitIfFitted = () => {
      if (get().viewFitted) get().zoomToFit();
    };
    return {
      captures: [],
      loads: [],
      failed: [],
      viewStartNs: 0,
      viewEndNs: 1_000_000,
      viewFitted: true,
      selection: null,
      span: null,
      collapsed: {},
      allLevels: {},
      tracks: NO_ARRANGEMENT,
      flags: [],
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
        set((s) => ({ captures: [...s.captures, { ...capture, id, offsetNs: alignOffset(s.captures, capture.model) }] }));
        refitIfFitted();
        return id;
      },
      removeCapture(id) {
        set((s) => ({
          captures: s.captures.filter((c) => c.id !== id),
          selection: s.selection && s.selection.capture === id ? null : s.selection,
          highlight: s.highlight && s.highlight.capture === id ? null : s.highlight,
          compare: s.compare && (s.compare.base === id || s.compare.candidate === id) ? null : s.compare,
        }));
        if (get().captures.length > 0) refitIfFitted();
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
            captures: s.captures.map((c) =>
              c.id === id
                ? { openOrder: c.openOrder, ...capture, id, offsetNs: c.alignedByUser ? c.offsetNs : alignOffset(others, capture.model), alignedByUser: c.alignedByUser }
                : c,
            ),
            selection: keep ? selection : null,
            // Range indices of the old model mean nothing in the new one.
            highlight: s.highlight && s.highlight.capture === id ? null : s.highlight,
          };
        });
        refitIfFitted();
      },
      setCaptureOffset(id, offsetNs) {
        set((s) => ({ captures: s.captures.map((c) => (c.id === id ? { ...c, offsetNs, alignedByUser: true } : c)) }));
      },
      resetCaptureOffset(id) {
        set((s) => {
          const others = s.captures.filter((c) => c.id !== id);
          return {
            captures: s.captures.map((c) => (c.id === id ? { ...c, offsetNs: alignOffset(others, c.model), alignedByUser: undefined } : c)),
          };
        });
      },
      alignOnRange(captureId, rangeIndex) {
        const reference = get().captures.find((c) => c.id === captureId);
        if (!reference) return [];
        const missing: string[] = [];
        const captures = get().captures.map((c) => {
          if (c === reference) return c;
          const offsetNs = offsetToAlign(reference, rangeIndex, c.model);
          if (offsetNs === null) {
            missing.push(c.model.capture.displayName);
            return c;
          }
          return { ...c, offsetNs, alignedByUser: true };
        });
        set({ captures });
        return missing;
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
        set({ viewStartNs: a, viewEndNs: b, viewFitted: false });
      },
      zoomToFit() {
        const { start, end } = captureExtent(get().captures);
        const pad = Math.max((end - start) * 0.02, 1);
        get().setView(start - pad, end + pad);
        set({ viewFitted: true });
      },
      select(selection) {
        set({ selection });
      },
      setSpan(span) {
        set({ span: span && span.endNs < span.startNs ? { startNs: span.endNs, endNs: span.startNs } : span });
      },
      toggleCollapsed(key) {
        set((s) => ({ collapsed: toggledKey(s.collapsed, key) }));
      },
      setRowHidden(key, hidden) {
        set((s) => {
          const next = { ...s.tracks.hidden };
          if (hidden) next[key] = true;
          else delete next[key];
          return { tracks: { ...s.tracks, hidden: next } };
        });
      },
      showHiddenRows() {
        set((s) => ({ tracks: { ...s.tracks, hidden: {} } }));
      },
      setRowPinned(key, pinned) {
        set((s) => {
          const rest = s.tracks.pinned.filter((k) => k !== key);
          return { tracks: { ...s.tracks, pinned: pinned ? [...rest, key] : rest } };
        });
      },
      setRowOrder(parentKey, childKeys) {
        set((s) => ({ tracks: { ...s.tracks, order: { ...s.tracks.order, [parentKey]: childKeys } } }));
      },
      setRowHeight(key, heightCss) {
        set((s) => {
          const heights = { ...s.tracks.heights };
          if (heightCss === null) delete heights[key];
          else heights[key] = heightCss;
          return { tracks: { ...s.tracks, heights } };
        });
      },
      setTrackNameFilter(text) {
        set((s) => (s.tracks.nameFilter === text ? s : { tracks: { ...s.tracks, nameFilter: text } }));
      },
      setTrackArrangement(tracks) {
        set({ tracks });
      },
      addFlag(timeNs, note = '') {
        const id = nextFlagId++;
        set((s) => ({ flags: [...s.flags, { id, timeNs, note }].sort((a, b) => a.timeNs - b.timeNs) }));
        return id;
      },
      setFlagNote(id, note) {
        set((s) => ({ flags: s.flags.map((f) => (f.id === id ? { ...f, note } : f)) }));
      },
      removeFlag(id) {
        set((s) => ({ flags: s.flags.filter((f) => f.id !== id) }));
      },
      setFlags(flags) {
        set({ flags: flags.map((f) => ({ id: nextFlagId++, timeNs: f.timeNs, note: f.note })).sort((a, b) => a.timeNs - b.timeNs) });
      },
      toggleAllLevels(key) {
        set((s) => ({ allLevels: toggledKey(s.allLevels, key) }));
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
    };
  });
}

function toggledKey(keys: Record<string, true>, key: string): Record<string, true> {
  const next = { ...keys };
  if (next[key]) delete next[key];
  else next[key] = true;
  return next;
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

