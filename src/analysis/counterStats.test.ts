/** Counter statistics with samples without a value, and counters of changes (NVTX delta counters). */
import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../model/builder.ts';
import type { CounterTrackInfo, Model } from '../model/types.ts';
import { counterStats } from './counterStats.ts';

/** One counter row with samples (time ns, value; NaN = no value), capture 0..40 ns. */
function counterModel(samples: [number, number][], counter?: CounterTrackInfo): Model {
  const b = new ModelBuilder({ fileName: 't.test', format: 'test', byteSize: 0 });
  const p = b.process(1, 'p');
  const row = b.counterRow({ label: 'c', process: p, unit: 'B', counter });
  for (const [t, v] of samples) b.counter(row, t, v);
  b.setCaptureSpan(0, 40);
  return b.finish();
}

describe('counterStats: samples without a value', () => {
  // 10 on [0,10), no value on [10,20), 30 on [20,40].
  const gap = counterModel([
    [0, 10],
    [10, NaN],
    [20, 30],
  ]);

  it('leaves the values and the time without a value out of every figure', () => {
    const [all] = counterStats(gap);
    expect(all).toMatchObject({ valueType: 'absolute', samples: 2, unavailable: 1, min: 10, max: 30, first: 10, last: 30, delta: 20, coveredNs: 30, noValueNs: 10 });
    expect(all.average).toBeCloseTo((10 * 10 + 30 * 20) / 30, 12);
    expect(all.ratePerSecond).toBeCloseTo((20 * 1e9) / 40, 6);
  });

  it('clips to a span that starts before the gap and ends after it', () => {
    const [part] = counterStats(gap, { spans: [{ startNs: 5, endNs: 25 }] });
    expect(part).toMatchObject({ samples: 1, unavailable: 1, min: 10, max: 30, first: 10, last: 30, coveredNs: 10, noValueNs: 10, average: 20 });
  });

  it('has no row for a scope entirely without a value', () => {
    expect(counterStats(gap, { spans: [{ startNs: 12, endNs: 18 }] })).toEqual([]);
    expect(counterStats(counterModel([[0, NaN]]))).toEqual([]);
  });

  it('takes the first value after a gap at the start of the scope', () => {
    const [late] = counterStats(gap, { spans: [{ startNs: 15, endNs: 30 }] });
    expect(late).toMatchObject({ first: 30, last: 30, min: 30, max: 30, coveredNs: 10, noValueNs: 5 });
  });
});

describe('counterStats: by how the value runs between samples (as drawn)', () => {
  const samples: [number, number][] = [
    [0, 10],
    [10, 30],
    [20, 0],
  ];

  it('since-last: a value holds back to the previous sample, and nothing after the last sample', () => {
    const [all] = counterStats(counterModel(samples, { interpolation: 'sinceLast' }));
    expect(all).toMatchObject({ min: 0, max: 30, first: 10, last: 0, delta: -10, coveredNs: 20, average: 15 });
    const [part] = counterStats(counterModel(samples, { interpolation: 'sinceLast' }), { spans: [{ startNs: 5, endNs: 15 }] });
    expect(part).toMatchObject({ min: 0, max: 30, first: 30, last: 0, coveredNs: 10, average: 15, samples: 1 });
  });

  it('linear: values interpolated at the edges of the scope, the integral of the lines', () => {
    const [all] = counterStats(counterModel(samples, { interpolation: 'linear' }));
    expect(all).toMatchObject({ min: 0, max: 30, first: 10, last: 0, coveredNs: 20, average: 17.5 });
    const [part] = counterStats(counterModel(samples, { interpolation: 'linear' }), { spans: [{ startNs: 5, endNs: 15 }] });
    expect(part).toMatchObject({ min: 15, max: 30, first: 20, last: 15, delta: -5, coveredNs: 10, average: 23.75 });
  });

  it('linear: no line, so no value, on either side of a sample without one', () => {
    const [all] = counterStats(counterModel([[0, 10], [10, NaN], [20, 30], [30, 50]], { interpolation: 'linear' }));
    expect(all).toMatchObject({ min: 30, max: 50, first: 30, last: 50, coveredNs: 10, noValueNs: 20, average: 40 });
  });

  it('point: the samples alone, averaged plainly', () => {
    const [all] = counterStats(counterModel(samples, { interpolation: 'point' }));
    expect(all).toMatchObject({ min: 0, max: 30, first: 10, last: 0, coveredNs: 0, average: 40 / 3 });
  });
});

describe('counterStats: counters of changes (delta)', () => {
  // Changes +5 over [0], +3 over (0,10], none known over (10,20], +2 over (20,30].
  const delta = counterModel(
    [
      [0, 5],
      [10, 3],
      [20, NaN],
      [30, 2],
    ],
    { valueType: 'delta' },
  );

  it('sums the changes, averages per sample and gives the rate over the time they accrued', () => {
    const [all] = counterStats(delta);
    expect(all).toMatchObject({ valueType: 'delta', samples: 3, unavailable: 1, min: 2, max: 5, first: 5, last: 2, delta: 10, coveredNs: 20, noValueNs: 10 });
    expect(all.average).toBeCloseTo(10 / 3, 12);
    expect(all.ratePerSecond).toBeCloseTo((10 * 1e9) / 20, 6);
  });

  it('counts the changes whose sample is in the span, over their intervals clipped to it', () => {
    const [part] = counterStats(delta, { spans: [{ startNs: 5, endNs: 30 }] });
    expect(part).toMatchObject({ samples: 2, unavailable: 1, first: 3, last: 2, delta: 5, coveredNs: 15, noValueNs: 10 });
    expect(part.ratePerSecond).toBeCloseTo((5 * 1e9) / 15, 6);
    expect(counterStats(delta, { spans: [{ startNs: 31, endNs: 40 }] })).toEqual([]);
  });

  it('treats values counted from the start as levels (last minus first)', () => {
    const since = counterModel(
      [
        [0, 5],
        [10, 8],
        [30, 10],
      ],
      { valueType: 'deltaSinceStart' },
    );
    const [all] = counterStats(since);
    expect(all).toMatchObject({ valueType: 'deltaSinceStart', delta: 5, first: 5, last: 10 });
  });
});
