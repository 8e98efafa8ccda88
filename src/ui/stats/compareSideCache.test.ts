import { describe, expect, it } from 'vitest';
import { buildCapturePair } from '../../../testkit/gen/comparePair.ts';
import { compareCaptures, compareSides } from '../../analysis/compare/index.ts';
import { rangeStats } from '../../analysis/rangeStats.ts';
import { CompareSideCache, optionsKey } from './compareSideCache.ts';

const side = (count: number, medianNs: number) => ({ count, medianNs, sigma: 0.1 });
const { base, candidate } = buildCapturePair({ seed: 5, ranges: [{ name: 'step', base: side(40, 5000), candidate: side(40, 6500) }, { name: 'io', base: side(40, 800), candidate: side(40, 800) }] });

describe('CompareSideCache', () => {
  it('pairs kept halves into the same comparison as computing both', () => {
    const cache = new CompareSideCache();
    cache.side(1, base, {});
    cache.side(2, candidate, {});
    expect(cache.hits).toBe(0);
    const paired = compareSides(cache.side(1, base, { groupBy: 'name' }), cache.side(2, candidate, {}));
    expect(cache.hits).toBe(2);
    const direct = compareCaptures(base, candidate);
    expect(paired.rows).toEqual(direct.rows);
  });

  it('computes again for other options, another model of the capture, or after a drop', () => {
    const cache = new CompareSideCache();
    const first = cache.side(1, base, {});
    expect(cache.side(1, base, { groupBy: 'thread' })).not.toBe(first);
    expect(cache.side(1, base, { includeStyles: new Uint8Array([1, 0]) })).not.toBe(first);
    expect(cache.side(1, base, {})).toBe(first);
    expect(cache.side(1, candidate, {})).not.toBe(first);
    cache.side(3, base, {});
    cache.drop(3);
    const hits = cache.hits;
    cache.side(3, base, {});
    expect(cache.hits).toBe(hits);
  });

  it('keys masks by content', () => {
    expect(optionsKey({ includeStyles: new Uint8Array([1, 0, 1]) })).toBe(optionsKey({ groupBy: 'name', includeStyles: new Uint8Array([1, 0, 1]) }));
    expect(optionsKey({ includeStyles: new Uint8Array([1, 0, 1]) })).not.toBe(optionsKey({ includeStyles: new Uint8Array([1, 1, 1]) }));
    expect(optionsKey({ tracks: [1, 2] })).not.toBe(optionsKey({ tracks: [12] }));
  });

  it("serves the statistics panel's whole-capture table from the same half, span tables apart", () => {
    const cache = new CompareSideCache();
    // The panel names a span mode even without spans: the same half as the comparison's.
    const table = cache.table(1, base, base, { groupBy: 'name', mode: 'clip' });
    expect(table).toEqual(rangeStats(base, { groupBy: 'name', mode: 'clip' }));
    expect(table.samples).toBeUndefined();
    cache.side(1, base, { groupBy: 'name' });
    expect(cache.hits).toBe(1);
    const span = { groupBy: 'name' as const, mode: 'clip' as const, spans: [{ startNs: 0, endNs: 1e9 }] };
    expect(cache.table(1, base, base, span)).toEqual(rangeStats(base, span));
    // Another model (a payload projection) is computed apart too.
    expect(cache.table(1, base, candidate, { groupBy: 'name' })).toEqual(rangeStats(candidate, { groupBy: 'name' }));
    cache.side(1, base, {});
    expect(cache.hits).toBe(2);
  });
});
