/**
 * The rows of the timeline, top to bottom: one root per loaded capture, its track tree below,
 * minus the children of collapsed nodes. The tree at the left and the canvas both draw from the
 * same `TrackLayout`, so a row sits at the same y in both.
 */
import type { LoadedCapture } from '../state/viewerStore.ts';
import type { Model, TrackNode } from '../model/types.ts';
import { searchStyleMask, type SearchQuery } from '../analysis/nameSearch.ts';
import { captureFilter, type CaptureFilter, type EventFilters } from '../state/filters.ts';
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
}

/** What the store's filters and search change about the rows. */
export interface LayoutView {
  filters?: EventFilters;
  search?: SearchQuery;
  /** Keys of deep rows opened to show every level (see `trackGeometry`). */
  allLevels?: Readonly<Record<string, true>>;
}

export interface TrackLayout {
  /** The captures the rows were built from (rows hold their model and offset too). */
  captures: readonly LoadedCapture[];
  rows: LayoutRow[];
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
  const rows: LayoutRow[] = [];
  const trackRows = new Map<number, Int32Array>();
  let y = 0;
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
    const seen = new Set<string>();
    // Keys are built from the parent's key one label at a time: nodeKey(id, path) for every node
    // but a repeated sibling label, which gets a "~n" suffix (and so do the keys below it).
    const uniqueKey = (key: string) => {
      let unique = key;
      for (let n = 2; seen.has(unique); n++) unique = `${key}~${n}`;
      seen.add(unique);
      return unique;
    };
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
        yCss: y,
        heightCss,
        geometry,
        summaryTracks,
        filter,
        match,
      };
      rows.push(r);
      y += heightCss;
      return r;
    };

    const rootKey = uniqueKey(nodeKey(id, []));
    const rootCollapsed = collapsed[rootKey] === true;
    row(
      rootKey,
      'capture',
      0,
      { label: model.capture.displayName, detail: model.capture.format },
      -1,
      model.trackTree.length > 0,
      rootCollapsed,
      null,
      rootCollapsed ? summaryOf(model.trackTree, hidden) : null,
    );
    if (rootCollapsed) continue;

    const visit = (nodes: readonly TrackNode[], parentKey: string, depth: number) => {
      for (const node of nodes) {
        if (!kept(node)) continue;
        const key = uniqueKey(`${parentKey}/${escapeLabel(node.label)}`);
        const isCollapsed = collapsed[key] === true && node.children.length > 0;
        const hasChildren = node.children.length > 0;
        if (node.track >= 0 && hidden?.[node.track]) {
          // A hidden row whose children still show: they take its place.
          visit(node.children, key, depth);
          continue;
        }
        if (node.track >= 0) {
          rowOf[node.track] = rows.length;
          row(key, 'track', depth, node, node.track, hasChildren, isCollapsed, trackGeometry(model.tracks[node.track], view.allLevels?.[key] === true), null);
        } else {
          row(key, 'group', depth, node, -1, hasChildren, isCollapsed, null, isCollapsed ? summaryOf(node.children, hidden) : null);
        }
        if (!isCollapsed) visit(node.children, key, depth + 1);
      }
    };
    visit(model.trackTree, String(id), 1);
  }
  return {
    captures,
    rows,
    totalHeightCss: y,
    rowOfTrack: (captureId, track) => trackRows.get(captureId)?.[track] ?? -1,
  };
}

/** Tracks under a collapsed node that the filters leave, in display order, up to the summary limit. */
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
