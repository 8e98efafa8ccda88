import { describe, expect, it } from 'vitest';
import { PayloadType, RangeFlag } from '../../model/types.ts';
import { crc32c } from './crc32c.ts';
import { Chunk, MetaOp, Op, SyncOp } from './format.ts';
import { nativeImporter } from './native.ts';
import { loadBytes, markRows, rangeRows } from '../../../testkit/load/nativeCapture.ts';
import { ByteWriter, CaptureWriter, MetaRecords, StreamRecords } from '../../../testkit/writers/nvtxcWriter.ts';

// Clock: 2 ticks per ns. Chunks are sealed at pair SEAL: tick T0 + 2e6, ns N0 + 1e6.
const T0 = 1_000_000n;
const N0 = 5_000_000_000n;
const SEAL: [bigint, bigint] = [T0 + 2_000_000n, N0 + 1_000_000n];
const PID = 4242;

function capture(): CaptureWriter {
  return new CaptureWriter().process({ pid: PID, name: 'app', t0: T0, n0: N0, tickRate: 2_000_000_000, commandLine: ['./app', 'x y'] }).exitNormally();
}

function f64(v: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, v, true);
  return b;
}

function u64(v: bigint): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt.asUintN(64, v), true);
  return b;
}

describe('crc32c', () => {
  it('matches the standard check value', () => {
    expect(crc32c(new TextEncoder().encode('123456789'))).toBe(0xe3069283);
  });
  it('continues across pieces', () => {
    const all = new TextEncoder().encode('the quick brown fox jumps over the lazy dog');
    expect(crc32c(all.subarray(13), crc32c(all.subarray(0, 13)))).toBe(crc32c(all));
  });
});

describe('native importer', () => {
  it('sniffs the magic bytes only', () => {
    expect(nativeImporter.sniff(capture().bytes())).toBe(true);
    expect(nativeImporter.sniff(new TextEncoder().encode('{"traceEvents":[]}'))).toBe(false);
    expect(nativeImporter.sniff(new Uint8Array(3))).toBe(false);
  });

  it('rebuilds push/pop nesting, marks and thread names, converting ticks with the chunk pair', async () => {
    const s = new StreamRecords().thread(100, 'worker-os');
    s.push(1000, 'outer').push(2000, 'inner').mark(2500, 'here').pop(3000).pop(4000);
    const meta = new MetaRecords().record(MetaOp.ThreadName, (w) => w.varint(100).str('named by nvtx'));
    const bytes = capture().meta(SEAL, meta).events(1, SEAL, s.bytes()).end({ pair: [T0 + 10_000n, N0 + 5_000n], reason: [1, 0] }).bytes();
    const model = await loadBytes(bytes);
    expect(model.issues).toEqual([]);
    const ranges = rangeRows(model);
    expect(ranges.map((r) => [r.name, r.start, r.end, r.depth, r.parent])).toEqual([
      ['outer', 500, 2000, 0, undefined],
      ['inner', 1000, 1500, 1, 'outer'],
    ]);
    expect(markRows(model).map((m) => [m.name, m.time, m.tid])).toEqual([['here', 1250, 100]]);
    expect(model.threads.find((t) => t.tid === 100)?.name).toBe('named by nvtx');
    expect(model.processes[0]).toEqual({ pid: PID, name: 'app' });
    expect(model.durationNs).toBe(5000);
    expect(model.capture.originNs).toBe(N0.toString());
    expect(model.capture.clock).toBe('CLOCK_MONOTONIC_RAW');
    expect(model.capture.properties['command line']).toBe("./app 'x y'");
    expect(model.capture.properties['capture end']).toBe('normal exit');
  });

  it('keeps the OS thread name unless nvtxNameOsThread named the thread, and follows OS renames', async () => {
    const a = new StreamRecords().thread(1, 'main').push(10, 'a').pop(20).osName('renamed').mark(30, 'm');
    const model = await loadBytes(capture().events(1, SEAL, a.bytes()).bytes());
    expect(model.threads.map((t) => [t.tid, t.name])).toEqual([[1, 'renamed']]);
  });

  it('decodes domains, categories, colors and every scalar payload type', async () => {
    const meta = new MetaRecords()
      .record(MetaOp.DomainCreate, (w) => w.varint(1).str('net'))
      .record(MetaOp.CategoryName, (w) => w.varint(1).varint(7).str('io'))
      .record(MetaOp.CategoryName, (w) => w.varint(0).varint(3).str('global cat'));
    const s = new StreamRecords().thread(5, 't');
    const hello = s.sid('hello');
    const i32 = new Uint8Array(8);
    new DataView(i32.buffer).setInt32(0, -7, true);
    const f32 = new Uint8Array(8);
    new DataView(f32.buffer).setFloat32(0, 1.5, true);
    const u32 = new Uint8Array(8);
    new DataView(u32.buffer).setUint32(0, 4000000000, true);
    const payloads: [number, Uint8Array, unknown][] = [
      [1, u64(2n ** 64n - 1n), 2n ** 64n - 1n],
      [2, u64(-5n), -5n],
      [3, f64(2.5), 2.5],
      [4, u32, 4000000000],
      [5, i32, -7],
      [6, f32, 1.5],
    ];
    payloads.forEach(([type, bits], k) => {
      s.ex(Op.MarkEx, 100 + k, k % 2, { payload: { type, bits }, message: { type: 1, id: hello } });
    });
    s.ex(Op.PushEx, 200, 1, { category: 7, color: 0xff00ff00, message: { type: 1, id: hello } });
    s.pop(300, 1);
    s.ex(Op.PushEx, 400, 0, { category: 3, trailing: Uint8Array.of(1, 2, 3) });
    s.pop(500);
    const model = await loadBytes(capture().meta(SEAL, meta).events(1, SEAL, s.bytes()).bytes());
    expect(model.issues).toEqual([]);
    const marks = markRows(model);
    expect(marks.map((m) => m.payload)).toEqual(payloads.map((p) => p[2]));
    expect(marks.map((m) => m.domain)).toEqual(['', 'net', '', 'net', '', 'net']);
    const ranges = rangeRows(model);
    const net = ranges.find((r) => r.domain === 'net')!;
    expect(net).toMatchObject({ name: 'hello', category: 7, color: 0xff00ff00, kind: 'pushpop', start: 100, end: 150 });
    const plain = ranges.find((r) => r.domain === '')!;
    expect(plain).toMatchObject({ name: '', category: 3 });
    expect(model.categories.map((c) => [c.id, c.name, model.domains[c.domain].name])).toEqual(
      expect.arrayContaining([
        [7, 'io', 'net'],
        [3, 'global cat', ''],
      ]),
    );
  });

  it('matches start/end ranges across threads even when the end is read first', async () => {
    const a = new StreamRecords().thread(1, 'a').start(1000, 77, 'job').start(1200, 78, 'same thread');
    const b = new StreamRecords().thread(2, 'b').end(3000, 77).end(3200, 78);
    const w = capture()
      .events(2, SEAL, b.bytes()) // thread b flushed first: its ends come before the starts
      .events(1, SEAL, a.bytes());
    const model = await loadBytes(w.bytes());
    expect(model.issues).toEqual([]);
    const ranges = rangeRows(model).sort((x, y) => x.start - y.start);
    expect(ranges.map((r) => [r.name, r.start, r.end, r.tid, r.kind])).toEqual([
      ['job', 500, 1500, 1, 'category'],
      ['same thread', 600, 1600, 1, 'category'],
    ]);
    expect(ranges.every((r) => (r.flags & RangeFlag.CrossThread) !== 0)).toBe(true);
    expect(model.crossThreadEnds.range.length).toBe(2);
  });

  it('closes never-ended ranges at the capture end and reports ends without a start', async () => {
    const s = new StreamRecords().thread(1, 'a').start(100, 5, 'open').end(200, 99);
    const model = await loadBytes(capture().events(1, SEAL, s.bytes()).end({ pair: [T0 + 1000n, N0 + 500n] }).bytes());
    const open = rangeRows(model)[0];
    expect(open).toMatchObject({ name: 'open', start: 50, end: 500 });
    expect(open.flags & RangeFlag.Unterminated).toBeTruthy();
    expect(model.issues.map((i) => i.message).join('\n')).toMatch(/range id 99 ended but never started/);
  });

  it('reports pops without an open push and closes pushes never popped at the capture end', async () => {
    const s = new StreamRecords().thread(1, 'a').pop(5).push(10, 'open').push(20, 'closed').pop(30);
    const model = await loadBytes(capture().events(1, SEAL, s.bytes()).end({ pair: [T0 + 1000n, N0 + 500n] }).bytes());
    const rows = rangeRows(model);
    expect(rows.map((r) => [r.name, r.start, r.end, r.depth])).toEqual([
      ['open', 5, 500, 0],
      ['closed', 10, 15, 1],
    ]);
    expect(rows[0].flags & RangeFlag.Unterminated).toBeTruthy();
    const pop = model.issues.find((i) => /pop with no open range/.test(i.message))!;
    expect(pop.message).toMatch(/thread "a" \(1\)/);
    expect(pop.offset).toBeGreaterThan(0);
    expect(model.issues.some((i) => /"open" pushed .* never popped/.test(i.message))).toBe(true);
  });

  it('keeps extended payloads attached to core events as raw blobs with their schema and address', async () => {
    const s = new StreamRecords().thread(1, 'a');
    const blob = Uint8Array.of(1, 2, 3, 4, 5);
    s.ex(Op.MarkEx, 10, 0, { message: { type: 1, id: s.sid('with payload') }, ext: [{ schemaId: 0x100000001, address: 0x7ffd0000n, data: blob }, { schemaId: 17, flags: 2, data: new Uint8Array(0) }] });
    const model = await loadBytes(capture().events(1, SEAL, s.bytes()).bytes());
    const ext = model.extPayloads!;
    expect(Array.from(ext.schema)).toEqual([0x100000001, 17]);
    expect(Array.from(ext.address)).toEqual([0x7ffd0000, 0]);
    expect(Array.from(ext.bytes.subarray(ext.offset[0], ext.offset[0] + ext.length[0]))).toEqual([1, 2, 3, 4, 5]);
    expect(model.payloads.type[model.marks.payload[0]]).toBe(PayloadType.Ext);
    expect(model.issues.map((i) => i.message)).toEqual([expect.stringMatching(/1 extended payload\(s\) were not copied whole/)]);
  });

  it('resolves registered strings and reports unknown ones', async () => {
    const meta = new MetaRecords().record(MetaOp.RegisteredString, (w) => w.varint(0).varint(3).str('registered!'));
    const s = new StreamRecords().thread(1, 'a');
    s.ex(Op.MarkEx, 10, 0, { message: { type: 3, id: 3 } });
    s.ex(Op.MarkEx, 20, 0, { message: { type: 3, id: 9 } });
    const model = await loadBytes(capture().meta(SEAL, meta).events(1, SEAL, s.bytes()).bytes());
    expect(markRows(model).map((m) => m.name)).toEqual(['registered!', '<registered string 9>']);
    expect(model.issues.some((i) => /registered string 9/.test(i.message) && i.offset !== undefined)).toBe(true);
  });

  it('draws sync objects as acquire/held ranges on a row per object', async () => {
    const meta = new MetaRecords()
      .record(MetaOp.DomainCreate, (w) => w.varint(2).str('locks'))
      .record(MetaOp.SyncCreate, (w) => w.varint(2).varint(1).str('queue mutex'));
    const a = new StreamRecords()
      .thread(1, 'a')
      .sync(100, SyncOp.AcquireStart, 1)
      .sync(200, SyncOp.AcquireSuccess, 1)
      .sync(600, SyncOp.Releasing, 1);
    const b = new StreamRecords()
      .thread(2, 'b')
      .sync(300, SyncOp.AcquireStart, 1)
      .sync(700, SyncOp.AcquireSuccess, 1)
      .sync(800, SyncOp.Releasing, 1)
      .sync(900, SyncOp.AcquireStart, 1)
      .sync(950, SyncOp.AcquireFailed, 1);
    const model = await loadBytes(capture().meta(SEAL, meta).events(2, SEAL, b.bytes()).events(1, SEAL, a.bytes()).bytes());
    expect(model.issues).toEqual([]);
    const rows = rangeRows(model).sort((x, y) => x.start - y.start || x.tid - y.tid);
    expect(rows.map((r) => [r.name, r.start, r.end, r.tid, r.row])).toEqual([
      ['acquire', 50, 100, 1, 'Sync > locks > queue mutex'],
      ['held', 100, 300, 1, 'Sync > locks > queue mutex'],
      ['acquire', 150, 350, 2, 'Sync > locks > queue mutex'],
      ['held', 350, 400, 2, 'Sync > locks > queue mutex'],
      ['acquire failed', 450, 475, 2, 'Sync > locks > queue mutex'],
    ]);
  });

  it('records CUDA, OpenCL and NVTX resource names', async () => {
    const meta = new MetaRecords()
      .record(MetaOp.ResourceName, (w) => w.varint(0x40003).varint(0x7f001234n).str('copy stream'))
      .record(MetaOp.ResourceName, (w) => w.varint(0x50000).varint(1).str('second GPU'))
      .record(MetaOp.ResourceName, (w) => w.varint(0x60003).varint(0xabcn).str('queue'))
      .record(MetaOp.ResourceCreate, (w) => w.varint(0).varint(1).varint(0x30001).varint(0x5555n).str('big lock'));
    const model = await loadBytes(capture().meta(SEAL, meta).bytes());
    expect(model.resources?.map((r) => [r.kind, r.handle, r.name])).toEqual([
      ['CUDA stream', '0x7f001234', 'copy stream'],
      ['CUDA runtime device', '1', 'second GPU'],
      ['OpenCL command queue', '0xabc', 'queue'],
      ['pthread mutex', '0x5555', 'big lock'],
    ]);
  });

  it('decodes chunks that straddle reads of any size', async () => {
    const s = new StreamRecords().thread(1, 'a');
    for (let i = 0; i < 50; i++) s.push(i * 10, `r${i % 7}`).pop(i * 10 + 5);
    const bytes = capture().events(1, SEAL, s.bytes()).bytes();
    for (const slice of [1, 3, 7, 64]) {
      const model = await loadBytes(bytes, slice);
      expect(model.issues).toEqual([]);
      expect(model.ranges.startNs.length).toBe(50);
    }
  });

  it('decodes each stream byte once when chunks overlap, and reports a gap', async () => {
    const s = new StreamRecords().thread(1, 'a');
    const cuts: number[] = [];
    for (let i = 0; i < 6; i++) {
      s.push(i * 100, 'x').pop(i * 100 + 50);
      cuts.push(s.bytes().length);
    }
    const rec = s.bytes();
    // [0, cut1) then an overlapping [0, cut3) then [cut3, end): 6 ranges, none twice.
    const overlapped = capture().events(1, SEAL, rec, 0, cuts[1]).events(1, SEAL, rec, 0, cuts[3]).events(1, SEAL, rec, cuts[3]).bytes();
    const ok = await loadBytes(overlapped);
    expect(ok.issues).toEqual([]);
    expect(ok.ranges.startNs.length).toBe(6);
    // A missing middle chunk: the stream goes on after the gap, with an error at the chunk after it.
    const gap = capture().events(1, SEAL, rec, 0, cuts[1]).events(1, SEAL, rec, cuts[3]);
    const model = await loadBytes(gap.bytes());
    const rows = rangeRows(model);
    expect(rows.length).toBe(4);
    expect(rows[2].start).toBeGreaterThanOrEqual(rows[1].end);
    const issue = model.issues.find((i) => i.severity === 'error')!;
    expect(issue.message).toMatch(new RegExp(`misses stream bytes ${cuts[1]}\\.\\.${cuts[3]}.*later events are kept`));
    expect(issue.offset).toBe(gap.chunkOffsets[2]);
  });

  it('skips unknown chunk kinds, TLV tags and length-prefixed records with a warning', async () => {
    const s = new StreamRecords().thread(1, 'a').push(10, 'before').unknown(0x5a, Uint8Array.of(9, 9, 9)).pop(20);
    const w = new CaptureWriter()
      .process({ pid: 1, t0: T0, n0: N0, extra: [{ tag: 99, value: Uint8Array.of(1, 2) }] })
      .exitNormally()
      .chunk(77, Uint8Array.of(1, 2, 3))
      .events(1, SEAL, s.bytes());
    const model = await loadBytes(w.bytes());
    expect(model.ranges.startNs.length).toBe(1);
    const messages = model.issues.map((i) => `${i.severity}: ${i.message}`);
    expect(messages).toEqual([
      expect.stringMatching(/^warning: skipped thread records of unknown kind 0x5a/),
      expect.stringMatching(/^warning: skipped 1 chunk of unknown kind 77/),
    ]);
    expect(model.issues.find((i) => /kind 77/.test(i.message))?.offset).toBe(w.chunkOffsets[1]);
  });

  it('reports a malformed metadata record and keeps the records after it', async () => {
    const meta = new MetaRecords()
      .record(MetaOp.DomainCreate, (w) => w.varint(1).varint(50)) // name claims 50 bytes, has none
      .record(MetaOp.CategoryName, (w) => w.varint(0).varint(4).str('still named'));
    const model = await loadBytes(capture().meta(SEAL, meta).bytes());
    expect(model.categories.map((c) => [c.id, c.name])).toEqual([[4, 'still named']]);
    const err = model.issues.find((i) => i.severity === 'error')!;
    expect(err.message).toMatch(/runs past the end .*metadata record of kind 2/);
    expect(err.offset).toBeGreaterThan(0);
  });

  it('reports an unknown fixed-grammar record with its offset and keeps what came before', async () => {
    const s = new StreamRecords().thread(1, 'a').push(10, 'kept').pop(20);
    const before = s.bytes().length;
    s.unknown(0x3f, Uint8Array.of(0)).push(30, 'lost').pop(40);
    const w = capture().events(1, SEAL, s.bytes());
    const model = await loadBytes(w.bytes());
    expect(rangeRows(model).map((r) => r.name)).toEqual(['kept']);
    const err = model.issues.find((i) => i.severity === 'error')!;
    expect(err.message).toMatch(/unknown record kind 0x3f/);
    // chunk header (12) + stream id, offset, pair (2 x 4 bytes of varints), count
    const recordsAt = w.chunkOffsets[1] + 12 + new ByteWriter().varint(1).varint(0).varint(SEAL[0]).varint(SEAL[1]).varint(0).length;
    expect(err.offset).toBe(recordsAt + before);
  });

  it('skips a damaged chunk, names its byte range and keeps the chunks around it', async () => {
    const a = new StreamRecords().thread(1, 'a').push(10, 'x').pop(20);
    const b = new StreamRecords().thread(2, 'b').push(10, 'y').pop(20);
    const c = new StreamRecords().thread(3, 'c').push(10, 'z').pop(20);
    const w = capture().events(1, SEAL, a.bytes());
    w.chunk(Chunk.Events, new ByteWriter().varint(2).varint(0).varint(SEAL[0]).varint(SEAL[1]).varint(2).bytes(b.bytes()).done(), true);
    w.events(3, SEAL, c.bytes());
    const model = await loadBytes(w.bytes());
    expect(rangeRows(model).map((r) => r.name)).toEqual(['x', 'z']);
    const err = model.issues.find((i) => i.severity === 'error')!;
    expect(err.message).toContain(`bytes ${w.chunkOffsets[2]}–${w.chunkOffsets[3]} of test.nvtxc`);
    expect(err.message).toMatch(/checksum mismatch.*resumes with the intact chunk at byte/);
    expect(err.offset).toBe(w.chunkOffsets[2]);
  });

  it('refuses another major version with a message', async () => {
    const model = await loadBytes(new CaptureWriter(2, 0).process({ pid: 1, t0: T0, n0: N0 }).bytes());
    expect(model.issues[0].message).toMatch(/version 2\.0 is not supported/);
  });

  it('survives a cut at every byte offset and keeps exactly the complete chunks', async () => {
    const w = new CaptureWriter().process({ pid: PID, t0: T0, n0: N0, tickRate: 2_000_000_000 });
    const expected: number[] = [0, 0]; // by complete chunks: none, PROCESS only, then 3 ranges per EVENTS chunk
    let total = 0;
    for (let k = 0; k < 4; k++) {
      const s = new StreamRecords().thread(10 + k, `t${k}`);
      for (let i = 0; i < 3; i++) s.push(i * 10, 'r').pop(i * 10 + 5);
      w.events(k + 1, SEAL, s.bytes());
      total += 3;
      expected.push(total);
    }
    const bytes = w.bytes();
    const ends = [...w.chunkOffsets.slice(1), bytes.length]; // end of each chunk (the PROCESS chunk is first)
    for (let cut = 0; cut <= bytes.length; cut++) {
      const model = await loadBytes(bytes.subarray(0, cut)).catch((e: Error) => e);
      if (model instanceof Error) {
        expect(cut).toBe(0); // an empty file is not a capture at all
        continue;
      }
      const complete = ends.filter((e) => e <= cut).length;
      expect(model.ranges.startNs.length).toBe(expected[complete]);
      // A cut between chunks is a shorter valid capture; anywhere else it is reported with an offset.
      const between = cut === 16 || ends.includes(cut);
      expect(model.issues.some((i) => i.severity === 'error' && i.offset !== undefined)).toBe(!between);
    }
  });
});
