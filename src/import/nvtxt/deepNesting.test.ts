/** Issue 16: nesting deeper than the depth column holds, in time order and out of it. */
import { describe, expect, it } from 'vitest';
import { modelViolations } from '../../../testkit/models/invariants.ts';
import { load } from '../../../testkit/load/nvtxtText.ts';

const DEPTH = 70_000;

function deepStack(times: (k: number) => number, pops: number): string {
  const out = ['@RangePush, Time, TimeBase, ProcessId, ThreadId, Message', '@RangePop, Time, TimeBase, ProcessId, ThreadId'];
  for (let k = 0; k < DEPTH; k++) out.push(`RangePush, ${times(k)}, ns, 1, 2, "d${k}"`);
  for (let k = 0; k < pops; k++) out.push(`RangePop, ${times(DEPTH) + k}, ns, 1, 2`);
  out.push('RangePush, 1, ns, 1, 3, "other thread"', 'RangePop, 2, ns, 1, 3');
  return out.join('\n') + '\n';
}

describe('NVTXT: a 70,000-deep stack', () => {
  it.each([
    ['in time order, never popped', (k: number) => 10 + k, 0],
    ['in time order, all popped', (k: number) => 10 + k, DEPTH],
    ['out of time order, all popped', (k: number) => (k === 5 ? 3 : 10 + k), DEPTH],
    ['all at one time, half popped', () => 10, DEPTH / 2],
  ] as const)('%s: a sound model, the levels that fit, a few warnings', async (_, times, pops) => {
    const m = await load(deepStack(times, pops));
    expect(modelViolations(m)).toEqual([]);
    // 65,536 levels kept on thread 2, plus the other thread's range.
    expect(m.ranges.startNs.length).toBe(65_536 + 1);
    expect(m.issues.length).toBeLessThan(30);
    const tooDeep = m.issues.filter((i) => /nested deeper than 65,536 levels/.test(i.message));
    expect(tooDeep).toHaveLength(1);
    expect(tooDeep[0].message).toMatch(/^4,464 range\(s\)/);
    expect(tooDeep[0].line).toBe(65_536 + 3);
    if (pops === 0) expect(m.issues.some((i) => /^and 69,990 more of this kind .*never popped/.test(i.message))).toBe(true);
  });
});
