import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatPercent } from './format.ts';

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
