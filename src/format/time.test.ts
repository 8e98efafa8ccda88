import { describe, expect, it } from 'vitest';
import { formatDuration } from './format.ts';

describe('formatDuration at unit boundaries', () => {
  it('carries a value that rounds up to 1000 into the next unit', () => {
    expect(formatDuration(999_960)).toBe('1 ms');
    expect(formatDuration(999_960_000)).toBe('1 s');
    expect(formatDuration(999.96)).toBe('1 µs');
    expect(formatDuration(-999_960)).toBe('-1 ms');
  });

  it('keeps values just below the boundary in the smaller unit', () => {
    expect(formatDuration(999_940)).toBe('999.9 µs');
    expect(formatDuration(999)).toBe('999 ns');
    expect(formatDuration(99_996)).toBe('100 µs');
  });

  it('still goes beyond 1000 in the largest unit', () => {
    expect(formatDuration(1_234_567e9)).toBe('1234567 s');
  });
});
