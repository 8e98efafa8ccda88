/**
 * Writes the generated event stream (events.ts) as an `.nvtxc` capture (docs/capture-format.md),
 * shaped like the collector's output: one stream per thread, buffered and flushed as an EVENTS
 * chunk whenever the buffer passes the collector's default 256 KiB (so chunks of different threads
 * interleave in flush order), plain PUSH/MARK records for messages without attributes and
 * PUSH_EX / MARK_EX / START_EX with category, color and int64 payload otherwise, category names
 * in a META chunk, and an END chunk.
 *
 * Bytes are written with the test writer's primitives (testkit/writers/nvtxcWriter.ts), whose plain
 * number paths (no BigInt) and reused buffers write 10M events in a few seconds. Start/end ranges are written as START_EX when they start and END once the thread's
 * time passes their end; a start the generator places before the thread's last written tick
 * starts at that tick instead (a stream's ticks never go back).
 *
 * `padding` appends, between event chunks, chunks of an unknown kind (which a reader skips with
 * one warning, section 2) until the file reaches that many bytes: a valid capture larger than
 * 2 GB in seconds, for the test of the slicing path. The padding chunk is written once and
 * repeated, so its checksum is computed once.
 */
import { Chunk, ClockKind, EndReason, MetaOp, Op, ProcessTag } from '../../src/import/native/format.ts';
import { ByteWriter, chunkHead, endBody, fileHeader, MetaRecords, processBody } from '../writers/nvtxcWriter.ts';
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

/** One thread's stream: its unflushed records and reader-visible state (previous tick, string ids). */
interface Stream {
  id: number;
  records: ByteWriter;
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
  size = 0;

  constructor(private readonly sink: Sink) {}

  raw(bytes: Uint8Array): void {
    this.sink.bytes(bytes);
    this.size += bytes.length;
  }

  chunk(kind: number, body: Uint8Array): void {
    this.raw(chunkHead(kind, body));
    this.raw(body);
  }

}

/** Writes an `.nvtxc` capture; returns the number of ranges + marks written. */
export function writeNative(sink: Sink, options: NativeOptions): number {
  const header = makeHeader(options);
  const origin = header.originNs;
  const out = new ChunkWriter(sink);
  out.raw(fileHeader(1, 0));
  out.chunk(Chunk.Process, processBodyOf(header));
  out.chunk(Chunk.Meta, metaBody(header));

  const nameBytes = header.names.map((n) => new TextEncoder().encode(n));
  const streams: Stream[] = header.threads.map((t, i) => {
    const records = new ByteWriter(FLUSH_BYTES + 4096);
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
  const chunkBody = new ByteWriter(FLUSH_BYTES + 4096);
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
  const lastTickAbs = origin + lastTick;
  out.chunk(Chunk.End, endBody({ pair: [lastTickAbs, lastTickAbs], reason: [EndReason.Exit, 0], events: count }));
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

function processBodyOf(header: GenHeader): Uint8Array {
  return processBody({
    writer: 'nvtxview testkit/gen/native.ts',
    pid: header.process.pid,
    name: header.process.name,
    clockKind: ClockKind.MonotonicRaw,
    t0: BigInt(header.originNs),
    n0: BigInt(header.originNs),
    tickRate: 1_000_000_000,
    extra: [{ tag: ProcessTag.BufferSize, value: new ByteWriter(8).varint(FLUSH_BYTES).done() }],
  });
}

function metaBody(header: GenHeader): Uint8Array {
  const records = new MetaRecords();
  for (const c of header.categories) records.record(MetaOp.CategoryName, (w) => w.varint(0).varint(c.id).str(c.name), 0, header.threads[0].tid);
  return new ByteWriter(256).varint(header.originNs).varint(header.originNs).bytes(records.bytes()).done();
}

function paddingChunk(options: NativeOptions): Uint8Array | undefined {
  if (!options.padding) return undefined;
  const body = new Uint8Array(options.paddingChunkBytes ?? 16 * 1024 * 1024);
  // Not all zeros, so a reader that mistook padding for records would fail loudly.
  for (let i = 0; i < body.length; i += 4096) body[i] = 0xa5;
  return body;
}
