/**
 * NVTX_EVENTS -> model: marks, push/pop and start/end ranges (incl. those ending on another thread),
 * category, thread, process and domain names, colors and payloads, for NVTX and NVTXT-imported
 * event types alike.
 *
 * Domain ids only mean something inside one process (`nvtxDomainCreate` hands out per-process
 * handles), so domains are keyed by (process, domainId); a domain without a create row keeps its
 * numeric id as its name. Domain id 0 / NULL is the default domain.
 */
import type { EventAttrs, PayloadValue } from '../../model/builder.ts';
import { f64, i32, u32 } from '../../model/growable.ts';
import { PayloadType, type StringId } from '../../model/types.ts';
import { num, type NsysContext, type Row } from './context.ts';
import { eventTypeTable, type NvtxKind } from './eventTypes.ts';
import { pidOf } from './schema.ts';

const TABLE = 'NVTX_EVENTS';
/** Where an event's own text (not a StringIds one) comes from, for the report of a cut one. */
const TEXT_COLUMN = { record: `${TABLE}, column text` };
const REQUIRED = ['start', 'eventType', 'globalTid'] as const;

/** Ranges that start and end on one thread, kept for the GPU projection (builder thread index -> ranges). */
export class ThreadRanges {
  readonly start = f64();
  readonly end = f64();
  readonly name = u32();
  readonly color = u32();
  readonly domain = i32();
}

/** Names given to CUDA resources with nvtxNameCuda*: key `${pid}:${id}`. */
export interface ResourceNames {
  device: Map<string, string>;
  context: Map<string, string>;
  stream: Map<string, string>;
}

export interface NvtxResult {
  ranges: Map<number, ThreadRanges>;
  resourceNames: ResourceNames;
  /** NVTX events read (all types). */
  rows: number;
}

// Column positions of the main query. Fewer, cheaper columns make the per-row cost: each cell
// read crosses into WebAssembly, and strings are decoded from UTF-8 one by one.
const C = {
  rowid: 0,
  start: 1,
  end: 2,
  type: 3,
  rangeId: 4,
  category: 5,
  color: 6,
  /** Key into the distinct texts (integer), or the text itself when the temp table is missing. */
  text: 7,
  textId: 8,
  domainId: 9,
  /** GlobalId without hardware/VM bits: pid * 2^24 + tid, exact in a double. */
  thread: 10,
  endThread: 11,
  payloadKind: 12,
  payload: 13,
} as const;

/** `C.payloadKind` codes. */
const P = { i64: 1, u64: 2, f64: 3, f32: 4, u32: 5, i32: 6, json: 7, jsonId: 8, binary: 9 } as const;

/** Temp table of the distinct NVTX texts: the main query returns a small integer per row instead. */
const TEXTS = 'temp.nvtxview_nvtx_text';

export function decodeNvtx(ctx: NsysContext): NvtxResult {
  const result: NvtxResult = {
    ranges: new Map(),
    resourceNames: { device: new Map(), context: new Map(), stream: new Map() },
    rows: 0,
  };
  const s = ctx.schema;
  const b = ctx.builder;
  if (!s.has(TABLE)) return result;
  const missing = s.missing(TABLE, REQUIRED);
  if (missing.length > 0) {
    b.report('error', `table ${TABLE} has no column ${missing.join(', ')}: NVTX events cannot be read`);
    return result;
  }
  if (!s.hasColumn(TABLE, 'text') && !s.hasColumn(TABLE, 'textId')) {
    b.report('warning', `table ${TABLE} has neither a text nor a textId column: NVTX events are shown without names`);
  }

  const fileTypes = s.enumNames('ENUM_NSYS_EVENT_TYPE');
  const types = eventTypeTable(fileTypes);
  if (!fileTypes) {
    b.report('info', `no ENUM_NSYS_EVENT_TYPE table: NVTX event types read with the built-in codes of Nsight Systems 2025.1`);
  } else if (types.name.size > 0 && fileTypes.size === 0) {
    b.report('info', `ENUM_NSYS_EVENT_TYPE has no NVTX event type: NVTX event types read with the built-in codes of Nsight Systems 2025.1`);
  }
  const domains = readDomains(ctx, types.codes('domainCreate'));

  const has = (column: string) => s.hasColumn(TABLE, column);
  const optional = (column: string) => (has(column) ? column : 'NULL');
  const textKeys = has('text') ? distinctTexts(ctx) : undefined;
  const select = [
    'rowid',
    ctx.time('start'),
    has('end') ? ctx.time('"end"') : 'NULL',
    'eventType',
    optional('rangeId'),
    optional('category'),
    optional('color'),
    textKeys ? `(SELECT id FROM ${TEXTS} WHERE value = ${TABLE}.text)` : optional('text'),
    optional('textId'),
    optional('domainId'),
    threadKey('globalTid'),
    has('endGlobalTid') ? threadKey('endGlobalTid') : 'NULL',
    ...payloadColumns(has),
  ].join(', ');

  const unknownTypes = new Map<number, number>();
  let binaryPayloads = 0;

  const textOf = (row: Row): StringId | undefined => {
    const text = row[C.text];
    if (typeof text === 'number' && textKeys) return textKeys.ids[text];
    if (typeof text === 'string') return b.intern(text, 'name', TEXT_COLUMN);
    return ctx.stringId(row[C.textId]);
  };
  const nameOf = (row: Row): string | undefined => {
    const text = row[C.text];
    if (typeof text === 'number' && textKeys) return textKeys.values[text];
    if (typeof text === 'string') return text;
    return ctx.string(row[C.textId]);
  };
  const attrsOf = (row: Row, pid: number): EventAttrs => {
    const nameId = textOf(row);
    if (row[C.payloadKind] === P.binary) binaryPayloads++;
    return {
      nameId: nameId ?? b.intern(''),
      color: num(row[C.color]) ?? 0,
      category: num(row[C.category]) ?? 0,
      domain: domains.index(pid, num(row[C.domainId])),
      payload: payloadOf(row, ctx),
    };
  };
  const keep = (thread: number, start: number, end: number, attrs: EventAttrs) => {
    let r = result.ranges.get(thread);
    if (!r) result.ranges.set(thread, (r = new ThreadRanges()));
    r.start.push(start);
    r.end.push(end);
    r.name.push(attrs.nameId ?? 0);
    r.color.push(attrs.color ?? 0);
    r.domain.push(attrs.domain ?? 0);
  };
  const rowLabel = (row: Row) => `${TABLE} row ${String(row[C.rowid])}`;

  const handle = (row: Row, kind: NvtxKind) => {
    const start = ctx.checkTime(TABLE, row[C.rowid], 'start', row[C.start]);
    if (start === undefined) {
      if (row[C.start] === null) b.report('warning', `${rowLabel(row)}: no start time; skipped`);
      return;
    }
    const end = ctx.checkTime(TABLE, row[C.rowid], 'end', row[C.end]);
    if (end === undefined && row[C.end] !== null) return;
    const key = num(row[C.thread]) ?? 0;
    const pid = Math.floor(key / TID_RANGE);
    const tid = key % TID_RANGE;
    const thread = ctx.thread(pid, tid);
    ctx.seeTime(start);
    if (end !== undefined) ctx.seeTime(end);
    switch (kind) {
      case 'mark':
        b.mark(thread, start, attrsOf(row, pid));
        return;
      case 'pushpop':
      case 'push': {
        const attrs = attrsOf(row, pid);
        if (end === undefined) {
          // No end: the builder closes it at the end of the capture and says so.
          b.push(thread, start, attrs);
        } else {
          b.range(thread, start, end, attrs);
          keep(thread, start, end, attrs);
        }
        return;
      }
      case 'pop':
        b.pop(thread, start, domains.index(pid, num(row[C.domainId])));
        return;
      case 'startend':
      case 'start': {
        const attrs = attrsOf(row, pid);
        const endKey = num(row[C.endThread]);
        const endThread = endKey === undefined ? thread : ctx.thread(Math.floor(endKey / TID_RANGE), endKey % TID_RANGE);
        if (end !== undefined) {
          b.startEnd(thread, start, end, attrs, endThread);
          if (endThread === thread) keep(thread, start, end, attrs);
        } else if (kind === 'start' && num(row[C.rangeId]) !== undefined) {
          b.rangeStart(startEndKey(pid, attrs.domain ?? 0, num(row[C.rangeId])!), thread, start, attrs);
        } else {
          b.rangeStart(`${TABLE}:${String(row[C.rowid])}`, thread, start, attrs);
        }
        return;
      }
      case 'end': {
        const rangeId = num(row[C.rangeId]);
        if (rangeId === undefined) {
          b.report('warning', `${rowLabel(row)}: range end without a rangeId; ignored`);
          return;
        }
        b.rangeEnd(startEndKey(pid, domains.index(pid, num(row[C.domainId])), rangeId), thread, start);
        return;
      }
      case 'category': {
        const id = num(row[C.category]);
        const name = nameOf(row);
        if (id === undefined || name === undefined) {
          b.report('warning', `${rowLabel(row)}: category name event without ${id === undefined ? 'a category id' : 'a name'}; ignored`);
          return;
        }
        b.nameCategory(domains.index(pid, num(row[C.domainId])), id, name, { record: rowLabel(row) });
        return;
      }
      case 'thread': {
        const name = nameOf(row);
        if (name !== undefined) b.thread(pid, tid, name, { record: rowLabel(row) });
        return;
      }
      case 'process': {
        const name = nameOf(row);
        ctx.process(pid);
        if (name !== undefined) b.process(pid, name, { record: rowLabel(row) });
        return;
      }
      case 'fileDisplay': {
        const name = nameOf(row);
        if (name !== undefined) b.setProperty('NVTXT display name', name);
        return;
      }
      case 'nameDevice':
      case 'nameContext':
      case 'nameStream': {
        const resource = kind;
        // The named resource's id: the export's column for it is not documented; take the first
        // integer payload column that holds one.
        const member = row[C.payloadKind];
        const integer = member === P.i64 || member === P.u64 || member === P.u32 || member === P.i32;
        const id = integer ? Number(row[C.payload]) : num(row[C.rangeId]);
        const name = nameOf(row);
        if (id === undefined || name === undefined) return;
        const names = result.resourceNames;
        const map = resource === 'nameDevice' ? names.device : resource === 'nameContext' ? names.context : names.stream;
        map.set(`${pid}:${id}`, name);
        return;
      }
      case 'domainCreate':
      case 'domainDestroy':
        return;
    }
  };

  const startEndCodes = types.codes('start', 'end');
  const where = startEndCodes.length > 0 ? ` WHERE eventType NOT IN (${startEndCodes.join(', ')})` : '';
  result.rows += ctx.each(TABLE, `SELECT ${select} FROM ${TABLE}${where}`, (row) => {
    const code = num(row[C.type]) ?? -1;
    const kind = types.kind.get(code);
    if (kind === undefined) unknownTypes.set(code, (unknownTypes.get(code) ?? 0) + 1);
    else handle(row, kind);
  });
  // Separate start and end events pair up by range id, which needs time order.
  if (startEndCodes.length > 0) {
    result.rows += ctx.each(
      `${TABLE} (range start/end events)`,
      `SELECT ${select} FROM ${TABLE} WHERE eventType IN (${startEndCodes.join(', ')}) ORDER BY start, rowid`,
      (row) => handle(row, types.kind.get(num(row[C.type]) ?? -1)!),
    );
  }

  for (const [code, count] of unknownTypes) {
    const name = types.name.get(code);
    b.report('warning', `${TABLE}: ${count} event(s) of type ${code}${name ? ` (${name})` : ''} are not shown: not an NVTX event type nvtxview knows`);
  }
  if (binaryPayloads > 0) {
    b.report('info', `${TABLE}: ${binaryPayloads} event(s) carry a binary (extended) payload, which is not decoded; the events are shown without it`);
  }
  for (const message of domains.notes()) b.report('info', message);
  return result;
}

function startEndKey(pid: number, domain: number, rangeId: number): string {
  return `nsys-range:${pid}:${domain}:${rangeId}`;
}

/** Two columns for the payload union: which member is set (`P`), and its value (64-bit ones as text). */
function payloadColumns(has: (column: string) => boolean): [string, string] {
  const members: Array<[code: number, column: string, value: string]> = [
    [P.i64, 'int64Value', 'CAST(int64Value AS TEXT)'],
    [P.u64, 'uint64Value', 'CAST(uint64Value AS TEXT)'],
    [P.f64, 'doubleValue', 'doubleValue'],
    [P.f32, 'floatValue', 'floatValue'],
    [P.u32, 'uint32Value', 'uint32Value'],
    [P.i32, 'int32Value', 'int32Value'],
    [P.json, 'jsonText', 'jsonText'],
    [P.jsonId, 'jsonTextId', 'jsonTextId'],
  ];
  const present = members.filter(([, column]) => has(column));
  const kinds = present.map(([code, column]) => `WHEN ${column} IS NOT NULL THEN ${code}`);
  if (has('binaryData')) kinds.push(`WHEN binaryData IS NOT NULL THEN ${P.binary}`);
  return [
    kinds.length > 0 ? `CASE ${kinds.join(' ')} END` : 'NULL',
    present.length > 0 ? `COALESCE(${present.map(([, , value]) => value).join(', ')})` : 'NULL',
  ];
}

function payloadOf(row: Row, ctx: NsysContext): PayloadValue | undefined {
  const v = row[C.payload];
  switch (row[C.payloadKind]) {
    // 64-bit members come as text (exact); a REAL stored there by a damaged file is kept as the double it is.
    case P.i64:
      return INTEGER_TEXT.test(String(v)) ? { type: PayloadType.I64, value: BigInt(String(v)) } : doublePayload(v);
    case P.u64:
      return INTEGER_TEXT.test(String(v)) ? { type: PayloadType.U64, value: BigInt(String(v)) } : doublePayload(v);
    case P.f64:
      return { type: PayloadType.F64, value: Number(v) };
    case P.f32:
      return { type: PayloadType.F32, value: Number(v) };
    case P.u32:
      return { type: PayloadType.U32, value: Number(v) >>> 0 };
    case P.i32:
      return { type: PayloadType.I32, value: Number(v) };
    case P.json:
      return { type: PayloadType.Json, value: String(v) };
    case P.jsonId: {
      const json = ctx.string(v);
      return json === undefined ? undefined : { type: PayloadType.Json, value: json };
    }
    default:
      return undefined;
  }
}

const INTEGER_TEXT = /^-?\d{1,20}$/;

function doublePayload(v: unknown): PayloadValue | undefined {
  const n = Number(v);
  return Number.isNaN(n) ? undefined : { type: PayloadType.F64, value: n };
}

const TID_RANGE = 16777216;

/** SQL: pid * 2^24 + tid of a serialized GlobalId (hardware and VM bits masked off). */
function threadKey(column: string): string {
  return `(${column} & 281474976710655)`;
}

/**
 * Fills a temp table with the distinct NVTX texts and returns them by key (interned and as text), or
 * undefined if SQLite could not make the table (the query then reads the text column itself).
 */
function distinctTexts(ctx: NsysContext): { ids: StringId[]; values: string[] } | undefined {
  try {
    ctx.db.run(`CREATE TEMP TABLE IF NOT EXISTS nvtxview_nvtx_text (id INTEGER PRIMARY KEY, value TEXT UNIQUE)`);
    ctx.db.run(`INSERT OR IGNORE INTO ${TEXTS} (value) SELECT text FROM ${TABLE} WHERE text IS NOT NULL`);
  } catch {
    return undefined;
  }
  const ids: StringId[] = [];
  const values: string[] = [];
  ctx.each(`${TABLE} (texts)`, `SELECT id, value FROM ${TEXTS}`, (row) => {
    const value = String(row[1]);
    values[row[0] as number] = value;
    ids[row[0] as number] = ctx.builder.intern(value, 'name', TEXT_COLUMN);
  });
  return { ids, values };
}

/** Domain names per process from the domain-create events, and builder domain indices. */
function readDomains(ctx: NsysContext, createCodes: number[]) {
  const s = ctx.schema;
  const names = new Map<string, string>();
  const index = new Map<string, number>();
  const unnamed = new Map<number, Set<number>>();
  if (createCodes.length > 0 && s.hasColumn(TABLE, 'domainId')) {
    const text = s.hasColumn(TABLE, 'text') ? 'text' : 'NULL';
    const textId = s.hasColumn(TABLE, 'textId') ? 'textId' : 'NULL';
    ctx.each(
      `${TABLE} (domain names)`,
      `SELECT ${pidOf('globalTid')}, domainId, ${text}, ${textId} FROM ${TABLE} WHERE eventType IN (${createCodes.join(', ')}) ORDER BY start`,
      (row) => {
        const name = typeof row[2] === 'string' ? row[2] : ctx.string(row[3]);
        if (typeof row[0] === 'number' && typeof row[1] === 'number' && name !== undefined) {
          names.set(`${row[0]}:${row[1]}`, name);
        }
      },
    );
  }
  return {
    index(pid: number, domainId: number | undefined): number {
      if (domainId === undefined || domainId === 0) return 0;
      const key = `${pid}:${domainId}`;
      let d = index.get(key);
      if (d === undefined) {
        let name = names.get(key);
        if (name === undefined) {
          name = String(domainId);
          let ids = unnamed.get(pid);
          if (!ids) unnamed.set(pid, (ids = new Set()));
          ids.add(domainId);
        }
        d = ctx.builder.domain(pid, name, { record: `${TABLE}, domain ${String(domainId)}` });
        index.set(key, d);
      }
      return d;
    },
    notes(): string[] {
      return [...unnamed].map(
        ([pid, ids]) => `process ${pid}: NVTX domain id(s) ${[...ids].join(', ')} have no domain-create event; shown by their id`,
      );
    },
  };
}
