/**
 * The events table of one capture without an object per row: its rows are event ids (ranges and
 * marks in one index space, see src/analysis/eventIds.ts) in a Uint32Array. Filtering is one pass
 * over the events by start time with typed-array lookups per event (text and value filters are
 * resolved per style, thread and process first); sorting is a stable radix sort of that array by
 * the column's numeric key (text columns sort by the rank of their text), so ties stay in start
 * order. Cell text is made only for the rows on screen.
 */
import { eventCount, eventsByStart } from '../../analysis/eventIds.ts';
import { kindClass } from '../../analysis/groups.ts';
import { identityOrder, sortOrder, textRanks } from '../../analysis/sortOrder.ts';
import { payloadNumber } from '../../model/payload.ts';
import { categoryLabel, domainLabel, processLabel, threadLabel } from '../../model/trackTree.ts';
import type { Model } from '../../model/types.ts';
import { modelPayloadSummary } from '../../model/extPayloadReader.ts';
import type { CaptureFilter } from '../../analysis/eventFilters.ts';

export type EventColumn = 'start' | 'end' | 'duration' | 'name' | 'kind' | 'category' | 'domain' | 'thread' | 'process' | 'endThread' | 'payload';

/** Columns whose values can be picked in a value filter. */
export type ValueColumn = 'name' | 'kind' | 'category' | 'domain' | 'thread' | 'process';

export const VALUE_COLUMNS: readonly ValueColumn[] = ['name', 'kind', 'category', 'domain', 'thread', 'process'];

/** Event kinds: range row kinds as in src/analysis/groups.ts (`kindClass`), then marks. */
export const KIND_LABELS = ['PushPop', 'StartEnd', 'API', 'GPU', 'Mark'] as const;
export const MARK_KIND = 4;

/** What the table needs of a model beyond its columns, computed once per model. */
export interface EventTableData {
  model: Model;
  count: number;
  rangeCount: number;
  /** Per event: index into KIND_LABELS. */
  kind: Uint8Array;
  /** Per event: index into `model.processes` (through the thread, else the event's row), or -1. */
  process: Int32Array;
  /** Events by start time; ties by index. */
  byStart: Uint32Array;
  /** Start/end ranges that ended on another thread: range -> end thread. */
  endThread: Map<number, number>;
}

const dataCache = new WeakMap<Model, EventTableData>();

export function eventTableData(model: Model): EventTableData {
  const cached = dataCache.get(model);
  if (cached) return cached;
  const count = eventCount(model);
  const rangeCount = model.ranges.startNs.length;
  const kind = new Uint8Array(count);
  const process = new Int32Array(count).fill(-1);
  const threadProcess = Int32Array.from(model.threads, (t) => t.process);
  for (const track of model.tracks) {
    const k = kindClass(track.kind);
    for (let i = track.rangeBegin; i < track.rangeEnd; i++) {
      kind[i] = k;
      const th = model.ranges.thread[i];
      process[i] = th >= 0 ? threadProcess[th] : track.process;
    }
  }
  for (let m = 0; m < model.marks.timeNs.length; m++) {
    kind[rangeCount + m] = MARK_KIND;
    const th = model.marks.thread[m];
    process[rangeCount + m] = th >= 0 ? threadProcess[th] : -1;
  }
  const byStart = eventsByStart(model);
  const endThread = new Map<number, number>();
  const cross = model.crossThreadEnds;
  for (let k = 0; k < cross.range.length; k++) endThread.set(cross.range[k], cross.thread[k]);
  const data = { model, count, rangeCount, kind, process, byStart, endThread };
  dataCache.set(model, data);
  return data;
}

// ---------------------------------------------------------------- per-event values

export function eventStyleOf(data: EventTableData, e: number): number {
  return e < data.rangeCount ? data.model.ranges.style[e] : data.model.marks.style[e - data.rangeCount];
}

export function eventThreadOf(data: EventTableData, e: number): number {
  return e < data.rangeCount ? data.model.ranges.thread[e] : data.model.marks.thread[e - data.rangeCount];
}

export function eventStart(data: EventTableData, e: number): number {
  return e < data.rangeCount ? data.model.ranges.startNs[e] : data.model.marks.timeNs[e - data.rangeCount];
}

export function eventEnd(data: EventTableData, e: number): number {
  return e < data.rangeCount ? data.model.ranges.endNs[e] : data.model.marks.timeNs[e - data.rangeCount];
}

function eventPayloadOf(data: EventTableData, e: number): number {
  return e < data.rangeCount ? data.model.ranges.payload[e] : data.model.marks.payload[e - data.rangeCount];
}

/** The thread a start/end range ended on (its start thread unless it moved), or -1 for other events. */
export function endThreadOf(data: EventTableData, e: number): number {
  if (data.kind[e] !== kindClass('category')) return -1;
  return data.endThread.get(e) ?? data.model.ranges.thread[e];
}

/** The id of an event's value in a value column (a string id for names, an index otherwise; -1 = none). */
export function valueOf(data: EventTableData, column: ValueColumn, e: number): number {
  const styles = data.model.styles;
  switch (column) {
    case 'name':
      return styles.name[eventStyleOf(data, e)];
    case 'kind':
      return data.kind[e];
    case 'category':
      return styles.category[eventStyleOf(data, e)];
    case 'domain':
      return styles.domain[eventStyleOf(data, e)];
    case 'thread':
      return eventThreadOf(data, e);
    case 'process':
      return data.process[e];
  }
}

export function valueLabel(model: Model, column: ValueColumn, value: number): string {
  switch (column) {
    case 'name':
      return model.strings[value];
    case 'kind':
      return KIND_LABELS[value] ?? '';
    case 'category':
      return categoryLabel(model, value);
    case 'domain':
      return domainLabel(model, value);
    case 'thread':
      return value < 0 ? '(no thread)' : threadLabel(model, value);
    case 'process':
      return value < 0 ? '(no process)' : processLabel(model, value);
  }
}

/** A value of a column with its number of events. */
export interface ColumnValue {
  value: number;
  label: string;
  count: number;
}

const valuesCache = new WeakMap<EventTableData, Map<ValueColumn, ColumnValue[]>>();

/** The distinct values of a column over all events, by label. */
export function columnValues(data: EventTableData, column: ValueColumn): ColumnValue[] {
  let perData = valuesCache.get(data);
  if (!perData) valuesCache.set(data, (perData = new Map()));
  const cached = perData.get(column);
  if (cached) return cached;
  const counts = new Map<number, number>();
  for (let e = 0; e < data.count; e++) {
    const v = valueOf(data, column, e);
    counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  const values = [...counts].map(([value, count]) => ({ value, label: valueLabel(data.model, column, value), count }));
  const ranks = textRanks(values.map((v) => v.label));
  const sorted = Array.from(sortOrder(identityOrder(values.length), ranks), (i) => values[i]);
  perData.set(column, sorted);
  return sorted;
}

// ---------------------------------------------------------------- filtering and sorting

export interface EventTableQuery {
  /** Case-insensitive substring of the name, category, domain, thread or process. */
  text: string;
  /** Per value column, the values hidden from the table (`valueOf` ids). */
  hidden: Partial<Record<ValueColumn, ReadonlySet<number>>>;
  /** Shortest duration shown (ns); 0 shows everything, marks included. */
  minDurationNs: number;
  sort: { column: EventColumn; descending: boolean };
}

export const DEFAULT_TABLE_QUERY: EventTableQuery = {
  text: '',
  hidden: {},
  minDurationNs: 0,
  sort: { column: 'start', descending: false },
};

/** Masks of one query, resolved per style, thread, process and kind. */
interface QueryMasks {
  /** Per style: 1 passes the value filters (name, category, domain). */
  style: Uint8Array;
  /** Per thread + 1 (index 0 = no thread). */
  thread: Uint8Array;
  /** Per process + 1. */
  process: Uint8Array;
  kind: Uint8Array;
  /** Text matches, or null without text: per style, thread + 1, process + 1. */
  textStyle: Uint8Array | null;
  textThread: Uint8Array | null;
  textProcess: Uint8Array | null;
}

function queryMasks(model: Model, query: EventTableQuery): QueryMasks {
  const h = query.hidden;
  const styles = model.styles;
  const styleCount = styles.name.length;
  const style = new Uint8Array(styleCount);
  for (let s = 0; s < styleCount; s++) {
    const hidden = h.name?.has(styles.name[s]) || h.category?.has(styles.category[s]) || h.domain?.has(styles.domain[s]);
    style[s] = hidden ? 0 : 1;
  }
  const thread = Uint8Array.from({ length: model.threads.length + 1 }, (_, t) => (h.thread?.has(t - 1) ? 0 : 1));
  const process = Uint8Array.from({ length: model.processes.length + 1 }, (_, p) => (h.process?.has(p - 1) ? 0 : 1));
  const kind = Uint8Array.from(KIND_LABELS, (_, k) => (h.kind?.has(k) ? 0 : 1));
  const text = query.text.trim().toLowerCase();
  if (text === '') return { style, thread, process, kind, textStyle: null, textThread: null, textProcess: null };
  const has = (s: string) => s.toLowerCase().includes(text);
  const textStyle = new Uint8Array(styleCount);
  for (let s = 0; s < styleCount; s++) {
    const c = styles.category[s];
    if (has(model.strings[styles.name[s]]) || (c >= 0 && has(categoryLabel(model, c))) || has(domainLabel(model, styles.domain[s]))) textStyle[s] = 1;
  }
  const textThread = Uint8Array.from({ length: model.threads.length + 1 }, (_, t) => (t > 0 && has(threadLabel(model, t - 1)) ? 1 : 0));
  const textProcess = Uint8Array.from({ length: model.processes.length + 1 }, (_, p) => (p > 0 && has(processLabel(model, p - 1)) ? 1 : 0));
  return { style, thread, process, kind, textStyle, textThread, textProcess };
}

/** The rows of the table: event ids passing the capture filter and the query, in the query's order. */
export function eventRows(data: EventTableData, query: EventTableQuery, filter: CaptureFilter | null): Uint32Array {
  const model = data.model;
  const masks = queryMasks(model, query);
  const { style: styleMask, thread: threadMask, process: processMask, kind: kindMask, textStyle, textThread, textProcess } = masks;
  const { startNs, endNs, style: rStyle, thread: rThread } = model.ranges;
  const { style: mStyle, thread: mThread } = model.marks;
  const R = data.rangeCount;
  const minDur = query.minDurationNs;
  const { kind, process, byStart } = data;
  const out = new Uint32Array(data.count);
  let n = 0;
  for (let k = 0; k < byStart.length; k++) {
    const e = byStart[k];
    let s: number;
    let th: number;
    if (e < R) {
      if (filter && !filter.ranges.shown(e)) continue;
      if (minDur > 0 && endNs[e] - startNs[e] < minDur) continue;
      s = rStyle[e];
      th = rThread[e];
    } else {
      const m = e - R;
      if (filter && !filter.marks.shown(m)) continue;
      if (minDur > 0) continue;
      s = mStyle[m];
      th = mThread[m];
    }
    const p = process[e];
    if (!styleMask[s] || !threadMask[th + 1] || !processMask[p + 1] || !kindMask[kind[e]]) continue;
    if (textStyle && !textStyle[s] && !textThread![th + 1] && !textProcess![p + 1]) continue;
    out[n++] = e;
  }
  const rows = out.subarray(0, n);
  return sortRows(data, rows, query.sort);
}

/** Rows (in start order) sorted by a column; ties keep start order. */
export function sortRows(data: EventTableData, rows: Uint32Array, sort: EventTableQuery['sort']): Uint32Array {
  const { column, descending } = sort;
  if (column === 'start') {
    if (!descending) return rows.slice();
    return sortOrder(rows, (e) => eventStart(data, e), true);
  }
  return sortOrder(rows, sortKey(data, column), descending);
}

function rankBy(count: number, label: (i: number) => string): Uint32Array {
  return textRanks(Array.from({ length: count }, (_, i) => label(i)));
}

/** The numeric sort key of a column, as a function of the event id. */
function sortKey(data: EventTableData, column: Exclude<EventColumn, 'start'>): (e: number) => number {
  const model = data.model;
  const styles = model.styles;
  switch (column) {
    case 'end':
      return (e) => eventEnd(data, e);
    case 'duration':
      return (e) => eventEnd(data, e) - eventStart(data, e);
    case 'name': {
      const ranks = textRanks(model.strings);
      return (e) => ranks[styles.name[eventStyleOf(data, e)]];
    }
    case 'kind':
      return (e) => data.kind[e];
    case 'category': {
      // Index 0 is "no category".
      const ranks = rankBy(model.categories.length + 1, (i) => (i === 0 ? '' : categoryLabel(model, i - 1)));
      return (e) => ranks[styles.category[eventStyleOf(data, e)] + 1];
    }
    case 'domain': {
      const ranks = rankBy(model.domains.length, (i) => domainLabel(model, i));
      return (e) => ranks[styles.domain[eventStyleOf(data, e)]];
    }
    case 'thread': {
      const ranks = rankBy(model.threads.length + 1, (i) => (i === 0 ? '' : threadLabel(model, i - 1)));
      return (e) => ranks[eventThreadOf(data, e) + 1];
    }
    case 'endThread': {
      const ranks = rankBy(model.threads.length + 1, (i) => (i === 0 ? '' : threadLabel(model, i - 1)));
      return (e) => ranks[endThreadOf(data, e) + 1];
    }
    case 'process': {
      const ranks = rankBy(model.processes.length + 1, (i) => (i === 0 ? '' : processLabel(model, i - 1)));
      return (e) => ranks[data.process[e] + 1];
    }
    case 'payload':
      // Numeric payloads by value; text, extended and missing payloads after them, in start order.
      return (e) => payloadNumber(model, eventPayloadOf(data, e));
  }
}

// ---------------------------------------------------------------- cell text

/** Text of a cell; times are capture-relative. `formatTime` and `formatSpan` come from the UI. */
export function cellText(
  data: EventTableData,
  column: EventColumn,
  e: number,
  format: { time(ns: number): string; duration(ns: number): string },
): string {
  const model = data.model;
  switch (column) {
    case 'start':
      return format.time(eventStart(data, e));
    case 'end':
      return e < data.rangeCount ? format.time(eventEnd(data, e)) : '';
    case 'duration':
      return e < data.rangeCount ? format.duration(eventEnd(data, e) - eventStart(data, e)) : '';
    case 'endThread': {
      const t = endThreadOf(data, e);
      return t < 0 ? '' : threadLabel(model, t);
    }
    case 'payload': {
      const p = eventPayloadOf(data, e);
      return p < 0 ? '' : modelPayloadSummary(model, p, 120);
    }
    case 'category': {
      const c = valueOf(data, 'category', e);
      return c < 0 ? '' : categoryLabel(model, c);
    }
    case 'domain': {
      const d = valueOf(data, 'domain', e);
      return model.domains[d]?.name ? domainLabel(model, d) : '';
    }
    default:
      return valueLabel(model, column, valueOf(data, column, e));
  }
}
