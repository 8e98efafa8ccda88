/**
 * Between the viewer store and the hash schema (pure): which captures a link means, where its
 * window lies on the shared axis, and which range or mark its selection names in the loaded models.
 */
import type { SearchQuery } from '../../analysis/nameSearch.ts';
import { levelCount, lowerBound, trackOfMark, trackOfRange } from '../../model/query.ts';
import type { Model } from '../../model/types.ts';
import { decodeFilters, encodeFilters, NO_FILTERS, type EventFilters } from '../../analysis/eventFilters.ts';
import { NO_ARRANGEMENT, type LoadedCapture, type Selection, type TrackArrangementState, type ViewerState } from '../../state/viewerStore.ts';
import type { CompareView } from '../../state/compareView.ts';
import { encodeCompareHash, resolveCompareHash } from '../compare/compareHash.ts';
import type { HashInterval, HashTracks, RowRef, SelectionRef, ViewHashState } from './hashState.ts';

/** The store fields the hash describes. */
export type HashedFields = Pick<
  ViewerState,
  'captures' | 'viewStartNs' | 'viewEndNs' | 'selection' | 'span' | 'panel' | 'filters' | 'search' | 'compare'
> &
  Partial<Pick<ViewerState, 'flags' | 'tracks'>>;

/** Fields that pass through unchanged (parameters of a newer build). */
export type CarriedFields = Pick<ViewHashState, 'extra'>;

const NOTHING_CARRIED: CarriedFields = { extra: [] };

/** The hash state of the viewer, or null when nothing is loaded (no view worth a link). */
export function viewHashState(s: HashedFields, carried: CarriedFields = NOTHING_CARRIED): ViewHashState | null {
  if (s.captures.length === 0) return null;
  const zero = s.captures[0].offsetNs;
  const state: ViewHashState = {
    captures: s.captures.map((c) => c.model.capture.fileName),
    window: { startNs: s.viewStartNs - zero, endNs: s.viewEndNs - zero },
    extra: carried.extra,
  };
  if (s.span) state.span = { startNs: s.span.startNs - zero, endNs: s.span.endNs - zero };
  const selection = selectionRef(s.captures, s.selection);
  if (selection) state.selection = selection;
  if (s.panel) state.panel = s.panel;
  if (s.search.text !== '') state.search = { ...s.search };
  const filter = encodeFilters(s.filters);
  if (filter !== '') state.filter = filter;
  // Captures placed by hand: every capture's place relative to the first, so the link needs no clock.
  if (s.flags && s.flags.length > 0) state.flags = s.flags.map((f) => ({ timeNs: f.timeNs - zero, note: f.note }));
  if (s.captures.some((c) => c.alignedByUser)) {
    state.offsets = s.captures.slice(1).map((c, i) => ({ capture: i + 1, offsetNs: c.offsetNs - zero }));
  }
  Object.assign(state, encodeCompareHash(s.compare ?? null, s.captures));
  const tracks = s.tracks ? tracksHash(s.tracks, s.captures) : undefined;
  if (tracks) state.tracks = tracks;
  return state;
}

/** The row a track list key names, by capture position; undefined for a capture not loaded. */
function rowRef(key: string, captures: readonly LoadedCapture[]): RowRef | undefined {
  const cut = key.indexOf('/');
  const id = Number(cut < 0 ? key : key.slice(0, cut));
  const capture = captures.findIndex((c) => c.id === id);
  return capture < 0 ? undefined : { capture, path: cut < 0 ? '' : key.slice(cut + 1) };
}

/** The arrangement of the track list in link terms; undefined when the user changed nothing. */
function tracksHash(t: TrackArrangementState, captures: readonly LoadedCapture[]): HashTracks | undefined {
  const refs = (keys: string[]) => keys.map((k) => rowRef(k, captures)).filter((r): r is RowRef => r !== undefined);
  const order: HashTracks['order'] = [];
  for (const [parentKey, childKeys] of Object.entries(t.order)) {
    const parent = rowRef(parentKey, captures);
    const children = childKeys.filter((k) => k.startsWith(`${parentKey}/`)).map((k) => k.slice(parentKey.length + 1));
    if (parent && children.length > 0) order.push({ parent, children });
  }
  const heights: HashTracks['heights'] = [];
  for (const [key, heightCss] of Object.entries(t.heights)) {
    const row = rowRef(key, captures);
    if (row) heights.push({ row, heightCss });
  }
  const out: HashTracks = { pinned: refs(t.pinned), hidden: refs(Object.keys(t.hidden)), order, heights, nameFilter: t.nameFilter };
  return out.pinned.length + out.hidden.length + order.length + heights.length > 0 || out.nameFilter !== '' ? out : undefined;
}

/** A link's arrangement of the track list as keys of the loaded captures (rows of captures not loaded are left out). */
function resolveTracks(t: HashTracks | undefined, matched: (LoadedCapture | undefined)[]): TrackArrangementState {
  if (!t) return NO_ARRANGEMENT;
  const key = (row: RowRef): string | undefined => {
    const capture = matched[row.capture];
    return capture ? (row.path === '' ? String(capture.id) : `${capture.id}/${row.path}`) : undefined;
  };
  const out: TrackArrangementState = { hidden: {}, pinned: [], order: {}, heights: {}, nameFilter: t.nameFilter };
  for (const row of t.pinned) {
    const k = key(row);
    if (k !== undefined && !out.pinned.includes(k)) out.pinned.push(k);
  }
  for (const row of t.hidden) {
    const k = key(row);
    if (k !== undefined) out.hidden[k] = true;
  }
  for (const o of t.order) {
    const parent = key(o.parent);
    if (parent !== undefined) out.order[parent] = o.children.map((label) => `${parent}/${label}`);
  }
  for (const h of t.heights) {
    const k = key(h.row);
    if (k !== undefined) out.heights[k] = h.heightCss;
  }
  return out;
}

/** Where a selected range or mark sits, in terms that survive a reload of the same files. */
export function selectionRef(captures: LoadedCapture[], selection: Selection): SelectionRef | undefined {
  if (!selection) return undefined;
  const position = captures.findIndex((c) => c.id === selection.capture);
  if (position < 0) return undefined;
  const model = captures[position].model;
  const i = selection.index;
  if (selection.kind === 'range') {
    if (i < 0 || i >= model.ranges.startNs.length) return undefined;
    const track = trackOfRange(model, i);
    if (track < 0) return undefined;
    return { kind: 'range', capture: position, track, level: model.ranges.depth[i], startNs: model.ranges.startNs[i] };
  }
  if (i < 0 || i >= model.marks.timeNs.length) return undefined;
  const track = trackOfMark(model, i);
  return track < 0 ? undefined : { kind: 'mark', capture: position, track, timeNs: model.marks.timeNs[i] };
}

/**
 * The loaded capture each name of a link stands for: the k-th capture of a file name in the link
 * is the k-th loaded capture with that file name (load order can differ between visits).
 */
export function matchCaptures(names: string[], captures: LoadedCapture[]): (LoadedCapture | undefined)[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const k = seen.get(name) ?? 0;
    seen.set(name, k + 1);
    return captures.filter((c) => c.model.capture.fileName === name)[k];
  });
}

/** The range at a track, level and start time, or -1. */
export function findRange(model: Model, trackIndex: number, level: number, startNs: number): number {
  const track = model.tracks[trackIndex];
  if (!track || level >= levelCount(track)) return -1;
  const hi = track.levelBegin[level + 1];
  const i = lowerBound(model.ranges.startNs, startNs, track.levelBegin[level], hi);
  return i < hi && model.ranges.startNs[i] === startNs ? i : -1;
}

/** The mark of a marks track at a time, or -1. */
export function findMark(model: Model, trackIndex: number, timeNs: number): number {
  const track = model.tracks[trackIndex];
  if (!track || track.kind !== 'marks') return -1;
  const i = lowerBound(model.marks.timeNs, timeNs, track.markBegin, track.markEnd);
  return i < track.markEnd && model.marks.timeNs[i] === timeNs ? i : -1;
}

/** What a hash state means for the loaded captures. */
export interface ResolvedView {
  /** On the shared axis; absent when the link has no window or its reference capture is missing. */
  window?: HashInterval;
  span: HashInterval | null;
  selection: Selection;
  panel: string | null;
  filters: EventFilters;
  search: SearchQuery;
  /** Captures the link places by hand: capture id and offset on the shared axis. */
  offsets: { capture: number; offsetNs: number }[];
  /** Flags on the shared axis (none when the link's reference capture is missing). */
  flags: { timeNs: number; note: string }[];
  compare: CompareView | null;
  /** Pinned, hidden and reordered rows, heights and name filter (none when the link has none). */
  tracks: TrackArrangementState;
  /** What the link names but the loaded captures do not have, or could not be read, for a notice. */
  missing: string[];
}

export function resolveViewHash(state: ViewHashState, captures: LoadedCapture[]): ResolvedView {
  const matched = matchCaptures(state.captures, captures);
  const missing = state.captures.filter((_, i) => !matched[i]).map((name) => `capture ${name} is not loaded`);
  // Times are relative to the link's first capture; a link without captures uses the shared axis.
  const zero = state.captures.length === 0 ? 0 : matched[0]?.offsetNs;
  const place = (i: HashInterval | undefined): HashInterval | undefined =>
    i && zero !== undefined ? { startNs: i.startNs + zero, endNs: i.endNs + zero } : undefined;
  const out: ResolvedView = {
    window: place(state.window),
    span: place(state.span) ?? null,
    selection: null,
    panel: state.panel ?? null,
    filters: NO_FILTERS,
    search: state.search ?? { text: '', regex: false, matchCase: false },
    offsets: [],
    flags: [],
    compare: null,
    tracks: resolveTracks(state.tracks, matched),
    missing,
  };
  if (zero !== undefined) for (const f of state.flags ?? []) out.flags.push({ timeNs: f.timeNs + zero, note: f.note });
  for (const o of state.offsets ?? []) {
    const capture = matched[o.capture];
    if (capture && zero !== undefined) out.offsets.push({ capture: capture.id, offsetNs: zero + o.offsetNs });
  }
  const compare = resolveCompareHash(state.compare, state.compareRow, matched);
  out.compare = compare.view;
  if (compare.problem) missing.push(compare.problem);
  if (state.filter) {
    const decoded = decodeFilters(state.filter);
    out.filters = decoded.filters;
    missing.push(...decoded.problems);
  }
  const ref = state.selection;
  const capture = ref ? matched[ref.capture] : undefined;
  if (ref && capture) {
    const index =
      ref.kind === 'range'
        ? findRange(capture.model, ref.track, ref.level, ref.startNs)
        : findMark(capture.model, ref.track, ref.timeNs);
    if (index >= 0) out.selection = { kind: ref.kind, capture: capture.id, index };
    else missing.push(`the selected ${ref.kind} is not in ${capture.model.capture.fileName}`);
  }
  return out;
}
