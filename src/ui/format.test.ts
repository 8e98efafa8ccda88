import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatDuration, formatPercent, formatTimestamp } from './format.ts';

describe('formatDuration', () => {
  it('picks the largest unit that keeps the value >= 1, with four significant digits', () => {
    expect(formatDuration(0)).toBe('0 ns');
    expect(formatDuration(850)).toBe('850 ns');
    expect(formatDuration(1234)).toBe('1.234 µs');
    expect(formatDuration(12_345_678)).toBe('12.35 ms');
    expect(formatDuration(123_400_000)).toBe('123.4 ms');
    expect(formatDuration(2_500_000_000)).toBe('2.500 s');
  });

  it('moves to the next unit when rounding reaches 1000', () => {
    expect(formatDuration(999_960)).toBe('1.000 ms');
    expect(formatDuration(999)).toBe('999 ns');
  });

  it('keeps the sign and handles non-finite values', () => {
    expect(formatDuration(-1500)).toBe('-1.500 µs');
    expect(formatDuration(Number.NaN)).toBe('–');
  });

  it('shows fractional nanoseconds with one decimal', () => {
    expect(formatDuration(12.5)).toBe('12.5 ns');
  });
});

describe('formatTimestamp', () => {
  it('keeps nanosecond resolution and trims trailing zeros', () => {
    expect(formatTimestamp(0)).toBe('0 ns');
    expect(formatTimestamp(12_500)).toBe('12.5 µs');
    expect(formatTimestamp(1_000_123)).toBe('1.000123 ms');
    expect(formatTimestamp(3_250_000_000)).toBe('3.25 s');
    expect(formatTimestamp(3_000_000_001)).toBe('3.000000001 s');
  });
});

describe('other formats', () => {
  it('groups counts, scales bytes and clamps percentages', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.50 KiB');
    expect(formatBytes(12.3 * 1024 * 1024)).toBe('12.3 MiB');
    expect(formatPercent(0.426)).toBe('42%');
    expect(formatPercent(2)).toBe('100%');
  });
});
