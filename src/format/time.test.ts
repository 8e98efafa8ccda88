import { describe, expect, it } from 'vitest';
import { formatDuration, formatDurationShort, formatInUnit, formatTimeAtResolution, formatTimestamp, unitIndexFor } from './time.ts';

describe('formatDuration', () => {
  it('formats durations to about four significant digits in the largest unit reached', () => {
    expect(formatDuration(0)).toBe('0 ns');
    expect(formatDuration(850)).toBe('850 ns');
    expect(formatDuration(12.5)).toBe('12.5 ns');
    expect(formatDuration(12_345)).toBe('12.35 µs');
    expect(formatDuration(1_500_000_000)).toBe('1.5 s');
    expect(formatDuration(1_000_000)).toBe('1 ms');
    expect(formatDuration(123_456_789)).toBe('123.5 ms');
    expect(formatDuration(-2_500)).toBe('-2.5 µs');
  });

  it('carries a value that rounds up to 1000 into the next unit', () => {
    expect(formatDuration(999_960)).toBe('1 ms');
    expect(formatDuration(999_960_000)).toBe('1 s');
    expect(formatDuration(999.96)).toBe('1 µs');
    expect(formatDuration(-999_960)).toBe('-1 ms');
    expect(formatDuration(999_960, { fixedPoint: true })).toBe('1.000 ms');
  });

  it('keeps values just below the boundary in the smaller unit', () => {
    expect(formatDuration(999_940)).toBe('999.9 µs');
    expect(formatDuration(999)).toBe('999 ns');
    expect(formatDuration(99_996)).toBe('100 µs');
  });

  it('still goes beyond 1000 in the largest unit', () => {
    expect(formatDuration(1_234_567e9)).toBe('1234567 s');
  });

  it('keeps trailing zeros in fixed-point style, except for whole nanoseconds', () => {
    expect(formatDuration(2_000, { fixedPoint: true })).toBe('2.000 µs');
    expect(formatDuration(2_500_000_000, { fixedPoint: true })).toBe('2.500 s');
    expect(formatDuration(123_400_000, { fixedPoint: true })).toBe('123.4 ms');
    expect(formatDuration(850, { fixedPoint: true })).toBe('850 ns');
    expect(formatDuration(353.6, { fixedPoint: true })).toBe('353.6 ns');
    expect(formatDuration(12.04, { fixedPoint: true })).toBe('12 ns');
  });

  it('reads "-" for no value', () => {
    expect(formatDuration(NaN)).toBe('-');
    expect(formatDuration(Infinity)).toBe('-');
  });
});

describe('formatDurationShort', () => {
  it('keeps three significant digits in the largest fitting unit', () => {
    expect(formatDurationShort(0)).toBe('0 ns');
    expect(formatDurationShort(850)).toBe('850 ns');
    expect(formatDurationShort(5_369_000)).toBe('5.37 ms');
    expect(formatDurationShort(91_654_000)).toBe('91.7 ms');
    expect(formatDurationShort(584_412_000)).toBe('584 ms');
    expect(formatDurationShort(3_000_000)).toBe('3 ms');
    expect(formatDurationShort(1_500_000_000)).toBe('1.5 s');
    expect(formatDurationShort(-2_500)).toBe('-2.5 µs');
  });

  it('moves to the next unit when rounding reaches 1000', () => {
    expect(formatDurationShort(999_600)).toBe('1 ms');
    expect(formatDurationShort(999_400)).toBe('999 µs');
    expect(formatDurationShort(999.6)).toBe('1 µs');
  });
});

describe('formatTimestamp', () => {
  it('formats timestamps exactly to the nanosecond', () => {
    expect(formatTimestamp(12_345_678)).toBe('12.345678 ms');
    expect(formatTimestamp(1_500_000_000)).toBe('1.5 s');
    expect(formatTimestamp(-250)).toBe('-250 ns');
    expect(formatTimestamp(3_600_000_000_001)).toBe('3600.000000001 s');
    expect(formatTimestamp(0)).toBe('0 ns');
    expect(formatTimestamp(1_000_000.4)).toBe('1 ms');
    expect(formatTimestamp(NaN)).toBe('-');
  });

  it('rounds to what one pixel resolves', () => {
    expect(formatTimeAtResolution(12_345_678, 1_000)).toBe('12.346 ms');
    expect(formatTimeAtResolution(12_345_678, 0.5)).toBe('12.345678 ms');
  });
});

describe('units', () => {
  it('picks the largest unit not above the magnitude', () => {
    expect([0, 0.5, 999, 1_000, -1_000_000, 5e9, 5e12].map(unitIndexFor)).toEqual([0, 0, 0, 1, 2, 3, 3]);
  });

  it('formats in a given unit with fixed decimals and no negative zero', () => {
    expect(formatInUnit(1_250_000, 2, 2)).toBe('1.25 ms');
    expect(formatInUnit(1_250_000, 2, 0)).toBe('1 ms');
    expect(formatInUnit(-1, 2, 1)).toBe('0.0 ms');
  });
});
