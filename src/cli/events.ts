/**
 * `nvtxview events`: every range, mark and counter sample of a capture as JSON objects (for
 * scripts and for checking decoders), written as a stream so millions of events do not build one
 * huge string. Extended payloads (NVTX payload extension) are decoded: field name -> value.
 */
import { kindClass } from '../analysis/groups.ts';
import { modelPayloadJson } from '../model/extPayloadReader.ts';
import { CUDA_CONTEXT, CUDA_DEVICE, CUDA_STREAM, cuptiCorrelationId, PROJECTION_ROW_LABEL } from '../model/cudaRows.ts';
import { rowObjects, threadName } from '../model/resources.ts';
import { correlatedRanges, correlationIdOf } from '../model/query.ts';
import { RangeFlag, type Model, type Track } from '../model/types.ts';

/**
 * One event. Times are integer ns from the capture start (`start` = `end` for marks and counter
 * samples). `endTid` / `endThreadName` only appear on start/end ranges that ended on another
 * thread; `value`, `unit` and `counter` (the counter's track path) only on counter samples, whose
 * `name` is the counter's: `value` is null for a sample without a value (`noValue` says why), and
 * delta counters add `valueType` and their `runningTotal`.
 */
export interface EventRecord {
  file: string;
  /** 'projection': an NVTX range drawn over the GPU time of the work it launched (nsys), not GPU work itself. */
  kind: 'pushpop' | 'startend' | 'api' | 'gpu' | 'projection' | 'mark' | 'counter';
  name: string;
  domain: string;
  startNs: number;
  endNs: number;
  durationNs: number;
  depth: number | null;
  tid: number | null;
  threadName: string | null;
  pid: number | null;
  processName: string | null;
  category: number | null;
  categoryName: string | null;
  /** '#AARRGGBB', or null when the capture gives none. */
  color: string | null;
  payload: unknown;
  /** The row of a range or mark in the track tree, below its process or thread ("CUDA > GPU 0 (H100) > Stream 7"). */
  row?: string;
  /** Ranges linked to others (nsys: a CUDA API call and the GPU work it launched): the CUPTI correlation id. */
  correlationId?: number;
  /** GPU rows: the CUDA device, context and stream ids and the names the program gave them (null when unnamed). */
  device?: number | string;
  deviceName?: string | null;
  context?: number | string;
  contextName?: string | null;
  stream?: number | string;
  streamName?: string | null;
  unterminated?: true;
  endTid?: number;
  endThreadName?: string | null;
  /** The counter's value, or null for a sample without one (see `noValue`). */
  value?: number | null;
  /** Why a counter sample has no value: the program said it was unavailable (nvtxCounterSampleNoValue). */
  noValue?: 'unavailable';
  /** What a counter's values are, when not absolute values: changes since the previous sample, or since the start. */
  valueType?: 'delta' | 'deltaSinceStart';
  /** Delta counters: the sum of the changes up to and including this sample (changes without a value left out). */
  runningTotal?: number;
  unit?: string | null;
  counter?: string;
}

const RANGE_KIND: readonly EventRecord['kind'][] = ['pushpop', 'startend', 'api', 'gpu'];

/** Record fields of each CUDA object kind a row can show (`Track.objects`). */
const OBJECT_FIELDS: Record<string, ['device' | 'context' | 'stream', 'deviceName' | 'contextName' | 'streamName']> = {
  [CUDA_DEVICE]: ['device', 'deviceName'],
  [CUDA_CONTEXT]: ['context', 'contextName'],
  [CUDA_STREAM]: ['stream', 'streamName'],
};

/** What every range of a row shares: its kind, row text, process and objects. */
interface RowFacts {
  kind: EventRecord['kind'];
  row: string;
  process: number;
  objects: Partial<EventRecord>;
}

function rowFacts(model: Model, track: Track): RowFacts {
  const objects: Partial<EventRecord> = {};
  for (const o of rowObjects(model, track)) {
    const fields = OBJECT_FIELDS[o.kind];
    if (!fields) continue;
    objects[fields[0]] = /^\d+$/.test(o.handle) ? Number(o.handle) : o.handle;
    objects[fields[1]] = o.name ?? null;
  }
  const projection = track.kind === 'gpu' && track.label === PROJECTION_ROW_LABEL;
  return {
    kind: projection ? 'projection' : RANGE_KIND[kindClass(track.kind)],
    row: [...track.path, track.label].join(' > '),
    process: track.process >= 0 ? track.process : track.thread >= 0 ? model.threads[track.thread].process : -1,
    objects,
  };
}

function colorText(argb: number): string | null {
  return argb === 0 ? null : `#${(argb >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;
}

/** Event records of a model in time order (ranges before marks at equal times, outer ranges first). */
export function* eventRecords(file: string, model: Model): Generator<EventRecord> {
  const r = model.ranges;
  const m = model.marks;
  const rowOfRange = new Int32Array(r.startNs.length);
  const rows = model.tracks.map((track, k) => {
    rowOfRange.fill(k, track.rangeBegin, track.rangeEnd);
    return rowFacts(model, track);
  });
  const markRow = new Map<number, string>();
  for (const track of model.tracks) if (track.markEnd > track.markBegin) markRow.set(track.markBegin, [...track.path, track.label].join(' > '));
  const markRows = [...markRow.keys()].sort((a, b) => a - b);
  const crossEnd = new Map<number, number>();
  for (let k = 0; k < model.crossThreadEnds.range.length; k++) crossEnd.set(model.crossThreadEnds.range[k], model.crossThreadEnds.thread[k]);

  // Ranges are 0..R-1, marks R..R+M-1, counter samples R+M.. in one ordering.
  const nr = r.startNs.length;
  const nrm = nr + m.timeNs.length;
  const c = model.counters;
  const counterTrack = new Int32Array(c.timeNs.length);
  model.tracks.forEach((t, k) => counterTrack.fill(k, t.counterBegin, t.counterEnd));
  // Rows derived by the viewer (running totals) are not events of the capture: their values go
  // with the delta samples they sum, as `runningTotal`.
  const derived = (k: number) => model.tracks[counterTrack[k]].counter?.derived !== undefined;
  const runningTotals = new Float64Array(model.tracks.length);
  const order = Uint32Array.from({ length: nrm + c.timeNs.length }, (_, i) => i);
  const time = (i: number) => (i < nr ? r.startNs[i] : i < nrm ? m.timeNs[i - nr] : c.timeNs[i - nrm]);
  const group = (i: number) => (i < nr ? 0 : i < nrm ? 1 : 2);
  order.sort((a, b) => time(a) - time(b) || group(a) - group(b) || (a < nr && b < nr ? r.depth[a] - r.depth[b] : 0) || a - b);

  /** The fields every event has, in output order. */
  const record = (kind: EventRecord['kind'], style: number, thread: number, start: number, end: number, payload: number, rowProcess = -1): EventRecord => {
    const category = model.styles.category[style];
    const process = thread >= 0 ? model.threads[thread].process : rowProcess;
    return {
      file,
      kind,
      name: model.strings[model.styles.name[style]],
      domain: model.domains[model.styles.domain[style]]?.name ?? '',
      startNs: start,
      endNs: end,
      durationNs: end - start,
      depth: null,
      tid: thread >= 0 ? model.threads[thread].tid : null,
      threadName: thread >= 0 ? threadName(model, thread) || null : null,
      pid: process >= 0 ? model.processes[process].pid : null,
      processName: process >= 0 ? model.processes[process].name || null : null,
      category: category >= 0 ? model.categories[category].id : null,
      categoryName: category >= 0 ? model.categories[category].name || null : null,
      color: colorText(model.styles.color[style]),
      payload: modelPayloadJson(model, payload),
    };
  };

  for (const i of order) {
    if (i >= nrm) {
      const k = i - nrm;
      if (derived(k)) continue;
      const track = model.tracks[counterTrack[k]];
      const process = track.process >= 0 ? track.process : track.thread >= 0 ? model.threads[track.thread].process : -1;
      const record: EventRecord = {
        file,
        kind: 'counter',
        name: track.label,
        domain: '',
        startNs: c.timeNs[k],
        endNs: c.timeNs[k],
        durationNs: 0,
        depth: null,
        tid: track.thread >= 0 ? model.threads[track.thread].tid : null,
        threadName: track.thread >= 0 ? threadName(model, track.thread) || null : null,
        pid: process >= 0 ? model.processes[process].pid : null,
        processName: process >= 0 ? model.processes[process].name || null : null,
        category: null,
        categoryName: null,
        color: null,
        payload: null,
        value: Number.isNaN(c.value[k]) ? null : c.value[k],
        unit: track.unit ?? null,
        counter: [...track.path, track.label].join(' > '),
      };
      const out = counterRecordExtras(track.counter?.valueType, c.value[k], runningTotals, counterTrack[k]);
      if (out) Object.assign(record, out);
      yield record;
      continue;
    }
    if (i >= nr) {
      const k = i - nr;
      const out = record('mark', m.style[k], m.thread[k], m.timeNs[k], m.timeNs[k], m.payload[k]);
      const row = markRow.get(markRows[upperBound(markRows, k) - 1]);
      if (row !== undefined) out.row = row;
      yield out;
      continue;
    }
    const facts = rows[rowOfRange[i]];
    // GPU work has no thread of its own: it is given the thread whose API call launched it.
    const thread = r.thread[i] >= 0 ? r.thread[i] : launchingThread(model, i);
    const out = record(facts.kind, r.style[i], thread, r.startNs[i], r.endNs[i], r.payload[i], facts.process);
    out.depth = r.depth[i];
    out.row = facts.row;
    const correlation = correlationIdOf(model, i);
    if (correlation !== undefined) out.correlationId = cuptiCorrelationId(correlation);
    Object.assign(out, facts.objects);
    if (r.flags[i] & RangeFlag.Unterminated) out.unterminated = true;
    const end = crossEnd.get(i);
    if (end !== undefined) {
      out.endTid = model.threads[end].tid;
      out.endThreadName = threadName(model, end) || null;
    }
    yield out;
  }
}

/** The thread of a range's correlated partner that has one (the API call that launched GPU work), or -1. */
function launchingThread(model: Model, range: number): number {
  for (const other of correlatedRanges(model, range)) if (model.ranges.thread[other] >= 0) return model.ranges.thread[other];
  return -1;
}

/** Number of entries of the ascending `list` that are <= `value`. */
function upperBound(list: number[], value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The fields a counter sample has beyond its value: why it has none, what its values are, and the
 * running total of a delta counter (kept per track in `totals`, samples given in time order).
 */
function counterRecordExtras(
  valueType: 'absolute' | 'delta' | 'deltaSinceStart' | undefined,
  value: number,
  totals: Float64Array,
  track: number,
): Pick<EventRecord, 'noValue' | 'valueType' | 'runningTotal'> | undefined {
  if (valueType !== 'delta' && valueType !== 'deltaSinceStart' && !Number.isNaN(value)) return undefined;
  const out: Pick<EventRecord, 'noValue' | 'valueType' | 'runningTotal'> = {};
  if (Number.isNaN(value)) out.noValue = 'unavailable';
  if (valueType === 'delta' || valueType === 'deltaSinceStart') out.valueType = valueType;
  if (valueType === 'delta') {
    if (!Number.isNaN(value)) totals[track] += value;
    out.runningTotal = totals[track];
  }
  return out;
}

/** JSON text of one record; bigint payload parts (if any reach here) become decimal strings. */
export function eventJson(record: EventRecord): string {
  return JSON.stringify(record, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}
