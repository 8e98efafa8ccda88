/**
 * A fast path for counter samples (nvtxCounterSample / nvtxCounterBatchSubmit): for a counter
 * group with a static layout, the offsets and readers of its counters are worked out once, and
 * each sample is read straight into a Float64Array of display values, with no object per sample.
 * The values equal `CounterRef.display` of `decodePayload` (normalised, then scaled).
 */
import { schemaPlan, type EntryPlan } from './layout.ts';
import { indexRegistry, type RegistryIndex } from './registry.ts';
import { bfloat16ToNumber, float16ToNumber, readFloat128, readX87, tf32ToNumber } from './scalars.ts';
import { counterScaling } from './semantics.ts';
import { EntryFlag, SchemaType, type CounterSemantics, type PayloadRegistry, type SemanticsDef } from './schema.ts';
import { predefinedType, type PredefinedType } from './entryTypes.ts';

export interface CounterField {
  /** Entry name (dotted path inside nested schemas), or the type name for a single-value counter. */
  name: string;
  /** Byte offset of the value in a sample. */
  offset: number;
  type: PredefinedType;
  semantics?: CounterSemantics;
  unit?: string;
  scope?: number;
}

export interface CounterReader {
  fields: CounterField[];
  /** Bytes per sample (`payloadStaticSize` or the layout size): the stride of a batch. */
  stride: number;
  /** The sample's own timestamp entry, when the layout has one. */
  timestamp?: { offset: number; type: PredefinedType; timeDomain?: number };
  /** Reads the counters of the sample at `offset` into `out[0..fields.length)` (display values). */
  read(bytes: Uint8Array, offset: number, out: Float64Array): void;
  /** Raw timestamp of the sample at `offset` (int64 as a number), when the layout has one. */
  readTimestamp(bytes: Uint8Array, offset: number): number;
}

type Reader = (v: DataView, off: number) => number;

function readerOf(t: PredefinedType): Reader | undefined {
  const signed = t.kind === 'int';
  switch (t.kind) {
    case 'int':
    case 'uint':
    case 'byte':
      switch (t.size) {
        case 1:
          return signed ? (v, o) => v.getInt8(o) : (v, o) => v.getUint8(o);
        case 2:
          return signed ? (v, o) => v.getInt16(o, true) : (v, o) => v.getUint16(o, true);
        case 4:
          return signed ? (v, o) => v.getInt32(o, true) : (v, o) => v.getUint32(o, true);
        case 8:
          // Two 32-bit halves: exact up to 2^53, rounded beyond (as Number(bigint) would).
          return signed
            ? (v, o) => v.getInt32(o + 4, true) * 4294967296 + v.getUint32(o, true)
            : (v, o) => v.getUint32(o + 4, true) * 4294967296 + v.getUint32(o, true);
        default:
          return undefined;
      }
    case 'float':
      return t.size === 4 ? (v, o) => v.getFloat32(o, true) : t.size === 8 ? (v, o) => v.getFloat64(o, true) : undefined;
    case 'float16':
      return (v, o) => float16ToNumber(v.getUint16(o, true));
    case 'bfloat16':
      return (v, o) => bfloat16ToNumber(v.getUint16(o, true));
    case 'tf32':
      return (v, o) => tf32ToNumber(v.getUint32(o, true));
    case 'x87':
      return (v, o) => readX87({ bytes: new Uint8Array(v.buffer, v.byteOffset, v.byteLength), view: v }, o);
    case 'float128':
      return (v, o) => readFloat128({ bytes: new Uint8Array(v.buffer, v.byteOffset, v.byteLength), view: v }, o);
    default:
      return undefined;
  }
}

function lastOf(chain: readonly SemanticsDef[] | undefined, kind: SemanticsDef['kind']): SemanticsDef | undefined {
  let found: SemanticsDef | undefined;
  for (const s of chain ?? []) if (s.kind === kind) found = s;
  return found;
}

/**
 * A reader for samples of counter (group) `schemaId` in `domain`: a registered static schema, or a
 * predefined number type (a single-value counter). `semantics` are the counter registration's
 * (`nvtxCounterAttr_t::semantics`), used where an entry has none of its own. Returns the reason
 * when the layout cannot be read this way (decode such samples with `decodePayload`).
 */
export function counterReader(
  registry: PayloadRegistry,
  domain: number,
  schemaId: number,
  semantics: readonly SemanticsDef[] = [],
): CounterReader | string {
  const index = indexRegistry(registry);
  const groupCounter = lastOf(semantics, 'counter') as CounterSemantics | undefined;
  const groupTime = lastOf(semantics, 'time');
  const fields: CounterField[] = [];
  let timestamp: CounterReader['timestamp'];
  let stride: number;

  const single = predefinedType(schemaId, index.typeTable);
  if (single) {
    if (!readerOf(single)) return `type ${single.name} is not a number`;
    fields.push({ name: single.name, offset: 0, type: single, semantics: groupCounter, unit: groupCounter?.unit });
    stride = single.size;
  } else {
    const schema = index.schema(domain, schemaId);
    if (!schema) return `unknown schema id ${schemaId} in this domain`;
    const plan = schemaPlan(index, schema);
    if (plan.footprint.kind !== 'fixed') return 'the counter layout is not static';
    stride = plan.footprint.size;
    const explicit = schema.entries.some((e) => (e.flags & EntryFlag.EventKindMask) === EntryFlag.Counter);
    const problem = collect(index, plan.entries, 0, '', explicit, groupCounter, groupTime, fields, (t) => (timestamp ??= t));
    if (problem) return problem;
  }
  if (fields.length === 0) return 'the layout has no numeric counter entries';

  const readers = fields.map((f) => readerOf(f.type)!);
  const offsets = fields.map((f) => f.offset);
  const divisor = Float64Array.from(fields, (f) => counterScaling(f.semantics, f.type).divisor);
  const scale = Float64Array.from(fields, (f) => counterScaling(f.semantics, f.type).scale);
  const clamp = fields.map((f) => counterScaling(f.semantics, f.type).clampAtMinusOne);
  const n = fields.length;
  let cachedBytes: Uint8Array | undefined;
  let cachedView: DataView | undefined;
  const viewOf = (bytes: Uint8Array): DataView => {
    if (bytes !== cachedBytes) {
      cachedBytes = bytes;
      cachedView = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    return cachedView!;
  };
  const ts = timestamp;
  const tsReader = ts ? readerOf(ts.type) : undefined;
  return {
    fields,
    stride,
    timestamp,
    read(bytes, offset, out) {
      const v = viewOf(bytes);
      for (let i = 0; i < n; i++) {
        let x = readers[i](v, offset + offsets[i]) / divisor[i];
        if (clamp[i] && x < -1) x = -1;
        out[i] = x * scale[i];
      }
    },
    readTimestamp(bytes, offset) {
      return ts && tsReader ? tsReader(viewOf(bytes), offset + ts.offset) : NaN;
    },
  };
}

/** Counter and timestamp entries of a static layout, nested static structs flattened. */
function collect(
  index: RegistryIndex,
  entries: readonly EntryPlan[],
  base: number,
  prefix: string,
  explicit: boolean,
  groupCounter: CounterSemantics | undefined,
  groupTime: SemanticsDef | undefined,
  out: CounterField[],
  onTimestamp: (t: NonNullable<CounterReader['timestamp']>) => void,
): string | undefined {
  for (const e of entries) {
    const shape = e.shape;
    if ('error' in shape || e.fixedOffset === undefined) continue;
    const name = prefix + (e.entry.name || `#${e.index}`);
    const off = base + e.fixedOffset;
    const flags = e.entry.flags;
    if (shape.storage !== 'inline' || shape.array !== 'none') continue;
    if (shape.elem.kind === 'schema') {
      const def = shape.elem.def;
      if (def.type !== SchemaType.Static && def.type !== SchemaType.Dynamic) continue;
      const plan = schemaPlan(index, def);
      const problem = collect(index, plan.entries, off, `${name}.`, explicit, groupCounter, groupTime, out, onTimestamp);
      if (problem) return problem;
      continue;
    }
    if (shape.elem.kind !== 'predefined') continue;
    const t = shape.elem.t;
    const role = flags & EntryFlag.RoleMask;
    const kind = flags & EntryFlag.EventKindMask;
    if (role === EntryFlag.Timestamp) {
      const time = lastOf(e.entry.semantics, 'time') ?? groupTime;
      if (readerOf(t)) onTimestamp({ offset: off, type: t, timeDomain: time?.kind === 'time' ? time.timeDomainId : undefined });
      continue;
    }
    const isCounter = explicit ? kind === EntryFlag.Counter : t.role === undefined && readerOf(t) !== undefined;
    if (!isCounter) continue;
    if (!readerOf(t)) return `counter entry ${name} of type ${t.name} is not a number`;
    const sem = (lastOf(e.entry.semantics, 'counter') as CounterSemantics | undefined) ?? groupCounter;
    const scope = lastOf(e.entry.semantics, 'scope');
    out.push({ name, offset: off, type: t, semantics: sem, unit: sem?.unit, scope: scope?.kind === 'scope' ? scope.scopeId : undefined });
  }
  return undefined;
}
