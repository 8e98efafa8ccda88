import { describe, expect, it } from 'vitest';
import { CUT_MARK, MAX_STRING_CHARS } from '../../model/build/stringCuts.ts';
import { load, marksOf, rangesOf } from '../../../testkit/load/nvtxtText.ts';

const lines = (...l: string[]) => l.join('\n') + '\n';

/** Warnings about cut strings. */
const cutNotes = (m: Awaited<ReturnType<typeof load>>) => m.issues.filter((i) => i.message.includes('cut to 64 KiB')).map((i) => ({ line: i.line, message: i.message }));

describe('NVTXT: string sizes are bounded (issue 16)', () => {
  it('cuts long messages, category, thread and process names, and reports each kind once with its count and first line', async () => {
    const long = 'n'.repeat(100_000);
    const m = await load(
      lines(
        `NameCategory, 1, "${'c'.repeat(70_000)}"`,
        `NameOsThread, 1, 2, "${'t'.repeat(80_000)}"`,
        `NameProcess, 1, "${'p'.repeat(90_000)}"`,
        'RangePush, 10, ns, 1, 2, 0, 0, "short", 1',
        `RangePush, 20, ns, 1, 2, 0, 0, "${long}", 1`,
        'RangePop, 30, ns, 1, 2',
        'RangePop, 40, ns, 1, 2',
        `Marker, 50, ns, 1, 2, 0, 0, "${long}x", 1`,
        `Marker, 60, ns, 1, 2, 0, 0, "${'n'.repeat(MAX_STRING_CHARS)}", 1`,
      ),
    );
    const names = rangesOf(m).map((r) => r.name);
    expect(names[0]).toBe('short');
    expect(names[1]).toHaveLength(MAX_STRING_CHARS);
    expect(names[1].endsWith(CUT_MARK)).toBe(true);
    expect(names[1].startsWith('nnnn')).toBe(true);
    const marks = marksOf(m).map((k) => k.name);
    // Exactly at the bound: kept whole, not counted.
    expect(marks).toContain('n'.repeat(MAX_STRING_CHARS));
    expect(marks.filter((n) => n.endsWith(CUT_MARK))).toHaveLength(1);
    expect(m.categories.map((c) => c.name.length)).toContain(MAX_STRING_CHARS);
    expect(m.threads[0].name).toHaveLength(MAX_STRING_CHARS);
    expect(m.processes[0].name).toHaveLength(MAX_STRING_CHARS);
    expect(Math.max(...m.strings.map((s) => s.length))).toBeLessThanOrEqual(MAX_STRING_CHARS);
    const notes = cutNotes(m);
    expect(notes).toEqual([
      { line: 1, message: expect.stringMatching(/^1 category name cut to 64 KiB \(65,536 characters, then "…"; the longest had 70,000\); the first at line 1$/) },
      { line: 2, message: expect.stringContaining('1 thread name cut to 64 KiB') },
      { line: 3, message: expect.stringContaining('1 process name cut to 64 KiB') },
      { line: 5, message: expect.stringMatching(/^2 names cut to 64 KiB .*the longest had 100,001\); the first at line 5$/) },
    ]);
  });

  it('keeps the model small for a file of one 100 MB message', async () => {
    const text = `Marker, 50, ns, 1, 2, 0, 0, "${'m'.repeat(100 << 20)}", 1\nMarker, 60, ns, 1, 2, 0, 0, "after", 1\n`;
    const m = await load(text);
    const marks = marksOf(m);
    expect(marks.map((k) => k.name.length)).toEqual([MAX_STRING_CHARS, 5]);
    expect(m.strings.reduce((n, s) => n + s.length, 0)).toBeLessThan(2 * MAX_STRING_CHARS);
    expect(cutNotes(m)).toEqual([{ line: 1, message: expect.stringContaining('1 name cut to 64 KiB (65,536 characters, then "…"; the longest had 104,857,600)') }]);
  }, 60_000);
});
