/**
 * `nvtxview events`: every range and mark of a capture as JSON objects (for scripts and for
 * checking decoders), written as a stream so millions of events do not build one huge string.
 */
import { kindClass } from '../analysis/groups.ts';
import { payloadJson } from '../model/payload.ts';
import { RangeFlag, type Model, type TrackKind } from '../model/types.ts';

/**
 * One event. Times are integer ns from the capture start (`start` = `end` for marks). `endTid` /
 * `endThreadName` only appear on start/end ranges that ended on another thread.
 */
export interface EventRecord {
  file: string;
  kind: 'pushpop' | 'startend' | 'api' | 'gpu' | 'mark';
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
  unterminated?: true;
  endTid?: number;
  endThreadName?: string | null;
}

const RANGE_KIND: readonly EventRecord['kind'][] = ['pushpop', 'startend', 'api', 'gpu'];

function colorText(argb: number): string | null {
  return argb === 0 ? null : `#${(argb >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;
}

/** Event records of a model in time order (ranges before marks at equal times, outer ranges first). */
export function* eventRecords(file: string, model: Model): Generator<EventRecord> {
  const r = model.ranges;
  const m = model.marks;
  const rangeKind = new Array<EventRecord['kind']>(r.startNs.length);
  const kindOfTrack = (kind: TrackKind) => RANGE_KIND[kindClass(kind)];
  for (const track of model.tracks) {
    const kind = kindOfTrack(track.kind);
    for (let i = track.rangeBegin; i < track.rangeEnd; i++) rangeKind[i] = kind;
  }
  const crossEnd = new Map<number, number>();
  for (let k = 0; k < model.crossThreadEnds.range.length; k++) crossEnd.set(model.crossThreadEnds.range[k], model.crossThreadEnds.thread[k]);

  // Ranges are 0..R-1, marks R..R+M-1 in one ordering.
  const nr = r.startNs.length;
  const order = Uint32Array.from({ length: nr + m.timeNs.length }, (_, i) => i);
  const time = (i: number) => (i < nr ? r.startNs[i] : m.timeNs[i - nr]);
  order.sort((a, b) => time(a) - time(b) || (a < nr ? 0 : 1) - (b < nr ? 0 : 1) || (a < nr && b < nr ? r.depth[a] - r.depth[b] : 0) || a - b);

  /** The fields every event has, in output order. */
  const record = (kind: EventRecord['kind'], style: number, thread: number, start: number, end: number, payload: number): EventRecord => {
    const category = model.styles.category[style];
    const process = thread >= 0 ? model.threads[thread].process : -1;
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
      threadName: thread >= 0 ? model.threads[thread].name || null : null,
      pid: process >= 0 ? model.processes[process].pid : null,
      processName: process >= 0 ? model.processes[process].name || null : null,
      category: category >= 0 ? model.categories[category].id : null,
      categoryName: category >= 0 ? model.categories[category].name || null : null,
      color: colorText(model.styles.color[style]),
      payload: payloadJson(model, payload),
    };
  };

  for (const i of order) {
    if (i >= nr) {
      const k = i - nr;
      yield record('mark', m.style[k], m.thread[k], m.timeNs[k], m.timeNs[k], m.payload[k]);
      continue;
    }
    const out = record(rangeKind[i], r.style[i], r.thread[i], r.startNs[i], r.endNs[i], r.payload[i]);
    out.depth = r.depth[i];
    if (r.flags[i] & RangeFlag.Unterminated) out.unterminated = true;
    const end = crossEnd.get(i);
    if (end !== undefined) {
      out.endTid = model.threads[end].tid;
      out.endThreadName = model.threads[end].name || null;
    }
    yield out;
  }
}

/** JSON text of one record; bigint payload parts (if any reach here) become decimal strings. */
export function eventJson(record: EventRecord): string {
  return JSON.stringify(record, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}
