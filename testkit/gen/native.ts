/**
 * Writes the generated event stream (events.ts) as an `.nvtxc` capture (docs/capture-format.md),
 * shaped like the collector's output: one stream per thread, buffered and flushed as an EVENTS
 * chunk whenever the buffer passes the collector's default 256 KiB (so chunks of different threads
 * interleave in flush order), plain PUSH/MARK records for messages without attributes and
 * PUSH_EX / MARK_EX / START_EX with category, color and int64 payload otherwise, category names
 * in a META chunk, and an END chunk.
 *
 * Encoding is done with plain numbers (no BigInt) into preallocated buffers: 10M events take a
 * few seconds. Start/end ranges are written as START_EX when they start and END once the thread's
 * time passes their end; a start the generator places before the thread's last written tick
 * starts at that tick instead (a stream's ticks never go back).
 *
 * `padding` appends, between event chunks, chunks of an unknown kind (which a reader skips with
 * one warning, section 2) until the file reaches that many bytes: a valid capture larger than
 * 2 GB in seconds, for the test of the slicing path. The padding chunk is written once and
 * repeated, so its checksum is computed once.
 */
import { crc32c } from '../../src/import/native/crc32c.ts';
import { Chunk, ClockKind, EndReason, EndTag, MAGIC, MetaOp, Op, ProcessTag } from '../../src/import/native/format.ts';
import { generateEvents, makeHeader, type GenHeader, type GenOptions } from './events.ts';
import type { Sink } from './sink.ts';

export interface NativeOptions extends GenOptions {
  /** Append unknown-kind padding chunks until the file has at least this many bytes. */
  padding?: number;
  /** Body bytes of one padding chunk (default 16 MiB, the collector's largest chunk). */
  paddingChunkBytes?: number;
}

/** The collector's default per-thread buffer: a stream is flushed as one chunk when it is this full. */
const FLUSH_BYTES = 256 * 1024;
/** A chunk kind no reader of version 1.0 knows (reserved kinds are skipped). */
export const PADDING_CHUNK_KIND = 0x7e;
const NVTX_PAYLOAD_INT64 = 2;
const NVTX_MESSAGE_ASCII = 1;
const NVTX_COLOR_ARGB = 1;

/** An append-only byte buffer with the format's varints, over plain numbers (< 2^53). */
class Bytes {
  buf: Uint8Array;
  length = 0;

  constructor(capacity = 1024) {
    this.buf = new Uint8Array(capacity);
  }

  room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.length + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  u8(v: number): void {
    this.room(1);
    this.buf[this.length++] = v;
  }

  u16(v: number): void {
    this.room(2);
    this.buf[this.length++] = v & 0xff;
    this.buf[this.length++] = (v >>> 8) & 0xff;
  }

  u32(v: number): void {
    this.room(4);
    for (let k = 0; k < 4; k++) this.buf[this.length++] = (v >>> (8 * k)) & 0xff;
  }

  /** 8 bytes little-endian of a non-negative integer below 2^53. */
  u64(v: number): void {
    this.u32(v % 0x100000000);
    this.u32(Math.floor(v / 0x100000000));
  }

  varint(v: number): void {
    this.room(10);
    const b = this.buf;
    while (v >= 0x80) {
      b[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    b[this.length++] = v;
  }

  svarint(v: number): void {
    this.varint(v >= 0 ? v * 2 : -v * 2 - 1);
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  str(s: string): void {
    const b = new TextEncoder().encode(s);
    this.varint(b.length);
    this.bytes(b);
  }

  view(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }

  clear(): void {
    this.length = 0;
  }
}

/** One thread's stream: its unflushed records and reader-visible state (previous tick, string ids). */
interface Stream {
  id: number;
  records: Bytes;
  /** Stream offset of the first byte of `records`. */
  flushedBytes: number;
  events: number;
  prevTick: number;
  /** Largest tick in `records` (the chunk's clock pair). */
  maxTick: number;
  /** Name id -> stream string id (0 = not defined yet). */
  sid: Int32Array;
  nextSid: number;
  /** Pending END records: [end tick, range id] pairs. */
  pendingEnds: number[];
  nextRange: number;
}

/** Writes chunks with their 12-byte header and CRC-32C. */
class ChunkWriter {
  private readonly head = new Uint8Array(12);
  private readonly headView = new DataView(this.head.buffer);
  size = 0;

  constructor(private readonly sink: Sink) {}

  raw(bytes: Uint8Array): void {
    this.sink.bytes(bytes);
    this.size += bytes.length;
  }

  chunk(kind: number, body: Uint8Array): void {
    this.headView.setUint32(0, body.length, true);
    this.headView.setUint16(4, kind, true);
    this.headView.setUint16(6, 0, true);
    this.headView.setUint32(8, crc32c(body, crc32c(this.head.subarray(0, 8))), true);
    this.raw(this.head.slice());
    this.raw(body);
  }
}

function tlv(out: Bytes, tag: number, fill: (v: Bytes) => void): void {
  const v = new Bytes(64);
  fill(v);
  out.varint(tag);
  out.varint(v.length);
  out.bytes(v.view());
}

/** Writes an `.nvtxc` capture; returns the number of ranges + marks written. */
export function writeNative(sink: Sink, options: NativeOptions): number {
  const header = makeHeader(options);
  const origin = header.originNs;
  const out = new ChunkWriter(sink);
  const file = new Bytes(16);
  file.bytes(MAGIC);
  file.u16(1);
  file.u16(0);
  file.u32(0);
  out.raw(file.view());
  out.chunk(Chunk.Process, processBody(header));
  out.chunk(Chunk.Meta, metaBody(header));

  const nameBytes = header.names.map((n) => new TextEncoder().encode(n));
  const streams: Stream[] = header.threads.map((t, i) => {
    const records = new Bytes(FLUSH_BYTES + 4096);
    records.u8(Op.Thread);
    records.varint(t.tid);
    records.str(t.name);
    return {
      id: i + 1,
      records,
      flushedBytes: 0,
      events: 0,
      prevTick: 0,
      maxTick: 0,
      sid: new Int32Array(header.names.length),
      nextSid: 1,
      pendingEnds: [],
      nextRange: 1,
    };
  });

  let count = 0;
  const chunkBody = new Bytes(FLUSH_BYTES + 4096);
  const padding = paddingChunk(options);
  const flush = (st: Stream): void => {
    if (st.records.length === 0) return;
    chunkBody.clear();
    chunkBody.varint(st.id);
    chunkBody.varint(st.flushedBytes);
    chunkBody.varint(origin + st.maxTick);
    chunkBody.varint(origin + st.maxTick);
    chunkBody.varint(st.events);
    chunkBody.bytes(st.records.view());
    out.chunk(Chunk.Events, chunkBody.view());
    st.flushedBytes += st.records.length;
    st.records.clear();
    st.events = 0;
    // Padding spread in proportion to the events written, so events lie on both sides of every offset.
    while (padding && out.size < (options.padding! * count) / options.events) out.chunk(PADDING_CHUNK_KIND, padding);
  };

  /** Writes the record's op and dt (tick relative to T0, never before the stream's last tick). */
  const timed = (st: Stream, op: number, tick: number): number => {
    const t = Math.max(tick, st.prevTick);
    const r = st.records;
    r.u8(op);
    r.svarint(t - st.prevTick);
    st.prevTick = t;
    if (t > st.maxTick) st.maxTick = t;
    st.events++;
    return t;
  };

  /** The stream string id of name `name`, defining it first. */
  const sidOf = (st: Stream, name: number): number => {
    let sid = st.sid[name];
    if (sid === 0) {
      const r = st.records;
      r.u8(Op.String);
      r.varint(0);
      r.varint(nameBytes[name].length);
      r.bytes(nameBytes[name]);
      sid = st.sid[name] = st.nextSid++;
    }
    return sid;
  };

  /** Attributes: category, color, int64 payload, ASCII message (mask bits 0..3). */
  const attrs = (st: Stream, sid: number, category: number, color: number, payload: number | undefined): void => {
    const r = st.records;
    const mask = 8 | (category !== 0 ? 1 : 0) | (color !== 0 ? 2 : 0) | (payload !== undefined ? 4 : 0);
    // Bytes after the length: mask, fields in bit order.
    const length =
      1 + (category !== 0 ? varintSize(category) : 0) + (color !== 0 ? 5 : 0) + (payload !== undefined ? 9 : 0) + 1 + varintSize(sid);
    r.varint(length);
    r.varint(mask);
    if (category !== 0) r.varint(category);
    if (color !== 0) {
      r.varint(NVTX_COLOR_ARGB);
      r.u32(color);
    }
    if (payload !== undefined) {
      r.varint(NVTX_PAYLOAD_INT64);
      r.u64(payload);
    }
    r.varint(NVTX_MESSAGE_ASCII);
    r.varint(sid);
  };

  /** Writes the END records of start/end ranges that ended by `tick` (all when tick is Infinity). */
  const endsUpTo = (st: Stream, tick: number): void => {
    const p = st.pendingEnds;
    while (p.length > 0) {
      let k = -1;
      for (let j = 0; j < p.length; j += 2) if (p[j] <= tick && (k < 0 || p[j] < p[k])) k = j;
      if (k < 0) return;
      timed(st, Op.End, p[k]);
      st.records.varint(p[k + 1]);
      p.splice(k, 2);
    }
  };

  for (const e of generateEvents(header, { ...options, pushPop: 'split' })) {
    const st = streams[e.thread];
    switch (e.kind) {
      case 'push': {
        endsUpTo(st, e.t - origin);
        const sid = sidOf(st, e.name);
        const color = header.colors[e.name];
        if (color === 0 && e.category === 0) {
          timed(st, Op.Push, e.t - origin);
          st.records.varint(sid);
        } else {
          timed(st, Op.PushEx, e.t - origin);
          st.records.varint(0);
          attrs(st, sid, e.category, color, undefined);
        }
        count++;
        break;
      }
      case 'pop':
        endsUpTo(st, e.t - origin);
        timed(st, Op.Pop, e.t - origin);
        break;
      case 'mark': {
        endsUpTo(st, e.t - origin);
        const sid = sidOf(st, e.name);
        timed(st, Op.MarkEx, e.t - origin);
        st.records.varint(0);
        attrs(st, sid, e.category, header.colors[e.name], e.payload);
        count++;
        break;
      }
      case 'startEnd': {
        endsUpTo(st, e.start - origin);
        const sid = sidOf(st, e.name);
        const range = st.id * 0x100000000 + st.nextRange++;
        const start = timed(st, Op.StartEx, e.start - origin);
        st.records.varint(0);
        st.records.varint(range);
        attrs(st, sid, e.category, header.colors[e.name], e.payload);
        st.pendingEnds.push(Math.max(start, e.end - origin), range);
        count++;
        break;
      }
      case 'range':
        throw new Error('the native writer takes split push/pop events');
    }
    if (st.records.length >= FLUSH_BYTES) flush(st);
  }
  let lastTick = 0;
  for (const st of streams) {
    endsUpTo(st, Infinity);
    flush(st);
    lastTick = Math.max(lastTick, st.maxTick);
  }
  while (padding && out.size < options.padding!) out.chunk(PADDING_CHUNK_KIND, padding);
  out.chunk(Chunk.End, endBody(origin + lastTick, count));
  return count;
}

function varintSize(v: number): number {
  let n = 1;
  while (v >= 0x80) {
    v = Math.floor(v / 0x80);
    n++;
  }
  return n;
}

function processBody(header: GenHeader): Uint8Array {
  const b = new Bytes(256);
  const text = (s: string) => (v: Bytes) => v.bytes(new TextEncoder().encode(s));
  tlv(b, ProcessTag.Writer, text('nvtxview testkit/gen/native.ts'));
  tlv(b, ProcessTag.Pid, (v) => v.varint(header.process.pid));
  tlv(b, ProcessTag.Name, text(header.process.name));
  tlv(b, ProcessTag.ClockKind, (v) => v.varint(ClockKind.MonotonicRaw));
  tlv(b, ProcessTag.StartPair, (v) => {
    v.varint(header.originNs);
    v.varint(header.originNs);
  });
  tlv(b, ProcessTag.TickRate, (v) => v.varint(1_000_000_000));
  tlv(b, ProcessTag.BufferSize, (v) => v.varint(FLUSH_BYTES));
  return b.view().slice();
}

function metaBody(header: GenHeader): Uint8Array {
  const b = new Bytes(256);
  b.varint(header.originNs);
  b.varint(header.originNs);
  for (const c of header.categories) {
    const r = new Bytes(64);
    r.svarint(0);
    r.varint(header.threads[0].tid);
    r.varint(0);
    r.varint(c.id);
    r.str(c.name);
    b.u8(MetaOp.CategoryName);
    b.varint(r.length);
    b.bytes(r.view());
  }
  return b.view().slice();
}

function endBody(lastTickAbs: number, events: number): Uint8Array {
  const b = new Bytes(64);
  tlv(b, EndTag.Pair, (v) => {
    v.varint(lastTickAbs);
    v.varint(lastTickAbs);
  });
  tlv(b, EndTag.Reason, (v) => {
    v.varint(EndReason.Exit);
    v.varint(0);
  });
  tlv(b, EndTag.Events, (v) => v.varint(events));
  return b.view().slice();
}

function paddingChunk(options: NativeOptions): Uint8Array | undefined {
  if (!options.padding) return undefined;
  const body = new Uint8Array(options.paddingChunkBytes ?? 16 * 1024 * 1024);
  // Not all zeros, so a reader that mistook padding for records would fail loudly.
  for (let i = 0; i < body.length; i += 4096) body[i] = 0xa5;
  return body;
}
