import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../../model/builder.ts';
import { rangeName } from '../../model/query.ts';
import type { Model } from '../../model/types.ts';
import { healthList, issueKind } from './health.ts';

/** Times from 1000: the model's zero is 1000, so issue times must come out shifted. */
function broken(): Model {
  const b = new ModelBuilder({ fileName: 'broken.test', format: 'test', byteSize: 0 });
  const main = b.thread(1, 10, 'main');
  const io = b.thread(1, 11, 'io');
  b.push(main, 1000, { name: 'frame' }, { line: 1 });
  b.pop(main, 1100, 0, { line: 2 });
  b.pop(main, 1150, 0, { line: 3 }); // nothing open
  b.push(main, 1200, { name: 'leak' }, { line: 4 }); // never popped
  b.rangeStart('a', io, 1300, { name: 'load' }, { line: 5 });
  b.rangeEnd('a', main, 1400, { line: 6 }); // ends on another thread
  b.rangeEnd('a', io, 1450, { line: 7 }); // ends twice
  b.rangeStart('b', io, 1500, { name: 'open' }, { line: 8 }); // never ended
  b.rangeStart('b', io, 1550, { name: 'open' }, { line: 9 }); // started again while open
  b.range(io, 1600, 1700, { name: 'outer' });
  b.range(io, 1650, 1750, { name: 'overlap' }); // overlaps its parent's end
  b.setCaptureSpan(1000, 2000);
  return b.finish();
}

describe('healthList', () => {
  it('finds every kind of problem, with times on the model axis and file lines', () => {
    const model = broken();
    const { entries, counts } = healthList([{ id: 3, model }]);
    const summary = entries.map((e) => [e.kind, e.range >= 0 ? rangeName(model, e.range) : '', e.timeNs, e.where]);
    expect(summary).toEqual([
      ['pop-without-push', '', 150, 'line 3'],
      ['never-popped', 'leak', 200, 'line 4'],
      ['never-ended', 'open', 500, 'line 8'],
      ['end-without-start', '', 450, 'line 7'],
      ['start-while-open', '', 550, 'line 9'],
      ['bad-nesting', 'overlap', 650, ''],
    ]);
    // "load" ended on another thread: what start/end ranges are for, not a problem.
    expect(Object.keys(counts)).not.toContain('cross-thread');
    expect(entries.some((e) => e.range >= 0 && rangeName(model, e.range) === 'load')).toBe(false);
    expect(entries.every((e) => e.captureId === 3)).toBe(true);
    expect(model.threads[entries[0].thread].name).toBe('main');
  });

  it('leaves partial models out (their cut would read as ranges never ended) and counts them', () => {
    const model = broken();
    const list = healthList([{ id: 3, model, partial: true }]);
    expect(list).toEqual({ entries: [], counts: healthList([]).counts, pending: 1 });
    expect(healthList([{ id: 3, model }]).pending).toBe(0);
  });

  it('finds the same entries with or without the flagged-range index, and ignores a stale one', () => {
    const model = broken();
    expect(model.flaggedRanges?.index.length).toBeGreaterThan(0);
    const withIndex = healthList([{ id: 3, model }]);
    const { flaggedRanges: _, ...unindexed } = model;
    expect(healthList([{ id: 3, model: unindexed }])).toEqual(withIndex);
    // Ranges replaced (a view with its own flags): the old index must not be used.
    const cleared = { ...model, ranges: { ...model.ranges, flags: new Uint8Array(model.ranges.flags.length) } };
    const kinds = healthList([{ id: 3, model: cleared }]).entries.map((e) => e.kind);
    expect(kinds).not.toContain('bad-nesting');
  });

  it('lists nothing for a clean capture', () => {
    const b = new ModelBuilder({ fileName: 'clean.test', format: 'test', byteSize: 0 });
    const t = b.thread(1, 1);
    b.push(t, 0, { name: 'a' });
    b.pop(t, 5);
    expect(healthList([{ id: 1, model: b.finish() }]).entries).toEqual([]);
  });

  it('counts past the per-kind limit without listing', () => {
    const b = new ModelBuilder({ fileName: 'many.test', format: 'test', byteSize: 0 });
    const t = b.thread(1, 1);
    for (let k = 0; k < 10; k++) b.pop(t, k);
    const list = healthList([{ id: 1, model: b.finish() }], 4);
    expect(list.entries).toHaveLength(4);
    expect(list.counts['pop-without-push']).toBe(10);
  });

  it('recognises the same problems in the messages of decoders that give no kind', () => {
    const issue = (message: string) => ({ severity: 'warning' as const, file: 'x', message });
    expect(issueKind(issue('3 pops on thread 7 had no open range (from a push before the capture started, or an unbalanced pop); ignored'))).toBe('pop-without-push');
    expect(issueKind(issue('range id 9 ended twice; the second end is ignored'))).toBe('end-without-start');
    expect(issueKind(issue('async end "x" (id 4) has no open begin; ignored'))).toBe('end-without-start');
    expect(issueKind(issue('unknown record kind 99'))).toBeUndefined();
  });
});
