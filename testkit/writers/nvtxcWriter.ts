/**
 * Writes `.nvtxc` bytes from TypeScript, following docs/capture-format.md: the one TypeScript writer.
 * The collector is the real writer; this one builds exact inputs for tests (including damaged ones)
 * and gives the capture generator (testkit/gen/native.ts) the primitives it streams with.
 */
import { crc32c } from '../../src/import/native/crc32c.ts';
import { Chunk, CudaApiFlag, CudaRecord, MAGIC, MAJOR_VERSION, MetaOp, MINOR_VERSION, Op, ProcessTag, EndTag } from '../../src/import/native/format.ts';

/**
 * Growable byte buffer with the format's primitive encoders: the one byte writer of every `.nvtxc`
 * the tests and the generators write. Integers that are safe non-negative numbers take a plain
 * number path (the generator writes 10M events in seconds); bigints and other values wrap modulo
 * 2^64 through BigInt, for exact and deliberately odd inputs.
 */
export class ByteWriter {
  private buf: Uint8Array;
  length = 0;

  constructor(capacity = 256) {
    this.buf = new Uint8Array(Math.max(1, capacity));
  }

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.length + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  u8(v: number): this {
    this.room(1);
    this.buf[this.length++] = v;
    return this;
  }

  u16(v: number): this {
    this.room(2);
    this.buf[this.length++] = v & 0xff;
    this.buf[this.length++] = (v >>> 8) & 0xff;
    return this;
  }

  u32(v: number): this {
    this.room(4);
    for (let k = 0; k < 4; k++) this.buf[this.length++] = (v >>> (8 * k)) & 0xff;
    return this;
  }

  u64(v: number | bigint): this {
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return this.u32(v % 0x100000000).u32(Math.floor(v / 0x100000000));
    const b = BigInt.asUintN(64, BigInt(v));
    return this.u32(Number(b & 0xffffffffn)).u32(Number(b >> 32n));
  }

  varint(v: number | bigint): this {
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) {
      this.room(10);
      const b = this.buf;
      while (v >= 0x80) {
        b[this.length++] = (v % 0x80) | 0x80;
        v = Math.floor(v / 0x80);
      }
      b[this.length++] = v;
      return this;
    }
    let x = BigInt.asUintN(64, BigInt(v));
    while (x >= 0x80n) {
      this.u8(Number(x & 0x7fn) | 0x80);
      x >>= 7n;
    }
    return this.u8(Number(x));
  }

  svarint(v: number | bigint): this {
    if (typeof v === 'number' && Number.isSafeInteger(v) && Number.isSafeInteger(2 * Math.abs(v) + 1)) return this.varint(v >= 0 ? v * 2 : -v * 2 - 1);
    const x = BigInt(v);
    return this.varint(x >= 0n ? x * 2n : -x * 2n - 1n);
  }

  bytes(b: Uint8Array): this {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
    return this;
  }

  str(s: string): this {
    const b = new TextEncoder().encode(s);
    return this.varint(b.length).bytes(b);
  }

  /** A length-prefixed sub-structure: varint length, then what `fill` writes. */
  sized(fill: (w: ByteWriter) => void): this {
    const inner = new ByteWriter();
    fill(inner);
    return this.varint(inner.length).bytes(inner.view());
  }

  /** The bytes so far as a view (no copy): valid until the next write or `clear`. */
  view(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }

  /** The bytes so far, copied. */
  done(): Uint8Array {
    return this.buf.slice(0, this.length);
  }

  /** Empties the buffer, keeping its memory. */
  clear(): this {
    this.length = 0;
    return this;
  }
}

/** The 16-byte file header. */
export function fileHeader(major = MAJOR_VERSION, minor = MINOR_VERSION): Uint8Array {
  return new ByteWriter(16).bytes(MAGIC).u16(major).u16(minor).u32(0).done();
}

/** The 12-byte header of a chunk (body size, kind, reserved, CRC-32C of its first 8 bytes and the body); `badCrc` stores a wrong checksum. */
export function chunkHead(kind: number, body: Uint8Array, badCrc = false): Uint8Array {
  const head = new ByteWriter(12).u32(body.length).u16(kind).u16(0);
  let crc = crc32c(body, crc32c(head.view()));
  if (badCrc) crc = (crc ^ 1) >>> 0;
  return head.u32(crc).done();
}

/** The body of a PROCESS chunk. */
export function processBody(p: ProcessFacts): Uint8Array {
  const w = new ByteWriter();
  const tlv = (tag: number, fill: (v: ByteWriter) => void) => w.varint(tag).sized(fill);
  tlv(ProcessTag.Writer, (v) => v.bytes(new TextEncoder().encode(p.writer ?? 'test writer')));
  tlv(ProcessTag.Pid, (v) => v.varint(p.pid));
  if (p.name !== undefined) tlv(ProcessTag.Name, (v) => v.bytes(new TextEncoder().encode(p.name)));
  if (p.commandLine) tlv(ProcessTag.CommandLine, (v) => v.bytes(new TextEncoder().encode(p.commandLine!.map((a) => `${a}\0`).join(''))));
  tlv(ProcessTag.ClockKind, (v) => v.varint(p.clockKind ?? 1));
  tlv(ProcessTag.StartPair, (v) => v.varint(p.t0).varint(p.n0));
  tlv(ProcessTag.TickRate, (v) => v.varint(p.tickRate ?? 1_000_000_000));
  if (p.wallStartNs !== undefined) tlv(ProcessTag.WallStart, (v) => v.varint(p.wallStartNs!));
  if (p.captureStart !== undefined) tlv(ProcessTag.CaptureStart, (v) => v.svarint(p.captureStart!));
  if (p.parentPid !== undefined) tlv(ProcessTag.ParentPid, (v) => v.varint(p.parentPid!));
  for (const e of p.extra ?? []) tlv(e.tag, (v) => v.bytes(e.value));
  return w.done();
}

export interface EndFields {
  pair?: [bigint | number, bigint | number];
  reason?: [number, number];
  events?: number;
  lost?: number;
  /** Format 1.3: CUDA_API and CUDA_ACTIVITY records written. */
  cuda?: [api: number, activity: number];
}

/** The body of an END chunk. */
export function endBody(fields: EndFields): Uint8Array {
  const w = new ByteWriter();
  const tlv = (tag: number, fill: (v: ByteWriter) => void) => w.varint(tag).sized(fill);
  if (fields.pair) tlv(EndTag.Pair, (v) => v.varint(fields.pair![0]).varint(fields.pair![1]));
  if (fields.reason) tlv(EndTag.Reason, (v) => v.varint(fields.reason![0]).varint(fields.reason![1]));
  if (fields.events !== undefined) tlv(EndTag.Events, (v) => v.varint(fields.events!));
  if (fields.lost !== undefined) tlv(EndTag.Lost, (v) => v.varint(fields.lost!));
  if (fields.cuda) tlv(EndTag.Cuda, (v) => v.varint(fields.cuda![0]).varint(fields.cuda![1]));
  return w.done();
}

export interface ProcessFacts {
  /** The PROCESS writer tag (default "test writer"). */
  writer?: string;
  pid: number;
  name?: string;
  /** Start pair (T0, N0). */
  t0: bigint;
  n0: bigint;
  /** Ticks per second (PROCESS tag 9). */
  tickRate?: number;
  clockKind?: number;
  commandLine?: string[];
  wallStartNs?: bigint;
  captureStart?: number;
  parentPid?: number;
  /** Extra TLV fields, e.g. unknown tags. */
  extra?: { tag: number; value: Uint8Array }[];
}

export interface EventAttrsSpec {
  category?: number;
  color?: number;
  /** nvtxPayloadType_t and the 8 raw bytes. */
  payload?: { type: number; bits: Uint8Array };
  message?: { type: number; id: number };
  ext?: { schemaId: number; flags?: number; address?: bigint; data: Uint8Array }[];
  /** Deep-copied memory (attrs bit 5, format 1.1). */
  memory?: MemorySpec[];
  /** Bytes appended after the known fields (a later version's fields). */
  trailing?: Uint8Array;
}

/** The records of one thread stream, with its tick and string-id state. */
export class StreamRecords {
  readonly w = new ByteWriter();
  private prev = 0;
  private nextSid = 1;
  private readonly sids = new Map<string, number>();
  events = 0;

  /** `tick` values are relative to T0. */
  private dt(tick: number): void {
    this.w.svarint(tick - this.prev);
    this.prev = tick;
  }

  thread(tid: number, osName: string): this {
    this.w.u8(Op.Thread).varint(tid).str(osName);
    return this;
  }

  osName(name: string): this {
    this.w.u8(Op.ThreadOsName).str(name);
    return this;
  }

  /** The stream string id of `text`, defining it first if needed. */
  sid(text: string, flags = 0): number {
    let id = this.sids.get(text);
    if (id === undefined) {
      this.w.u8(Op.String).varint(flags).str(text);
      id = this.nextSid++;
      this.sids.set(text, id);
    }
    return id;
  }

  push(tick: number, text: string): this {
    const sid = this.sid(text);
    this.w.u8(Op.Push);
    this.dt(tick);
    this.w.varint(sid);
    this.events++;
    return this;
  }

  pop(tick: number, domain = 0): this {
    this.w.u8(domain ? Op.PopDomain : Op.Pop);
    this.dt(tick);
    if (domain) this.w.varint(domain);
    this.events++;
    return this;
  }

  mark(tick: number, text: string): this {
    const sid = this.sid(text);
    this.w.u8(Op.Mark);
    this.dt(tick);
    this.w.varint(sid);
    this.events++;
    return this;
  }

  start(tick: number, id: number, text: string): this {
    const sid = this.sid(text);
    this.w.u8(Op.Start);
    this.dt(tick);
    this.w.varint(id).varint(sid);
    this.events++;
    return this;
  }

  end(tick: number, id: number, domain = 0): this {
    this.w.u8(domain ? Op.EndDomain : Op.End);
    this.dt(tick);
    if (domain) this.w.varint(domain);
    this.w.varint(id);
    this.events++;
    return this;
  }

  /** PUSH_EX / MARK_EX / START_EX with attributes (`range` for START_EX). */
  ex(op: number, tick: number, domain: number, attrs: EventAttrsSpec, range = 0): this {
    this.w.u8(op);
    this.dt(tick);
    this.w.varint(domain);
    if (op === Op.StartEx) this.w.varint(range);
    this.w.sized((a) => {
      let mask = 0;
      if (attrs.category !== undefined) mask |= 1;
      if (attrs.color !== undefined) mask |= 2;
      if (attrs.payload) mask |= 4;
      if (attrs.message) mask |= 8;
      if (attrs.ext) mask |= 16;
      if (attrs.memory) mask |= 32;
      a.varint(mask);
      if (attrs.category !== undefined) a.varint(attrs.category);
      if (attrs.color !== undefined) a.varint(1).u32(attrs.color);
      if (attrs.payload) a.varint(attrs.payload.type >>> 0).bytes(attrs.payload.bits);
      if (attrs.message) a.varint(attrs.message.type).varint(attrs.message.id);
      if (attrs.ext) {
        a.varint(attrs.ext.length);
        for (const e of attrs.ext) a.varint(e.schemaId).varint(e.flags ?? 0).varint(e.address ?? 0n).varint(e.data.length).bytes(e.data);
      }
      if (attrs.memory) writeMemory(a, attrs.memory);
      if (attrs.trailing) a.bytes(attrs.trailing);
    });
    this.events++;
    return this;
  }

  sync(tick: number, op: number, id: number): this {
    this.w.u8(Op.Sync);
    this.dt(tick);
    this.w.u8(op).varint(id);
    this.events++;
    return this;
  }

  /** PAYLOAD_EVENT (format 1.1): `tick` relative to T0; it does not move the delta chain. */
  payloadEvent(tick: number, kind: number, domain: number, payloads: PayloadSpec[], options: { range?: number | bigint; memory?: MemorySpec[] } = {}): this {
    return this.extRecord(Op.PayloadEvent, (w) => {
      w.svarint(tick).u8(kind).varint(domain).varint(options.range ?? 0);
      w.varint(payloads.length);
      for (const p of payloads) w.varint(p.schemaId).varint(p.flags ?? 0).varint(p.address ?? 0n).varint(p.data.length).bytes(p.data);
      writeMemory(w, options.memory ?? []);
    });
  }

  /** COUNTER_SAMPLE: an int64, a float64, the bytes of a group sample, or no value (a reason). */
  counterSample(tick: number, domain: number, counter: number | bigint, value: CounterValueSpec): this {
    return this.extRecord(Op.CounterSample, (w) => {
      w.svarint(tick).varint(domain).varint(counter);
      if ('int64' in value) w.u8(1).svarint(value.int64);
      else if ('float64' in value) {
        const b = new Uint8Array(8);
        new DataView(b.buffer).setFloat64(0, value.float64, true);
        w.u8(2).bytes(b);
      } else if ('bytes' in value) w.u8(3).varint(value.bytes.length).bytes(value.bytes);
      else w.u8(4).u8(value.none);
    });
  }

  /** COUNTER_BATCH: samples as laid out by the program, int64 timestamps. */
  counterBatch(tick: number, domain: number, counter: number | bigint, samples: Uint8Array, timestamps: readonly (number | bigint)[], flags: number | bigint = 0, cut = 0): this {
    return this.extRecord(Op.CounterBatch, (w) => {
      w.svarint(tick).varint(domain).varint(counter).varint(flags).varint(cut).varint(samples.length).bytes(samples);
      w.varint(timestamps.length * 8);
      for (const t of timestamps) w.u64(BigInt(t));
    });
  }

  /** EVENT_BATCH: the events array and the flex data with their addresses. */
  eventBatch(tick: number, domain: number, batch: EventBatchSpec): this {
    return this.extRecord(Op.EventBatch, (w) => {
      w.svarint(tick).varint(domain).varint(batch.schemaId).varint(batch.scope ?? 0).varint(batch.flags ?? 0).varint(batch.cut ?? 0);
      w.varint(batch.address ?? 0n).varint(batch.events.length).bytes(batch.events);
      const flex = batch.flex ?? new Uint8Array(0);
      w.varint(batch.flexAddress ?? 0n).varint(batch.flexOffset ?? 0).varint(flex.length).bytes(flex);
    });
  }

  private extRecord(op: number, fill: (w: ByteWriter) => void): this {
    this.w.u8(op).sized(fill);
    this.events++;
    return this;
  }

  /** CUDA_API (format 1.3): one CUDA API call, `tick` (its enter) relative to T0; it does not move the delta chain. */
  cudaApi(tick: number, call: CudaApiSpec): this {
    return this.extRecord(Op.CudaApi, (w) => {
      w.svarint(tick).varint(call.domain).varint(call.callback).varint(call.duration).varint(call.correlation);
      w.varint(call.stream !== undefined ? CudaApiFlag.HasStream : 0).varint(call.stream ?? 0).varint(call.result ?? 0);
    });
  }

  /** A record of a kind this version does not know (length-prefixed when op >= 0x40). */
  unknown(op: number, body: Uint8Array): this {
    this.w.u8(op);
    if (op >= Op.FirstLengthPrefixed) this.w.varint(body.length);
    this.w.bytes(body);
    return this;
  }

  bytes(): Uint8Array {
    return this.w.done();
  }
}

/** One CUDA API call (CUDA_API record, format 1.3). */
export interface CudaApiSpec {
  /** CUpti_CallbackDomain: 1 driver, 2 runtime. */
  domain: number;
  callback: number;
  /** Exit tick minus enter tick. */
  duration: number;
  correlation: number;
  /** The launch's stream handle; absent for calls that take no stream. */
  stream?: number | bigint;
  result?: number;
}

/** A deep-copied memory region (attrs bit 5, PAYLOAD_EVENT). */
export interface MemorySpec {
  address: bigint;
  flags?: number;
  data: Uint8Array;
}

/** One `nvtxPayloadData_t` with its bytes. */
export interface PayloadSpec {
  schemaId: number | bigint;
  flags?: number;
  address?: bigint;
  data: Uint8Array;
}

export type CounterValueSpec = { int64: number | bigint } | { float64: number } | { bytes: Uint8Array } | { none: number };

export interface EventBatchSpec {
  schemaId: number | bigint;
  scope?: number | bigint;
  flags?: number;
  cut?: number;
  address?: bigint;
  events: Uint8Array;
  flexAddress?: bigint;
  flexOffset?: number;
  flex?: Uint8Array;
}

function writeMemory(w: ByteWriter, memory: readonly MemorySpec[]): void {
  w.varint(memory.length);
  for (const m of memory) w.varint(m.address).varint(m.data.length).varint(m.flags ?? 0).bytes(m.data);
}

/** A semantics struct as the collector copies it (header included), with a counter's unit. */
export interface SemanticsSpec {
  bytes: Uint8Array;
  unit?: string;
}

export interface EntrySpec {
  flags?: number;
  type: number | bigint;
  name?: string;
  description?: string;
  detail?: number;
  offset?: number;
  semantics?: SemanticsSpec[];
}

function writeSemantics(w: ByteWriter, chain: readonly SemanticsSpec[] = []): void {
  w.varint(chain.length);
  for (const s of chain) w.varint(s.bytes.length).bytes(s.bytes).str(s.unit ?? '');
}

/** Metadata records: `op length body`, body starting with `dt tid`. */
export class MetaRecords {
  readonly w = new ByteWriter();

  record(op: number, fill: (w: ByteWriter) => void, tick = 0, tid = 0): this {
    this.w.u8(op).sized((b) => {
      b.svarint(tick).varint(tid);
      fill(b);
    });
    return this;
  }

  /** SCHEMA (format 1.1). */
  schema(domain: number, id: number | bigint, s: { name?: string; type: number; flags?: number; staticSize?: number; packAlign?: number; entries: EntrySpec[] }): this {
    return this.record(MetaOp.Schema, (w) => {
      w.varint(domain).varint(id).varint(0x3fe).str(s.name ?? '').varint(s.type).varint(s.flags ?? 0).varint(s.staticSize ?? 0).varint(s.packAlign ?? 0);
      w.varint(s.entries.length);
      for (const e of s.entries) {
        w.varint(e.flags ?? 0).varint(e.type).str(e.name ?? '').str(e.description ?? '').varint(e.detail ?? 0).varint(e.offset ?? 0);
        writeSemantics(w, e.semantics);
      }
    });
  }

  enumDef(domain: number, id: number | bigint, e: { name?: string; size?: number; entries: { name: string; value: number | bigint; isFlag?: boolean }[] }): this {
    return this.record(MetaOp.Enum, (w) => {
      w.varint(domain).varint(id).varint(0x7e).str(e.name ?? '').varint(e.size ?? 4).varint(e.entries.length);
      for (const x of e.entries) w.str(x.name).varint(x.value).u8(x.isFlag ? 1 : 0);
    });
  }

  scope(domain: number, id: number | bigint, parent: number | bigint, path: string): this {
    return this.record(MetaOp.Scope, (w) => w.varint(domain).varint(id).varint(parent).str(path));
  }

  timeDomain(domain: number, id: number | bigint, t: { scope?: number; timestampType?: number; flags?: number; resolution?: number; start?: number } = {}): this {
    return this.record(MetaOp.TimeDomain, (w) =>
      w.varint(domain).varint(id).varint(t.scope ?? 0).varint(t.timestampType ?? 0).varint(t.flags ?? 0).svarint(t.resolution ?? 0).varint(t.start ?? 0),
    );
  }

  syncPoints(domain: number, src: number | bigint, dst: number | bigint, points: [number | bigint, number | bigint][]): this {
    return this.record(MetaOp.SyncPoints, (w) => {
      w.varint(domain).varint(src).varint(dst).varint(points.length);
      for (const [a, b] of points) w.svarint(a).svarint(b);
    });
  }

  conversionFactor(domain: number, src: number | bigint, dst: number | bigint, slope: number, a: number | bigint, b: number | bigint): this {
    return this.record(MetaOp.ConversionFactor, (w) => {
      const f = new Uint8Array(8);
      new DataView(f.buffer).setFloat64(0, slope, true);
      w.varint(domain).varint(src).varint(dst).bytes(f).svarint(a).svarint(b);
    });
  }

  counter(domain: number, id: number | bigint, c: { schemaId: number | bigint; scope?: number | bigint; name?: string; description?: string; semantics?: SemanticsSpec[] }): this {
    return this.record(MetaOp.Counter, (w) => {
      w.varint(domain).varint(id).varint(c.schemaId).varint(c.scope ?? 0).str(c.name ?? '').str(c.description ?? '');
      writeSemantics(w, c.semantics);
    });
  }

  /** CUDA_API_NAME (format 1.3). */
  cudaApiName(domain: number, callback: number, name: string, tick = 0): this {
    return this.record(MetaOp.CudaApiName, (w) => w.varint(domain).varint(callback).str(name), tick);
  }

  /** CUDA_RESOURCE (format 1.3): a context or stream created or destroyed. */
  cudaResource(event: number, r: { device: number; context: number; stream?: number; contextHandle?: number | bigint; streamHandle?: number | bigint; flags?: number }, tick = 0): this {
    return this.record(
      MetaOp.CudaResource,
      (w) => w.varint(event).varint(r.device).varint(r.context).varint(r.stream ?? 0xffffffff).varint(r.contextHandle ?? 0).varint(r.streamHandle ?? 0).varint(r.flags ?? 0),
      tick,
    );
  }

  /** CUDA_DEVICE (format 1.3). */
  cudaDevice(device: number, name: string, d: { major?: number; minor?: number; memory?: number; multiprocessors?: number } = {}, tick = 0): this {
    return this.record(MetaOp.CudaDevice, (w) => w.varint(device).str(name).varint(d.major ?? 0).varint(d.minor ?? 0).varint(d.memory ?? 0).varint(d.multiprocessors ?? 0), tick);
  }

  /** CUDA_CLOCK (format 1.3): CUPTI time `cupti` read between ticks `tick` and `tick + width` (relative to T0). */
  cudaClock(tick: number, cupti: number | bigint, width = 0): this {
    return this.record(MetaOp.CudaClock, (w) => w.varint(cupti).varint(width), tick);
  }

  /** CUDA_DROPPED (format 1.3). */
  cudaDropped(cause: number, count: number, context = 0, stream = 0xffffffff, tick = 0): this {
    return this.record(MetaOp.CudaDropped, (w) => w.varint(cause).varint(context).varint(stream).varint(count), tick);
  }

  /** CUDA_STATUS (format 1.3). */
  cudaStatus(state: number, text: string, versions: { cupti?: number; driver?: number } = {}, tick = 0): this {
    return this.record(MetaOp.CudaStatus, (w) => w.varint(state).varint(versions.cupti ?? 0).varint(versions.driver ?? 0).str(text), tick);
  }

  /** CLOCKS taken at `tick` (relative to T0): [timestamp type, value]. */
  clocks(tick: number, readings: [number, number | bigint][]): this {
    return this.record(
      MetaOp.Clocks,
      (w) => {
        w.varint(readings.length);
        for (const [type, value] of readings) w.varint(type).svarint(value);
      },
      tick,
    );
  }

  bytes(): Uint8Array {
    return this.w.done();
  }
}

/** Semantics structs laid out as nvToolsExtSemantics*.h on x86-64, for tests. */
export const semanticsBytes = {
  scope(scopeId: number | bigint): Uint8Array {
    return header(24, 1, 1).u64(BigInt(scopeId)).done();
  },
  time(timeDomainId: number | bigint): Uint8Array {
    return header(24, 2, 1).u64(BigInt(timeDomainId)).done();
  },
  counter(c: { flags?: number; scaleNumerator?: number; scaleDenominator?: number; limitType?: number; min?: number; max?: number }): Uint8Array {
    const w = header(72, 5, 2).u64(BigInt(c.flags ?? 0)).u64(0n).u64(BigInt(c.scaleNumerator ?? 1)).u64(BigInt(c.scaleDenominator ?? 1)).u64(BigInt(c.limitType ?? 0));
    const limit = (v: number | undefined) => {
      const b = new Uint8Array(8);
      const view = new DataView(b.buffer);
      if (v !== undefined) {
        if (c.limitType === 3) view.setFloat64(0, v, true);
        else view.setBigInt64(0, BigInt(v), true);
      }
      return b;
    };
    return w.bytes(limit(c.min)).bytes(limit(c.max)).done();
  },
};

function header(size: number, id: number, version: number): ByteWriter {
  return new ByteWriter().u32(size).u16(id).u16(version).u64(0n);
}

/** Where GPU work ran and which call launched it (the `work` fields of a CUDA_ACTIVITY record). */
export interface GpuWorkSpec {
  /** CUPTI ns. */
  start: number | bigint;
  end: number | bigint;
  device: number;
  context: number;
  stream: number;
  correlation: number;
}

/**
 * The records of one CUDA_ACTIVITY chunk (format 1.3): times relative to the chunk's `base`,
 * kernel names defined by `kernelName` before their first use.
 */
export class ActivityRecords {
  readonly w = new ByteWriter();
  records = 0;

  /** `base`: the CUPTI time record starts are relative to. */
  constructor(readonly base: number | bigint) {}

  private record(kind: number, fill: (w: ByteWriter) => void): this {
    this.w.u8(kind).sized(fill);
    return this;
  }

  private work(w: ByteWriter, g: GpuWorkSpec): void {
    const start = BigInt(g.start);
    w.svarint(start - BigInt(this.base)).varint(BigInt(g.end) - start).varint(g.device).varint(g.context).varint(g.stream).varint(g.correlation);
  }

  kernelName(id: number, mangled: string, demangled = ''): this {
    return this.record(CudaRecord.KernelName, (w) => w.varint(id).str(mangled).str(demangled));
  }

  kernel(g: GpuWorkSpec, k: { name: number; grid?: [number, number, number]; block?: [number, number, number]; registers?: number; staticShared?: number; dynamicShared?: number }): this {
    this.records++;
    return this.record(CudaRecord.Kernel, (w) => {
      this.work(w, g);
      const grid = k.grid ?? [1, 1, 1];
      const block = k.block ?? [1, 1, 1];
      w.varint(k.name).varint(grid[0]).varint(grid[1]).varint(grid[2]).varint(block[0]).varint(block[1]).varint(block[2]);
      w.varint(k.registers ?? 0).varint(k.staticShared ?? 0).varint(k.dynamicShared ?? 0);
    });
  }

  memcpy(g: GpuWorkSpec, m: { copyKind: number; srcKind?: number; dstKind?: number; bytes: number; flags?: number; srcDevice?: number; dstDevice?: number }): this {
    this.records++;
    return this.record(CudaRecord.Memcpy, (w) => {
      this.work(w, g);
      w.varint(m.copyKind).varint(m.srcKind ?? 0).varint(m.dstKind ?? 0).varint(m.bytes).varint(m.flags ?? 0).varint(m.srcDevice ?? g.device).varint(m.dstDevice ?? g.device);
    });
  }

  memset(g: GpuWorkSpec, m: { bytes: number; value?: number; memoryKind?: number; flags?: number }): this {
    this.records++;
    return this.record(CudaRecord.Memset, (w) => {
      this.work(w, g);
      w.varint(m.bytes).varint(m.value ?? 0).varint(m.memoryKind ?? 3).varint(m.flags ?? 0);
    });
  }

  sync(g: GpuWorkSpec, s: { type: number; event?: number }): this {
    this.records++;
    return this.record(CudaRecord.Sync, (w) => {
      this.work(w, g);
      w.varint(s.type).varint(s.event ?? 0xffffffff);
    });
  }

  /** A record of a kind this version does not know. */
  unknown(kind: number, body: Uint8Array): this {
    this.w.u8(kind).varint(body.length).bytes(body);
    return this;
  }

  bytes(): Uint8Array {
    return this.w.done();
  }
}

export class CaptureWriter {
  private readonly parts: Uint8Array[] = [];
  /** File offset of each chunk written, in order. */
  readonly chunkOffsets: number[] = [];
  private size = 0;
  /** An END chunk (normal exit) that `bytes()` appends after every chunk written. */
  private exitEnd: Uint8Array | undefined;

  constructor(major = MAJOR_VERSION, minor = MINOR_VERSION) {
    this.add(fileHeader(major, minor));
  }

  private add(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  /** Any chunk; `badCrc` stores a wrong checksum. */
  chunk(kind: number, body: Uint8Array, badCrc = false): this {
    this.chunkOffsets.push(this.size);
    this.add(new ByteWriter(12 + body.length).bytes(chunkHead(kind, body, badCrc)).bytes(body).done());
    return this;
  }

  process(p: ProcessFacts): this {
    return this.chunk(Chunk.Process, processBody(p));
  }

  /** A META chunk sealed at (tick, ns). */
  meta(pair: [bigint, bigint], records: MetaRecords): this {
    const w = new ByteWriter().varint(pair[0]).varint(pair[1]).bytes(records.bytes());
    return this.chunk(Chunk.Meta, w.done());
  }

  /** An EVENTS chunk holding `records[from, to)` of a stream. */
  events(stream: number, pair: [bigint, bigint], records: Uint8Array, from = 0, to = records.length, count = 0): this {
    const w = new ByteWriter().varint(stream).varint(from).varint(pair[0]).varint(pair[1]).varint(count);
    w.bytes(records.subarray(from, to));
    return this.chunk(Chunk.Events, w.done());
  }

  end(fields: EndFields): this {
    return this.chunk(Chunk.End, endBody(fields));
  }

  /** A CUDA_ACTIVITY chunk (format 1.3) sealed at (tick, ns). */
  cudaActivity(pair: [bigint, bigint], records: ActivityRecords): this {
    const w = new ByteWriter().varint(pair[0]).varint(pair[1]).varint(records.base).bytes(records.bytes());
    return this.chunk(Chunk.CudaActivity, w.done());
  }

  /**
   * Ends the capture like a process that exited normally: `bytes()` appends an END chunk after the
   * chunks written so far (it is not in `chunkOffsets`). Without it the capture reads as killed.
   */
  exitNormally(): this {
    const body = new ByteWriter().varint(EndTag.Reason).sized((v) => v.varint(1).varint(0)).done();
    const head = new ByteWriter().u32(body.length).u16(Chunk.End).u16(0).done();
    this.exitEnd = new ByteWriter().bytes(head).u32(crc32c(body, crc32c(head))).bytes(body).done();
    return this;
  }

  bytes(): Uint8Array {
    const tail = this.exitEnd ?? new Uint8Array(0);
    const out = new Uint8Array(this.size + tail.length);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    out.set(tail, at);
    return out;
  }
}
