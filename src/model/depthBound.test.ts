/** Nesting deeper than the 16-bit depth column (issue 16): dropped with one warning, never overlapping. */
import { describe, expect, it } from 'vitest';
import { ModelBuilder } from './builder.ts';
import { modelViolations } from '../../testkit/models/invariants.ts';

describe('depth bound', () => {
  it('keeps 65,536 levels of complete ranges and drops the deeper ones with one warning', () => {
    const b = new ModelBuilder({ fileName: 'deep.json', format: 'test', byteSize: 0 });
    const t = b.thread(1, 1);
    // Innermost first, as Chrome X events arrive (each when it ends).
    for (let k = 69_999; k >= 0; k--) b.range(t, k, 200_000 - k, { name: `d${k}` }, { offset: k });
    b.range(t, 300_000, 300_001, { name: 'after' });
    const m = b.finish();
    expect(modelViolations(m)).toEqual([]);
    expect(m.ranges.startNs.length).toBe(65_536 + 1);
    expect(m.issues.map((i) => [i.message, i.offset])).toEqual([
      ['4,464 range(s) on Push/Pop of thread 1 are nested deeper than 65,536 levels and were dropped (pushes that are never popped?)', 65_536],
    ]);
  });
});
