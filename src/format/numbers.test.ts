import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatDurationShort, formatPercent } from './format.ts';

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
  });
});
