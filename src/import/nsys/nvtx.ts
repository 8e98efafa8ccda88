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
import { PayloadType, type StringId } from '../../model/types.ts';
import type { NsysContext } from './context.ts';
import { CELL_FLOAT, CELL_INTEGER, CELL_NULL, TextKeys, type RowCursor } from './rowCursor.ts';
import { eventTypeTable, type NvtxKind } from './eventTypes.ts';
import { pidOf } from './schema.ts';

const TABLE = 'NVTX_EVENTS';
/** Where an event's own text (not a StringIds one) comes from, for the report of a cut one. */
const TEXT_COLUMN = { record: `${TABLE}, column text` };
const REQUIRED = ['start', 'eventType', 'globalTid'] as const;

/** Where the ranges that start and end on one thread go, for the GPU projection (the CUDA model). */
export interface ProjectionInput {
  nvtxRange(thread: number, process: number, startNs: number, endNs: number, attrs: { nameId: number; color?: number; domain?: number }): void;
}

/** Names given to CUDA resources with nvtxNameCuda*: key `${pid}:${id}`. */
export interface ResourceNames {
  device: Map<string, string>;
  context: Map<string, string>;
  stream: Map<string, string>;
}

export interface NvtxResult {
  /** NVTX events read (all types). */
  rows: number;
}

export function emptyResourceNames(): ResourceNames {
  return { device: new Map(), context: new Map(), stream: new Map() };
}

// Column positions of the main query. Fewer, cheaper columns make the per-row cost: each cell
// read crosses into WebAssembly; a row's handler reads only the cells its kind uses.
const C = {
  rowid: 0,
  start: 1,
  end: 2,
  type: 3,
  rangeId: 4,
  category: 5,
  color: 6,
  /** The event's own text (keyed by its bytes, decoded once per distinct text). */
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

/**
 * Reads NVTX_EVENTS into the builder; names of CUDA objects go to `resourceNames`, ranges that start
 * and end on one thread to `projection`.
 */
export function decodeNvtx(ctx: NsysContext, resourceNames: ResourceNames, projection: ProjectionInput): NvtxResult {
  const result: NvtxResult = { rows: 0 };
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
  const domains = nvtxDomains(ctx, types.codes('domainCreate'));

  const has = (column: string) => s.hasColumn(TABLE, column);
  const optional = (column: string) => (has(column) ? column : 'NULL');
  const select = [
    'rowid',
    ctx.time('start'),
    has('end') ? ctx.time('"end"') : 'NULL',
    'eventType',
    optional('rangeId'),
    optional('category'),
    optional('color'),
    optional('text'),
    optional('textId'),
    optional('domainId'),
    threadKey('globalTid'),
    has('endGlobalTid') ? threadKey('endGlobalTid') : 'NULL',
    ...payloadColumns(has),
  ].join(', ');

  const unknownTypes = new Map<number, number>();
  let binaryPayloads = 0;
  const texts = new TextKeys();
  /** Builder string id per text key (interned on first use). */
  const textIds: StringId[] = [];

  /** The key of the row's own text, or -1 (a number there reads as its digits, as SQLite would compare it). */
  const textKeyOf = (r: RowCursor): number => {
    const key = r.textKey(C.text, texts);
    if (key >= 0) return key;
    const type = r.type(C.text);
    return type === CELL_INTEGER || type === CELL_FLOAT ? texts.keyOfString(String(r.double(C.text))) : -1;
  };
  const textOf = (r: RowCursor): StringId | undefined => {
    const key = textKeyOf(r);
    if (key < 0) return ctx.stringId(r.number(C.textId));
    let id = textIds[key];
    if (id === undefined) textIds[key] = id = b.intern(texts.values[key]!, 'name', TEXT_COLUMN);
    return id;
  };
  const nameOf = (r: RowCursor): string | undefined => {
    const key = textKeyOf(r);
    return key >= 0 ? texts.values[key] : ctx.string(r.number(C.textId));
  };
  const attrsOf = (r: RowCursor, pid: number): EventAttrs => {
    const nameId = textOf(r);
    const payloadKind = r.number(C.payloadKind);
    if (payloadKind === P.binary) binaryPayloads++;
    return {
      nameId: nameId ?? b.intern(''),
      color: r.number(C.color) ?? 0,
      category: r.number(C.category) ?? 0,
      domain: domains.index(pid, r.number(C.domainId)),
      payload: payloadKind === undefined ? undefined : payloadOf(r, payloadKind, ctx),
    };
  };
  // Handed over as the 32-bit values the projection keeps (the object is read, not kept).
  const projected = { nameId: 0, color: 0, domain: 0 };
  const keep = (thread: number, start: number, end: number, attrs: EventAttrs) => {
    projected.nameId = (attrs.nameId ?? 0) >>> 0;
    projected.color = (attrs.color ?? 0) >>> 0;
    projected.domain = (attrs.domain ?? 0) | 0;
    projection.nvtxRange(thread, ctx.processOf(thread), start, end, projected);
  };
  const rowLabel = (r: RowCursor) => `${TABLE} row ${String(r.value(C.rowid))}`;

  const handle = (r: RowCursor, kind: NvtxKind) => {
    const start = ctx.timeAt(TABLE, r, C.start, 'start', C.rowid);
    if (start === undefined) {
      if (r.type(C.start) === CELL_NULL) b.report('warning', `${rowLabel(r)}: no start time; skipped`);
      return;
    }
    const end = ctx.timeAt(TABLE, r, C.end, 'end', C.rowid);
    if (end === undefined && r.type(C.end) !== CELL_NULL) return;
    const key = r.number(C.thread) ?? 0;
    const pid = Math.floor(key / TID_RANGE);
    const tid = key % TID_RANGE;
    const thread = ctx.thread(pid, tid);
    ctx.seeTime(start);
    if (end !== undefined) ctx.seeTime(end);
    switch (kind) {
      case 'mark':
        b.mark(thread, start, attrsOf(r, pid));
        return;
      case 'pushpop':
      case 'push': {
        const attrs = attrsOf(r, pid);
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
        b.pop(thread, start, domains.index(pid, r.number(C.domainId)));
        return;
      case 'startend':
      case 'start': {
        const attrs = attrsOf(r, pid);
        const endKey = r.number(C.endThread);
        const endThread = endKey === undefined ? thread : ctx.thread(Math.floor(endKey / TID_RANGE), endKey % TID_RANGE);
        const rangeId = r.number(C.rangeId);
        if (end !== undefined) {
          b.startEnd(thread, start, end, attrs, endThread);
          if (endThread === thread) keep(thread, start, end, attrs);
        } else if (kind === 'start' && rangeId !== undefined) {
          b.rangeStart(startEndKey(pid, attrs.domain ?? 0, rangeId), thread, start, attrs);
        } else {
          b.rangeStart(`${TABLE}:${String(r.value(C.rowid))}`, thread, start, attrs);
        }
        return;
      }
      case 'end': {
        const rangeId = r.number(C.rangeId);
        if (rangeId === undefined) {
          b.report('warning', `${rowLabel(r)}: range end without a rangeId; ignored`);
          return;
        }
        b.rangeEnd(startEndKey(pid, domains.index(pid, r.number(C.domainId)), rangeId), thread, start);
        return;
      }
      case 'category': {
        const id = r.number(C.category);
        const name = nameOf(r);
        if (id === undefined || name === undefined) {
          b.report('warning', `${rowLabel(r)}: category name event without ${id === undefined ? 'a category id' : 'a name'}; ignored`);
          return;
        }
        b.nameCategory(domains.index(pid, r.number(C.domainId)), id, name, { record: rowLabel(r) });
        return;
      }
      case 'thread': {
        const name = nameOf(r);
        if (name !== undefined) b.thread(pid, tid, name, { record: rowLabel(r) });
        return;
      }
      case 'process': {
        const name = nameOf(r);
        ctx.process(pid);
        if (name !== undefined) b.process(pid, name, { record: rowLabel(r) });
        return;
      }
      case 'fileDisplay': {
        const name = nameOf(r);
        if (name !== undefined) b.setProperty('NVTXT display name', name);
        return;
      }
      case 'nameDevice':
      case 'nameContext':
      case 'nameStream': {
        const resource = kind;
        // The named resource's id: the export's column for it is not documented; take the first
        // integer payload column that holds one.
        const member = r.number(C.payloadKind);
        const integer = member === P.i64 || member === P.u64 || member === P.u32 || member === P.i32;
        const id = integer ? Number(r.value(C.payload)) : r.number(C.rangeId);
        const name = nameOf(r);
        if (id === undefined || name === undefined) return;
        const names = resourceNames;
        const map = resource === 'nameDevice' ? names.device : resource === 'nameContext' ? names.context : names.stream;
        map.set(`${pid}:${id}`, name);
        return;
      }
      case 'domainCreate':
      case 'domainDestroy':
        return;
    }
  };

  // One pass over the table in file order. Separate start and end events pair up by range id,
  // which needs time order: they are counted here and read, sorted, in a second query only if
  // there are any.
  let startEndRows = 0;
  result.rows += ctx.scan(TABLE, `SELECT ${select} FROM ${TABLE}`, (r) => {
    const code = r.number(C.type) ?? -1;
    const kind = types.kind.get(code);
    if (kind === undefined) unknownTypes.set(code, (unknownTypes.get(code) ?? 0) + 1);
    else if (kind === 'start' || kind === 'end') startEndRows++;
    else handle(r, kind);
  });
  const startEndCodes = types.codes('start', 'end');
  if (startEndRows > 0 && startEndCodes.length > 0) {
    ctx.scan(
      `${TABLE} (range start/end events)`,
      `SELECT ${select} FROM ${TABLE} WHERE eventType IN (${startEndCodes.join(', ')}) ORDER BY start, rowid`,
      (r) => handle(r, types.kind.get(r.number(C.type) ?? -1)!),
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

function payloadOf(r: RowCursor, kind: number, ctx: NsysContext): PayloadValue | undefined {
  const v = r.value(C.payload);
  switch (kind) {
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
 * Domain names per process from the domain-create events, and builder domain indices. The names
 * are read (a pass over the table) only when a row first uses a domain other than the default one.
 */
function nvtxDomains(ctx: NsysContext, createCodes: number[]) {
  const s = ctx.schema;
  let names: Map<string, string> | undefined;
  /** Builder domain index by process, then domain id: no key string per event. */
  const index = new Map<number, Map<number, number>>();
  const unnamed = new Map<number, Set<number>>();
  const readNames = (): Map<string, string> => {
    const found = new Map<string, string>();
    if (createCodes.length > 0 && s.hasColumn(TABLE, 'domainId')) {
      const text = s.hasColumn(TABLE, 'text') ? 'text' : 'NULL';
      const textId = s.hasColumn(TABLE, 'textId') ? 'textId' : 'NULL';
      ctx.each(
        `${TABLE} (domain names)`,
        `SELECT ${pidOf('globalTid')}, domainId, ${text}, ${textId} FROM ${TABLE} WHERE eventType IN (${createCodes.join(', ')}) ORDER BY start`,
        (row) => {
          const name = typeof row[2] === 'string' ? row[2] : ctx.string(row[3]);
          if (typeof row[0] === 'number' && typeof row[1] === 'number' && name !== undefined) {
            found.set(`${row[0]}:${row[1]}`, name);
          }
        },
      );
    }
    return found;
  };
  return {
    index(pid: number, domainId: number | undefined): number {
      if (domainId === undefined || domainId === 0) return 0;
      let ofProcess = index.get(pid);
      if (ofProcess === undefined) index.set(pid, (ofProcess = new Map()));
      let d = ofProcess.get(domainId);
      if (d === undefined) {
        names ??= readNames();
        let name = names.get(`${pid}:${domainId}`);
        if (name === undefined) {
          name = String(domainId);
          let ids = unnamed.get(pid);
          if (!ids) unnamed.set(pid, (ids = new Set()));
          ids.add(domainId);
        }
        d = ctx.builder.domain(pid, name, { record: `${TABLE}, domain ${String(domainId)}` });
        ofProcess.set(domainId, d);
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
