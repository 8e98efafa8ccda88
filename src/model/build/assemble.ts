/**
 * `finish()`: closes what is still open, rebases time to the capture start, lays out every row and
 * writes the model's columns (ranges, marks, mark references, counters, correlation, cross-thread
 * ends), then the track tree and the indexes built from the columns.
 */
import { f64, i32 } from '../growable.ts';
import { buildRangeLod } from '../lod.ts';
import { orderByStart } from '../orderByStart.ts';
import { buildTrackTree, categoryLabel } from '../trackTree.ts';
import type { CaptureInfo, Model, ResourceInfo, Track } from '../types.ts';
import type { EventRecorder } from './eventRecorder.ts';
import { locOf, type IssueLog } from './issues.ts';
import { placeOnlineRow, placeRows } from './placeRanges.ts';
import { layoutOnline, layoutRow, MAX_DEPTH, sortedOrder } from './rowLayout.ts';
import type { NameTable } from './names.ts';
import type { PayloadStore } from './payloads.ts';
import type { ProcessTree } from './processTree.ts';
import type { RowMeta, RowTable } from './rows.ts';
import { resolveStack } from './stacks.ts';
import type { StyleTable } from './styles.ts';

/** Everything a builder collected, as `assembleModel` reads it. */
export interface BuildParts {
  info: CaptureInfo;
  /** Absolute time of the decoder's zero, in the clock's ns. */
  originNs: bigint;
  declaredStart: number | undefined;
  declaredEnd: number | undefined;
  resources: ResourceInfo[];
  names: NameTable;
  tree: ProcessTree;
  styles: StyleTable;
  payloads: PayloadStore;
  rows: RowTable;
  events: EventRecorder;
  issues: IssueLog;
}

export function assembleModel(p: BuildParts): Model {
  const { events, issues, styles } = p;
  const rows = p.rows.rows;
  // Still-open start/end ranges end with the capture.
  const lastT = p.declaredEnd ?? (events.maxT === -Infinity ? 0 : events.maxT);
  events.closeOpenStartEnd(lastT);

  const zero = p.declaredStart ?? (events.minT === Infinity ? 0 : Math.min(events.minT, lastT));
  const end = Math.max(lastT, events.maxT === -Infinity ? 0 : events.maxT);

  // Turn push/pop events into complete ranges first: that can extend nothing past `end`.
  for (const row of rows) if (row.layout === 'stack') resolveStack(row, end, p);

  let rangeCount = 0;
  let markCount = 0;
  let counterCount = 0;
  let markRefCount = 0;
  for (const row of rows) {
    rangeCount += row.events.start.length;
    markCount += row.markT?.length ?? 0;
    counterCount += row.counterT?.length ?? 0;
    markRefCount += (row.markRefs?.length ?? 0) / 2;
  }

  const ranges = {
    startNs: new Float64Array(rangeCount),
    endNs: new Float64Array(rangeCount),
    style: new Uint32Array(rangeCount),
    depth: new Uint16Array(rangeCount),
    parent: new Int32Array(rangeCount),
    thread: new Int32Array(rangeCount),
    payload: new Int32Array(rangeCount),
    flags: new Uint8Array(rangeCount),
  };
  const marks = {
    timeNs: new Float64Array(markCount),
    style: new Uint32Array(markCount),
    thread: new Int32Array(markCount),
    payload: new Int32Array(markCount),
  };
  const counters = { timeNs: new Float64Array(counterCount), value: new Float64Array(counterCount) };
  const markRefs = new Uint32Array(markRefCount);
  // Model indexes of the ranges given a flag, as they are placed (`Model.flaggedRanges`).
  const flagged: number[] = [];
  const crossRange: number[] = [];
  const crossThread: number[] = [];
  const corrRange = i32();
  const corrId = f64();
  const onBadNesting = (row: RowMeta, i: number) =>
    issues.report(
      'warning',
      `range "${styles.nameOf(row.events.style.get(i))}" on ${row.label} of thread ${p.tree.threadLabel(row.thread)} overlaps the end of its parent; drawn one level deeper`,
      locOf(row.events.loc.get(i)),
    );

  // Where each marks row's marks land, by row index, for category-row references (first mark, and
  // each mark's place in the row's placed order; undefined: in arrival order).
  const markRowBase = new Int32Array(rows.length);
  const markRowRank = new Array<Uint32Array | undefined>(rows.length).fill(undefined);
  const tracks: Track[] = [];
  let r = 0;
  let m = 0;
  let c = 0;
  for (let rowIndex = 0; rowIndex < rows.length; rowIndex++) {
    const row = rows[rowIndex];
    const track: Track = {
      kind: row.kind,
      label: row.label,
      process: row.process,
      thread: row.thread,
      domain: row.domain,
      category: row.category,
      path: row.path,
      rangeBegin: r,
      rangeEnd: r,
      levelBegin: [r],
      markBegin: m,
      markEnd: m,
      markRefBegin: 0,
      markRefEnd: 0,
      counterBegin: c,
      counterEnd: c,
      unit: row.unit,
    };
    if (row.counter) track.counter = row.counter;
    if (row.objects) track.objects = row.objects;
    if (row.online && row.online.count > 0) {
      const laid = layoutOnline(row.online);
      if (laid.dropped) reportTooDeep(p, row, laid.dropped);
      placeOnlineRow(laid, row.online, row.thread, r, zero, ranges, flagged);
      track.levelBegin = levelBegins(laid.levelCounts, r);
      r += laid.placed;
      track.rangeEnd = r;
    } else if (row.events.start.length > 0) {
      const laid = layoutRow(row, onBadNesting);
      const ev = row.events;
      const n = laid.order.length;
      if (laid.dropped) reportTooDeep(p, row, laid.dropped);
      // Each range's index in the model (-1: dropped for its depth), written by placeRows.
      const newIndex = new Int32Array(ev.start.length);
      if (laid.dropped) newIndex.fill(-1);
      placeRows(laid, ev, newIndex, r, zero, ranges, flagged);
      if (row.corr) {
        for (let k = 0; k < row.corr.length; k++) {
          const id = row.corr.get(k);
          if (Number.isNaN(id) || newIndex[k] < 0) continue;
          corrRange.push(newIndex[k]);
          corrId.push(id);
        }
      }
      if (row.cross) {
        for (let k = 0; k < row.cross.length; k += 2) {
          if (newIndex[row.cross[k]] < 0) continue;
          crossRange.push(newIndex[row.cross[k]]);
          crossThread.push(row.cross[k + 1]);
        }
      }
      track.levelBegin = levelBegins(laid.levelCounts, r);
      r += n;
      track.rangeEnd = r;
    }
    if (row.markT && row.markT.length > 0) {
      const n = row.markT.length;
      const rank = placeMarks(row, m, zero, marks);
      markRowBase[rowIndex] = m;
      markRowRank[rowIndex] = rank;
      m += n;
      track.markEnd = m;
    }
    if (row.counterT && row.counterT.length > 0) {
      const order = sortedOrder(row.counterT.view());
      for (let k = 0; k < order.length; k++) {
        counters.timeNs[c + k] = row.counterT.get(order[k]) - zero;
        counters.value[c + k] = row.counterV!.get(order[k]);
      }
      c += order.length;
      track.counterEnd = c;
    }
    tracks.push(track);
  }

  // Ranges dropped for their depth leave the columns longer than what was placed.
  if (r < ranges.startNs.length) trimColumns(ranges, r);

  // Category rows show their marks by reference, sorted by time.
  let refPos = 0;
  for (let t = 0; t < rows.length; t++) {
    const refs = rows[t].markRefs;
    if (!refs) continue;
    const begin = refPos;
    refPos = resolveMarkRefs(refs.view(), markRowBase, markRowRank, markRefs, refPos);
    const rowRefs = markRefs.subarray(begin, refPos);
    // Marks of one thread arrive in time order: then the references already are.
    if (!byTimeThenIndex(rowRefs, marks.timeNs)) sortRefs(rowRefs, marks.timeNs);
    tracks[t].markRefBegin = begin;
    tracks[t].markRefEnd = refPos;
  }

  // Drop rows that ended up empty (e.g. a category row whose only events were rejected).
  const kept = tracks.filter(
    (t) => t.rangeEnd > t.rangeBegin || t.markEnd > t.markBegin || t.markRefEnd > t.markRefBegin || t.counterEnd > t.counterBegin,
  );

  p.info.originNs = (p.originNs + BigInt(Math.round(zero))).toString();
  // Issue times are on the model's axis, like every event time.
  issues.list.forEach((issue) => {
    if (issue.timeNs !== undefined) issue.timeNs -= zero;
  });
  const model: Model = {
    capture: p.info,
    durationNs: Math.max(0, end - zero),
    strings: p.names.strings,
    styles: styles.finish(),
    ranges,
    marks,
    markRefs,
    counters,
    payloads: p.payloads.columns(),
    crossThreadEnds: { range: Int32Array.from(crossRange), thread: Int32Array.from(crossThread) },
    processes: p.tree.processes,
    threads: p.tree.threads,
    domains: p.tree.domains,
    categories: p.tree.categories,
    tracks: kept,
    trackTree: [],
    issues: issues.list.finish(),
  };
  // Category rows name their category; the file is named once, by the capture's root row.
  for (const t of kept) {
    if (t.kind !== 'category') continue;
    t.label = categoryLabel(model, t.category);
  }
  if (p.resources.length > 0) model.resources = p.resources;
  if (corrRange.length > 0) model.correlation = correlationColumns(corrRange.view(), corrId.view());
  const flows = events.flowPoints;
  if (flows && flows.fromNs.length > 0) {
    model.flows = {
      fromThread: flows.fromThread.view().slice(),
      fromNs: flows.fromNs.view().map((t) => t - zero),
      toThread: flows.toThread.view().slice(),
      toNs: flows.toNs.view().map((t) => t - zero),
    };
  }
  p.payloads.finishInto(model);
  model.trackTree = buildTrackTree(model);
  model.rangeLod = buildRangeLod(ranges);
  model.flaggedRanges = { flags: ranges.flags, index: Int32Array.from(flagged).sort() };
  return model;
}

/** `Model.correlation` from (range, id) pairs in any order. */
function correlationColumns(ranges: Int32Array, ids: Float64Array): NonNullable<Model['correlation']> {
  const n = ranges.length;
  const byRange = Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) => ranges[a] - ranges[b]);
  const range = new Int32Array(n);
  const id = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    range[k] = ranges[byRange[k]];
    id[k] = ids[byRange[k]];
  }
  const byId = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => id[a] - id[b] || range[a] - range[b]);
  return { range, id, byId };
}

/**
 * Writes a category row's mark references, (mark in its row, marks row) pairs, as model mark
 * indexes into `out` from `at`; returns the next place. Arrays by row index rather than a map: a
 * capture's category rows hold hundreds of thousands of references.
 */
function resolveMarkRefs(refs: Int32Array, base: Int32Array, rank: (Uint32Array | undefined)[], out: Uint32Array, at: number): number {
  for (let k = 0; k < refs.length; k += 2) {
    const row = refs[k + 1];
    const placed = rank[row];
    out[at++] = base[row] + (placed === undefined ? refs[k] : placed[refs[k]]);
  }
  return at;
}

/** `Track.levelBegin` from the ranges per level of a row placed at `at`. */
function levelBegins(levelCounts: number[], at: number): number[] {
  const begins = [at];
  levelCounts.forEach((count) => begins.push(begins[begins.length - 1] + count));
  return begins;
}

/**
 * Writes a marks row's marks into the model's columns at `at`, by time (stable), times rebased by
 * `zero`. Returns each mark's position in the row's placed order, or undefined when they arrived
 * in time order (placed as they are, with typed-array copies).
 */
function placeMarks(row: RowMeta, at: number, zero: number, marks: Model['marks']): Uint32Array | undefined {
  const t = row.markT!.view();
  const style = row.markStyle!.view();
  const payload = row.markPayload!.view();
  const n = t.length;
  const timeOut = marks.timeNs;
  marks.thread.fill(row.thread, at, at + n);
  if (copiedAscending(t, timeOut, at, zero)) {
    marks.style.set(style, at);
    marks.payload.set(payload, at);
    return undefined;
  }
  const order = sortedOrder(t);
  const rank = new Uint32Array(n);
  const styleOut = marks.style;
  const payloadOut = marks.payload;
  for (let k = 0; k < n; k++) {
    const i = order[k];
    rank[i] = k;
    timeOut[at + k] = t[i] - zero;
    styleOut[at + k] = style[i];
    payloadOut[at + k] = payload[i];
  }
  return rank;
}

/**
 * Copies `t` rebased by `zero` into `out` at `at` while it is in the order `sortedOrder` gives
 * (non-decreasing; a NaN takes the sorting path); whether all of it was (one pass over the times
 * instead of a check, then the copy).
 */
function copiedAscending(t: Float64Array, out: Float64Array, at: number, zero: number): boolean {
  const n = t.length;
  if (n === 0) return true;
  let prev = t[0];
  if (prev !== prev) return false;
  out[at] = prev - zero;
  for (let k = 1; k < n; k++) {
    const v = t[k];
    if (!(v >= prev)) return false;
    out[at + k] = v - zero;
    prev = v;
  }
  return true;
}

/**
 * Whether mark references already are in the order of their sort (time, then index); false on a
 * NaN time, which the sort's comparison does not order consistently.
 */
function byTimeThenIndex(refs: Uint32Array, timeNs: Float64Array): boolean {
  for (let k = 1; k < refs.length; k++) {
    const a = refs[k - 1];
    const b = refs[k];
    const ta = timeNs[a];
    const tb = timeNs[b];
    if (!(ta < tb || (ta === tb && a < b))) return false;
  }
  return refs.length === 0 || timeNs[refs[0]] === timeNs[refs[0]];
}

/**
 * Sorts mark references by (time, mark index): by the radix sort of `orderByStart` (the mark index
 * as the second key), or with a comparison where a time is NaN (which that sort does not order).
 */
function sortRefs(refs: Uint32Array, timeNs: Float64Array): void {
  const n = refs.length;
  const time = new Float64Array(n);
  let nan = false;
  for (let k = 0; k < n; k++) {
    const t = timeNs[refs[k]];
    if (t !== t) nan = true;
    time[k] = t;
  }
  if (nan) {
    refs.sort((a, b) => timeNs[a] - timeNs[b] || a - b);
    return;
  }
  const copy = refs.slice();
  const order = orderByStart(time, copy, false);
  for (let k = 0; k < n; k++) refs[k] = copy[order[k]];
}

/** One warning per row for the ranges nested too deep to draw (their levels would not fit the depth column). */
function reportTooDeep(p: BuildParts, row: RowMeta, dropped: Uint8Array): void {
  let count = 0;
  let first = -1;
  const start = row.events.start.view();
  for (let i = 0; i < dropped.length; i++) {
    if (!dropped[i]) continue;
    count++;
    if (first < 0 || start[i] < start[first]) first = i;
  }
  p.issues.report(
    'warning',
    `${count.toLocaleString('en-US')} range(s) on ${row.label} of thread ${p.tree.threadLabel(row.thread)} are nested deeper than ${(MAX_DEPTH + 1).toLocaleString('en-US')} levels and were dropped (pushes that are never popped?)`,
    { ...locOf(row.events.loc.get(first)), timeNs: row.events.start.get(first), thread: row.thread },
  );
}

/** Cuts every range column to its first `n` rows. */
function trimColumns(ranges: Model['ranges'], n: number): void {
  ranges.startNs = ranges.startNs.slice(0, n);
  ranges.endNs = ranges.endNs.slice(0, n);
  ranges.style = ranges.style.slice(0, n);
  ranges.depth = ranges.depth.slice(0, n);
  ranges.parent = ranges.parent.slice(0, n);
  ranges.thread = ranges.thread.slice(0, n);
  ranges.payload = ranges.payload.slice(0, n);
  ranges.flags = ranges.flags.slice(0, n);
}
