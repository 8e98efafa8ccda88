/** The payload and counters extension records (format 1.1) on hand-built captures. */
import { describe, expect, it } from 'vitest';
import type { Model } from '../../model/types.ts';
import { eventPayloadsJson } from '../../payload/payloadText.ts';
import { decodeModelPayload } from '../../model/extPayloadReader.ts';
import { CounterFlag, EntryFlag, EntryType, SchemaFlag, SchemaType } from '../../payload/schema.ts';
import { MetaOp, Op, PayloadEventKind } from './format.ts';
import { loadBytes, markRows, rangeRows } from '../../../testkit/load/nativeCapture.ts';
import { CaptureWriter, MetaRecords, semanticsBytes, StreamRecords } from '../../../testkit/writers/nvtxcWriter.ts';

// 2 ticks per ns; chunks sealed at SEAL.
const T0 = 1_000_000n;
const N0 = 5_000_000_000n;
const SEAL: [bigint, bigint] = [T0 + 2_000_000n, N0 + 1_000_000n];
const S = 2 ** 24;
const MSG = S + 1;

function capture(): CaptureWriter {
  return new CaptureWriter().process({ pid: 7, name: 'app', t0: T0, n0: N0, tickRate: 2_000_000_000 }).exitNormally();
}

type Kind = 'u8' | 'i32' | 'u32' | 'u64' | 'i64' | 'f64';

/** Little-endian bytes from (kind, value) parts. */
function bytes(...parts: (readonly [Kind, number | bigint])[]): Uint8Array {
  const size = { u8: 1, i32: 4, u32: 4, u64: 8, i64: 8, f64: 8 };
  const out = new Uint8Array(parts.reduce((n, [k]) => n + size[k], 0));
  const v = new DataView(out.buffer);
  let at = 0;
  for (const [k, x] of parts) {
    if (k === 'u8') v.setUint8(at, Number(x));
    else if (k === 'i32') v.setInt32(at, Number(x), true);
    else if (k === 'u32') v.setUint32(at, Number(x), true);
    else if (k === 'u64') v.setBigUint64(at, BigInt(x), true);
    else if (k === 'i64') v.setBigInt64(at, BigInt(x), true);
    else v.setFloat64(at, Number(x), true);
    at += size[k];
  }
  return out;
}

const cstr = (s: string) => new TextEncoder().encode(`${s}\0`);

/** A message schema: `char *text` (EVENT_MESSAGE), uint32 color, int32 n. */
function messageSchema(meta: MetaRecords, domain = 0): MetaRecords {
  return meta.schema(domain, MSG, {
    name: 'msg',
    type: SchemaType.Static,
    entries: [
      { flags: EntryFlag.EventMessage, type: EntryType.CString, name: 'text' },
      { type: EntryType.ColorArgb, name: 'color' },
      { type: EntryType.Int32, name: 'n' },
    ],
  });
}

/** A `msg` payload whose text pointer is `address` (copied as memory by the collector). */
const message = (address: bigint, color: number, n: number) => bytes(['u64', address], ['u32', color], ['i32', n]);

function payloadsOf(model: Model, payload: number): unknown {
  const p = decodeModelPayload(model, payload)!;
  return eventPayloadsJson(p.decodedBegin, p.decodedEnd);
}

describe('payload events', () => {
  it('names marks, ranges and start/end ranges by their message entries; pop and end payloads rename', async () => {
    const meta = messageSchema(new MetaRecords());
    const s = new StreamRecords().thread(10, 'main');
    const text = (address: bigint, t: string) => ({ address, data: cstr(t) });
    s.payloadEvent(100, PayloadEventKind.Mark, 0, [{ schemaId: MSG, address: 0x900n, data: message(0x1000n, 0xff0000ff, 1) }], {
      memory: [text(0x1000n, 'a mark')],
    });
    s.payloadEvent(200, PayloadEventKind.Push, 0, [{ schemaId: MSG, data: message(0x2000n, 0xff00ff00, 2) }], { memory: [text(0x2000n, 'pushed')] });
    s.payloadEvent(300, PayloadEventKind.Pop, 0, [{ schemaId: MSG, data: message(0x3000n, 0xffff0000, 3) }], { memory: [text(0x3000n, 'popped')] });
    // An end that comes (in an earlier chunk of another thread) before its start.
    const other = new StreamRecords().thread(11, 'ender');
    other.payloadEvent(600, PayloadEventKind.End, 0, [{ schemaId: MSG, data: message(0x5000n, 0, 5) }], { range: 77, memory: [text(0x5000n, 'ended')] });
    s.payloadEvent(400, PayloadEventKind.Start, 0, [{ schemaId: MSG, data: message(0x4000n, 0xff123456, 4) }], { range: 77, memory: [text(0x4000n, 'started')] });
    const model = await loadBytes(capture().meta(SEAL, meta).events(2, SEAL, other.bytes()).events(1, SEAL, s.bytes()).bytes());
    expect(model.issues).toEqual([]);
    expect(markRows(model).map((m) => [m.name, m.time, m.color])).toEqual([['a mark', 50, 0xff0000ff]]);
    const ranges = rangeRows(model);
    expect(ranges.map((r) => [r.name, r.start, r.end, r.kind, r.color, r.tid])).toEqual([
      ['popped', 100, 150, 'pushpop', 0xffff0000, 10],
      ['ended', 200, 300, 'category', 0, 10],
    ]);
    expect(payloadsOf(model, model.marks.payload[0])).toEqual({ text: 'a mark', color: '0xff0000ff', n: 1 });
    const popped = model.ranges.payload[0];
    expect(payloadsOf(model, popped)).toEqual({ text: 'pushed', color: '0xff00ff00', n: 2, '@end': { text: 'popped', color: '0xffff0000', n: 3 } });
    expect(model.capture.properties.events).toBe('5');
  });

  it('lets payloads of a core event override its message and color, resolving pointers into deep-copied memory', async () => {
    const meta = messageSchema(new MetaRecords());
    const s = new StreamRecords().thread(10, 'main');
    const sid = s.sid('core text');
    s.ex(Op.MarkEx, 100, 0, {
      color: 0xffffffff,
      message: { type: 1, id: sid },
      ext: [{ schemaId: MSG, address: 0x500n, data: message(0x1000n, 0xff00aa00, 9) }],
      memory: [{ address: 0x1000n, data: cstr('from the payload') }],
    });
    s.ex(Op.MarkEx, 120, 0, { message: { type: 1, id: sid }, ext: [{ schemaId: EntryType.Int32, data: bytes(['i32', -4]) }] });
    const model = await loadBytes(capture().meta(SEAL, meta).events(1, SEAL, s.bytes()).bytes());
    expect(model.issues).toEqual([]);
    expect(markRows(model).map((m) => [m.name, m.color])).toEqual([
      ['from the payload', 0xff00aa00],
      ['core text', 0],
    ]);
    expect(payloadsOf(model, model.marks.payload[0])).toEqual({ text: 'from the payload', color: '0xff00aa00', n: 9 });
  });

  it('keeps the registrations: enums, scopes, the type table and registered string handles', async () => {
    const meta = new MetaRecords()
      .record(MetaOp.DomainCreate, (w) => w.varint(1).str('lib'))
      .record(MetaOp.RegisteredString, (w) => w.varint(1).varint(1).str('registered').varint(0xabc0))
      .record(MetaOp.PayloadTypes, (w) => w.varint(2).varint(28).varint(4).varint(1).varint(1))
      .enumDef(1, S + 2, { name: 'mode', size: 1, entries: [{ name: 'ON', value: 1 }, { name: 'MINUS', value: -1n }] })
      .scope(1, S + 3, 0, 'GPU 0')
      .schema(1, S + 4, {
        type: SchemaType.Static,
        entries: [
          { type: S + 2, name: 'mode' },
          { type: EntryType.RegisteredStringHandle, name: 'label' },
        ],
      });
    const s = new StreamRecords().thread(10, 'main');
    const payload = bytes(['u8', 0xff], ['u8', 0], ['u8', 0], ['u8', 0], ['u32', 0], ['u64', 0xabc0]);
    s.payloadEvent(10, PayloadEventKind.Mark, 1, [{ schemaId: S + 4, data: payload }]);
    const model = await loadBytes(capture().meta(SEAL, meta).events(1, SEAL, s.bytes()).bytes());
    expect(model.issues).toEqual([]);
    const registry = model.payloadRegistry!;
    const lib = model.domains.findIndex((d) => d.name === 'lib');
    expect(registry.enums).toEqual([{ domain: lib, id: S + 2, name: 'mode', size: 1, entries: [{ name: 'ON', value: 1, isFlag: false }, { name: 'MINUS', value: -1, isFlag: false }] }]);
    expect(registry.scopes).toEqual([{ domain: lib, id: S + 3, parent: 0, path: 'GPU 0' }]);
    expect(registry.typeInfo).toEqual([
      { size: 28, align: 4 },
      { size: 1, align: 1 },
    ]);
    // No message: the mark is named after its schema... which has no name, so it stays unnamed.
    expect(payloadsOf(model, model.marks.payload[0])).toEqual({ mode: 'MINUS', label: 'registered' });
  });

  it('reports a damaged extension record and goes on with the next one', async () => {
    const meta = messageSchema(new MetaRecords());
    const s = new StreamRecords().thread(10, 'main');
    s.unknown(Op.PayloadEvent, Uint8Array.of(0x02, 1, 0, 0, 5)); // 5 payloads announced, none there
    s.mark(300, 'after');
    const model = await loadBytes(capture().meta(SEAL, meta).events(1, SEAL, s.bytes()).bytes());
    expect(model.issues.map((i) => i.message)).toEqual([expect.stringMatching(/runs past the end .* \(thread record of kind 0x40\); the record is skipped/)]);
    expect(markRows(model).map((m) => m.name)).toEqual(['after']);
  });
});

describe('format versions', () => {
  it('reads a version 1.0 capture (registered strings without handles, no extension records)', async () => {
    const meta = new MetaRecords().record(MetaOp.RegisteredString, (w) => w.varint(0).varint(1).str('old text'));
    const s = new StreamRecords().thread(10, 'main');
    s.ex(Op.MarkEx, 100, 0, { message: { type: 3, id: 1 } });
    const v10 = new CaptureWriter(1, 0).process({ pid: 7, name: 'app', t0: T0, n0: N0, tickRate: 2_000_000_000 }).exitNormally();
    const model = await loadBytes(v10.meta(SEAL, meta).events(1, SEAL, s.bytes()).bytes());
    expect(model.issues).toEqual([]);
    expect(model.capture.properties['format version']).toBe('1.0');
    expect(markRows(model).map((m) => m.name)).toEqual(['old text']);
    expect(model.payloadRegistry).toBeUndefined();
  });
});

describe('counters', () => {
  const group = S + 20;
  function counterCapture(samples: (s: StreamRecords) => void, extra?: (m: MetaRecords) => void): Uint8Array {
    const meta = new MetaRecords()
      .schema(0, group, {
        type: SchemaType.Static,
        flags: SchemaFlag.CounterGroup,
        entries: [
          { flags: EntryFlag.Counter, type: EntryType.UInt32, name: 'a' },
          { flags: EntryFlag.Counter, type: EntryType.Int16, name: 'b', semantics: [{ bytes: semanticsBytes.counter({ flags: CounterFlag.Normalize }) }] },
        ],
      })
      .counter(0, S + 1, {
        schemaId: EntryType.Int64,
        name: 'depth',
        scope: 21,
        semantics: [
          {
            bytes: semanticsBytes.counter({ flags: CounterFlag.LimitMax | CounterFlag.InterpolationLinear, scaleNumerator: 1, scaleDenominator: 4, limitType: 1, max: 400 }),
            unit: 'items',
          },
        ],
      })
      .counter(0, S + 2, { schemaId: group, name: 'pair', scope: 22 });
    extra?.(meta);
    const s = new StreamRecords().thread(10, 'main');
    samples(s);
    return capture().meta(SEAL, meta).events(1, SEAL, s.bytes()).bytes();
  }

  it('makes counter tracks with scaled values, units, limits and interpolation; one track per counter of a group', async () => {
    const model = await loadBytes(
      counterCapture((s) => {
        s.counterSample(100, 0, S + 1, { int64: 8 });
        s.counterSample(200, 0, S + 1, { float64: 2 });
        s.counterSample(300, 0, S + 1, { none: 0 });
        s.counterSample(400, 0, S + 1, { none: 1 });
        s.counterSample(500, 0, S + 1, { none: 2 });
        s.counterSample(150, 0, S + 2, { bytes: bytes(['u32', 7], ['i32', 32767 | (-32767 << 16)]) });
        s.counterSample(250, 0, S + 2, { none: 1 });
        s.counterSample(350, 0, S + 2, { none: 2 });
        s.counterSample(450, 0, S + 2, { none: 1 });
      }),
    );
    const rows = model.tracks.filter((t) => t.kind === 'counter');
    const row = (label: string) => rows.find((t) => t.label === label)!;
    const values = (label: string) => Array.from(model.counters.value.subarray(row(label).counterBegin, row(label).counterEnd));
    const times = (label: string) => Array.from(model.counters.timeNs.subarray(row(label).counterBegin, row(label).counterEnd));
    // ZERO, UNCHANGED, then UNAVAILABLE: no value (NaN) from 250 ns on.
    expect(values('depth')).toEqual([2, 0.5, 0, 0, NaN]);
    expect(Number.isNaN(values('depth')[4])).toBe(true);
    expect(times('depth')).toEqual([50, 100, 150, 200, 250]);
    expect(row('depth').unit).toBe('items');
    expect(row('depth').path).toEqual(['Counters']);
    expect(row('depth').counter).toEqual({ interpolation: 'linear', max: 100 });
    expect(row('depth').thread).toBe(-1);
    // A group without a value has none for every counter; UNCHANGED after it repeats the last value given.
    expect(values('a')).toEqual([7, 7, NaN, 7]);
    expect(values('b')).toEqual([1, 1, NaN, 1]);
    expect(row('a').path).toEqual(['Counters', 'pair']);
    expect(model.threads[row('a').thread].tid).toBe(10);
    expect(model.issues.map((i) => i.message)).toEqual([expect.stringMatching(/^2 counter sample\(s\) were marked unavailable/)]);
  });

  it('skips samples of an unregistered counter with one warning', async () => {
    const model = await loadBytes(
      counterCapture((s) => {
        s.counterSample(100, 0, S + 99, { int64: 1 });
        s.counterSample(200, 0, S + 99, { int64: 2 });
      }),
    );
    expect(model.tracks.filter((t) => t.kind === 'counter')).toEqual([]);
    expect(model.issues.map((i) => i.message)).toEqual([
      expect.stringMatching(/counter 16777315, which was never registered/),
      expect.stringMatching(/^2 samples of unregistered counters/),
    ]);
  });

  it('places batched samples by their timestamps: one per sample, or begin + interval', async () => {
    const model = await loadBytes(
      counterCapture((s) => {
        const samples = bytes(['i64', 1], ['i64', 2], ['i64', 3]);
        // Ticks: T0 + 2 * ns.
        s.counterBatch(900, 0, S + 1, samples, [T0 + 600n, T0 + 200n, T0 + 400n]);
        s.counterBatch(950, 0, S + 1, samples, [T0 + 1000n, 100n], 2 ** 32);
      }),
    );
    const depth = model.tracks.find((t) => t.label === 'depth')!;
    const pairs = [];
    for (let i = depth.counterBegin; i < depth.counterEnd; i++) pairs.push([model.counters.timeNs[i], model.counters.value[i]]);
    expect(pairs).toEqual([
      [100, 0.5],
      [200, 0.75],
      [300, 0.25],
      [500, 0.25],
      [550, 0.5],
      [600, 0.75],
    ]);
  });
});

describe('counters of changes (value type delta)', () => {
  const DELTA = S + 30;
  function deltaCapture(samples: (s: StreamRecords) => void, flags: number = CounterFlag.ValueTypeDelta): Uint8Array {
    const meta = new MetaRecords().counter(0, DELTA, {
      schemaId: EntryType.Int64,
      name: 'sent',
      scope: 21,
      semantics: [{ bytes: semanticsBytes.counter({ flags }), unit: 'bytes' }],
    });
    const s = new StreamRecords().thread(10, 'main');
    samples(s);
    return capture().meta(SEAL, meta).events(1, SEAL, s.bytes()).bytes();
  }

  it('draws the changes as bars since the previous sample and adds a running-total row, batches and gaps included', async () => {
    const model = await loadBytes(
      deltaCapture((s) => {
        s.counterSample(200, 0, DELTA, { int64: 5 });
        s.counterSample(600, 0, DELTA, { none: 2 });
        s.counterSample(800, 0, DELTA, { int64: -2 });
        // A batch placed at the end of the capture, with a sample before the immediate ones.
        s.counterBatch(900, 0, DELTA, bytes(['i64', 7], ['i64', 4]), [T0 + 100n, T0 + 400n]);
      }),
    );
    const rows = model.tracks.filter((t) => t.kind === 'counter');
    expect(rows.map((t) => t.label)).toEqual(['sent', 'sent (running total)']);
    const [delta, total] = rows;
    const series = (t: (typeof rows)[number]) =>
      Array.from(model.counters.timeNs.subarray(t.counterBegin, t.counterEnd), (time, k) => [time, model.counters.value[t.counterBegin + k]]);
    expect(series(delta)).toEqual([
      [50, 7],
      [100, 5],
      [200, 4],
      [300, NaN],
      [400, -2],
    ]);
    expect(series(total)).toEqual([
      [50, 7],
      [100, 12],
      [200, 16],
      [300, NaN],
      [400, 14],
    ]);
    expect(delta.counter).toMatchObject({ valueType: 'delta', interpolation: 'sinceLast' });
    expect(total.counter).toMatchObject({ valueType: 'deltaSinceStart', interpolation: 'untilNext', derived: 'runningTotal', source: 'sent' });
    expect(total.unit).toBe('bytes');
    expect(total.path).toEqual(delta.path);
  });

  it('keeps the interpolation the program asks for, and adds no row to other value types', async () => {
    const linear = await loadBytes(deltaCapture((s) => s.counterSample(200, 0, DELTA, { int64: 5 }), CounterFlag.ValueTypeDelta | CounterFlag.InterpolationPoint));
    expect(linear.tracks.filter((t) => t.kind === 'counter').map((t) => [t.label, t.counter?.interpolation])).toEqual([
      ['sent', 'point'],
      ['sent (running total)', 'untilNext'],
    ]);
    const since = await loadBytes(deltaCapture((s) => s.counterSample(200, 0, DELTA, { int64: 5 }), CounterFlag.ValueTypeDeltaSinceStart));
    expect(since.tracks.filter((t) => t.kind === 'counter').map((t) => [t.label, t.counter?.interpolation])).toEqual([['sent', undefined]]);
  });
});

describe('deferred events', () => {
  const DEV = S + 5;
  const ev = S + 6;
  function deferredMeta(): MetaRecords {
    return new MetaRecords().timeDomain(0, DEV).schema(0, ev, {
      name: 'job',
      type: SchemaType.Static,
      flags: SchemaFlag.RangeStartEnd,
      entries: [
        { flags: EntryFlag.RangeBegin | EntryFlag.Timestamp, type: EntryType.Int64, name: 'b', semantics: [{ bytes: semanticsBytes.time(DEV) }] },
        { flags: EntryFlag.RangeEnd | EntryFlag.Timestamp, type: EntryType.Int64, name: 'e', semantics: [{ bytes: semanticsBytes.time(DEV) }] },
        { type: EntryType.TidUInt32, name: 'tid' },
      ],
    });
  }

  it('places events with sync points given after them, sorted, on the thread an entry names', async () => {
    const s = new StreamRecords().thread(10, 'main');
    // device = 1000 + 10 * ns: batch of two ranges, unsorted, on thread 12.
    const one = (b: number, e: number) => [['i64', 1000 + 10 * b], ['i64', 1000 + 10 * e], ['u32', 12], ['u32', 0]] as const;
    s.eventBatch(50, 0, { schemaId: ev, events: bytes(...one(300, 400), ...one(100, 250)) as Uint8Array, flags: 6 });
    const late = new MetaRecords().syncPoints(0, DEV, 15, [
      [1000n, N0],
      [11000n, N0 + 1000n],
    ]);
    const model = await loadBytes(capture().meta(SEAL, deferredMeta()).events(1, SEAL, s.bytes()).meta(SEAL, late).bytes());
    expect(model.issues).toEqual([]);
    const rows = rangeRows(model);
    expect(rows.map((r) => [r.name, r.start, r.end, r.tid, r.row])).toEqual([
      ['job', 100, 250, 12, 'Deferred'],
      ['job', 300, 400, 12, 'Deferred'],
    ]);
  });

  it('resolves names in flex data larger than 4 KiB in the panel, storing the flex data once per batch', async () => {
    const FLEXMARK = S + 7;
    const meta = new MetaRecords().schema(0, FLEXMARK, {
      name: 'flexmark',
      type: SchemaType.Static,
      flags: SchemaFlag.Mark,
      entries: [
        { flags: EntryFlag.EventMessage | EntryFlag.OffsetFromBase, type: EntryType.CString, name: 'name' },
        { type: EntryType.Int32, name: 'n' },
        { type: EntryType.Int32, name: 'pad' },
      ],
    });
    // 8 KiB of flex data: names at offsets 100 and 6000.
    const flex = new Uint8Array(8192);
    flex.set(cstr('first name'), 100);
    flex.set(cstr('far name'), 6000);
    const s = new StreamRecords().thread(10, 'main');
    const events = bytes(['u64', 100], ['i32', 1], ['i32', 0], ['u64', 6000], ['i32', 2], ['i32', 0]);
    s.eventBatch(50, 0, { schemaId: FLEXMARK, events, flex, flexAddress: 0x70000n, address: 0x60000n });
    const model = await loadBytes(capture().meta(SEAL, meta).events(1, SEAL, s.bytes()).bytes());
    expect(model.issues).toEqual([]);
    const marks = markRows(model);
    expect(marks.map((m) => m.name)).toEqual(['first name', 'far name']);
    expect(payloadsOf(model, model.marks.payload[0])).toEqual({ name: 'first name', n: 1, pad: 0 });
    expect(payloadsOf(model, model.marks.payload[1])).toEqual({ name: 'far name', n: 2, pad: 0 });
    // Once, not once per event.
    expect(model.extPayloads!.bytes.length).toBeLessThan(flex.length + 1024);
  });

  it('reports events of a domain nothing relates to the capture clock, once per domain', async () => {
    const s = new StreamRecords().thread(10, 'main');
    const one = bytes(['i64', 5], ['i64', 6], ['u32', 0], ['u32', 0]);
    s.payloadEvent(10, PayloadEventKind.Submit, 0, [{ schemaId: ev, data: one }]);
    s.payloadEvent(20, PayloadEventKind.Submit, 0, [{ schemaId: ev, data: one }]);
    const model = await loadBytes(capture().meta(SEAL, deferredMeta()).events(1, SEAL, s.bytes()).bytes());
    expect(model.ranges.startNs.length).toBe(0);
    expect(model.issues.map((i) => i.message)).toEqual([
      `2 deferred events with timestamps in time domain ${DEV} are not shown: no sync point or conversion factor relates time domain ${DEV} to the capture clock`,
    ]);
  });
});
