import { describe, expect, it } from 'vitest';
import { ModelBuilder } from './builder.ts';
import { buildFlaggedRanges, flaggedRanges } from './flagged.ts';
import { RangeFlag } from './types.ts';

describe('flagged ranges', () => {
  it('lists the ranges with any flag set, ascending', () => {
    const flags = Uint8Array.from([0, RangeFlag.Unterminated, 0, 0, RangeFlag.CrossThread | RangeFlag.BadNesting, 0, RangeFlag.BadNesting]);
    expect([...buildFlaggedRanges(flags).index]).toEqual([1, 4, 6]);
    expect(buildFlaggedRanges(new Uint8Array(5)).index.length).toBe(0);
  });

  it('is built with the model and agrees with a pass over its flags', () => {
    const b = new ModelBuilder({ fileName: 'f.test', format: 'test', byteSize: 0 });
    const t = b.thread(1, 1);
    const u = b.thread(1, 2);
    b.push(t, 0, { name: 'a' });
    b.pop(t, 10);
    b.push(t, 20, { name: 'open' }); // never popped
    b.rangeStart('x', t, 5, { name: 'x' });
    b.rangeEnd('x', u, 7); // ends on another thread
    const model = b.finish();
    const expected = [...model.ranges.flags.keys()].filter((i) => model.ranges.flags[i] !== 0);
    expect(expected.length).toBe(2);
    expect(model.flaggedRanges!.flags).toBe(model.ranges.flags);
    expect([...flaggedRanges(model)]).toEqual(expected);
  });

  it('falls back to the flags when the index is missing or belongs to other ranges', () => {
    const flags = Uint8Array.from([0, 1, 0, 2]);
    expect([...flaggedRanges({ ranges: { flags } as never })]).toEqual([1, 3]);
    const stale = buildFlaggedRanges(Uint8Array.from([1, 0, 0, 0]));
    expect([...flaggedRanges({ ranges: { flags } as never, flaggedRanges: stale })]).toEqual([1, 3]);
  });
});
