import { describe, expect, it } from 'vitest';
import { capturesToCompute } from './useStatsQuery.ts';

describe('capturesToCompute', () => {
  it('leaves partial models out, waits when there is nothing else', () => {
    const a = { id: 1, partial: false };
    const b = { id: 2, partial: true };
    expect(capturesToCompute([a, b])).toEqual([a]);
    expect(capturesToCompute([b])).toBeNull();
    expect(capturesToCompute([])).toEqual([]);
  });
});
