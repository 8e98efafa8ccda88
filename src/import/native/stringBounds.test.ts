/** Native captures: string sizes are bounded (issue 16): event messages, registered strings, category and thread names. */
import { describe, expect, it } from 'vitest';
import { loadBytes, markRows, rangeRows } from '../../../testkit/load/nativeCapture.ts';
import { CaptureWriter, MetaRecords, StreamRecords } from '../../../testkit/writers/nvtxcWriter.ts';
import { CUT_MARK, MAX_STRING_CHARS } from '../../model/build/stringCuts.ts';
import type { Model } from '../../model/types.ts';
import { MetaOp } from './format.ts';

const T0 = 1_000_000n;
const N0 = 5_000_000_000n;
const cutNotes = (m: Model) => m.issues.filter((i) => i.message.includes('cut to 64 KiB')).map((i) => ({ offset: i.offset, message: i.message }));

describe('native: string sizes are bounded', () => {
  it('cuts long messages, category and thread names, and reports each kind once with its count and first byte', async () => {
    const w = new CaptureWriter().process({ pid: 9, name: 'p', t0: T0, n0: N0, tickRate: 1_000_000_000 });
    const meta = new MetaRecords()
      .record(MetaOp.CategoryName, (m) => m.varint(0).varint(7).str('c'.repeat(70_000)))
      .record(MetaOp.ThreadName, (m) => m.varint(11).str('t'.repeat(80_000)));
    w.meta([T0, N0], meta);
    const rec = new StreamRecords().thread(11, 'os').push(10, 'short').push(20, 'n'.repeat(100_000)).pop(30).pop(40).mark(50, 'n'.repeat(MAX_STRING_CHARS));
    rec.mark(60, 'm'.repeat(90_000));
    const bytes = w.events(1, [T0 + 100n, N0 + 100n], rec.bytes()).exitNormally().bytes();
    const [, metaStart, eventsStart] = w.chunkOffsets;
    const m = await loadBytes(bytes);
    const names = rangeRows(m).map((r) => r.name);
    expect(names[0]).toBe('short');
    expect(names[1]).toHaveLength(MAX_STRING_CHARS);
    expect(names[1].endsWith(CUT_MARK) && names[1].startsWith('nnn')).toBe(true);
    const marks = markRows(m).map((k) => k.name);
    expect(marks[0]).toBe('n'.repeat(MAX_STRING_CHARS));
    expect(marks[1]).toHaveLength(MAX_STRING_CHARS);
    expect(marks[1].endsWith(CUT_MARK)).toBe(true);
    expect(m.categories.map((c) => c.name.length)).toContain(MAX_STRING_CHARS);
    expect(m.threads.map((t) => t.name.length)).toContain(MAX_STRING_CHARS);
    expect(Math.max(...m.strings.map((s) => s.length))).toBeLessThanOrEqual(MAX_STRING_CHARS);
    const notes = cutNotes(m);
    expect(notes).toHaveLength(3);
    const names2 = notes.find((n) => n.message.startsWith('2 names'))!;
    expect(names2.message).toMatch(/^2 names cut to 64 KiB \(65,536 characters, then "…"; the longest had 100,000\); the first at byte [\d,]+$/);
    // The string record inside the EVENTS chunk (after the META one).
    expect(names2.offset).toBeGreaterThan(eventsStart);
    for (const kind of ['1 category name', '1 thread name']) {
      const note = notes.find((n) => n.message.startsWith(kind))!;
      expect(note.offset).toBeGreaterThan(metaStart);
      expect(note.offset).toBeLessThan(eventsStart);
    }
  });

  it('keeps the model small for a capture of one 100 MB message', async () => {
    const w = new CaptureWriter().process({ pid: 9, name: 'p', t0: T0, n0: N0, tickRate: 1_000_000_000 });
    const rec = new StreamRecords().thread(11, 'os').mark(10, 'm'.repeat(100 << 20)).mark(20, 'after');
    const m = await loadBytes(w.events(1, [T0 + 100n, N0 + 100n], rec.bytes()).exitNormally().bytes());
    expect(markRows(m).map((k) => k.name.length)).toEqual([MAX_STRING_CHARS, 5]);
    expect(m.strings.reduce((n, s) => n + s.length, 0)).toBeLessThan(2 * MAX_STRING_CHARS);
    expect(cutNotes(m)).toEqual([{ offset: expect.any(Number), message: expect.stringContaining('1 name cut to 64 KiB (65,536 characters, then "…"; the longest had 104,857,600)') }]);
  }, 60_000);
});
