import { describe, expect, it } from 'vitest';
import { middleEllipsis } from './middleEllipsis.ts';

describe('middleEllipsis', () => {
  it('keeps the start and the end of a long name', () => {
    expect(middleEllipsis('run 12 of the sweep', 11)).toBe('run 1…sweep');
    expect(middleEllipsis('run 12 of the sweep', 11)).toHaveLength(11);
    expect(middleEllipsis('short', 11)).toBe('short');
    expect(middleEllipsis('abcdef', 2)).toBe('a…');
    expect(middleEllipsis('αβγδεζηθ', 5)).toBe('αβ…ηθ');
  });
});
