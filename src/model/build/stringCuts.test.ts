import { describe, expect, it } from 'vitest';
import { IssueLog } from './issues.ts';
import { CUT_MARK, MAX_STRING_CHARS, StringCuts, cutString } from './stringCuts.ts';

describe('string bound', () => {
  it('cuts to the bound with the mark, never splitting a surrogate pair', () => {
    expect(cutString('a'.repeat(MAX_STRING_CHARS * 2))).toBe('a'.repeat(MAX_STRING_CHARS - 1) + CUT_MARK);
    // A pair straddling the cut is dropped whole.
    const s = 'a'.repeat(MAX_STRING_CHARS - 2) + '😀' + 'b'.repeat(10);
    const cut = cutString(s);
    expect(cut).toBe('a'.repeat(MAX_STRING_CHARS - 2) + CUT_MARK);
    expect(cut.length).toBeLessThanOrEqual(MAX_STRING_CHARS);
  });

  it('keeps strings within the bound as they are, and counts each kind once with its first place', () => {
    const cuts = new StringCuts();
    const within = 'x'.repeat(MAX_STRING_CHARS);
    expect(cuts.bound(within, 'name')).toBe(within);
    const where = { line: 7 };
    cuts.bound('y'.repeat(MAX_STRING_CHARS + 1), 'name', where);
    // Decoders reuse their location object: the first place is a copy.
    where.line = 9;
    cuts.bound('z'.repeat(200_000), 'name', where);
    cuts.bound('c'.repeat(70_000), 'category', { offset: 1234 });
    cuts.bound('p'.repeat(70_000), 'thread name', { record: 'StringIds id 4' });
    expect(cuts.total).toBe(4);
    const log = new IssueLog('f.nvtxt');
    cuts.report(log);
    expect(log.list.finish().map((i) => [i.message, i.line, i.offset])).toEqual([
      ['2 names cut to 64 KiB (65,536 characters, then "…"; the longest had 200,000); the first at line 7', 7, undefined],
      ['1 category name cut to 64 KiB (65,536 characters, then "…"; the longest had 70,000); the first at byte 1,234', undefined, 1234],
      ['1 thread name cut to 64 KiB (65,536 characters, then "…"; the longest had 70,000); the first in StringIds id 4', undefined, undefined],
    ]);
  });

  it('bounds issue messages that quote a huge name', () => {
    const log = new IssueLog('f.json');
    log.report('warning', `range "${'q'.repeat(200_000)}" ends before it starts`);
    expect(log.list.finish()[0].message).toHaveLength(MAX_STRING_CHARS);
  });
});
