import { describe, expect, it } from 'vitest';
import { buildCapturePair, type PairRangeSpec } from '../../../testkit/gen/comparePair.ts';
import { compareCaptures } from './compareCaptures.ts';
import { parseThreshold, thresholdBreaches } from './thresholds.ts';

const side = (count: number, medianNs: number, sigma: number) => ({ count, medianNs, sigma });
const SPECS: PairRangeSpec[] = [
  { name: 'net:slower', base: side(300, 100_000, 0.05), candidate: side(300, 120_000, 0.05) },
  { name: 'added', base: side(0, 1, 0), candidate: side(40, 30_000, 0.1) },
  { name: 'noisy', base: side(500, 50_000, 0.3), candidate: side(500, 50_000, 0.3) },
  { name: 'rare', base: side(2, 10_000, 0), candidate: side(2, 15_000, 0) },
];
const { base, candidate } = buildCapturePair({ ranges: SPECS, seed: 3 });
const result = compareCaptures(base, candidate);
const breached = (...texts: string[]) => thresholdBreaches(result, texts.map(parseThreshold)).breaches.map((b) => `${b.row.label} ${b.threshold.text}`);

describe('--fail-if thresholds', () => {
  it('reads relative, absolute and value thresholds', () => {
    expect(parseThreshold('step:total>+5%')).toMatchObject({ column: 'total', op: '>', kind: 'relative', value: 0.05 });
    expect(parseThreshold('a:b:p99 >= +1.5ms')).toMatchObject({ column: 'p99', op: '>=', kind: 'absolute', value: 1_500_000 });
    expect(parseThreshold('a:b:p99 >= +1.5ms').name.test('a:b')).toBe(true);
    expect(parseThreshold('x:median<-10%')).toMatchObject({ op: '<', kind: 'relative', value: -0.1 });
    expect(parseThreshold('x:count>100')).toMatchObject({ kind: 'value', value: 100 });
    expect(parseThreshold('x:mean>2ms')).toMatchObject({ kind: 'value', value: 2_000_000 });
  });

  it('names what is wrong with a bad threshold', () => {
    expect(() => parseThreshold('total>5%')).toThrow(/NAME:COLUMN>VALUE/);
    expect(() => parseThreshold('x:speed>5%')).toThrow(/column "speed"/);
    expect(() => parseThreshold('x(:total>5%')).toThrow(/regular expression/);
    expect(() => parseThreshold('x:total>fast')).toThrow(/not a duration/);
    expect(() => parseThreshold('x:count>many')).toThrow(/number of instances/);
  });

  it('fails on the real regression, with the name as a whole-label regular expression', () => {
    expect(breached('net:.*:total>+5%')).toEqual(['net:slower net:.*:total>+5%']);
    expect(breached('net:slower:median>+10%', 'net:slower:p99>+25%')).toEqual(['net:slower net:slower:median>+10%']);
    expect(breached('slower:total>+5%')).toEqual([]);
    expect(breached('net:slower:mean>+15us')).toEqual(['net:slower net:slower:mean>+15us']);
    expect(breached('net:slower:mean>200us')).toEqual([]);
  });

  it('never fails on noise, however loose the threshold', () => {
    const noisy = result.rows.find((r) => r.label === 'noisy')!;
    expect(noisy.status).toBe('within-noise');
    expect(Math.abs(noisy.change.total.rel)).toBeGreaterThan(0);
    expect(breached('noisy:total>-100%', 'noisy:p99>-100%', 'noisy:total<+100%')).toEqual([]);
  });

  it('judges rows with too few instances on their figures, and added rows as infinite growth', () => {
    expect(breached('rare:median>+20%')).toEqual(['rare rare:median>+20%']);
    expect(breached('added:total>+5%')).toEqual(['added added:total>+5%']);
  });

  it('reports thresholds that match no row', () => {
    const { unmatched } = thresholdBreaches(result, [parseThreshold('stepp:total>+5%')]);
    expect(unmatched.map((t) => t.text)).toEqual(['stepp:total>+5%']);
  });
});
