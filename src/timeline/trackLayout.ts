/**
 * The rows of the timeline, top to bottom: one root per loaded capture, its track tree below,
 * minus the children of collapsed nodes. The tree at the left and the canvas both draw from the
 * same `TrackLayout`, so a row sits at the same y in both.
 */
import type { LoadedCapture } from '../state/viewerStore.ts';
import type { Model, TrackNode } from '../model/types.ts';
import { searchStyleMask, type SearchQuery } from '../analysis/nameSearch.ts';
import { captureFilter, type CaptureFilter, type EventFilters } from '../analysis/eventFilters.ts';
import { formatDuration } from '../format/time.ts';
import { CUDA_GROUP } from '../model/cudaRows.ts';
import { HEADER_ROW_CSS, trackGeometry, type RowGeometry } from './rowGeometry.ts';
import type { CssPx } from './units.ts';

/** Descendant tracks summarised on a collapsed group row (more would cost more than they show). */
export const SUMMARY_TRACK_LIMIT = 32;

export type RowKind = 'capture' | 'group' | 'track';

export interface LayoutRow {
  /** Node key (see `nodeKey`), also the collapse key. */
  key: string;
  kind: RowKind;
  captureId: number;
  model: Model;
  /** Shift of the capture's time zero on the shared axis. */
  offsetNs: number;
  /** Indentation level in the tree (captures are 0). */
  depth: number;
  label: string;
  detail?: string;
  /** Index into `model.tracks`, or -1 for a group or capture row. */
  track: number;
  hasChildren: boolean;
  collapsed: boolean;
  /** Top of the row in the scrolled content. */
  yCss: CssPx;
  heightCss: CssPx;
  /** Track rows only. */
  geometry: RowGeometry | null;
  /** Collapsed group rows: descendant tracks drawn as a summary (at most SUMMARY_TRACK_LIMIT). */
  summaryTracks: number[] | null;
  /** The event filters on this capture (hidden events are neither drawn nor hit), or null. */
  filter?: CaptureFilter | null;
  /** The name search's matching styles of this capture (others are drawn faded), or null. */
  match?: Uint8Array | null;
  /** A track the user pinned: shown in the pinned band at the top, which does not scroll. */
  pinned?: boolean;
}

/** What the store's filters and search change about the rows. */
export interface LayoutView {
  filters?: EventFilters;
  search?: SearchQuery;
  /** Keys of deep rows opened to show every level (see `trackGeometry`). */
  allLevels?: Readonly<Record<string, true>>;
  /** What the user did to the track list: hidden, pinned and reordered rows, row heights, a name filter. */
  arrangement?: TrackArrangement;
}

/** The user's arrangement of the track list (store state, by node key). */
export interface TrackArrangement {
  /** Rows the user hid (with everything below them). */
  hidden?: Readonly<Record<string, true>>;
  /** Track rows shown in the pinned band at the top of the track list, in pin order, instead of in their place. */
  pinned?: readonly string[];
  /** Sibling order chosen by the user: parent key -> child keys, first to last (others follow in tree order). */
  order?: Readonly<Record<string, readonly string[]>>;
  /** Counter row heights chosen by the user (CSS px). */
  heights?: Readonly<Record<string, number>>;
  /** Only rows whose label, or an ancestor's or descendant's, contains this text (case-insensitive). */
  nameFilter?: string;
}

export interface TrackLayout {
  /** The captures the rows were built from (rows hold their model and offset too). */
  captures: readonly LoadedCapture[];
  /**
   * Pinned rows first (`rows[0, pinnedCount)`, at y in [0, pinnedHeightCss)), then every capture's
   * rows. The pinned band stays at the top of the track area while the other rows scroll under it
   * (as in Perfetto): see `src/timeline/frame.ts` and `TrackTree.tsx`.
   */
  rows: LayoutRow[];
  /** Rows in the pinned band, and its height. */
  pinnedCount: number;
  pinnedHeightCss: CssPx;
  totalHeightCss: CssPx;
  /** Row showing a track of a capture, or -1 when hidden under a collapsed node. */
  rowOfTrack(captureId: number, track: number): number;
}

/**
 * Key of a track tree node: `${captureId}` for a capture root, `${captureId}/${labels}` below it,
 * with the labels of the path joined by '/'. A '/' or '%' inside a label is percent-escaped
 * ("Push/Pop" -> "Push%2FPop") so that keys stay unambiguous.
 */
export function nodeKey(captureId: number, path: readonly string[]): string {
  if (path.length === 0) return String(captureId);
  return `${captureId}/${path.map(escapeLabel).join('/')}`;
}

function escapeLabel(label: string): string {
  return label.includes('/') || label.includes('%') ? label.replace(/%/g, '%25').replace(/\//g, '%2F') : label;
}

/**
 * Visits each node of a capture's track tree in display order with its label path; the visitor
 * returns false to skip the node's children.
 */
export function walkTrackTree(
  roots: readonly TrackNode[],
  visit: (node: TrackNode, path: readonly string[]) => boolean,
  prefix: readonly string[] = [],
): void {
  for (const node of roots) {
    const path = [...prefix, node.label];
    if (visit(node, path)) walkTrackTree(node.children, visit, path);
  }
}

export function buildTrackLayout(
  captures: readonly LoadedCapture[],
  collapsed: Readonly<Record<string, true>>,
  view: LayoutView = {},
): TrackLayout {
  // The pinned band and the scrolled rows are laid out apart, then joined (the band on top).
  const band = { rows: [] as LayoutRow[], y: 0 };
  const scrolled = { rows: [] as LayoutRow[], y: 0 };
  let into = scrolled;
  const trackRows = new Map<number, Int32Array>();
  for (const capture of captures) {
    const { model, id, offsetNs } = capture;
    const filter = view.filters ? captureFilter(model, view.filters) : null;
    const match = searchStyleMask(model, view.search ?? null);
    // Rows the filters hide leave the tree, and so do groups left with no row below them.
    const hidden = filter?.hiddenTracks;
    const hasShownTrack = new Map<TrackNode, boolean>();
    const shownBelow = (node: TrackNode): boolean => {
      let v = hasShownTrack.get(node);
      if (v === undefined) {
        v = node.track >= 0 ? !hidden![node.track] : false;
        for (const c of node.children) if (shownBelow(c)) v = true;
        hasShownTrack.set(node, v);
      }
      return v;
    };
    const kept = (node: TrackNode) => !hidden || shownBelow(node) || !hasAnyTrack(node);
    const rowOf = new Int32Array(model.tracks.length).fill(-1);
    trackRows.set(id, rowOf);
    const rootKey = nodeKey(id, []);
    const arrangement = view.arrangement ?? {};
    const userHidden = arrangement.hidden ?? {};
    const pinned = new Set(arrangement.pinned ?? []);
    const nameMatch = nameFilterOf(arrangement.nameFilter);
    // Rows that match the track-name filter, or hold a match below them.
    const matchBelow = new Map<TrackNode, boolean>();
    const matchesBelow = (node: TrackNode): boolean => {
      let v = matchBelow.get(node);
      if (v === undefined) {
        v = nameMatch(node.label);
        for (const c of node.children) if (matchesBelow(c)) v = true;
        matchBelow.set(node, v);
      }
      return v;
    };
    // A row shows when it matches, holds a match, or sits under a matching row.
    const passesName = (node: TrackNode, underMatch: boolean) => underMatch || matchesBelow(node);
    const excludedTracks = hiddenTrackMask(model, rootKey, userHidden, hidden);
    const row = (
      key: string,
      kind: RowKind,
      depth: number,
      node: { label: string; detail?: string },
      track: number,
      hasChildren: boolean,
      isCollapsed: boolean,
      geometry: RowGeometry | null,
      summaryTracks: number[] | null,
    ): LayoutRow => {
      const heightCss = geometry ? geometry.heightCss : HEADER_ROW_CSS;
      const r: LayoutRow = {
        key,
        kind,
        captureId: id,
        model,
        offsetNs,
        depth,
        label: node.label,
        detail: node.detail,
        track,
        hasChildren,
        collapsed: isCollapsed,
        yCss: into.y,
        heightCss,
        geometry,
        summaryTracks,
        filter,
        match,
      };
      into.rows.push(r);
      into.y += heightCss;
      return r;
    };
    const geometryOf = (key: string, track: number) =>
      trackGeometry(model.tracks[track], view.allLevels?.[key] === true, arrangement.heights?.[key]);

    // Pinned tracks go to the band, labelled with their path so that "Push/Pop" says whose it is.
    const pinnedHere: { node: TrackNode; key: string; path: string[] }[] = [];
    walkKeyed(model.trackTree, rootKey, (node, key, path) => {
      if (userHidden[key]) return false;
      if (node.track >= 0 && pinned.has(key) && !hidden?.[node.track]) pinnedHere.push({ node, key, path: [...path] });
      return true;
    });
    const pinnedTracks = new Set(pinnedHere.map((p) => p.node.track));
    // A group whose tracks are all hidden by the user, or pinned above, leaves the tree too.
    const placedBelow = new Map<TrackNode, boolean>();
    const hasPlacedTrack = (node: TrackNode): boolean => {
      let v = placedBelow.get(node);
      if (v === undefined) {
        v = node.track >= 0 && !excludedTracks[node.track] && !pinnedTracks.has(node.track);
        for (const c of node.children) if (hasPlacedTrack(c)) v = true;
        placedBelow.set(node, v);
      }
      return v;
    };
    // Labelled with their path, and their capture's name when several are loaded.
    into = band;
    for (const { node, key, path } of pinnedHere) {
      if (!nameMatch(path.join(' '))) continue;
      const label = (captures.length > 1 ? [model.capture.displayName, ...path] : path).join(' › ');
      row(key, 'track', 0, { label, detail: node.detail }, node.track, false, false, geometryOf(key, node.track), null).pinned = true;
    }
    into = scrolled;

    // The capture's own row, and below it its tree unless collapsed (its pinned rows stay in the band).
    const rootCollapsed = collapsed[rootKey] === true;
    row(
      rootKey,
      'capture',
      0,
      {
        label: model.capture.displayName,
        // A capture placed by hand says where it starts on the shared axis.
        detail: capture.alignedByUser ? `at ${offsetNs < 0 ? '−' : '+'}${formatDuration(Math.abs(offsetNs))}` : model.capture.format,
      },
      -1,
      model.trackTree.length > 0,
      rootCollapsed,
      null,
      rootCollapsed ? summaryOf(model.trackTree, excludedTracks) : null,
    );
    if (rootCollapsed) continue;

    const visit = (nodes: readonly TrackNode[], parentKey: string, depth: number, underMatch: boolean) => {
      for (const { node, key } of arrangedChildren(nodes, parentKey, arrangement.order, depth === 2)) {
        if (!kept(node) || userHidden[key] || !passesName(node, underMatch)) continue;
        if (node.track < 0 && !hasPlacedTrack(node) && hasAnyTrack(node)) continue;
        const matched = underMatch || nameMatch(node.label);
        const isCollapsed = collapsed[key] === true && node.children.length > 0;
        const hasChildren = node.children.length > 0;
        if (node.track >= 0 && (hidden?.[node.track] || pinned.has(key))) {
          // A hidden (or pinned, so shown above) row whose children still show: they take its place.
          visit(node.children, key, depth, matched);
          continue;
        }
        if (node.track >= 0) {
          row(key, 'track', depth, node, node.track, hasChildren, isCollapsed, geometryOf(key, node.track), null);
        } else {
          row(key, 'group', depth, node, -1, hasChildren, isCollapsed, null, isCollapsed ? summaryOf(node.children, excludedTracks) : null);
        }
        if (!isCollapsed) visit(node.children, key, depth + 1, matched);
      }
    };
    visit(model.trackTree, rootKey, 1, false);
  }
  // The band in pin order, whatever capture each row is of.
  const pinOrder = view.arrangement?.pinned ?? [];
  band.rows.sort((a, b) => pinOrder.indexOf(a.key) - pinOrder.indexOf(b.key));
  let bandY = 0;
  for (const r of band.rows) {
    r.yCss = bandY;
    bandY += r.heightCss;
  }
  const pinnedHeightCss = band.y;
  for (const r of scrolled.rows) r.yCss += pinnedHeightCss;
  const rows = [...band.rows, ...scrolled.rows];
  rows.forEach((r, i) => {
    if (r.track >= 0) trackRows.get(r.captureId)![r.track] = i;
  });
  return {
    captures,
    rows,
    pinnedCount: band.rows.length,
    pinnedHeightCss,
    totalHeightCss: pinnedHeightCss + scrolled.y,
    rowOfTrack: (captureId, track) => trackRows.get(captureId)?.[track] ?? -1,
  };
}

/** A node with its key. */
interface KeyedNode {
  node: TrackNode;
  key: string;
}

/**
 * The children of a node with their keys: `${parentKey}/${label}`, but a label repeated among
 * siblings gets a "~n" suffix from its second occurrence on (and so do the keys below it). Keys
 * follow the model's order, so they do not change when rows are filtered, hidden or moved.
 */
export function keyedChildren(nodes: readonly TrackNode[], parentKey: string): KeyedNode[] {
  const seen = new Map<string, number>();
  return nodes.map((node) => {
    const base = `${parentKey}/${escapeLabel(node.label)}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return { node, key: n === 1 ? base : `${base}~${n}` };
  });
}

/** Visits every node with its key and label path; the visitor returns false to skip the children. */
function walkKeyed(
  nodes: readonly TrackNode[],
  parentKey: string,
  visit: (node: TrackNode, key: string, path: readonly string[]) => boolean,
  prefix: readonly string[] = [],
): void {
  for (const { node, key } of keyedChildren(nodes, parentKey)) {
    const path = [...prefix, node.label];
    if (visit(node, key, path)) walkKeyed(node.children, key, visit, path);
  }
}

/**
 * Children in display order, with their keys: the user's order for this parent first (keys that
 * still exist), the rest in tree order; under a process, CUDA's GPU rows come first (Nsight Systems
 * shows them at the top too).
 */
function arrangedChildren(
  nodes: readonly TrackNode[],
  parentKey: string,
  order: Readonly<Record<string, readonly string[]>> | undefined,
  underProcess: boolean,
): KeyedNode[] {
  let out = keyedChildren(nodes, parentKey);
  if (underProcess) {
    const cuda = out.findIndex((c) => c.node.track < 0 && c.node.label === CUDA_GROUP);
    if (cuda > 0) out = [out[cuda], ...out.slice(0, cuda), ...out.slice(cuda + 1)];
  }
  const wanted = order?.[parentKey];
  if (!wanted || wanted.length === 0) return out;
  const rank = new Map(wanted.map((k, i) => [k, i]));
  // Nodes the user placed take the places such nodes occupy, in the order the user gave them.
  const placed = out.filter((x) => rank.has(x.key)).sort((a, b) => rank.get(a.key)! - rank.get(b.key)!);
  let next = 0;
  return out.map((x) => (rank.has(x.key) ? placed[next++] : x));
}

function nameFilterOf(text: string | undefined): (label: string) => boolean {
  const needle = (text ?? '').trim().toLowerCase();
  if (needle === '') return () => true;
  return (label) => label.toLowerCase().includes(needle);
}

/** Tracks the user hid (directly or under a hidden group) or the filters hide, per track index (1 = hidden). */
function hiddenTrackMask(
  model: Model,
  rootKey: string,
  userHidden: Readonly<Record<string, true>>,
  filterHidden: Uint8Array | undefined,
): Uint8Array {
  const mask = filterHidden ? filterHidden.slice() : new Uint8Array(model.tracks.length);
  if (Object.keys(userHidden).length === 0) return mask;
  const hideBelow = (node: TrackNode) => {
    if (node.track >= 0) mask[node.track] = 1;
    node.children.forEach(hideBelow);
  };
  walkKeyed(model.trackTree, rootKey, (node, key) => {
    if (!userHidden[key]) return true;
    hideBelow(node);
    return false;
  });
  return mask;
}

/** Tracks under a collapsed node that are not hidden, in display order, up to the summary limit. */
function summaryOf(children: readonly TrackNode[], hidden?: Uint8Array): number[] {
  const out: number[] = [];
  walkTrackTree(children, (node) => {
    if (out.length >= SUMMARY_TRACK_LIMIT) return false;
    if (node.track >= 0 && !hidden?.[node.track]) out.push(node.track);
    return true;
  });
  return out;
}

function hasAnyTrack(node: TrackNode): boolean {
  return node.track >= 0 || node.children.some(hasAnyTrack);
}

/** Rows intersecting [topCss, bottomCss): [first, last) indices. */
export function visibleRows(layout: TrackLayout, topCss: CssPx, bottomCss: CssPx): [number, number] {
  const rows = layout.rows;
  // First row whose bottom is below topCss.
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid].yCss + rows[mid].heightCss <= topCss) lo = mid + 1;
    else hi = mid;
  }
  let last = lo;
  while (last < rows.length && rows[last].yCss < bottomCss) last++;
  return [lo, last];
}

/** Index of the row at content y, or -1 below the last row. */
export function rowAtY(layout: TrackLayout, yCss: CssPx): number {
  if (yCss < 0) return -1;
  const [first, last] = visibleRows(layout, yCss, yCss + 1e-6);
  return first < last ? first : -1;
}
