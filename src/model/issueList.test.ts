import { describe, expect, it } from 'vitest';
import { IssueList, issueShape } from './issueList.ts';
import type { LoadIssue } from './types.ts';

const warn = (line: number, message: string, thread?: number): LoadIssue => ({ severity: 'warning', file: 'f', line, message, thread });

describe('IssueList', () => {
  it('lists the first few of a kind per thread in arrival order and counts the rest with their place', () => {
    const list = new IssueList(3, 100);
    for (let k = 1; k <= 3453; k++) list.add(warn(k, `range "r${k}" overlaps the end of its parent at ${k * 10} ns`, k % 2));
    list.add(warn(9999, 'something else'));
    const out = list.finish();
    expect(list.count).toBe(3454);
    expect(out.map((i) => i.line)).toEqual([1, 2, 3, 4, 5, 7, 6, 8, 9999]);
    expect(out[5].message).toBe('and 1,724 more of this kind (line 7 to line 3,453): range "…" overlaps the end of its parent at # ns');
    expect(out[7].message).toBe('and 1,723 more of this kind (line 8 to line 3,452): range "…" overlaps the end of its parent at # ns');
    expect(out[6].thread).toBe(0);
  });

  it('keys by kind when given, and bounds the number of kinds', () => {
    const list = new IssueList(1, 2);
    list.add({ ...warn(1, 'a 1'), kind: 'never-popped' });
    list.add({ ...warn(2, 'different words'), kind: 'never-popped' });
    list.add(warn(3, 'b'));
    list.add({ ...warn(4, 'c'), severity: 'error' });
    list.add(warn(5, 'd'));
    const out = list.finish();
    expect(out.map((i) => i.message)).toEqual([
      'a 1',
      'and 1 more of this kind (at line 2): a #',
      'b',
      'and 2 more problems of 2+ other kinds, not listed',
    ]);
    expect(out[3].severity).toBe('error');
  });

  it('blanks numbers and quoted names', () => {
    expect(issueShape('range "a, \\"b\\"" at 1.5e9 ns on thread 12')).toBe('range "…" at # ns on thread #');
  });
});
