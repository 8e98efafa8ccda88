import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatPercent, formatProgress, formatValue } from './numbers.ts';

describe('numbers', () => {
  it('groups counts', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(0)).toBe('0');
  });

  it('scales bytes to three significant digits', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.50 KiB');
    expect(formatBytes(12.3 * 1024 * 1024)).toBe('12.3 MiB');
    expect(formatBytes(120 * 1024 ** 3)).toBe('120 GiB');
  });

  it('writes percentages with a fixed number of decimals', () => {
    expect(formatPercent(76.149)).toBe('76.1%');
    expect(formatPercent(100)).toBe('100.0%');
    expect(formatPercent(42.6, 0)).toBe('43%');
    expect(formatPercent(-0.01)).toBe('0.0%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(formatPercent(0.04)).toBe('<0.1%');
    expect(formatPercent(0.05)).toBe('0.1%');
    expect(formatPercent(0.2, 0)).toBe('<1%');
  });

  it('rounds progress down and clamps it, so that 100% means done', () => {
    expect(formatProgress(0.426)).toBe('42%');
    expect(formatProgress(0.999)).toBe('99%');
    expect(formatProgress(2)).toBe('100%');
    expect(formatProgress(NaN)).toBe('0%');
  });

  it('formats counter values with SI prefixes, byte counts with binary ones', () => {
    expect(formatValue(1_234_000_000, 'events')).toBe('1.234 G events');
    expect(formatValue(1_234_000_000, 'bytes')).toBe('1.149 GiB');
    expect(formatValue(157_447_168, 'bytes')).toBe('150.2 MiB');
    expect(formatValue(-786_432, 'B')).toBe('-768 KiB');
    expect(formatValue(12, 'bytes')).toBe('12 bytes');
    expect(formatValue(1023, 'bytes')).toBe('1023 bytes');
    expect(formatValue(0.5)).toBe('0.5');
    expect(formatValue(-1_500)).toBe('-1.5 k');
    expect(formatValue(2 / 3)).toBe('0.6667');
    expect(formatValue(NaN)).toBe('NaN');
  });
});
