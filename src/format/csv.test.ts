import { describe, expect, it } from 'vitest';
import { csvLines, csvQuote } from './csv.ts';

describe('csv', () => {
  it('quotes only fields that need it, doubling quotes', () => {
    expect(csvQuote('plain name')).toBe('plain name');
    expect(csvQuote('a,b')).toBe('"a,b"');
    expect(csvQuote('say "hi"')).toBe('"say ""hi"""');
    expect(csvQuote('two\nlines')).toBe('"two\nlines"');
    expect(csvQuote(' padded')).toBe('" padded"');
    expect(csvQuote('tab\t')).toBe('"tab\t"');
    expect(csvQuote('')).toBe('');
  });

  it('ends every record with the line ending', () => {
    expect(csvLines([['Name', 'Count'], ['x,y', '2']], '\r\n')).toBe('Name,Count\r\n"x,y",2\r\n');
    expect(csvLines([['a']], '\n')).toBe('a\n');
    expect(csvLines([], '\n')).toBe('');
  });
});
