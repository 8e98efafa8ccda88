/**
 * The extended-payload decoder: (registered schemas + enums + payload bytes) -> a tree of typed
 * fields, plus what the event learns from them (message, color, category, scope, timestamps of
 * deferred events, counter values). Pure and synchronous; it never throws: whatever does not match
 * its schema comes back as a field- or payload-level error with the bytes in hex, and everything
 * around it is still decoded.
 *
 * Layout rules are in layout.ts; see README.md for the interpretation of the points the NVTX
 * documents leave open.
 */
import type {
  CounterRef,
  DecodedField,
  DecodedPayload,
  FieldKind,
  FieldValue,
  PayloadAttributes,
  TimestampRef,
} from './decoded.ts';
import { enumIsSigned, enumName } from './enums.ts';
import {
  alignUp,
  elemFootprint,
  entryLabel,
  isUnion,
  schemaLabel,
  schemaPlan,
  type ElemType,
  type EntryPlan,
  type EntryShape,
  type SchemaPlan,
} from './layout.ts';
import { indexRegistry, type RegistryIndex } from './registry.ts';
import {
  bfloat16ToNumber,
  bufOf,
  decodeText,
  exactNumber,
  float16ToNumber,
  hex,
  isZero,
  readFloat128,
  readInt,
  readX87,
  tf32ToNumber,
  unitsBeforeNul,
  type Buf,
} from './scalars.ts';
import {
  EntryFlag,
  EntryType,
  PayloadSchemaId,
  SchemaFlag,
  SchemaType,
  type CounterSemantics,
  type EntryDef,
  type MemoryRegion,
  type PayloadBlob,
  type PayloadRegistry,
  type SchemaDef,
  type SemanticsDef,
} from './schema.ts';
import { counterDisplay } from './semantics.ts';
import { predefinedType, type PredefinedType } from './entryTypes.ts';

export interface DecodeOptions {
  /** Model domain index of the event (schema ids are per domain). Default 0. */
  domain?: number;
  /**
   * All payloads of the event, in call order (this one included): targets of
   * `ARRAY_LENGTH_PAYLOAD_INDEX` entries, and of pointers into sibling payloads (with addresses).
   */
  eventPayloads?: readonly PayloadBlob[];
  /** Position of this payload in `eventPayloads`. */
  payloadIndex?: number;
  /** Address of this payload in the program, for pointers into it. */
  address?: number | bigint;
  /** Deep-copied memory that pointer entries may point into. */
  memory?: readonly MemoryRegion[];
  /**
   * What `OFFSET_FROM_BASE` offsets are relative to: a batch's flex data (from its start, before
   * `flexDataOffset`). Default: the payload itself.
   */
  offsetBase?: Uint8Array;
  /**
   * Semantics that apply to every counter / timestamp entry lacking its own (a counter group's
   * `nvtxCounterAttr_t::semantics`).
   */
  semantics?: readonly SemanticsDef[];
  /** Elements decoded per array before the rest is cut (and marked `truncated`). Default 100000. */
  maxElements?: number;
  /** Nesting (schemas in schemas, pointers to pointers) before giving up. Default 32. */
  maxDepth?: number;
  /**
   * Values decoded per payload before giving up (pointers can make a small payload expand without
   * bound, e.g. a node whose children point back to it). Default 1000000.
   */
  maxValues?: number;
}

const DEFAULT_MAX_ELEMENTS = 100_000;
const DEFAULT_MAX_DEPTH = 32;
const DEFAULT_MAX_VALUES = 1_000_000;
/** Payloads giving lengths to payloads giving lengths to...: a guard against loops between them. */
const MAX_PAYLOAD_HOPS = 4;

interface Region {
  start: bigint;
  end: bigint;
  buf: Buf;
  source: 'payload' | 'memory';
}

interface Ctx {
  index: RegistryIndex;
  domain: number;
  regions: Region[];
  offsetBase?: Buf;
  /** The payload being decoded (default base of `OFFSET_FROM_BASE`). */
  top?: Buf;
  eventPayloads: readonly PayloadBlob[];
  defaults: readonly SemanticsDef[];
  maxElements: number;
  maxDepth: number;
  depth: number;
  hops: number;
  /** Values left to decode for this payload (shared with length payloads decoded on its behalf). */
  budget: { left: number };
  attrs: PayloadAttributes;
  timestamps: TimestampRef[];
  counters: CounterRef[];
}

/** One decoded schema instance: integer values of its entries (for lengths and selectors). */
interface Instance {
  plan: SchemaPlan;
  buf: Buf;
  base: number;
  ints: (bigint[] | undefined)[];
}

/** Decodes one payload blob. Never throws. */
export function decodePayload(
  registry: PayloadRegistry,
  schemaId: number,
  bytes: Uint8Array,
  options: DecodeOptions = {},
): DecodedPayload {
  const index = indexRegistry(registry);
  const domain = options.domain ?? 0;
  const regions = regionsOf(options.eventPayloads ?? [], options.memory ?? []);
  if (options.address !== undefined && !options.eventPayloads?.[options.payloadIndex ?? -1]) {
    regions.push(region(options.address, bytes, 'payload'));
  }
  const ctx = newCtx(index, domain, regions, options);
  return decodeBlob(ctx, schemaId, bytes);
}

/** Decodes all payloads of one event (one `nvtxPayloadData_t` array). Never throws. */
export function decodeEventPayloads(
  registry: PayloadRegistry,
  blobs: readonly PayloadBlob[],
  options: Omit<DecodeOptions, 'eventPayloads' | 'payloadIndex' | 'address'> = {},
): DecodedPayload[] {
  const index = indexRegistry(registry);
  const domain = options.domain ?? 0;
  const regions = regionsOf(blobs, options.memory ?? []);
  return blobs.map((b) => decodeBlob(newCtx(index, domain, regions, { ...options, eventPayloads: blobs }), b.schemaId, b.bytes));
}

function newCtx(index: RegistryIndex, domain: number, regions: Region[], options: DecodeOptions): Ctx {
  return {
    index,
    domain,
    regions,
    offsetBase: options.offsetBase ? bufOf(options.offsetBase) : undefined,
    eventPayloads: options.eventPayloads ?? [],
    defaults: options.semantics ?? [],
    maxElements: options.maxElements ?? DEFAULT_MAX_ELEMENTS,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    depth: 0,
    hops: 0,
    budget: { left: options.maxValues ?? DEFAULT_MAX_VALUES },
    attrs: {},
    timestamps: [],
    counters: [],
  };
}

function region(address: number | bigint, bytes: Uint8Array, source: Region['source']): Region {
  const start = BigInt(address);
  return { start, end: start + BigInt(bytes.length), buf: bufOf(bytes), source };
}

function regionsOf(blobs: readonly PayloadBlob[], memory: readonly MemoryRegion[]): Region[] {
  const out: Region[] = [];
  for (const b of blobs) if (b.address !== undefined && b.bytes.length > 0) out.push(region(b.address, b.bytes, 'payload'));
  for (const m of memory) if (m.bytes.length > 0) out.push(region(m.address, m.bytes, 'memory'));
  return out;
}

function decodeBlob(ctx: Ctx, schemaId: number, bytes: Uint8Array): DecodedPayload {
  const result: DecodedPayload = {
    schemaId,
    domain: ctx.domain,
    kind: 'schema',
    size: bytes.length,
    fields: [],
    attributes: ctx.attrs,
    timestamps: ctx.timestamps,
    counters: ctx.counters,
  };
  try {
    ctx.top = bufOf(bytes);
    decodeInto(ctx, result, ctx.top);
  } catch (e) {
    // A decoder bug must not lose the payload: show it raw with the reason.
    result.error = `internal decoder error: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (result.error) result.raw = hex(bytes);
  return result;
}

function decodeInto(ctx: Ctx, result: DecodedPayload, buf: Buf): void {
  const schemaId = result.schemaId;
  const size = buf.bytes.length;
  if (schemaId === PayloadSchemaId.Referenced) {
    result.kind = 'referenced';
    return;
  }
  if (schemaId === PayloadSchemaId.Raw) {
    result.kind = 'raw';
    result.fields.push({ name: 'data', type: `byte[${size}]`, kind: 'raw', value: hex(buf.bytes), entry: -1, flags: 0, offset: 0, size });
    return;
  }
  const predefined = predefinedType(schemaId, ctx.index.typeTable);
  const enumDef = predefined ? undefined : ctx.index.enumDef(ctx.domain, schemaId);
  if (predefined || enumDef) {
    result.kind = 'predefined';
    decodeWholeBlob(ctx, result, buf, predefined ? { kind: 'predefined', t: predefined } : { kind: 'enum', def: enumDef! });
    return;
  }
  const schema = ctx.index.schema(ctx.domain, schemaId);
  if (!schema) {
    result.kind = 'unknown';
    result.error = `unknown schema id ${schemaId} in this domain`;
    return;
  }
  result.schemaName = schema.name;
  result.role = roleOf(schema);
  const plan = schemaPlan(ctx.index, schema);
  if (plan.error) {
    result.error = `${schemaLabel(schema)}: ${plan.error}`;
    return;
  }
  if (schema.type === SchemaType.Union) {
    result.error = `${schemaLabel(schema)} is a union with external selector: it can only be decoded inside the schema holding its selector`;
    return;
  }
  const { fields, end } = decodeSchemaBody(ctx, plan, buf, 0, size, '');
  result.fields = fields;
  result.consumed = end;
  const f = plan.footprint;
  if (f.kind === 'fixed' && size < f.size && schema.type === SchemaType.Static) {
    result.error = `payload is ${size} bytes, ${schemaLabel(schema)} needs ${f.size}`;
  }
}

/** A payload whose schema id is a predefined type or enum: one value, an array of them, or text. */
function decodeWholeBlob(ctx: Ctx, result: DecodedPayload, buf: Buf, elem: ElemType): void {
  const size = buf.bytes.length;
  const fp = elemFootprint(ctx.index, elem);
  if (fp.kind !== 'fixed' || fp.size === 0 || (elem.kind === 'predefined' && elem.t.kind === 'selector')) {
    result.error = fp.kind === 'error' ? fp.message : `schema id ${result.schemaId} cannot be a payload type`;
    return;
  }
  const t = elem.kind === 'predefined' ? elem.t : undefined;
  const count = Math.floor(size / fp.size);
  const text = t?.textUnit && (t.kind === 'string' || count !== 1) ? t.textUnit : undefined;
  const shape: EntryShape = text
    ? { storage: 'inline', array: 'fixed', elem, length: count, text }
    : { storage: 'inline', array: count === 1 ? 'none' : 'fixed', elem, length: count };
  const entry: EntryDef = { flags: 0, type: result.schemaId, arrayOrUnionDetail: count, offset: 0 };
  const name = t ? t.name : `enum ${elem.kind === 'enum' ? (elem.def.name ?? elem.def.id) : ''}`;
  const field = newField(name, entry, -1, 0, size);
  const data = decodeData(ctx, shape, entry, -1, undefined, buf, 0, size, name);
  fill(field, data);
  field.size = size;
  result.fields.push(field);
  // One value of an attribute type (category, color, scope, pid, tid) given as a whole payload is
  // that attribute of the event, as the same entry in a schema would be.
  const role = t?.role;
  if (role && count === 1 && !field.error && (typeof field.value === 'number' || typeof field.value === 'bigint')) {
    if (role === 'category' || role === 'color') ctx.attrs[role] = Number(field.value);
    else ctx.attrs[role] = field.value;
  }
  if (size % fp.size !== 0) {
    result.error = `payload is ${size} bytes, not a multiple of the ${fp.size}-byte ${name}`;
  }
}

function roleOf(s: SchemaDef): DecodedPayload['role'] {
  switch (s.flags & SchemaFlag.RoleMask) {
    case SchemaFlag.CounterGroup:
      return 'counterGroup';
    case SchemaFlag.RangePushPop:
      return 'pushpop';
    case SchemaFlag.RangeStartEnd:
      return 'startend';
    case SchemaFlag.Mark:
      return 'mark';
    default:
      return undefined;
  }
}

// ------------------------------------------------------------------ schema bodies

/** Decodes a struct-like schema or a union with internal selector at `base`. */
function decodeSchemaBody(
  ctx: Ctx,
  plan: SchemaPlan,
  buf: Buf,
  base: number,
  limit: number,
  path: string,
): { fields: DecodedField[]; end: number } {
  const inst: Instance = { plan, buf, base, ints: [] };
  if (plan.schema.type === SchemaType.UnionWithInternalSelector) return decodeUnionBody(ctx, inst, limit, path);
  const fields: DecodedField[] = [];
  let cursor: number | undefined = base;
  let end = base;
  let lost: string | undefined;
  for (const e of plan.entries) {
    let off: number;
    if (e.explicit !== undefined) off = base + e.explicit;
    else if (cursor !== undefined) off = base + alignUp(cursor - base, e.align);
    else {
      const field = newField(nameOf(e), e.entry, e.index, base, 0);
      field.type = typeText(e.shape);
      field.error = `position unknown: follows ${lost}, which could not be decoded`;
      fields.push(field);
      continue;
    }
    const { field, size } = decodeEntry(ctx, inst, e, off, limit, path);
    fields.push(field);
    if (size === undefined) {
      cursor = undefined;
      lost = `entry ${entryLabel(e.entry, e.index)}`;
    } else {
      cursor = off + size;
      end = Math.max(end, cursor);
    }
  }
  const f = plan.footprint;
  if (f.kind === 'fixed') end = Math.max(end, base + f.size);
  return { fields, end };
}

/** A union whose selector is one of its own entries (`UNION_SELECTOR`). */
function decodeUnionBody(ctx: Ctx, inst: Instance, limit: number, path: string): { fields: DecodedField[]; end: number } {
  const plan = inst.plan;
  const base = inst.base;
  const selPlan = plan.entries[plan.selector];
  const { field: selField, size: selSize } = decodeEntry(ctx, inst, selPlan, base + (selPlan.explicit ?? 0), limit, path);
  const fields = [selField];
  let end = base + (selPlan.explicit ?? 0) + (selSize ?? 0);
  const sel = inst.ints[plan.selector]?.[0];
  if (sel !== undefined) {
    const member = pickMember(plan, sel, plan.selector);
    if (typeof member === 'string') {
      selField.error = member;
      selField.raw = unionRaw(plan, inst.buf, base, limit);
    } else {
      const { field, size } = decodeEntry(ctx, inst, member, base + (member.explicit ?? 0), limit, path);
      fields.push(field);
      if (size !== undefined) end = Math.max(end, base + (member.explicit ?? 0) + size);
    }
  }
  const f = plan.footprint;
  if (f.kind === 'fixed') end = Math.max(end, base + f.size);
  return { fields, end };
}

/** The member a selector value picks: an entry index of the union schema (not the selector itself). */
function pickMember(plan: SchemaPlan, sel: bigint, selectorEntry: number): EntryPlan | string {
  const n = plan.entries.length;
  if (sel < 0n || sel >= BigInt(n) || Number(sel) === selectorEntry) {
    return `bad selector value ${sel}: ${schemaLabel(plan.schema)} has members ${memberRange(n, selectorEntry)}`;
  }
  return plan.entries[Number(sel)];
}

function memberRange(n: number, selector: number): string {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) if (i !== selector) ids.push(i);
  return ids.length === 0 ? '(none)' : ids.length > 6 ? `${ids[0]}..${ids[ids.length - 1]}` : ids.join(', ');
}

function unionRaw(plan: SchemaPlan, buf: Buf, off: number, limit: number): string {
  const f = plan.footprint;
  return hex(buf.bytes, off, f.kind === 'fixed' ? Math.min(limit, off + f.size) : limit);
}

// ------------------------------------------------------------------ entries

function nameOf(e: EntryPlan): string {
  return e.entry.name || `#${e.index}`;
}

function newField(name: string, entry: EntryDef | undefined, index: number, offset: number, size: number): DecodedField {
  const f: DecodedField = { name, type: '', kind: 'scalar', entry: index, flags: entry?.flags ?? 0, offset, size };
  if (entry?.description) f.description = entry.description;
  if (entry && entry.flags & EntryFlag.Hide) f.hidden = true;
  return f;
}

/** Decodes one entry of a schema instance at `off`; `size` is undefined when its extent is unknown. */
function decodeEntry(
  ctx: Ctx,
  inst: Instance,
  e: EntryPlan,
  off: number,
  limit: number,
  path: string,
): { field: DecodedField; size?: number } {
  const name = nameOf(e);
  const fieldPath = path ? `${path}.${name}` : name;
  const field = newField(name, e.entry, e.index, off, 0);
  const shape = e.shape;
  if ('error' in shape) {
    field.error = shape.error;
    return { field };
  }
  field.type = e.typeText ??= typeText(shape);
  if (e.footprint.kind === 'error') {
    field.error = e.footprint.message;
    return { field };
  }
  if (shape.storage !== 'inline') {
    decodeIndirect(ctx, inst, e, shape, off, limit, fieldPath, field);
    return { field, size: field.size };
  }
  if (shape.elem.kind === 'schema' && shape.elem.def.type === SchemaType.Union) {
    const size = decodeExternalUnion(ctx, inst, e, shape.elem.def, off, limit, fieldPath, field);
    return { field, size };
  }
  const data = decodeData(ctx, shape, e.entry, e.index, inst, inst.buf, off, limit, fieldPath);
  fill(field, data);
  field.size = data.size ?? 0;
  if (data.ints) inst.ints[e.index] = data.ints;
  applyEntryRoles(ctx, field, e.entry, shape, data, fieldPath, countersByDefault(inst.plan));
  return { field, size: data.size };
}

/** A union member chosen by another entry of the enclosing schema (`arrayOrUnionDetail`). */
function decodeExternalUnion(
  ctx: Ctx,
  inst: Instance,
  e: EntryPlan,
  union: SchemaDef,
  off: number,
  limit: number,
  path: string,
  field: DecodedField,
): number | undefined {
  field.kind = 'union';
  const plan = schemaPlan(ctx.index, union);
  const fixedSize = plan.footprint.kind === 'fixed' ? plan.footprint.size : undefined;
  field.size = fixedSize ?? 0;
  const sel = selectorOf(inst, e.entry.arrayOrUnionDetail, e.index);
  if (typeof sel === 'string') {
    field.error = sel;
    field.raw = unionRaw(plan, inst.buf, off, limit);
    return fixedSize;
  }
  const member = pickMember(plan, sel, -1);
  if (typeof member === 'string') {
    field.error = member;
    field.raw = unionRaw(plan, inst.buf, off, limit);
    return fixedSize;
  }
  if (!enter(ctx, field)) return fixedSize;
  const unionInst: Instance = { plan, buf: inst.buf, base: off, ints: [] };
  const { field: child, size } = decodeEntry(ctx, unionInst, member, off + (member.explicit ?? 0), limit, path);
  ctx.depth--;
  field.children = [child];
  const end = size === undefined ? undefined : (member.explicit ?? 0) + size;
  const consumed = fixedSize ?? end;
  field.size = consumed ?? 0;
  return consumed;
}

/** The integer value of entry `j` of the instance, used by entry `i` as a union selector. */
function selectorOf(inst: Instance, j: number, i: number): bigint | string {
  const plan = inst.plan;
  if (j === i || j >= plan.entries.length) return `selector entry index ${j} is not another entry of ${schemaLabel(plan.schema)}`;
  if (j < i) {
    const v = inst.ints[j];
    if (!v || v.length !== 1) return `selector entry ${entryLabel(plan.entries[j].entry, j)} is not a decoded integer`;
    return v[0];
  }
  // A selector after the union: readable when its offset does not depend on the data.
  const sel = plan.entries[j];
  const shape = sel.shape;
  const off = sel.fixedOffset;
  if ('error' in shape || off === undefined || shape.storage !== 'inline' || shape.array !== 'none') {
    return `selector entry ${entryLabel(sel.entry, j)} comes after the union at a data-dependent offset`;
  }
  const w = integerWidth(shape.elem);
  if (!w) return `selector entry ${entryLabel(sel.entry, j)} is not an integer`;
  if (inst.base + off + w.size > inst.buf.bytes.length) return `selector entry ${entryLabel(sel.entry, j)} is beyond the end of the payload`;
  return BigInt(readInt(inst.buf, inst.base + off, w.size, w.signed));
}

function integerWidth(elem: ElemType): { size: number; signed: boolean } | undefined {
  if (elem.kind === 'selector') return { size: elem.size, signed: false };
  if (elem.kind === 'enum') return { size: elem.def.size, signed: enumIsSigned(elem.def) };
  if (elem.kind === 'predefined' && (elem.t.kind === 'int' || elem.t.kind === 'uint' || elem.t.kind === 'char')) {
    return { size: elem.t.size, signed: elem.t.kind === 'int' };
  }
  return undefined;
}

function enter(ctx: Ctx, field: DecodedField): boolean {
  if (ctx.depth >= ctx.maxDepth) {
    field.error = `nested deeper than ${ctx.maxDepth} levels`;
    return false;
  }
  ctx.depth++;
  return true;
}

// ------------------------------------------------------------------ pointers and offsets

/** Pointer / offset entries: the storage holds an address or offset; the data is elsewhere. */
function decodeIndirect(
  ctx: Ctx,
  inst: Instance,
  e: EntryPlan,
  shape: EntryShape,
  off: number,
  limit: number,
  path: string,
  field: DecodedField,
): void {
  field.size = 8;
  if (off + 8 > limit) {
    field.error = `needs 8 bytes at offset ${off}, the payload ends at ${limit}`;
    field.raw = hex(inst.buf.bytes, off, limit);
    return;
  }
  const ref = inst.buf.view.getBigUint64(off, true);
  const address = `0x${ref.toString(16)}`;
  let target: { buf: Buf; off: number; source: 'payload' | 'memory' | 'flexData' } | undefined;
  if (shape.storage === 'pointer') {
    if (ref === 0n) {
      field.value = null;
      field.pointer = { address, resolved: true };
      return;
    }
    const r = ctx.regions.find((g) => ref >= g.start && ref < g.end);
    if (r) target = { buf: r.buf, off: Number(ref - r.start), source: r.source };
  } else {
    const baseBuf = shape.storage === 'offsetFromBase' ? (ctx.offsetBase ?? ctx.top ?? inst.buf) : inst.buf;
    const at = shape.storage === 'offsetFromBase' ? ref : BigInt(off + 8) + ref;
    if (at < BigInt(baseBuf.bytes.length)) {
      target = { buf: baseBuf, off: Number(at), source: shape.storage === 'offsetFromBase' && ctx.offsetBase ? 'flexData' : 'payload' };
    }
  }
  if (!target) {
    field.value = exactNumber(ref);
    field.pointer = { address, resolved: false };
    field.display = 'hex';
    return;
  }
  field.pointer = { address, resolved: true, region: target.source };
  // Only schemas can recurse through pointers; decodeElement counts those levels.
  const inlineShape: EntryShape = { ...shape, storage: 'inline' };
  const data = decodeData(ctx, inlineShape, e.entry, e.index, inst, target.buf, target.off, target.buf.bytes.length, path);
  const size = field.size;
  fill(field, data);
  field.size = size;
  if (data.ints) inst.ints[e.index] = data.ints;
  applyEntryRoles(ctx, field, e.entry, shape, data, path, countersByDefault(inst.plan));
}

// ------------------------------------------------------------------ data

interface DataResult {
  kind: FieldKind;
  value?: FieldValue;
  numeric?: number | bigint;
  children?: DecodedField[];
  /** Bytes consumed at the offset (undefined: unknown, e.g. after an unreadable variable array). */
  size?: number;
  error?: string;
  raw?: string;
  truncated?: { shown: number; total: number };
  /** Integer values, for entries other entries take lengths or selectors from. */
  ints?: bigint[];
  /** The element type when scalar (for counter normalisation and attribute roles). */
  scalarType?: PredefinedType;
  display?: DecodedField['display'];
}

/**
 * The data of an entry at `off` in `buf` (inline storage, or the pointee of a pointer entry):
 * one element, a fixed / zero-terminated / length-indexed array, or text.
 */
function decodeData(
  ctx: Ctx,
  shape: EntryShape,
  entry: EntryDef,
  entryIndex: number,
  inst: Instance | undefined,
  buf: Buf,
  off: number,
  limit: number,
  path: string,
): DataResult {
  if (shape.array === 'none' && !shape.text) return decodeElement(ctx, shape.elem, buf, off, limit, path);
  const ef = elemFootprint(ctx.index, shape.elem);
  if (ef.kind === 'error') return { kind: 'scalar', error: ef.message };
  if (ef.kind !== 'fixed') return { kind: 'array', error: 'arrays of dynamic schemas are not supported' };
  const unit = ef.size;
  // Strings in a zero-terminated list are elements of `length` code units.
  const stride = shape.stringList ? unit * shape.length : unit;
  if (stride === 0) return { kind: 'array', value: [], size: 0 };

  let dims: number[];
  let consumedExtra = 0;
  let error: string | undefined;
  switch (shape.array) {
    case 'none':
      dims = [1];
      break;
    case 'fixed':
      dims = [shape.length];
      break;
    case 'zeroTerminated': {
      const scan = scanZeroTerminated(buf, off, limit, stride);
      dims = [scan.count];
      consumedExtra = scan.terminated ? stride : 0;
      if (!scan.terminated) error = `no zero terminator before the end of the data (${limit - off} bytes)`;
      break;
    }
    case 'lengthIndex': {
      const d = lengthsFromEntry(inst, entry.arrayOrUnionDetail, entryIndex);
      if (typeof d === 'string') return { kind: 'array', error: d, raw: hex(buf.bytes, off, Math.min(limit, off + 64)) };
      dims = d;
      break;
    }
    case 'lengthPayloadIndex': {
      const d = lengthsFromPayload(ctx, entry.arrayOrUnionDetail);
      if (typeof d === 'string') return { kind: 'array', error: d, raw: hex(buf.bytes, off, Math.min(limit, off + 64)) };
      dims = d;
      break;
    }
  }
  // Text: the last dimension is the string length in code units.
  const plainText = shape.text !== undefined && !shape.stringList;
  const elemDims = plainText ? dims.slice(0, -1) : dims;
  const strUnits = plainText ? (dims[dims.length - 1] ?? 0) : shape.length;
  const count = plainText || dims.length > 0 ? elemDims.reduce((a, b) => a * b, 1) : 0;
  const elemBytes = shape.text ? unit * strUnits : stride;
  const needed = count * elemBytes;
  const avail = Math.max(0, limit - off);
  let fits = count;
  if (needed > avail) {
    error ??= `needs ${needed} bytes at offset ${off}, only ${avail} left`;
    fits = elemBytes > 0 ? Math.floor(avail / elemBytes) : count;
  }
  const shown = Math.min(fits, ctx.maxElements);
  const truncated = shown < count && fits > ctx.maxElements ? { shown, total: count } : undefined;

  const flat: FieldValue[] = [];
  const children: DecodedField[] = [];
  const ints: bigint[] = [];
  let scalarType: PredefinedType | undefined;
  let kind: FieldKind = 'array';
  if (shape.text) {
    kind = 'string';
    for (let i = 0; i < shown; i++) {
      if (--ctx.budget.left < 0) {
        error ??= 'too many values in one payload (see maxValues): decoding stopped';
        break;
      }
      const at = off + i * elemBytes;
      const units = unitsBeforeNul(buf.bytes, at, strUnits, unit);
      flat.push(decodeText(buf, at, units, shape.text));
    }
  } else {
    for (let i = 0; i < shown; i++) {
      const r = decodeElement(ctx, shape.elem, buf, off + i * stride, limit, `${path}[${i}]`);
      if (shape.elem.kind === 'schema') {
        kind = 'struct';
        const child: DecodedField = { name: `[${i}]`, type: elemTypeText(shape.elem), kind: r.kind, children: r.children ?? [], entry: -1, flags: 0, offset: off + i * stride, size: stride };
        if (r.error) {
          child.error = r.error;
          if (r.raw !== undefined) child.raw = r.raw;
        }
        children.push(child);
      } else {
        flat.push(r.value ?? null);
        if (r.ints) ints.push(...r.ints);
        scalarType ??= r.scalarType;
        if (r.error) error ??= `element ${i}: ${r.error}`;
      }
    }
  }
  const size = (needed <= avail ? needed : fits * elemBytes) + consumedExtra;
  const out: DataResult = { kind, size, error, truncated, scalarType, display: scalarType ? displayOf(scalarType) : undefined };
  if (kind === 'struct') out.children = reshapeChildren(children, elemDims, shown === count);
  else {
    out.value = plainText && elemDims.length === 0 ? (flat[0] ?? '') : reshape(flat, elemDims, shown === count);
    if (ints.length > 0 || (flat.length === 0 && isIntegerElem(shape.elem))) out.ints = ints;
  }
  if (error && !out.raw) out.raw = hex(buf.bytes, off, Math.min(limit, off + Math.max(needed, 0) + consumedExtra));
  return out;
}

function isIntegerElem(elem: ElemType): boolean {
  return integerWidth(elem) !== undefined;
}

/** Elements up to (not including) the first all-zero element. */
function scanZeroTerminated(buf: Buf, off: number, limit: number, stride: number): { count: number; terminated: boolean } {
  let count = 0;
  for (let at = off; at + stride <= limit; at += stride) {
    if (isZero(buf.bytes, at, stride)) return { count, terminated: true };
    count++;
  }
  return { count, terminated: false };
}

/** Row-major nesting of a flat list by `dims` (1-D stays flat); a partial list stays flat. */
function reshape(flat: FieldValue[], dims: number[], complete: boolean): FieldValue[] {
  if (dims.length <= 1 || !complete) return flat;
  const build = (d: number, start: number): FieldValue[] => {
    const n = dims[d];
    if (d === dims.length - 1) return flat.slice(start, start + n);
    const inner = dims.slice(d + 1).reduce((a, b) => a * b, 1);
    const out: FieldValue[] = [];
    for (let i = 0; i < n; i++) out.push(build(d + 1, start + i * inner));
    return out;
  };
  return build(0, 0);
}

function reshapeChildren(flat: DecodedField[], dims: number[], complete: boolean): DecodedField[] {
  if (dims.length <= 1 || !complete) return flat;
  const build = (d: number, start: number): DecodedField[] => {
    const n = dims[d];
    if (d === dims.length - 1) {
      return flat.slice(start, start + n).map((f, i) => ({ ...f, name: `[${i}]` }));
    }
    const inner = dims.slice(d + 1).reduce((a, b) => a * b, 1);
    const out: DecodedField[] = [];
    for (let i = 0; i < n; i++) {
      const kids = build(d + 1, start + i * inner);
      const first = kids[0];
      out.push({ name: `[${i}]`, type: first ? `${first.type}[${dims[d + 1]}]` : '', kind: 'struct', children: kids, entry: -1, flags: 0, offset: first?.offset ?? 0, size: kids.reduce((a, k) => a + k.size, 0) });
    }
    return out;
  };
  return build(0, 0);
}

/** Array dimensions from an earlier entry: a scalar (1-D) or an integer array (one per dimension). */
function lengthsFromEntry(inst: Instance | undefined, j: number, i: number): number[] | string {
  if (!inst) return 'length index used outside a schema';
  if (j >= i || j < 0) return `length entry index ${j} must come before this entry (index ${i})`;
  const v = inst.ints[j];
  if (!v) return `length entry ${entryLabel(inst.plan.entries[j]?.entry ?? { flags: 0, type: 0, arrayOrUnionDetail: 0, offset: 0 }, j)} is not a decoded integer`;
  return v.map(toDim);
}

/** Negative lengths count as zero (documented for signed length entries). */
function toDim(v: bigint): number {
  return v <= 0n ? 0 : v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(v);
}

/** Array dimensions from another payload of the same event (its single entry: integer or integer array). */
function lengthsFromPayload(ctx: Ctx, k: number): number[] | string {
  const blob = ctx.eventPayloads[k];
  if (!blob) return `length payload index ${k}: the event has ${ctx.eventPayloads.length} payload(s)`;
  if (ctx.hops >= MAX_PAYLOAD_HOPS) return `length payload index ${k}: payloads refer to each other for lengths`;
  const sub: Ctx = { ...ctx, hops: ctx.hops + 1, depth: 0, attrs: {}, timestamps: [], counters: [] };
  const decoded = decodeBlob(sub, blob.schemaId, blob.bytes);
  const first = decoded.fields[0];
  const ints: bigint[] = [];
  const collect = (v: FieldValue | undefined): boolean => {
    if (typeof v === 'number' && Number.isInteger(v)) ints.push(BigInt(v));
    else if (typeof v === 'bigint') ints.push(v);
    else if (Array.isArray(v)) return v.every((x) => collect(x));
    else return false;
    return true;
  };
  if (!first || first.error || !collect(first.kind === 'enum' ? first.numeric : first.value)) {
    return `length payload ${k} does not hold integer length(s)${first?.error ? ` (${first.error})` : ''}`;
  }
  return ints.map(toDim);
}

// ------------------------------------------------------------------ elements

/** One element (not an array) at `off`. */
function decodeElement(ctx: Ctx, elem: ElemType, buf: Buf, off: number, limit: number, path: string): DataResult {
  if (--ctx.budget.left < 0) return { kind: 'scalar', error: 'too many values in one payload (see maxValues): decoding stopped' };
  switch (elem.kind) {
    case 'predefined':
      return readPredefined(ctx, elem.t, buf, off, limit);
    case 'selector': {
      if (off + elem.size > limit) return tooShort(buf, off, elem.size, limit);
      const v = BigInt(readInt(buf, off, elem.size, false));
      return { kind: 'scalar', value: exactNumber(v), size: elem.size, ints: [v] };
    }
    case 'enum': {
      const def = elem.def;
      if (off + def.size > limit) return tooShort(buf, off, def.size, limit);
      const raw = readInt(buf, off, def.size, enumIsSigned(def));
      const v = BigInt(raw);
      const name = enumName(def, v);
      return { kind: 'enum', value: name ?? raw, numeric: raw, size: def.size, ints: [v] };
    }
    case 'schema': {
      const def = elem.def;
      if (def.type === SchemaType.Union) {
        return { kind: 'union', error: `${schemaLabel(def)} has an external selector and cannot be decoded here`, size: undefined };
      }
      const plan = schemaPlan(ctx.index, def);
      if (plan.error || plan.footprint.kind === 'error') {
        const f = plan.footprint;
        return { kind: isUnion(def) ? 'union' : 'struct', children: [], error: f.kind === 'error' ? f.message : plan.error };
      }
      if (ctx.depth >= ctx.maxDepth) return { kind: 'struct', children: [], error: `nested deeper than ${ctx.maxDepth} levels` };
      ctx.depth++;
      const { fields, end } = decodeSchemaBody(ctx, plan, buf, off, limit, path);
      ctx.depth--;
      const out: DataResult = { kind: isUnion(def) ? 'union' : 'struct', children: fields, size: end - off };
      if (plan.footprint.kind === 'fixed' && off + plan.footprint.size > limit) {
        out.error = `needs ${plan.footprint.size} bytes at offset ${off}, only ${Math.max(0, limit - off)} left`;
        out.raw = hex(buf.bytes, off, limit);
      }
      return out;
    }
  }
}

function tooShort(buf: Buf, off: number, size: number, limit: number): DataResult {
  return {
    kind: 'scalar',
    error: `needs ${size} bytes at offset ${off}, only ${Math.max(0, limit - off)} left`,
    raw: hex(buf.bytes, off, limit),
    size,
  };
}

function readPredefined(ctx: Ctx, t: PredefinedType, buf: Buf, off: number, limit: number): DataResult {
  if (off + t.size > limit) return tooShort(buf, off, t.size, limit);
  const v = buf.view;
  const out: DataResult = { kind: 'scalar', size: t.size, scalarType: t, display: displayOf(t) };
  switch (t.kind) {
    case 'int':
    case 'uint':
    case 'address':
    case 'byte': {
      const x = readInt(buf, off, t.size, t.kind === 'int');
      out.value = x;
      out.ints = [BigInt(x)];
      break;
    }
    case 'float':
      out.value = t.size === 4 ? v.getFloat32(off, true) : t.size === 8 ? v.getFloat64(off, true) : readX87(buf, off);
      break;
    case 'float16':
      out.value = float16ToNumber(v.getUint16(off, true));
      break;
    case 'bfloat16':
      out.value = bfloat16ToNumber(v.getUint16(off, true));
      break;
    case 'tf32':
      out.value = tf32ToNumber(v.getUint32(off, true));
      break;
    case 'x87':
      out.value = t.size >= 10 ? readX87(buf, off) : t.size === 8 ? v.getFloat64(off, true) : NaN;
      break;
    case 'float128':
      out.value = readFloat128(buf, off);
      break;
    case 'char':
    case 'string': {
      const code = Number(readInt(buf, off, t.size, false));
      out.value = decodeText(buf, off, 1, (t.textUnit ?? 1) as 1 | 2 | 4);
      out.ints = [BigInt(code)];
      break;
    }
    case 'stringHandle': {
      const h = buf.view.getBigUint64(off, true);
      const text = ctx.index.registeredString(ctx.domain, Number(h));
      out.value = text ?? exactNumber(h);
      if (text === undefined) out.error = `string handle 0x${h.toString(16)} is not registered in this domain`;
      else out.display = undefined;
      break;
    }
    case 'selector': {
      const x = BigInt(readInt(buf, off, t.size, false));
      out.value = exactNumber(x);
      out.ints = [x];
      break;
    }
  }
  return out;
}

function displayOf(t: PredefinedType): DecodedField['display'] {
  if (t.kind === 'address' || t.kind === 'byte' || t.kind === 'stringHandle') return 'hex';
  return t.role === 'color' ? 'color' : undefined;
}

function fill(field: DecodedField, data: DataResult): void {
  field.kind = data.kind;
  if (data.value !== undefined) field.value = data.value;
  if (data.numeric !== undefined) field.numeric = data.numeric;
  if (data.children !== undefined) field.children = data.children;
  if (data.error) {
    field.error = data.error;
    if (data.raw !== undefined) field.raw = data.raw;
  }
  if (data.truncated) field.truncated = data.truncated;
  if (data.display) field.display = data.display;
}

// ------------------------------------------------------------------ roles and semantics

function semanticsOf(entry: EntryDef, ctx: Ctx, kind: SemanticsDef['kind']): SemanticsDef | undefined {
  let found: SemanticsDef | undefined;
  for (const s of entry.semantics ?? []) if (s.kind === kind) found = s;
  if (found) return found;
  for (const s of ctx.defaults) if (s.kind === kind) found = s;
  return found;
}

/** What an entry tells about the event: message, attributes, timestamps, counters, semantics. */
function applyEntryRoles(
  ctx: Ctx,
  field: DecodedField,
  entry: EntryDef,
  shape: EntryShape,
  data: DataResult,
  path: string,
  implicitCounter: boolean,
): void {
  const flags = entry.flags;
  const role = flags & EntryFlag.RoleMask;
  const eventKind = flags & EntryFlag.EventKindMask;
  const value = field.value;
  const scalar = value !== undefined && value !== null && !Array.isArray(value) && !field.error;

  for (const s of entry.semantics ?? []) {
    if (s.kind === 'scope') field.scope = s.scopeId;
    else if (s.kind === 'time') field.timeDomain = s.timeDomainId;
  }

  // A string pointer the collector did not follow holds an address, not a message.
  if (role === EntryFlag.EventMessage && scalar && !(field.pointer && !field.pointer.resolved)) {
    ctx.attrs.message = typeof value === 'string' ? value : String(value);
  }
  const attrRole = shape.elem.kind === 'predefined' ? shape.elem.t.role : undefined;
  if (attrRole && scalar && shape.array === 'none' && (typeof value === 'number' || typeof value === 'bigint')) {
    if (attrRole === 'category' || attrRole === 'color') ctx.attrs[attrRole] = Number(value);
    else ctx.attrs[attrRole] = value;
  }

  const isTimestamp =
    role === EntryFlag.Timestamp ||
    eventKind === EntryFlag.RangeBegin ||
    eventKind === EntryFlag.RangeEnd ||
    eventKind === EntryFlag.Mark;
  if (isTimestamp && scalar && (typeof value === 'number' || typeof value === 'bigint')) {
    const time = semanticsOf(entry, ctx, 'time');
    if (time?.kind === 'time') field.timeDomain = time.timeDomainId;
    ctx.timestamps.push({
      role: eventKind === EntryFlag.RangeBegin ? 'begin' : eventKind === EntryFlag.RangeEnd ? 'end' : eventKind === EntryFlag.Mark ? 'mark' : eventKind === EntryFlag.Counter ? 'counter' : 'none',
      value,
      timeDomain: field.timeDomain,
      scope: field.scope,
      path,
    });
    return;
  }

  const isCounter = eventKind === EntryFlag.Counter || (implicitCounter && scalarNumber(data));
  const own = entry.semantics?.some((s) => s.kind === 'counter');
  if (!isCounter && !own) return;
  const counterSem = semanticsOf(entry, ctx, 'counter') as CounterSemantics | undefined;
  if (counterSem) {
    field.counter = { semantics: counterSem };
    if (counterSem.unit) field.unit = counterSem.unit;
  }
  const name = entry.name || path;
  const addCounter = (raw: FieldValue, p: string, n: string): number | undefined => {
    if (typeof raw !== 'number' && typeof raw !== 'bigint') return undefined;
    const display = counterDisplay(raw, counterSem, data.scalarType);
    if (isCounter) ctx.counters.push({ path: p, name: n, value: Number(raw), raw, display, semantics: counterSem, scope: field.scope });
    return display;
  };
  if (scalar) {
    const display = addCounter(value, path, name);
    if (field.counter && display !== undefined) field.counter.value = display;
  } else if (Array.isArray(value) && field.kind === 'array') {
    value.forEach((v, i) => addCounter(v, `${path}[${i}]`, `${name}[${i}]`));
  }
}

function scalarNumber(data: DataResult): boolean {
  return data.kind === 'scalar' && (typeof data.value === 'number' || typeof data.value === 'bigint') && data.scalarType?.role === undefined;
}

const implicitCounters = new WeakMap<SchemaPlan, boolean>();

/**
 * Entries of a counter-group schema are its counters when none is flagged `COUNTER` (the flag is
 * documented as per-entry, but a group whose schema forgot it still has counters to show).
 */
function countersByDefault(plan: SchemaPlan): boolean {
  let v = implicitCounters.get(plan);
  if (v === undefined) {
    v =
      (plan.schema.flags & SchemaFlag.RoleMask) === SchemaFlag.CounterGroup &&
      !plan.schema.entries.some((e) => (e.flags & EntryFlag.EventKindMask) === EntryFlag.Counter);
    implicitCounters.set(plan, v);
  }
  return v;
}

// ------------------------------------------------------------------ type text

const CODE_UNIT_NAMES: Record<number, string> = {
  [EntryType.CString]: 'char',
  [EntryType.CStringUtf8]: 'char8_t',
  [EntryType.CStringUtf16]: 'char16_t',
  [EntryType.CStringUtf32]: 'char32_t',
};

function elemTypeText(elem: ElemType): string {
  switch (elem.kind) {
    case 'predefined':
      return CODE_UNIT_NAMES[elem.t.id] ?? elem.t.name;
    case 'selector':
      return `union selector (${elem.size} bytes)`;
    case 'enum':
      return `enum ${elem.def.name ?? elem.def.id}`;
    case 'schema': {
      const label = elem.def.name ?? elem.def.id;
      return `${isUnion(elem.def) ? 'union' : 'struct'} ${label}`;
    }
  }
}

function typeText(shape: EntryShape | { error: string }): string {
  if ('error' in shape) return '';
  const base = elemTypeText(shape.elem);
  let suffix = '';
  switch (shape.array) {
    case 'fixed':
      suffix = `[${shape.length}]`;
      break;
    case 'zeroTerminated':
      suffix = shape.stringList ? `[${shape.length}][]` : '[]';
      break;
    case 'lengthIndex':
    case 'lengthPayloadIndex':
      suffix = '[n]';
      break;
  }
  if (shape.storage === 'pointer') return `${base}${suffix && suffix !== '[]' ? suffix : ''} *`;
  if (shape.storage !== 'inline') return `${base}${suffix} @offset`;
  return `${base}${suffix}`;
}

/**
 * Size of one payload of a schema when it does not depend on the data (static layouts, and
 * predefined types): the stride of event and counter batches. Undefined for dynamic layouts
 * (decode each event and advance by `DecodedPayload.consumed`) and unknown ids. The header allows
 * only static layouts in `nvtxEventBatch_t` while the reference text describes dynamic ones read
 * event by event; both work.
 */
export function payloadStride(registry: PayloadRegistry, domain: number, schemaId: number): number | undefined {
  const index = indexRegistry(registry);
  const t = predefinedType(schemaId, index.typeTable);
  if (t) return t.kind === 'selector' ? undefined : t.size;
  const e = index.enumDef(domain, schemaId);
  if (e) return e.size;
  const s = index.schema(domain, schemaId);
  if (!s) return undefined;
  const f = schemaPlan(index, s).footprint;
  return f.kind === 'fixed' ? f.size : undefined;
}
