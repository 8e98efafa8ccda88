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

  it('neutralises what a spreadsheet would run as a formula, not numbers', () => {
    expect(csvQuote('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvQuote('+cmd')).toBe("'+cmd");
    expect(csvQuote('-2+3')).toBe("'-2+3");
    expect(csvQuote('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvQuote('\t=1')).toBe("'\t=1");
    expect(csvQuote('-5')).toBe('-5');
    expect(csvQuote('+1.5e3')).toBe('+1.5e3');
    expect(csvQuote('-0.25')).toBe('-0.25');
    expect(csvQuote('a=b')).toBe('a=b');
  });

  it('ends every record with the line ending', () => {
    expect(csvLines([['Name', 'Count'], ['x,y', '2']], '\r\n')).toBe('Name,Count\r\n"x,y",2\r\n');
    expect(csvLines([['a']], '\n')).toBe('a\n');
    expect(csvLines([], '\n')).toBe('');
  });
});
