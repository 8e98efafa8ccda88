/**
 * Layout of schema entries: what each entry stores (its "shape"), how many bytes it takes and how
 * it is aligned, and the offsets that are known without looking at the data.
 *
 * Rules (nvToolsExtPayload.h, nvtx-payload-schema-entry-struct.txt):
 * - An entry's offset is explicit when it is the first entry (offset 0 always counts) or when its
 *   offset is non-zero; otherwise it is implicit.
 * - Struct-like schemas (static, dynamic) place implicit entries at the running cursor (the end of
 *   the previous entry) rounded up to the entry's alignment, capped by `packAlign` when set.
 * - Unions place implicit members at 0.
 * - A struct's size is `payloadStaticSize` when given, else its end rounded up to its alignment
 *   (the largest member alignment, capped by `packAlign`), as a C compiler lays it out.
 * - Variable-length entries (embedded zero-terminated or length-indexed arrays and strings, nested
 *   dynamic schemas) make the offsets of the implicit entries after them data-dependent.
 */
import { EntryFlag, EntryType, SchemaType, type EntryDef, type EnumDef, type SchemaDef } from './schema.ts';
import type { RegistryIndex } from './registry.ts';
import { DEFAULT_SELECTOR_SIZE, POINTER_SIZE, predefinedType, type PredefinedType } from './entryTypes.ts';

export type Footprint =
  | { kind: 'fixed'; size: number; align: number }
  | { kind: 'variable'; align: number }
  | { kind: 'error'; message: string };

/** The element type of an entry (the pointee type for pointer entries). */
export type ElemType =
  | { kind: 'predefined'; t: PredefinedType }
  | { kind: 'selector'; size: number }
  | { kind: 'enum'; def: EnumDef }
  | { kind: 'schema'; def: SchemaDef };

export type ArrayKind = 'none' | 'fixed' | 'zeroTerminated' | 'lengthIndex' | 'lengthPayloadIndex';

/** Where an entry's data lives. */
export type Storage =
  /** In the payload at the entry's offset. */
  | 'inline'
  /** An absolute address at the entry's offset. */
  | 'pointer'
  /** A byte offset at the entry's offset, from the payload base (or a batch's flex data). */
  | 'offsetFromBase'
  /** A byte offset at the entry's offset, from the end of the entry. */
  | 'offsetFromHere';

export interface EntryShape {
  storage: Storage;
  array: ArrayKind;
  elem: ElemType;
  /** Fixed arrays: element count. Fixed strings: code units. */
  length: number;
  /** The data reads as text (string types, arrays of character types). */
  text?: 1 | 2 | 4;
  /**
   * Zero-terminated array of fixed-length strings (`ARRAY_ZERO_TERMINATED` string entry with
   * `arrayOrUnionDetail > 0`, per the header); `length` is the code units of one string.
   */
  stringList?: boolean;
}

export interface EntryPlan {
  index: number;
  entry: EntryDef;
  shape: EntryShape | { error: string };
  footprint: Footprint;
  /** Alignment used for implicit placement (natural, capped by packAlign). */
  align: number;
  /** Explicit offset, when the entry gives one. */
  explicit?: number;
  /** Offset known without the data (explicit, or implicit after fixed-size entries only). */
  fixedOffset?: number;
  /** Type text for the decoded field, filled by the decoder on first use. */
  typeText?: string;
}

export interface SchemaPlan {
  schema: SchemaDef;
  entries: EntryPlan[];
  footprint: Footprint;
  /** For unions with internal selector: index of the `UNION_SELECTOR` entry, or -1. */
  selector: number;
  /** Problems of the schema itself (bad type, several selectors...). */
  error?: string;
}

export const isUnion = (s: SchemaDef) =>
  s.type === SchemaType.Union || s.type === SchemaType.UnionWithInternalSelector;

export function alignUp(n: number, a: number): number {
  return a > 1 ? Math.ceil(n / a) * a : n;
}

/** `packAlign` as a cap, or Infinity. */
function packCap(s: SchemaDef): number {
  return s.packAlign && s.packAlign > 0 ? s.packAlign : Infinity;
}

const PLANS = Symbol('plans');

function planCache(index: RegistryIndex): Map<SchemaDef, SchemaPlan> {
  let m = index.cache.get(PLANS) as Map<SchemaDef, SchemaPlan> | undefined;
  if (!m) {
    m = new Map();
    index.cache.set(PLANS, m);
  }
  return m;
}

/** The element type named by `type` in `domain`: predefined, enum or schema. */
export function resolveType(index: RegistryIndex, domain: number, entry: EntryDef): ElemType | { error: string } {
  const type = entry.type;
  if (type === EntryType.UnionSelector) {
    const d = entry.arrayOrUnionDetail;
    return { kind: 'selector', size: d === 1 || d === 2 || d === 4 || d === 8 ? d : DEFAULT_SELECTOR_SIZE };
  }
  const t = predefinedType(type, index.typeTable);
  if (t) return { kind: 'predefined', t };
  const e = index.enumDef(domain, type);
  if (e) return { kind: 'enum', def: e };
  const s = index.schema(domain, type);
  if (s) return { kind: 'schema', def: s };
  if (type === 0) return { error: 'entry type 0 (NVTX_PAYLOAD_ENTRY_TYPE_INVALID)' };
  return { error: `unknown entry type or schema/enum id ${type} in this domain` };
}

/** What an entry stores: storage, array kind and element type. */
export function entryShape(index: RegistryIndex, domain: number, entry: EntryDef): EntryShape | { error: string } {
  const elem = resolveType(index, domain, entry);
  if ('error' in elem) return elem;
  const f = entry.flags;
  const storage: Storage =
    f & EntryFlag.OffsetFromBase
      ? 'offsetFromBase'
      : f & EntryFlag.OffsetFromHere
        ? 'offsetFromHere'
        : f & EntryFlag.Pointer
          ? 'pointer'
          : 'inline';
  const arrayCode = (f & EntryFlag.ArrayMask) >> 4;
  const kinds: (ArrayKind | undefined)[] = ['none', 'fixed', 'zeroTerminated', 'lengthIndex', 'lengthPayloadIndex'];
  const array = kinds[arrayCode];
  if (!array) return { error: `invalid array flags (${arrayCode} << 4)` };
  const detail = entry.arrayOrUnionDetail;
  const t = elem.kind === 'predefined' ? elem.t : undefined;

  if (t?.kind === 'string') {
    const text = t.textUnit!;
    if (array === 'none' || array === 'fixed') {
      // Fixed-length string (ARRAY_FIXED_SIZE is redundant); length 0 selects the `char*` form.
      if (detail > 0) return { storage, array: 'fixed', elem, length: detail, text };
      return { storage: storage === 'inline' ? 'pointer' : storage, array: 'zeroTerminated', elem, length: 0, text };
    }
    if (array === 'zeroTerminated' && detail > 0) {
      return { storage, array, elem, length: detail, text, stringList: true };
    }
    return { storage, array, elem, length: 0, text };
  }
  if (elem.kind === 'selector' || (elem.kind === 'schema' && elem.def.type === SchemaType.Union)) {
    // arrayOrUnionDetail is the selector width / the selector entry index here, not a length.
    if (array !== 'none') {
      return { error: elem.kind === 'selector' ? 'a union selector cannot be an array' : 'arrays of unions with external selector are not supported (NVTX)' };
    }
    return { storage, array, elem, length: 0 };
  }
  const text = t?.textUnit && array !== 'none' ? t.textUnit : undefined;
  if (array === 'fixed') return { storage, array, elem, length: detail, text };
  return { storage, array, elem, length: 0, text };
}

const predefinedFootprints = new WeakMap<PredefinedType, Footprint>();

/** Size and alignment of one element. */
export function elemFootprint(index: RegistryIndex, elem: ElemType, visiting?: Set<SchemaDef>): Footprint {
  switch (elem.kind) {
    case 'predefined': {
      let f = predefinedFootprints.get(elem.t);
      if (!f) {
        f = { kind: 'fixed', size: elem.t.size, align: elem.t.align };
        predefinedFootprints.set(elem.t, f);
      }
      return f;
    }
    case 'selector':
      return { kind: 'fixed', size: elem.size, align: elem.size };
    case 'enum': {
      const s = elem.def.size;
      if (s === 1 || s === 2 || s === 4 || s === 8) return { kind: 'fixed', size: s, align: s };
      return { kind: 'error', message: `enum ${enumLabel(elem.def)} has size ${s} (must be 1, 2, 4 or 8)` };
    }
    case 'schema':
      return schemaPlan(index, elem.def, visiting).footprint;
  }
}

/** Size and alignment of an entry's storage in its schema. */
function entryFootprint(index: RegistryIndex, shape: EntryShape, visiting: Set<SchemaDef>): Footprint {
  if (shape.storage !== 'inline') return { kind: 'fixed', size: POINTER_SIZE, align: POINTER_SIZE };
  const elem = elemFootprint(index, shape.elem, visiting);
  if (elem.kind === 'error') return elem;
  switch (shape.array) {
    case 'none':
      return elem;
    case 'fixed':
      if (elem.kind === 'variable') return { kind: 'error', message: 'arrays of dynamic schemas are not supported' };
      return { kind: 'fixed', size: elem.size * shape.length, align: elem.align };
    default:
      if (elem.kind === 'variable') return { kind: 'error', message: 'arrays of dynamic schemas are not supported' };
      return { kind: 'variable', align: elem.align };
  }
}

/** The layout plan of a schema (cached per registry index). */
export function schemaPlan(index: RegistryIndex, schema: SchemaDef, visiting = new Set<SchemaDef>()): SchemaPlan {
  const cache = planCache(index);
  const cached = cache.get(schema);
  if (cached) return cached;
  if (visiting.has(schema)) {
    const message = `cyclic nesting: ${schemaLabel(schema)} contains itself`;
    return { schema, entries: [], footprint: { kind: 'error', message }, selector: -1, error: message };
  }
  visiting.add(schema);
  const plan = buildPlan(index, schema, visiting);
  visiting.delete(schema);
  cache.set(schema, plan);
  return plan;
}

function buildPlan(index: RegistryIndex, schema: SchemaDef, visiting: Set<SchemaDef>): SchemaPlan {
  const union = isUnion(schema);
  const cap = packCap(schema);
  const entries: EntryPlan[] = [];
  let cursor: number | undefined = 0;
  let end = 0;
  let maxAlign = 1;
  let variable = false;
  let broken: string | undefined;
  let selector = -1;
  let error: string | undefined;

  if (schema.type < SchemaType.Static || schema.type > SchemaType.UnionWithInternalSelector) {
    error = `invalid schema type ${schema.type}`;
  }
  for (let i = 0; i < schema.entries.length; i++) {
    const entry = schema.entries[i];
    const shape = entryShape(index, schema.domain, entry);
    let footprint: Footprint = 'error' in shape ? { kind: 'error', message: shape.error } : entryFootprint(index, shape, visiting);
    if (!('error' in shape) && shape.elem.kind === 'selector') {
      if (schema.type !== SchemaType.UnionWithInternalSelector) {
        footprint = { kind: 'error', message: 'UNION_SELECTOR entries belong to unions with internal selector' };
      } else if (selector >= 0) {
        footprint = { kind: 'error', message: `second UNION_SELECTOR entry (the first is entry ${selector})` };
      } else {
        selector = i;
      }
    }
    const natural = footprint.kind === 'error' ? 1 : footprint.align;
    const align = Math.max(1, Math.min(natural, cap));
    const explicit = i === 0 || entry.offset !== 0 ? entry.offset : undefined;
    let fixedOffset: number | undefined;
    if (explicit !== undefined) fixedOffset = explicit;
    else if (union) fixedOffset = 0;
    else if (cursor !== undefined) fixedOffset = alignUp(cursor, align);
    entries.push({ index: i, entry, shape, footprint, align, explicit, fixedOffset });

    maxAlign = Math.max(maxAlign, align);
    if (footprint.kind === 'fixed' && fixedOffset !== undefined) {
      end = Math.max(end, fixedOffset + footprint.size);
      if (!union) cursor = fixedOffset + footprint.size;
    } else {
      if (footprint.kind === 'variable') variable = true;
      else broken ??= `entry ${entryLabel(entry, i)}: ${footprint.kind === 'error' ? footprint.message : 'position unknown'}`;
      if (!union) cursor = undefined;
    }
  }
  if (schema.type === SchemaType.UnionWithInternalSelector && selector < 0) {
    error ??= 'union with internal selector has no UNION_SELECTOR entry';
  }

  let footprint: Footprint;
  const given = schema.payloadStaticSize && schema.payloadStaticSize > 0 ? schema.payloadStaticSize : undefined;
  if (error) footprint = { kind: 'error', message: `${schemaLabel(schema)}: ${error}` };
  else if (variable) footprint = { kind: 'variable', align: maxAlign };
  // A declared static size still holds when one entry cannot be laid out (that entry alone fails).
  else if (given !== undefined) footprint = { kind: 'fixed', size: given, align: maxAlign };
  else if (broken) footprint = { kind: 'error', message: `${schemaLabel(schema)}: ${broken}` };
  else footprint = { kind: 'fixed', size: alignUp(end, maxAlign), align: maxAlign };
  return { schema, entries, footprint, selector, error };
}

export function schemaLabel(s: SchemaDef): string {
  return s.name ? `schema "${s.name}" (${s.id})` : `schema ${s.id}`;
}

export function enumLabel(e: EnumDef): string {
  return e.name ? `"${e.name}" (${e.id})` : String(e.id);
}

export function entryLabel(e: EntryDef, i: number): string {
  return e.name ? `"${e.name}"` : `#${i}`;
}

/** Offsets, size and alignment of a schema as far as they are known without data (for tests, tools). */
export function staticLayout(
  index: RegistryIndex,
  schema: SchemaDef,
): { size?: number; align?: number; offsets: (number | undefined)[]; error?: string } {
  const plan = schemaPlan(index, schema);
  const f = plan.footprint;
  return {
    size: f.kind === 'fixed' ? f.size : undefined,
    align: f.kind === 'error' ? undefined : f.align,
    offsets: plan.entries.map((e) => e.fixedOffset),
    error: f.kind === 'error' ? f.message : undefined,
  };
}
