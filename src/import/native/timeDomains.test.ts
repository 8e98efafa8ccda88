import { describe, expect, it } from 'vitest';
import { piecewise, TimeDomains, TimestampType } from './timeDomains.ts';

/** Ticks at 2 per ns from T0 = 1000 (the decoder's tick conversion). */
const T0 = 1000n;
const ticksToNs = (tick: bigint) => Number(tick - T0) / 2;
const fresh = (tsc = false) => new TimeDomains(ticksToNs, 5_000_000n, tsc);
const REG = 2 ** 24;

function convert(td: TimeDomains, domain: number, id: number, x: bigint): number {
  const c = td.converter(domain, id);
  if (typeof c !== 'function') throw new Error(c.error);
  return c(x);
}

describe('piecewise', () => {
  it('interpolates between points and extrapolates with the end slopes', () => {
    const f = piecewise([
      [0n, 0],
      [10n, 100],
      [20n, 150],
    ]);
    expect(f(5n)).toBe(50);
    expect(f(15n)).toBe(125);
    expect(f(-10n)).toBe(-100);
    expect(f(30n)).toBe(200);
  });
});

describe('TimeDomains', () => {
  it('knows capture ticks, the TSC when the capture clock is the TSC, and CLOCK_MONOTONIC_RAW', () => {
    const td = fresh(true);
    expect(convert(td, 0, TimestampType.ToolProvided, 1200n)).toBe(100);
    expect(convert(td, 0, TimestampType.CpuTsc, 1200n)).toBe(100);
    expect(convert(td, 0, TimestampType.MonotonicRaw, 5_000_250n)).toBe(250);
    expect(typeof fresh(false).converter(0, TimestampType.CpuTsc)).toBe('object');
  });

  it('places a registered domain through sync points with ticks, in either orientation, merged over calls', () => {
    const td = fresh();
    const dev = REG + 1;
    td.registerDomain(3, dev, { timestampType: 0, resolution: 0 });
    // device = 7 + 3 * ns, given as device -> ticks and as ticks -> device.
    td.addSyncPoints(3, dev, TimestampType.ToolProvided, [[7n + 3n * 10n, T0 + 20n]]);
    td.addSyncPoints(3, TimestampType.ToolProvided, dev, [[T0 + 200n, 7n + 3n * 100n]]);
    expect(convert(td, 3, dev, 7n + 3n * 50n)).toBeCloseTo(50, 9);
    expect(convert(td, 3, dev, 7n + 3n * 400n)).toBeCloseTo(400, 9);
    // The same id in another NVTX domain is another time domain.
    expect(typeof td.converter(4, dev)).toBe('object');
  });

  it('chains a conversion factor to a placed domain, and places a domain given a factor from a placed one', () => {
    const td = fresh();
    const a = REG + 1;
    const b = REG + 2;
    const c = REG + 3;
    td.addSyncPoints(0, a, TimestampType.MonotonicRaw, [
      [0n, 5_000_000n],
      [1000n, 5_001_000n],
    ]);
    td.addFactor(0, b, a, 2, 0n, 100n); // a = 100 + 2 b
    td.addFactor(0, a, c, 0.5, 0n, 0n); // c = a / 2
    expect(convert(td, 0, b, 50n)).toBeCloseTo(200, 9);
    expect(convert(td, 0, c, 300n)).toBeCloseTo(600, 9);
  });

  it('needs two sync points, or one and the timer resolution', () => {
    const td = fresh();
    const a = REG + 1;
    const b = REG + 2;
    td.registerDomain(0, a, { timestampType: 0, resolution: 1_000_000 });
    td.registerDomain(0, b, { timestampType: 0, resolution: 0 });
    td.addSyncPoints(0, a, TimestampType.MonotonicRaw, [[10n, 5_000_000n]]);
    td.addSyncPoints(0, b, TimestampType.MonotonicRaw, [[10n, 5_000_000n]]);
    expect(convert(td, 0, a, 12n)).toBeCloseTo(2000, 9); // µs ticks
    const none = td.converter(0, b);
    expect(typeof none === 'object' && none.error).toMatch(/only one sync point .* timer resolution is unknown/);
  });

  it('says why an unrelated or unregistered domain cannot be converted', () => {
    const td = fresh();
    td.registerDomain(0, REG + 9, { timestampType: 0, resolution: 0 });
    const lonely = td.converter(0, REG + 9);
    expect(typeof lonely === 'object' && lonely.error).toMatch(/no sync point or conversion factor relates time domain/);
    const unknown = td.converter(0, REG + 10);
    expect(typeof unknown === 'object' && unknown.error).toMatch(/never registered/);
  });

  it('treats a registered domain of a known timestamp type as that clock', () => {
    const td = fresh();
    td.registerDomain(2, REG + 5, { timestampType: TimestampType.MonotonicRaw, resolution: 1e9 });
    expect(convert(td, 2, REG + 5, 5_000_400n)).toBe(400);
  });

  it('keeps the precision of wall-clock timestamps through the clock readings', () => {
    const td = fresh();
    const wall = 1_700_000_000_123_456_789n;
    td.addClockReading(T0 + 2000n, [[TimestampType.Realtime, wall]]);
    td.addClockReading(T0 + 4000n, [[TimestampType.Realtime, wall + 1000n]]);
    expect(convert(td, 0, TimestampType.Realtime, wall + 1n)).toBe(1001);
    expect(convert(td, 0, TimestampType.Realtime, wall + 500n)).toBe(1500);
  });
});
