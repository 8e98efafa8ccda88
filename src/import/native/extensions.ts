/**
 * The records of the NVTX payload and counters extensions in a `.nvtxc` capture (format 1.1,
 * docs/capture-format.md sections 6.1 and 7.2), applied to the ModelBuilder:
 *
 * - registrations (schemas, enums, scopes, registered strings, the program's type table) become the
 *   model's `payloadRegistry`, against which every extended payload is decoded;
 * - payload marks and ranges become marks and ranges carrying their payloads; the message, color
 *   and category come from the payloads (EVENT_MESSAGE entries and attribute-typed entries, after
 *   the core attributes), and pop/end payloads rename their range;
 * - counters become counter tracks (one per counter of a group) under their scope, with units,
 *   scaling, limits and interpolation from their semantics; a sample without a value is NaN; a
 *   counter of changes (value type delta) gets a second, derived row of its running total;
 * - deferred events (nvtxEventSubmit, batches) and batched counter timestamps are placed at the end
 *   of the capture, when every sync point is known, through `TimeDomains`.
 */
import type { EventAttrs, ModelBuilder, PayloadValue, RangeRename } from '../../model/builder.ts';
import type { ExtMemoryInput, ExtPayloadInput } from '../../model/extPayloads.ts';
import type { CounterTrackInfo } from '../../model/types.ts';
import { effectiveAttributes, type EffectiveAttributes } from '../../payload/attributes.ts';
import { counterReader, type CounterReader } from '../../payload/counters.ts';
import { decodeEventPayloads, decodePayload, payloadStride } from '../../payload/decode.ts';
import type { DecodedPayload, TimestampRef } from '../../payload/decoded.ts';
import { indexRegistry } from '../../payload/registry.ts';
import { counterScaling, applyScaling, counterTraits, semanticsFromStruct } from '../../payload/semantics.ts';
import {
  EntryFlag,
  EntryType,
  type CounterSemantics,
  type EntryDef,
  type PayloadRegistry,
  type SchemaDef,
  type SemanticsDef,
} from '../../payload/schema.ts';
import { AttributeReader, type PayloadAttributesRead } from './attributeReader.ts';
import { MetaOp, NoValueReason, Op, PayloadEventKind, SampleKind } from './format.ts';
import type { CaptureClock } from './captureClock.ts';
import type { CaptureDomains } from './captureDomains.ts';
import type { OnceNotes } from './onceNotes.ts';
import type { PushNesting } from './pushNesting.ts';
import type { StartEndPairing } from './rangePairing.ts';
import type { ByteReader } from './reader.ts';
import { TimeDomains, TimestampType } from './timeDomains.ts';

/** The capture-wide state the extension records share with the core decoder (decoder.ts). */
export interface CaptureContext {
  readonly b: ModelBuilder;
  readonly pid: number;
  /** Builder index of the captured process. */
  readonly process: number;
  readonly clock: CaptureClock;
  readonly domains: CaptureDomains;
  /** Start/end ranges share the id space (and the early-end handling) of START/END records. */
  readonly pairing: StartEndPairing;
  /** Push/pop nesting per thread: payload events push and pop on the same stacks as PUSH/POP records. */
  readonly nesting: PushNesting;
  readonly notes: OnceNotes;
}

/** The thread a stream record came from. */
export interface StreamThread {
  thread: number;
}

interface CounterInfo {
  domain: number;
  id: number;
  schemaId: number;
  scope: number;
  name: string;
  description: string;
  semantics: SemanticsDef[];
  reader?: CounterReader | string;
  /** Per placement (process or thread): the row of each counter field and its last value. */
  rows: Map<number, { rows: number[]; last: Float64Array }>;
}

interface DeferredEvent {
  domain: number;
  thread: number;
  /** Record time, for events that carry no timestamp. */
  t: number;
  /** Scope of the batch (or 0). */
  scope: number;
  decoded: DecodedPayload[];
  payload: PayloadValue | undefined;
  offset: number;
}

interface CounterBatch {
  counter: CounterInfo;
  thread: number;
  flags: number;
  samples: Uint8Array;
  timestamps: BigInt64Array;
  t: number;
  offset: number;
}

interface RunningTotal {
  /** The running-total row. */
  total: number;
  t: number[];
  v: number[];
}

const SCOPE = { None: 0, Process: 21, Thread: 22, SwInnermost: 31 } as const;
const TWO_32 = 2 ** 32;

/** A zigzag varint as a bigint (timestamps can exceed 2^53). */
function svarintBig(r: ByteReader): bigint {
  const z = r.varintBig();
  return (z >> 1n) ^ -(z & 1n);
}

export class ExtensionRecords {
  readonly registry: PayloadRegistry = { schemas: [], enums: [], strings: [], scopes: [] };
  private registryAttached = false;
  private readonly counters = new Map<string, CounterInfo>();
  readonly time: TimeDomains;
  private readonly deferred: DeferredEvent[] = [];
  private readonly counterBatches: CounterBatch[] = [];
  /** (domain, schema id) -> the schema can carry event attributes (message, color, category). */
  private readonly attributeSchemas = new Map<string, boolean>();
  private readonly attributeReader: AttributeReader;
  private readonly unplaced = new Map<string, { count: number; reason: string }>();
  /** Delta counter rows -> their running-total row and their samples so far. */
  private readonly runningTotals = new Map<number, RunningTotal>();
  private unavailableSamples = 0;
  private unknownCounterSamples = 0;
  private infiniteSamples = 0;

  constructor(
    private readonly capture: CaptureContext,
    tscTicks: boolean,
  ) {
    this.time = new TimeDomains((tick) => capture.clock.ticksToNs(tick), capture.clock.n0, tscTicks);
    this.attributeReader = new AttributeReader(this.registry);
  }

  private attachRegistry(): void {
    if (this.registryAttached) return;
    this.registryAttached = true;
    this.capture.b.setPayloadRegistry(this.registry);
  }

  /** A registered string (META op 4) with the handle the program received (format 1.1). */
  registeredString(domain: number, handle: number, text: string): void {
    this.attachRegistry();
    this.registry.strings!.push({ domain, handle, text });
  }

  // ---------------------------------------------------------------- metadata (section 6.1)

  /** Applies a metadata record of ops 12–21; false for other ops. `dt` is the record's tick minus T0. */
  meta(op: number, m: ByteReader, dt: number, offset: number): boolean {
    switch (op) {
      case MetaOp.PayloadTypes: {
        const count = m.varint();
        const table = [];
        for (let i = 0; i < count; i++) table.push({ size: m.varint(), align: m.varint() });
        this.attachRegistry();
        this.registry.typeInfo = table;
        return true;
      }
      case MetaOp.Schema:
        this.schema(m, offset);
        return true;
      case MetaOp.Enum: {
        const domain = this.capture.domains.indexOf(m.varint(), offset);
        const id = m.varint();
        m.varint(); // field mask
        const name = m.str();
        const size = m.varint();
        const count = m.varint();
        const entries = [];
        for (let i = 0; i < count; i++) {
          const entryName = m.str();
          const value = BigInt.asIntN(64, m.varintBig());
          entries.push({ name: entryName, value: Number(value), isFlag: m.u8() !== 0 });
        }
        this.attachRegistry();
        this.registry.enums.push({ domain, id, ...(name ? { name } : {}), entries, size });
        this.attributeSchemas.clear();
        this.attributeReader.reset();
        return true;
      }
      case MetaOp.Scope: {
        const domain = this.capture.domains.indexOf(m.varint(), offset);
        const id = m.varint();
        const parent = m.varint();
        this.attachRegistry();
        this.registry.scopes!.push({ domain, id, parent, path: m.str() });
        return true;
      }
      case MetaOp.TimeDomain: {
        const domain = this.capture.domains.indexOf(m.varint(), offset);
        const id = m.varint();
        m.varint(); // scope
        const timestampType = m.varint();
        m.varint(); // timer flags
        const resolution = m.svarint();
        this.time.registerDomain(domain, id, { timestampType, resolution });
        return true;
      }
      case MetaOp.TimerSource:
        // Its readings arrive as SYNC_POINTS records.
        return true;
      case MetaOp.SyncPoints: {
        const domain = this.capture.domains.indexOf(m.varint(), offset);
        const src = m.varint();
        const dst = m.varint();
        const count = m.varint();
        const points: [bigint, bigint][] = [];
        for (let i = 0; i < count; i++) points.push([svarintBig(m), svarintBig(m)]);
        this.time.addSyncPoints(domain, src, dst, points);
        return true;
      }
      case MetaOp.ConversionFactor: {
        const domain = this.capture.domains.indexOf(m.varint(), offset);
        const src = m.varint();
        const dst = m.varint();
        const slope = m.raw8().getFloat64(0, true);
        this.time.addFactor(domain, src, dst, slope, svarintBig(m), svarintBig(m));
        return true;
      }
      case MetaOp.Counter: {
        const domain = this.capture.domains.indexOf(m.varint(), offset);
        const id = m.varint();
        const schemaId = m.varint();
        const scope = m.varint();
        const name = m.str();
        const description = m.str();
        const semantics = this.semantics(m);
        this.counters.set(`${domain}:${id}`, { domain, id, schemaId, scope, name, description, semantics, rows: new Map() });
        return true;
      }
      case MetaOp.Clocks: {
        const count = m.varint();
        const readings: [number, bigint][] = [];
        for (let i = 0; i < count; i++) readings.push([m.varint(), svarintBig(m)]);
        this.time.addClockReading(this.capture.clock.t0 + BigInt(dt), readings);
        return true;
      }
      default:
        return false;
    }
  }

  private semantics(m: ByteReader): SemanticsDef[] {
    const count = m.varint();
    const out: SemanticsDef[] = [];
    for (let i = 0; i < count; i++) {
      const bytes = m.bytesOf(m.varint());
      const unit = m.str();
      out.push(semanticsFromStruct(bytes, unit || undefined));
    }
    return out;
  }

  private schema(m: ByteReader, offset: number): void {
    const domain = this.capture.domains.indexOf(m.varint(), offset);
    const id = m.varint();
    m.varint(); // field mask: absent fields were written as 0
    const name = m.str();
    const type = m.varint();
    const flags = m.varint();
    const staticSize = m.varint();
    const packAlign = m.varint();
    const count = m.varint();
    const entries: EntryDef[] = [];
    for (let i = 0; i < count; i++) {
      const entry: EntryDef = { flags: m.varint(), type: m.varint(), arrayOrUnionDetail: 0, offset: 0 };
      const entryName = m.str();
      const description = m.str();
      entry.arrayOrUnionDetail = m.varint();
      entry.offset = m.varint();
      const semantics = this.semantics(m);
      if (entryName) entry.name = entryName;
      if (description) entry.description = description;
      if (semantics.length > 0) entry.semantics = semantics;
      entries.push(entry);
    }
    const def: SchemaDef = { domain, id, type, flags, entries };
    if (name) def.name = name;
    if (staticSize > 0) def.payloadStaticSize = staticSize;
    if (packAlign > 0) def.packAlign = packAlign;
    this.attachRegistry();
    this.registry.schemas.push(def);
    this.attributeSchemas.clear();
    this.attributeReader.reset();
  }

  // ---------------------------------------------------------------- thread records (section 7.2)

  /** Applies a thread record of ops 0x40–0x43 (its body); false for other ops. */
  record(op: number, r: ByteReader, st: StreamThread, offset: number): boolean {
    switch (op) {
      case Op.PayloadEvent:
        this.payloadEvent(r, st, offset);
        return true;
      case Op.CounterSample:
        this.counterSample(r, st, offset);
        return true;
      case Op.CounterBatch:
        this.counterBatch(r, st, offset);
        return true;
      case Op.EventBatch:
        this.eventBatch(r, st, offset);
        return true;
      default:
        return false;
    }
  }

  /** The `payloads` and `memory` lists of a record or attrs. */
  static readPayloads(r: ByteReader): ExtPayloadInput[] {
    const count = r.varint();
    const blobs: ExtPayloadInput[] = [];
    for (let i = 0; i < count; i++) {
      const schemaId = r.varint();
      r.varint(); // flags: a cut or unknown size shows when the payload is decoded
      const address = r.varint(); // user-space addresses are below 2^47: exact as numbers
      blobs.push({ schemaId, address, bytes: r.bytesOf(r.varint()) });
    }
    return blobs;
  }

  static readMemory(r: ByteReader): ExtMemoryInput[] {
    const count = r.varint();
    const memory: ExtMemoryInput[] = [];
    for (let i = 0; i < count; i++) {
      const address = r.varint();
      const size = r.varint();
      r.varint(); // flags
      memory.push({ address, bytes: r.bytesOf(size) });
    }
    return memory;
  }

  private payloadEvent(r: ByteReader, st: StreamThread, offset: number): void {
    const { b } = this.capture;
    const t = this.capture.clock.tickNs(r.svarint(), offset);
    const kind = r.u8();
    const domain = this.capture.domains.indexOf(r.varint(), offset);
    const range = r.varint();
    const blobs = ExtensionRecords.readPayloads(r);
    const memory = ExtensionRecords.readMemory(r);
    const payload = b.extPayload(domain, blobs, memory);
    switch (kind) {
      case PayloadEventKind.Mark:
        b.mark(st.thread, t, this.attributes(domain, blobs, memory, payload, {}));
        break;
      case PayloadEventKind.Push: {
        const attrs = this.attributes(domain, blobs, memory, payload, {});
        if (this.capture.nesting.push(st.thread, domain, offset)) b.push(st.thread, t, attrs, { offset });
        break;
      }
      case PayloadEventKind.Pop:
        if (this.capture.nesting.pop(st.thread, domain)) b.pop(st.thread, t, domain, { offset }, payload, this.rename(domain, blobs, memory));
        break;
      case PayloadEventKind.Start:
        this.capture.pairing.start(range, st.thread, t, this.attributes(domain, blobs, memory, payload, {}), offset);
        break;
      case PayloadEventKind.End:
        this.capture.pairing.end(range, st.thread, t, offset, payload, this.rename(domain, blobs, memory));
        break;
      case PayloadEventKind.Submit:
        this.deferred.push({
          domain,
          thread: st.thread,
          t,
          scope: 0,
          decoded: decodeEventPayloads(this.registry, blobs, { domain, memory }),
          payload,
          offset,
        });
        break;
      default:
        this.capture.notes.warnOnce(`pev:${kind}`, `payload event of unknown kind ${kind}; skipped`, offset);
    }
  }

  /**
   * Event attributes of a payload event: the payloads' message, color and category over `core`
   * (attribute precedence of nvToolsExtPayload.h). Events without a message are named after the
   * schema of their first payload.
   */
  attributes(domain: number, blobs: readonly ExtPayloadInput[], memory: readonly ExtMemoryInput[], payload: PayloadValue | undefined, core: EventAttrs): EventAttrs {
    const out: EventAttrs = { ...core, domain: domain === 0 ? undefined : domain, payload };
    const a = this.payloadAttributes(domain, blobs, memory);
    if (a) this.applyAttributes(out, a);
    if (out.name === undefined && out.nameId === undefined) {
      const index = indexRegistry(this.registry);
      for (const x of blobs) {
        const s = index.schema(domain, x.schemaId);
        if (s?.name) {
          out.name = s.name;
          break;
        }
      }
    }
    out.style = undefined;
    return out;
  }

  /** A core event's attributes (`a`) after the extended payloads it carries (they come later in precedence). */
  coreAttributes(a: EventAttrs, domain: number, blobs: readonly ExtPayloadInput[], memory: readonly ExtMemoryInput[]): void {
    const given = this.payloadAttributes(domain, blobs, memory);
    if (!given) return;
    this.applyAttributes(a, given);
    a.style = undefined;
  }

  /**
   * The message, color and category the payloads of an event give (undefined: none can), read
   * directly where the layout allows, else from a full decode.
   */
  private payloadAttributes(domain: number, blobs: readonly ExtPayloadInput[], memory: readonly ExtMemoryInput[]): PayloadAttributesRead | undefined {
    if (!blobs.some((x) => this.carriesAttributes(domain, x.schemaId))) return undefined;
    return this.attributeReader.read(domain, blobs, memory) ?? effectiveAttributes({}, decodeEventPayloads(this.registry, blobs, { domain, memory }));
  }

  private applyAttributes(out: EventAttrs, a: PayloadAttributesRead): void {
    if (a.message !== undefined) {
      out.name = a.message;
      out.nameId = undefined;
    }
    if (a.color !== undefined) out.color = a.color;
    if (a.category !== undefined) out.category = a.category;
  }

  /** Message and color of pop/end payloads (they override the push/start ones). */
  private rename(domain: number, blobs: readonly ExtPayloadInput[], memory: readonly ExtMemoryInput[]): RangeRename | undefined {
    const a = this.payloadAttributes(domain, blobs, memory);
    if (!a || (a.message === undefined && a.color === undefined)) return undefined;
    return { name: a.message, color: a.color };
  }

  /** Does a payload of this schema give the event a message, color or category (possibly nested)? */
  private carriesAttributes(domain: number, schemaId: number, depth = 0): boolean {
    const key = `${domain}:${schemaId}`;
    const cached = this.attributeSchemas.get(key);
    if (cached !== undefined) return cached;
    const schema = indexRegistry(this.registry).schema(domain, schemaId);
    let carries = false;
    if (schema && depth < 16) {
      this.attributeSchemas.set(key, false); // cycles
      carries = schema.entries.some(
        (e) =>
          (e.flags & EntryFlag.RoleMask) === EntryFlag.EventMessage ||
          e.type === EntryType.Category ||
          e.type === EntryType.ColorArgb ||
          (e.type >= 2 ** 24 && this.carriesAttributes(domain, e.type, depth + 1)),
      );
    }
    this.attributeSchemas.set(key, carries);
    return carries;
  }

  // ---------------------------------------------------------------- counters

  private counterOf(domain: number, id: number, offset: number): CounterInfo | undefined {
    const c = this.counters.get(`${domain}:${id}`);
    if (!c) {
      this.unknownCounterSamples++;
      this.capture.notes.warnOnce(`counter:${domain}:${id}`, `samples of counter ${id}, which was never registered in this capture, are skipped`, offset);
      return undefined;
    }
    if (c.reader === undefined) {
      c.reader = counterReader(this.registry, c.domain, c.schemaId, c.semantics);
      if (typeof c.reader === 'string') {
        this.capture.notes.warnOnce(`counterlayout:${domain}:${id}`, `counter "${c.name || id}" cannot be read: ${c.reader}; its samples are skipped`, offset);
      }
    }
    return typeof c.reader === 'string' ? undefined : c;
  }

  /** The rows of a counter for a sample taken on `thread` (a row per counter of a group). */
  private counterRows(c: CounterInfo, thread: number): { rows: number[]; last: Float64Array } {
    const perThread = c.scope === SCOPE.Thread || c.scope === SCOPE.SwInnermost;
    const key = perThread ? thread : -1;
    let placed = c.rows.get(key);
    if (placed) return placed;
    const reader = c.reader as CounterReader;
    const group = reader.fields.length > 1 || indexRegistry(this.registry).schema(c.domain, c.schemaId) !== undefined;
    const name = c.name || `counter ${c.id}`;
    // Under "Counters" of the process or thread, or under the path of a registered scope.
    const base = (perThread ? undefined : this.scopePath(c.domain, c.scope)) ?? ['Counters'];
    const path = group ? [...base, name] : base;
    const rows = reader.fields.map((f) => {
      const label = group ? f.name : name;
      const counter = trackInfo(f.semantics, counterScaling(f.semantics, f.type), c.description);
      const options = { label, process: this.capture.process, thread: perThread ? thread : undefined, unit: f.unit, path };
      const row = this.capture.b.counterRow({ ...options, counter });
      if (counter?.valueType === 'delta') {
        // Changes since the previous sample: a second row shows what they add up to.
        const total = this.capture.b.counterRow({
          ...options,
          label: `${label} (running total)`,
          counter: {
            valueType: 'deltaSinceStart',
            interpolation: 'untilNext',
            derived: 'runningTotal',
            source: label,
            description: `sum of the changes of ${label} since its first sample (derived by nvtxview; changes the program marked unavailable are left out)`,
          },
        });
        this.runningTotals.set(row, { total, t: [], v: [] });
      }
      return row;
    });
    placed = { rows, last: new Float64Array(rows.length) };
    c.rows.set(key, placed);
    return placed;
  }

  /** One sample of a counter row (NaN: no value), kept aside too for rows whose running total is derived. */
  private sample(row: number, t: number, value: number): void {
    if (value === Infinity || value === -Infinity) {
      // Not a value a model can hold (drawing and statistics would break): a gap, reported.
      this.infiniteSamples++;
      value = NaN;
    }
    this.capture.b.counter(row, t, value);
    const totals = this.runningTotals.get(row);
    if (totals) {
      totals.t.push(t);
      totals.v.push(value);
    }
  }

  /**
   * The running total of a delta counter: the sum of its changes in time order, starting from 0
   * before its first sample (the header leaves the first change "tool-defined"; it counts as a change
   * from the start). A change without a value adds nothing, and the total shows no value from it to
   * the next sample, so the gap stays visible.
   */
  private placeRunningTotal(totals: RunningTotal): void {
    const order = totals.t.map((_, i) => i).sort((a, b) => totals.t[a] - totals.t[b]);
    let sum = 0;
    for (const i of order) {
      const v = totals.v[i];
      if (Number.isNaN(v)) {
        this.capture.b.counter(totals.total, totals.t[i], NaN);
        continue;
      }
      sum += v;
      this.capture.b.counter(totals.total, totals.t[i], sum);
    }
  }

  private counterSample(r: ByteReader, st: StreamThread, offset: number): void {
    const t = this.capture.clock.tickNs(r.svarint(), offset);
    const domain = this.capture.domains.indexOf(r.varint(), offset);
    const id = r.varint();
    const kind = r.u8();
    // Read the value first: the record is consumed whatever happens to it.
    let int: number | undefined;
    let float: number | undefined;
    let bytes: Uint8Array | undefined;
    let reason = 0;
    if (kind === SampleKind.Int64) int = r.svarint();
    else if (kind === SampleKind.Float64) float = r.raw8().getFloat64(0, true);
    else if (kind === SampleKind.Bytes) bytes = r.bytesOf(r.varint());
    else if (kind === SampleKind.NoValue) reason = r.u8();
    else {
      this.capture.notes.warnOnce(`samplekind:${kind}`, `counter sample of unknown kind ${kind}; skipped`, offset);
      return;
    }
    const c = this.counterOf(domain, id, offset);
    if (!c) return;
    const reader = c.reader as CounterReader;
    const placed = this.counterRows(c, st.thread);
    if (int !== undefined || float !== undefined) {
      const f = reader.fields[0];
      const v = applyScaling(int ?? float!, counterScaling(f.semantics, f.type));
      this.sample(placed.rows[0], t, v);
      placed.last[0] = v;
      return;
    }
    if (bytes) {
      if (bytes.length < reader.stride) {
        this.capture.notes.warnOnce(`sampleshort:${domain}:${id}`, `a sample of counter "${c.name || id}" has ${bytes.length} bytes, its layout needs ${reader.stride}; skipped`, offset);
        return;
      }
      reader.read(bytes, 0, placed.last);
      for (let k = 0; k < placed.rows.length; k++) this.sample(placed.rows[k], t, placed.last[k]);
      return;
    }
    if (reason === NoValueReason.Unavailable) {
      // No value from here to the next sample: NaN in the model, a gap in the drawing and the statistics.
      this.unavailableSamples++;
      for (let k = 0; k < placed.rows.length; k++) this.sample(placed.rows[k], t, NaN);
      return;
    }
    // UNCHANGED repeats the last value the program gave (also after an unavailable sample: it knew
    // no newer value); ZERO is a sample of 0.
    if (reason === NoValueReason.Zero) placed.last.fill(0);
    for (let k = 0; k < placed.rows.length; k++) this.sample(placed.rows[k], t, placed.last[k]);
  }

  private counterBatch(r: ByteReader, st: StreamThread, offset: number): void {
    const t = this.capture.clock.tickNs(r.svarint(), offset);
    const domain = this.capture.domains.indexOf(r.varint(), offset);
    const id = r.varint();
    const flags = r.varint();
    const cut = r.varint();
    const samples = r.bytesOf(r.varint());
    const stamps = r.bytesOf(r.varint());
    if (cut) this.capture.notes.warnOnce(`batchcut:${domain}:${id}`, `a counter batch was cut to 16 MiB by the collector`, offset);
    const c = this.counterOf(domain, id, offset);
    if (!c) return;
    const copy = new Uint8Array(stamps.length - (stamps.length % 8));
    copy.set(stamps.subarray(0, copy.length));
    this.counterBatches.push({ counter: c, thread: st.thread, flags, samples, timestamps: new BigInt64Array(copy.buffer), t, offset });
  }

  /** Places a counter batch: one timestamp per sample, a begin/end + interval pair, or the samples' own. */
  private placeCounterBatch(batch: CounterBatch): void {
    const c = batch.counter;
    const reader = c.reader as CounterReader;
    const n = Math.floor(batch.samples.length / reader.stride);
    if (n === 0) return;
    let timeDomain: number = TimestampType.ToolProvided;
    for (const sem of c.semantics) if (sem.kind === 'time') timeDomain = sem.timeDomainId;
    if (reader.timestamp?.timeDomain !== undefined) timeDomain = reader.timestamp.timeDomain;
    const convert = this.time.converter(c.domain, timeDomain);
    if (typeof convert !== 'function') {
      this.notPlaced(c.domain, timeDomain, n, convert.error, 'counter samples');
      return;
    }
    const ts = batch.timestamps;
    const pair = Math.floor(batch.flags / TWO_32) & 3; // NVTX_COUNTER_BATCH_FLAG_{BEGIN,END}TIME_INTERVAL_PAIR
    const at = (i: number): bigint | undefined => {
      if (pair === 1 && ts.length >= 2) return ts[0] + BigInt(i) * ts[1];
      if (pair === 2 && ts.length >= 2) return ts[0] - BigInt(n - 1 - i) * ts[1];
      if (ts.length > 0) return i < ts.length ? ts[i] : undefined;
      return reader.timestamp ? BigInt(Math.round(reader.readTimestamp(batch.samples, i * reader.stride))) : undefined;
    };
    const placed = this.counterRows(c, batch.thread);
    const values = new Float64Array(reader.fields.length);
    let missing = 0;
    for (let i = 0; i < n; i++) {
      const raw = at(i);
      if (raw === undefined) {
        missing++;
        continue;
      }
      const t = Math.round(convert(raw));
      if (!this.capture.clock.placeable(t)) continue;
      reader.read(batch.samples, i * reader.stride, values);
      for (let k = 0; k < placed.rows.length; k++) this.sample(placed.rows[k], t, values[k]);
    }
    if (missing > 0) {
      this.capture.b.report('warning', `${missing} sample(s) of a batch of counter "${c.name || c.id}" have no timestamp; skipped`, { offset: batch.offset });
    }
  }

  // ---------------------------------------------------------------- deferred events

  private eventBatch(r: ByteReader, st: StreamThread, offset: number): void {
    const t = this.capture.clock.tickNs(r.svarint(), offset);
    const domain = this.capture.domains.indexOf(r.varint(), offset);
    const schemaId = r.varint();
    const scope = r.varint();
    r.varint(); // ordering flags: the builder sorts whatever the order
    const cut = r.varint();
    const address = r.varintBig();
    const events = r.bytesOf(r.varint());
    const flexAddress = r.varintBig();
    r.varint(); // flexDataOffset: offsets count from flexData
    const flex = r.bytesOf(r.varint());
    if (cut) this.capture.notes.warnOnce(`eventbatchcut`, `an event batch was cut to 16 MiB by the collector`, offset);
    const memory: ExtMemoryInput[] = flex.length > 0 && flexAddress !== 0n ? [{ address: flexAddress, bytes: flex }] : [];
    const stride = payloadStride(this.registry, domain, schemaId);
    const { b } = this.capture;
    // The flex data is stored once and shared by the batch's events (whatever its size), so offsets
    // and pointers into it resolve in the panel.
    let flexBase: number | undefined;
    let at = 0;
    let count = 0;
    while (at < events.length) {
      const rest = events.subarray(at);
      const decoded = decodePayload(this.registry, schemaId, stride !== undefined ? rest.subarray(0, stride) : rest, {
        domain,
        memory,
        offsetBase: flex.length > 0 ? flex : undefined,
        address: address + BigInt(at),
      });
      const size = stride ?? decoded.consumed ?? 0;
      if (size <= 0 || (stride !== undefined && rest.length < stride)) {
        b.report('warning', `event batch of schema ${schemaId}: ${events.length - at} byte(s) after event ${count} do not form an event (${decoded.error ?? 'no size'}); skipped`, { offset });
        break;
      }
      const bytes = events.subarray(at, at + size);
      if (flexBase === undefined && flex.length > 0) flexBase = b.extSharedOffsetBase(domain, { address: flexAddress, bytes: flex });
      const payload = b.extPayload(domain, [{ schemaId, bytes, address: address + BigInt(at) }], [], flexBase);
      this.deferred.push({ domain, thread: st.thread, t, scope, decoded: [decoded], payload, offset });
      at += size;
      count++;
    }
  }

  /** Places a deferred event by its timestamps, converted to the capture clock, on the row of its scope. */
  private placeDeferred(ev: DeferredEvent): void {
    const a = effectiveAttributes({}, ev.decoded);
    const role = ev.decoded.find((p) => p.role)?.role;
    // Timestamps flagged TIMESTAMP without an event kind: the first and last, by the schema's role.
    const loose = ev.decoded.flatMap((p) => p.timestamps.filter((x) => x.role === 'none'));
    let begin = a.begin;
    let end = a.end;
    let mark = a.mark;
    if (!begin && !end && !mark && loose.length > 0) {
      if ((role === 'pushpop' || role === 'startend') && loose.length >= 2) {
        begin = loose[0];
        end = loose[loose.length - 1];
      } else mark = loose[0];
    }
    const convert = (ref: TimestampRef): number | null => {
      const id = ref.timeDomain ?? TimestampType.ToolProvided;
      const c = this.time.converter(ev.domain, id);
      if (typeof c !== 'function') {
        this.notPlaced(ev.domain, id, 1, c.error, 'deferred events');
        return null;
      }
      return Math.round(c(typeof ref.value === 'bigint' ? ref.value : BigInt(Math.round(ref.value))));
    };
    let start: number;
    let stop: number | undefined;
    if (begin && end) {
      const s0 = convert(begin);
      const s1 = s0 === null ? null : convert(end);
      if (s0 === null || s1 === null) return;
      start = s0;
      stop = s1;
    } else {
      const ref = mark ?? begin ?? end;
      const s0 = ref ? convert(ref) : ev.t;
      if (s0 === null) return;
      start = s0;
    }
    const { clock } = this.capture;
    if (!clock.placeable(start) || (stop !== undefined && !clock.placeable(stop))) return;
    const attrs: EventAttrs = { domain: ev.domain === 0 ? undefined : ev.domain, payload: ev.payload };
    this.applyAttributes(attrs, a);
    if (attrs.name === undefined) attrs.name = ev.decoded.find((p) => p.schemaName)?.schemaName ?? '';
    const { b } = this.capture;
    const target = this.deferredTarget(ev, a, begin ?? mark ?? end);
    if (stop !== undefined) {
      const layout = role === 'startend' ? 'lanes' : 'stack';
      if (target.thread >= 0) {
        const row = b.customRow({ kind: 'api', label: 'Deferred', process: this.capture.process, thread: target.thread, layout });
        b.rowRange(row, start, stop, attrs, target.thread);
      } else {
        const path = target.path.length > 0 ? target.path : ['Deferred'];
        const row = b.customRow({ kind: 'api', label: 'Ranges', process: this.capture.process, path, layout });
        b.rowRange(row, start, stop, attrs);
      }
      return;
    }
    const t = start;
    if (target.thread >= 0) b.mark(target.thread, t, attrs);
    else {
      const path = target.path.length > 0 ? target.path : ['Deferred'];
      b.rowMark(b.markRow({ label: 'Marks', process: this.capture.process, path }), t, attrs);
    }
  }

  /**
   * Where a deferred event goes. Scope precedence (payload extension reference): a scope, pid or tid
   * given by an entry, then the timestamp's scope semantics, then the batch's scope. A thread scope
   * names the submitting thread; a registered scope its path; no scope or a process-wide one the
   * process (not the submitting thread, as the batch documentation asks).
   */
  private deferredTarget(ev: DeferredEvent, a: EffectiveAttributes, ref: TimestampRef | undefined): { thread: number; path: string[] } {
    if (a.tid !== undefined) {
      const pid = a.pid !== undefined ? Number(a.pid) : this.capture.pid;
      return { thread: this.capture.b.thread(pid, Number(a.tid)), path: [] };
    }
    const scope = Number(a.scope ?? ref?.scope ?? ev.scope ?? 0);
    if (scope === SCOPE.Thread || scope === SCOPE.SwInnermost) return { thread: ev.thread, path: [] };
    return { thread: -1, path: this.scopePath(ev.domain, scope) ?? [] };
  }

  /** The track path of a registered scope (its parents' paths first); undefined for predefined scopes. */
  private scopePath(domain: number, scope: number, depth = 0): string[] | undefined {
    if (scope < 2 ** 24 || depth > 16) return undefined;
    const s = indexRegistry(this.registry).scope(domain, scope);
    if (!s) return [`scope ${scope}`];
    const own = splitScopePath(s.path);
    return [...(this.scopePath(domain, s.parent, depth + 1) ?? []), ...own];
  }

  private notPlaced(domain: number, timeDomain: number, count: number, reason: string, what: string): void {
    const key = `${what}\u0000${this.time.label(domain, timeDomain)}`;
    const seen = this.unplaced.get(key);
    if (seen) seen.count += count;
    else this.unplaced.set(key, { count, reason });
  }

  /** Places what waited for the whole capture and reports what could not be placed. */
  finish(): void {
    for (const ev of this.deferred) this.placeDeferred(ev);
    for (const batch of this.counterBatches) this.placeCounterBatch(batch);
    for (const totals of this.runningTotals.values()) this.placeRunningTotal(totals);
    const { b } = this.capture;
    for (const [key, { count, reason }] of this.unplaced) {
      const [what, label] = key.split('\u0000');
      b.report('warning', `${count} ${what} with timestamps in ${label} are not shown: ${reason}`);
    }
    if (this.unavailableSamples > 0) {
      b.report('info', `${this.unavailableSamples} counter sample(s) were marked unavailable by the program (nvtxCounterSampleNoValue); the counters have no value from each of them to their next sample`);
    }
    if (this.infiniteSamples > 0) {
      b.report('warning', `${this.infiniteSamples} counter sample(s) are infinite; shown as gaps (no value)`);
    }
    if (this.unknownCounterSamples > 0 && this.unknownCounterSamples > 1) {
      b.report('warning', `${this.unknownCounterSamples} samples of unregistered counters were skipped`);
    }
  }
}

/** Counter semantics as a track's drawing and description (limits in display units). */
function trackInfo(sem: CounterSemantics | undefined, scaling: ReturnType<typeof counterScaling> | undefined, description: string): CounterTrackInfo | undefined {
  const out: CounterTrackInfo = {};
  if (sem) {
    const traits = counterTraits(sem);
    if (traits.interpolation) out.interpolation = traits.interpolation;
    // "Delta to previous sample" (nvToolsExtSemanticsCounters.h): unless the program says how to
    // draw it, a change covers the time since the previous sample (a bar from it to the sample).
    else if (traits.valueType === 'delta') out.interpolation = 'sinceLast';
    if (traits.valueType) out.valueType = traits.valueType;
    if (traits.min !== undefined) out.min = scaling ? applyScaling(traits.min, scaling) : traits.min;
    if (traits.max !== undefined) out.max = scaling ? applyScaling(traits.max, scaling) : traits.max;
  }
  if (description) out.description = description;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A scope path split at '/' (leading slashes ignored, `\` escapes kept literal). */
export function splitScopePath(path: string): string[] {
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < path.length; i++) {
    const ch = path[i];
    if (ch === '\\' && i + 1 < path.length) {
      cur += path[++i];
    } else if (ch === '/') {
      if (cur) parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur) parts.push(cur);
  return parts;
}

