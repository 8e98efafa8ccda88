/**
 * Damage costs one chunk, not the rest of the file (issue 11 §2): after a flipped byte, a
 * zero-filled region or a cut chunk the reader finds the next intact chunk, reports the skipped
 * byte range and keeps every intact chunk's events, later chunks of a damaged stream included.
 */
import { describe, expect, it } from 'vitest';
import { writeNative } from '../../../testkit/gen/native.ts';
import { MemorySink } from '../../../testkit/gen/sink.ts';
import type { Model } from '../../model/types.ts';
import { CHUNK_HEADER_SIZE, FILE_HEADER_SIZE } from './format.ts';
import { loadBytes, rangeRows } from '../../../testkit/load/nativeCapture.ts';
import { CaptureWriter, StreamRecords } from '../../../testkit/writers/nvtxcWriter.ts';
import { KILLED_EARLY, KILLED_LATE, killedInWrite } from '../../../testkit/writers/killedInWrite.ts';

const T0 = 1_000_000n;
const N0 = 5_000_000_000n;
const SEAL: [bigint, bigint] = [T0 + 2_000_000n, N0 + 1_000_000n];


interface Span {
  offset: number;
  end: number;
}

/** Chunk extents of an intact capture, from their headers. */
function chunkSpans(bytes: Uint8Array): Span[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const spans: Span[] = [];
  for (let at = FILE_HEADER_SIZE; at < bytes.length; ) {
    const end = at + CHUNK_HEADER_SIZE + view.getUint32(at, true);
    spans.push({ offset: at, end });
    at = end;
  }
  return spans;
}

function flipped(bytes: Uint8Array, at: number): Uint8Array {
  const out = bytes.slice();
  out[at] ^= 0xff;
  return out;
}

function errorsAbout(model: Model, span: Span): string[] {
  return model.issues.filter((i) => i.severity === 'error' && i.offset === span.offset).map((i) => i.message);
}

describe('damage in a generated capture', () => {
  // The issue's capture: 100k events on 4 threads, about 76k ranges, two EVENTS chunks per stream.
  const sink = new MemorySink();
  writeNative(sink, { events: 100_000, seed: 3, threads: 4 });
  const bytes = sink.toBytes();
  const spans = chunkSpans(bytes);
  const headerAndFirstChunks = bytes.subarray(0, spans[1].end); // file header, PROCESS, META

  /** Ranges whose push or start record lies in `span`: decoded from that chunk alone, they are all open. */
  async function rangesOpenedIn(span: Span): Promise<number> {
    const alone = new Uint8Array(headerAndFirstChunks.length + span.end - span.offset);
    alone.set(headerAndFirstChunks);
    alone.set(bytes.subarray(span.offset, span.end), headerAndFirstChunks.length);
    return (await loadBytes(alone)).ranges.startNs.length;
  }

  it('keeps every range of every intact chunk after one flipped byte, and names the damaged bytes', async () => {
    const whole = await loadBytes(bytes);
    const total = whole.ranges.startNs.length;
    expect(total).toBeGreaterThan(70_000);
    const events = spans.slice(2, -1);
    const positions = [
      Math.floor(bytes.length * 0.1),
      Math.floor(bytes.length * 0.18),
      Math.floor(bytes.length * 0.5),
      Math.floor(bytes.length * 0.9),
      events[3].offset + 2, // the length field of a chunk header
      events[5].offset + 9, // its CRC field
      events[4].offset + CHUNK_HEADER_SIZE + 3, // the stream id / offset varints of a body
    ];
    for (const at of positions) {
      const span = spans.find((s) => s.offset <= at && at < s.end)!;
      expect(spans.indexOf(span), `byte ${at}`).toBeGreaterThan(1); // PROCESS and META are tested elsewhere
      const model = await loadBytes(flipped(bytes, at));
      const lost = await rangesOpenedIn(span);
      expect(lost, `byte ${at}`).toBeGreaterThan(0);
      expect(model.ranges.startNs.length, `byte ${at}`).toBe(total - lost);
      const [message] = errorsAbout(model, span);
      expect(message, `byte ${at}`).toContain(`bytes ${span.offset}–${span.end} of test.nvtxc`);
      expect(message).toMatch(/resumes with the intact chunk/);
    }
  });

  it('loads a capture whose tail is zero-filled or cut inside a chunk', async () => {
    const whole = await loadBytes(bytes);
    const last = spans[spans.length - 2]; // the last EVENTS chunk
    const lost = await rangesOpenedIn(last);
    // The chunk half written, then zeros to the end (a file mapping after kill -9).
    const half = Math.floor((last.offset + last.end) / 2);
    const mapped = new Uint8Array(bytes.length + 4096);
    mapped.set(bytes.subarray(0, half));
    const model = await loadBytes(mapped);
    expect(model.ranges.startNs.length).toBe(whole.ranges.startNs.length - lost);
    expect(errorsAbout(model, last)[0]).toMatch(
      new RegExp(`chunk at bytes ${last.offset}–${mapped.length} of test.nvtxc is incomplete: ${half - last.offset} bytes were written, then \\d+ zero bytes`),
    );
    // A zero-filled hole between two chunks (a writer's reserved space): a warning, nothing lost.
    const hole = spans[4].offset;
    const holed = new Uint8Array(bytes.length + 8192);
    holed.set(bytes.subarray(0, hole));
    holed.set(bytes.subarray(hole), hole + 8192);
    const withHole = await loadBytes(holed);
    expect(withHole.ranges.startNs.length).toBe(whole.ranges.startNs.length);
    expect(withHole.issues.map((i) => `${i.severity}: ${i.message}`)).toEqual([
      `warning: bytes ${hole}–${hole + 8192} of test.nvtxc (8192 bytes) are zero-filled: never written (space the collector reserved, or a hole left by a crash); reading resumes with the intact chunk at byte ${hole + 8192}`,
    ]);
    // Only zeros after the last whole chunk: a warning, nothing lost.
    const reserved = new Uint8Array(bytes.length + 4096);
    reserved.set(bytes);
    const tail = await loadBytes(reserved);
    expect(tail.ranges.startNs.length).toBe(whole.ranges.startNs.length);
    expect(tail.issues.filter((i) => i.offset === bytes.length).map((i) => `${i.severity}: ${i.message}`)).toEqual([
      expect.stringMatching(/^warning: bytes \d+–\d+ of test.nvtxc, its last 4096 bytes, are zero-filled/),
    ]);
  });
});

describe('damage in a hand-made capture', () => {
  /**
   * Three streams of three chunks each, interleaved; ranges nest and cross chunk boundaries, and one
   * start/end range crosses streams. `opened[k]` counts the ranges whose push or start is in chunk k.
   */
  function build(): { bytes: Uint8Array; spans: Span[]; opened: number[]; named: string[][]; total: number } {
    const w = new CaptureWriter().process({ pid: 7, name: 'app', t0: T0, n0: N0, tickRate: 2_000_000_000 });
    const opened: number[] = [0];
    const named: string[][] = [[]];
    const streams = [1, 2, 3].map((id) => ({ id, rec: new StreamRecords().thread(100 + id, `t${id}`), from: 0 }));
    let tick = 0;
    let total = 0;
    for (let part = 0; part < 3; part++) {
      for (const s of streams) {
        let pushes = 0;
        const names: string[] = [];
        if (part > 0) s.rec.pop((tick += 10)); // closes the push left open by the previous chunk
        for (let i = 0; i < 4; i++) {
          names.push(`s${s.id} part${part} r${i}`);
          s.rec.push((tick += 10), names[names.length - 1]).push((tick += 10), 'inner').pop((tick += 10)).pop((tick += 10));
          pushes += 2;
        }
        if (s.id === 1 && part === 1) {
          s.rec.start((tick += 10), 99, 'crossing');
          pushes++;
        }
        if (s.id === 3 && part === 2) s.rec.end((tick += 10), 99);
        if (part < 2) {
          s.rec.push((tick += 10), `s${s.id} spans chunks ${part}`);
          pushes++;
        }
        const rec = s.rec.bytes();
        w.events(s.id, [T0 + BigInt(tick), N0 + BigInt(tick / 2)], rec, s.from, rec.length);
        s.from = rec.length;
        opened.push(pushes);
        named.push(names);
        total += pushes;
      }
    }
    const bytes = w.bytes();
    return { bytes, spans: chunkSpans(bytes), opened, named, total };
  }

  it('loses exactly the ranges opened in the damaged chunk, for a flip at every byte after the file header', async () => {
    const { bytes, spans, opened, named, total } = build();
    const intact = await loadBytes(bytes);
    expect(intact.ranges.startNs.length).toBe(total);
    for (let at = spans[0].offset; at < bytes.length; at++) {
      const k = spans.findIndex((s) => s.offset <= at && at < s.end);
      const model = await loadBytes(flipped(bytes, at));
      expect(model.ranges.startNs.length, `flip at ${at} (chunk ${k})`).toBe(total - opened[k]);
      expect(errorsAbout(model, spans[k])[0], `flip at ${at}`).toContain(`bytes ${spans[k].offset}–`);
      // Names stay right after the gap: each chunk's own names are all there, the rest are real or placeholders.
      const names = rangeRows(model).map((r) => r.name);
      const own = named.flatMap((list, c) => (c === k ? [] : list));
      for (const name of own) expect(names, `flip at ${at}`).toContain(name);
      for (const name of names) expect(name, `flip at ${at}`).toMatch(/^(s\d part\d r\d|inner|s\d spans chunks \d|crossing|<string \d+ lost to damage>)$/);
      if (k === 0) {
        // Without the PROCESS chunk, times come from the chunks' clock pairs: the same as with it.
        expect(model.issues.map((i) => i.message)).toContainEqual(expect.stringMatching(/^the PROCESS chunk is among the damaged bytes/));
        expect(Array.from(model.ranges.startNs).sort((x, y) => x - y)).toEqual(Array.from(intact.ranges.startNs).sort((x, y) => x - y));
      }
    }
  });

  it('numbers strings defined after a gap from their first use, with placeholders for the lost ones', async () => {
    const rec = new StreamRecords().thread(5, 'w');
    rec.push(10, 'a').pop(20);
    const cut1 = rec.bytes().length;
    rec.push(30, 'lost-1').pop(40).push(50, 'lost-2').pop(60);
    const cut2 = rec.bytes().length;
    rec.push(70, 'a').pop(80).push(90, 'after').pop(100).push(110, 'lost-2').pop(120);
    const all = rec.bytes();
    const w = new CaptureWriter().process({ pid: 7, t0: T0, n0: N0, tickRate: 2_000_000_000 }).exitNormally();
    w.events(1, SEAL, all, 0, cut1).events(1, SEAL, all, cut2, all.length);
    const model = await loadBytes(w.bytes());
    expect(rangeRows(model).map((r) => r.name)).toEqual(['a', 'a', 'after', '<string 3 lost to damage>']);
    expect(model.issues.map((i) => i.message)).toEqual([
      expect.stringMatching(/thread stream 1 misses stream bytes \d+\.\.\d+/),
      expect.stringMatching(/thread stream 1: string ids 2–3 were defined in the lost bytes/),
    ]);
  });

  it('scans a long damaged region in time linear in its size', async () => {
    // 4 MiB of bytes that look like chunk headers every 8 bytes (kind EVENTS, length 64 KiB):
    // a scan that re-read each candidate's body would do about 32 G byte reads.
    const { bytes } = build();
    const junk = new Uint8Array(4 << 20);
    const view = new DataView(junk.buffer);
    for (let at = 0; at + 8 <= junk.length; at += 8) {
      view.setUint32(at, 65536, true);
      view.setUint16(at + 4, 3, true);
    }
    const damaged = new Uint8Array(bytes.length + junk.length);
    const spans = chunkSpans(bytes);
    damaged.set(bytes.subarray(0, spans[4].offset));
    damaged.set(junk, spans[4].offset);
    damaged.set(bytes.subarray(spans[4].offset), spans[4].offset + junk.length);
    const started = performance.now();
    const model = await loadBytes(damaged);
    const seconds = (performance.now() - started) / 1000;
    expect(model.ranges.startNs.length).toBe((await loadBytes(bytes)).ranges.startNs.length);
    expect(model.issues.find((i) => i.severity === 'error')?.message).toContain(
      `bytes ${spans[4].offset}–${spans[4].offset + junk.length} of test.nvtxc`,
    );
    expect(seconds).toBeLessThan(10);
  });
});

describe('a capture without its END chunk', () => {
  it('says the process did not exit normally, with what was kept', async () => {
    const rec = new StreamRecords().thread(5, 'w').push(1_000_000, 'a').pop(1_500_000).mark(1_800_000, 'm');
    const killed = new CaptureWriter().process({ pid: 7, t0: T0, n0: N0, tickRate: 2_000_000_000, wallStartNs: 1_700_000_000_123_000_000n });
    const model = await loadBytes(killed.events(1, SEAL, rec.bytes()).bytes());
    expect(model.issues.map((i) => `${i.severity}: ${i.message}`)).toEqual([
      'warning: capture has no END chunk: the process did not exit normally (killed, e.g. by kill -9 or the OOM killer, left by _exit, or still running); 3 event records up to 22:13:20.123 UTC (0.900 ms into the capture) were kept',
    ]);
    expect(model.capture.properties['capture end']).toBe('no END chunk: the process did not exit normally');
    const exited = await loadBytes(killed.exitNormally().bytes());
    expect(exited.issues).toEqual([]);
  });
});

describe('an EVENTS chunk cut short by a kill during its write', () => {
  const names = (model: Model) => rangeRows(model).map((r) => r.name);

  it('says that nothing is lost when the thread buffer left in the file holds its events', async () => {
    const { bytes, cutAt, declared } = killedInWrite('all', (n) => Math.floor(n / 2));
    const model = await loadBytes(bytes);
    expect(names(model)).toEqual([...KILLED_EARLY, ...KILLED_LATE]);
    expect(model.issues.filter((i) => i.severity === 'error')).toEqual([]);
    const present = bytes.length - cutAt - CHUNK_HEADER_SIZE;
    expect(model.issues.map((i) => `${i.severity}: ${i.message}`)).toContain(
      `info: the last chunk, at byte ${cutAt} (${present} of ${declared} body bytes present), was cut short: the process ended while writing it (e.g. kill -9). Its events were also in the thread's buffer left in the file and were recovered from there: none is lost`,
    );
  });

  it('names the stream bytes lost when no buffer holds them', async () => {
    const { bytes, cutAt, from, to } = killedInWrite('none', (n) => Math.floor(n / 2));
    const model = await loadBytes(bytes);
    expect(names(model)).toEqual(KILLED_EARLY);
    expect(model.issues.filter((i) => i.severity === 'error').map((i) => i.message)).toEqual([
      expect.stringMatching(new RegExp(`^the capture ends inside a chunk at bytes ${cutAt}–${bytes.length} of test.nvtxc .*; the events of stream 1 in its bytes ${from}\\.\\.${to} are lost$`)),
    ]);
  });

  it('names the stream bytes lost when the buffer holds only part of them', async () => {
    const { bytes, bufferedTo, to } = killedInWrite('part', () => CHUNK_HEADER_SIZE + 28);
    const model = await loadBytes(bytes);
    expect(names(model)).toEqual([...KILLED_EARLY, ...KILLED_LATE.slice(0, -2)]);
    expect(model.issues.filter((i) => i.severity === 'error').map((i) => i.message)).toEqual([
      expect.stringMatching(new RegExp(`; the events of stream 1 in its bytes ${bufferedTo}\\.\\.${to} are lost$`)),
    ]);
  });

  it('does not say that nothing is lost when the buffer that holds the events is damaged', async () => {
    const { bytes, cutAt } = killedInWrite('torn', (n) => Math.floor(n / 2));
    const model = await loadBytes(bytes);
    expect(names(model)).toEqual([...KILLED_EARLY, ...KILLED_LATE]);
    expect(model.issues.some((i) => i.severity === 'info' && /none is lost/.test(i.message))).toBe(false);
    const errors = model.issues.filter((i) => i.severity === 'error').map((i) => i.message);
    expect(errors).toContainEqual(expect.stringMatching(/runs past the end of its chunk; the rest of this buffer is skipped$/));
    expect(errors).toContainEqual(
      expect.stringMatching(new RegExp(`^the capture ends inside a chunk at bytes ${cutAt}–${bytes.length} .*; its events were also in the thread's buffer, which did not read to its end \\(see that message\\)$`)),
    );
  });

  it('reports a chunk cut inside its first fields as damage, as before', async () => {
    const { bytes, cutAt, declared } = killedInWrite('all', () => CHUNK_HEADER_SIZE + 2);
    const model = await loadBytes(bytes);
    expect(names(model)).toEqual([...KILLED_EARLY, ...KILLED_LATE]);
    expect(model.issues.filter((i) => i.severity === 'error').map((i) => i.message)).toEqual([
      `the capture ends inside a chunk at bytes ${cutAt}–${bytes.length} of test.nvtxc (2 of ${declared} body bytes present): it was cut short, e.g. by kill -9 or a full disk; everything before byte ${cutAt} is kept`,
    ]);
  });
});
