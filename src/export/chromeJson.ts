/**
 * A loaded capture (any format) as Chrome trace JSON (object form), for Perfetto, chrome://tracing
 * and other viewers. The output is produced as a stream of string pieces (a capture can be far
 * larger than one string may be): `new Blob([...chromeTraceJson(model)])` in the page, or write the
 * pieces (`chromeTraceBytes`) to a file in Node.
 *
 *   push/pop and API rows   X events on the thread (other domains and API rows on a thread of their own)
 *   GPU and other lane rows X events, one made-up thread per lane (viewers expect nested X events per thread)
 *   start/end (category)    b/e async pairs, `cat` = category, a unique id per range, e on the end thread
 *   marks                   i events, thread scope
 *   counters                C events, one series "value" per row
 *   names, sort indices     M events; payloads become `args` (JSON payloads as they are, others as
 *                           {"payload": value}, extended payloads decoded)
 *
 * Timestamps are microseconds from the capture start with three decimals (exact to the
 * nanosecond); the capture's absolute origin and clock are kept in `otherData`. Colors have no
 * place in the format and are not written.
 */
import { payloadJson, payloadValue } from '../model/payload.ts';
import { categoryLabel, domainLabel } from '../model/trackTree.ts';
import { PayloadType, type Model, type Track } from '../model/types.ts';
import { decodeModelPayload } from '../model/extPayloadReader.ts';
import { eventPayloadsJson } from '../payload/payloadText.ts';

export interface ChromeExportOptions {
  /** About how many characters each piece holds (default 1 MiB). */
  pieceChars?: number;
}

/** Microseconds with three decimals from integer nanoseconds, without float rounding. */
export function formatMicros(ns: number): string {
  const n = Math.round(ns);
  const negative = n < 0;
  const a = negative ? -n : n;
  const us = Math.floor(a / 1000);
  const rest = a - us * 1000;
  const text = rest === 0 ? String(us) : `${us}.${rest < 10 ? '00' : rest < 100 ? '0' : ''}${rest}`;
  return negative ? `-${text}` : text;
}

/** A suggested file name for the export of `model`. */
export function chromeTraceFileName(model: Model): string {
  const base = model.capture.fileName.replace(/\.gz$/i, '').replace(/\.[^./\\]+$/, '') || 'capture';
  return `${base}.trace.json`;
}

interface ThreadRef {
  pid: number;
  tid: number;
}

/** Assigns pids/tids: real ones where the model has them, made-up ones for rows without a thread. */
class Ids {
  private readonly pids: number[];
  private nextTid: number;
  private extraPid: number | undefined;
  private readonly maxPid: number;
  /** Made-up threads: pid, tid, name. */
  readonly madeUp: { pid: number; tid: number; name: string }[] = [];

  constructor(private readonly model: Model) {
    this.pids = model.processes.map((p) => p.pid);
    this.maxPid = this.pids.reduce((m, p) => Math.max(m, p), 0);
    this.nextTid = model.threads.reduce((m, t) => Math.max(m, t.tid), 0) + 1;
  }

  pid(process: number): number {
    if (process >= 0) return this.pids[process];
    this.extraPid ??= this.maxPid + 1;
    return this.extraPid;
  }

  /** pid of the process-less rows, if any was needed. */
  get processlessPid(): number | undefined {
    return this.extraPid;
  }

  thread(thread: number): ThreadRef {
    const t = this.model.threads[thread];
    return { pid: this.pids[t.process], tid: t.tid };
  }

  madeUpThread(process: number, name: string): ThreadRef {
    const ref = { pid: this.pid(process), tid: this.nextTid++ };
    this.madeUp.push({ ...ref, name });
    return ref;
  }
}

function threadName(model: Model, thread: number): string {
  const t = model.threads[thread];
  return t.name || `Thread ${t.tid}`;
}

/** The Chrome trace JSON of `model`, as pieces of text to concatenate. */
export function* chromeTraceJson(model: Model, options: ChromeExportOptions = {}): Generator<string> {
  const pieceChars = options.pieceChars ?? 1 << 20;
  const ids = new Ids(model);
  const styleJson: (string | undefined)[] = [];
  const jsonDecoder = { failures: 0 };

  /** `"name":...,"cat":...` of a style, cached. */
  const styleFields = (style: number): string => {
    let s = styleJson[style];
    if (s === undefined) {
      s = `"name":${JSON.stringify(model.strings[model.styles.name[style]])}`;
      const cat = categoryText(model, model.styles.category[style], model.styles.domain[style]);
      if (cat) s += `,"cat":${JSON.stringify(cat)}`;
      styleJson[style] = s;
    }
    return s;
  };
  const argsOf = (payload: number): string => (payload < 0 ? '' : `,"args":${argsJson(model, payload, jsonDecoder)}`);

  let out = '{"traceEvents":[\n';
  let first = true;
  const emit = (event: string): void => {
    out += first ? event : `,\n${event}`;
    first = false;
  };

  // Where the cross-thread start/end ranges end.
  const endThread = new Map<number, number>();
  for (let i = 0; i < model.crossThreadEnds.range.length; i++) endThread.set(model.crossThreadEnds.range[i], model.crossThreadEnds.thread[i]);

  const r = model.ranges;
  let asyncId = 0;
  for (const track of model.tracks) {
    if (track.rangeEnd > track.rangeBegin) {
      if (track.kind === 'category') {
        const fallback = track.thread >= 0 ? ids.thread(track.thread) : undefined;
        let rowThread: ThreadRef | undefined = fallback;
        for (let i = track.rangeBegin; i < track.rangeEnd; i++) {
          const from = r.thread[i] >= 0 ? ids.thread(r.thread[i]) : (rowThread ??= ids.madeUpThread(track.process, rowLabel(model, track)));
          const endT = endThread.get(i);
          const to = endT !== undefined ? ids.thread(endT) : from;
          const id = `"0x${(asyncId++).toString(16)}"`;
          const fields = styleFields(r.style[i]);
          emit(`{"ph":"b",${fields},"id":${id},"pid":${from.pid},"tid":${from.tid},"ts":${formatMicros(r.startNs[i])}${argsOf(r.payload[i])}}`);
          emit(`{"ph":"e",${fields},"id":${id},"pid":${to.pid},"tid":${to.tid},"ts":${formatMicros(r.endNs[i])}}`);
          if (out.length >= pieceChars) {
            yield out;
            out = '';
          }
        }
      } else {
        // One thread per level of packed rows (their levels are lanes: no parents); the thread
        // itself for a default-domain push/pop row; a thread of its own for other stacked rows.
        const levels = track.levelBegin.length - 1;
        const perLevel = levels > 1 && r.parent[track.levelBegin[1]] === -1;
        const own = track.thread >= 0 && track.kind === 'pushpop' && isDefaultDomain(model, track.domain);
        let shared: ThreadRef | undefined = own ? ids.thread(track.thread) : undefined;
        for (let level = 0; level + 1 < track.levelBegin.length; level++) {
          let where: ThreadRef;
          if (perLevel) where = ids.madeUpThread(track.process, level === 0 ? rowLabel(model, track) : `${rowLabel(model, track)} #${level + 1}`);
          else where = shared ??= ids.madeUpThread(track.process, rowLabel(model, track));
          const head = `,"pid":${where.pid},"tid":${where.tid},"ts":`;
          for (let i = track.levelBegin[level]; i < track.levelBegin[level + 1]; i++) {
            emit(`{"ph":"X",${styleFields(r.style[i])}${head}${formatMicros(r.startNs[i])},"dur":${formatMicros(r.endNs[i] - r.startNs[i])}${argsOf(r.payload[i])}}`);
            if (out.length >= pieceChars) {
              yield out;
              out = '';
            }
          }
        }
      }
    }
    if (track.markEnd > track.markBegin) {
      const m = model.marks;
      const rowThread = track.thread >= 0 ? ids.thread(track.thread) : ids.madeUpThread(track.process, rowLabel(model, track));
      for (let i = track.markBegin; i < track.markEnd; i++) {
        const where = m.thread[i] >= 0 ? ids.thread(m.thread[i]) : rowThread;
        emit(`{"ph":"i","s":"t",${styleFields(m.style[i])},"pid":${where.pid},"tid":${where.tid},"ts":${formatMicros(m.timeNs[i])}${argsOf(m.payload[i])}}`);
        if (out.length >= pieceChars) {
          yield out;
          out = '';
        }
      }
    }
    if (track.counterEnd > track.counterBegin) {
      const c = model.counters;
      const pid = ids.pid(track.process);
      const label = track.thread >= 0 ? `${threadName(model, track.thread)} ${track.label}` : track.label;
      const head = `{"ph":"C","name":${JSON.stringify([...track.path, label].join(' / '))},"pid":${pid},"ts":`;
      for (let i = track.counterBegin; i < track.counterEnd; i++) {
        emit(`${head}${formatMicros(c.timeNs[i])},"args":{"value":${numberJson(c.value[i])}}}`);
        if (out.length >= pieceChars) {
          yield out;
          out = '';
        }
      }
    }
  }

  // Names last: the made-up threads are known only now (viewers read metadata in any order).
  model.processes.forEach((p) => {
    if (p.name) emit(metadata('process_name', p.pid, undefined, { name: p.name }));
    if (p.sortIndex !== undefined) emit(metadata('process_sort_index', p.pid, undefined, { sort_index: p.sortIndex }));
  });
  if (ids.processlessPid !== undefined) emit(metadata('process_name', ids.processlessPid, undefined, { name: model.capture.displayName }));
  model.threads.forEach((t, i) => {
    const ref = ids.thread(i);
    if (t.name) emit(metadata('thread_name', ref.pid, ref.tid, { name: t.name }));
    if (t.sortIndex !== undefined) emit(metadata('thread_sort_index', ref.pid, ref.tid, { sort_index: t.sortIndex }));
  });
  for (const t of ids.madeUp) emit(metadata('thread_name', t.pid, t.tid, { name: t.name }));

  const c = model.capture;
  const otherData = {
    exportedBy: 'nvtxview',
    sourceFile: c.fileName,
    sourceFormat: c.format,
    displayName: c.displayName,
    clock: c.clock,
    originNs: c.originNs,
    ...(jsonDecoder.failures > 0 ? { payloadsNotJson: jsonDecoder.failures } : {}),
  };
  out += `\n],\n"displayTimeUnit":"ns",\n"otherData":${JSON.stringify(otherData)}}\n`;
  yield out;
}

/** The export as UTF-8 chunks (for writing to a file or a stream). */
export function* chromeTraceBytes(model: Model, options: ChromeExportOptions = {}): Generator<Uint8Array> {
  const encoder = new TextEncoder();
  for (const piece of chromeTraceJson(model, options)) yield encoder.encode(piece);
}

function metadata(kind: string, pid: number, tid: number | undefined, args: Record<string, unknown>): string {
  return `{"ph":"M","name":"${kind}","pid":${pid}${tid === undefined ? '' : `,"tid":${tid}`},"args":${JSON.stringify(args)}}`;
}

function isDefaultDomain(model: Model, domain: number): boolean {
  return domain <= 0 || model.domains[domain].name === '';
}

/** Row name for made-up threads: owner thread, group path, domain and the row's own label. */
function rowLabel(model: Model, track: Track): string {
  const parts: string[] = [];
  if (track.thread >= 0) parts.push(threadName(model, track.thread));
  parts.push(...track.path);
  if (track.kind === 'pushpop') parts.push(domainLabel(model, track.domain));
  else parts.push(track.kind === 'category' ? categoryLabel(model, track.category) : track.label);
  return parts.join(' / ');
}

/** The `cat` of an event: its category name (or number), after its domain when not the default. */
function categoryText(model: Model, category: number, domain: number): string {
  const parts: string[] = [];
  if (!isDefaultDomain(model, domain)) parts.push(model.domains[domain].name);
  if (category >= 0) {
    const c = model.categories[category];
    parts.push(c.name || String(c.id));
  }
  return parts.join(' / ');
}

function numberJson(v: number): string {
  return Number.isFinite(v) ? String(v) : 'null';
}

/** `args` JSON of a payload row. */
function argsJson(model: Model, payload: number, stats: { failures: number }): string {
  const type = model.payloads.type[payload];
  if (type === PayloadType.Json) {
    const text = payloadJson(model, payload);
    // payloadJson parses valid JSON; text it could not parse comes back as the raw string.
    const raw = payloadValue(model, payload)!.value as string;
    if (typeof text === 'object' && text !== null && !Array.isArray(text)) return raw;
    if (typeof text === 'string' && text === raw) {
      stats.failures++;
      return JSON.stringify({ payload: raw });
    }
    return `{"payload":${raw}}`;
  }
  if (type === PayloadType.Ext) {
    const decoded = decodeModelPayload(model, payload);
    if (decoded) return stringifyJson(eventPayloadsJson(decoded.decodedBegin, decoded.decodedEnd));
  }
  return stringifyJson({ payload: payloadJson(model, payload) });
}

/** JSON.stringify with 64-bit integers (bigint) as decimal strings. */
function stringifyJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}
