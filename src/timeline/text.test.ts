import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../testkit/gen/random.ts';
import { TextMeasurer } from './text.ts';

/** A proportional fake font: 'i' and 'l' are narrow, 'm' and 'w' wide, '…' 8 px. */
function fakeWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += ch === '…' ? 8 : 'il'.includes(ch) ? 3 : 'mw'.includes(ch) ? 11 : 7;
  return w;
}

describe('TextMeasurer', () => {
  it('returns the text unchanged when it fits', () => {
    const m = new TextMeasurer(fakeWidth);
    expect(m.elide('cudaMemcpy', 200)).toBe('cudaMemcpy');
  });

  it('elides to the longest prefix that fits, with an ellipsis (property)', () => {
    const m = new TextMeasurer(fakeWidth);
    const random = seededRandom(5);
    const alphabet = 'ilmwabcdefgh _';
    for (let k = 0; k < 2000; k++) {
      const length = 1 + Math.floor(random() * 40);
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      const max = random() * 300;
      const out = m.elide(text, max);
      expect(fakeWidth(out)).toBeLessThanOrEqual(max);
      if (out === text) continue;
      if (out === '') {
        // Nothing with at least two characters fits.
        expect(fakeWidth(text.slice(0, 2)) + 8 > max || text.length < 3).toBe(true);
        continue;
      }
      expect(out.endsWith('…')).toBe(true);
      const prefix = out.slice(0, -1);
      expect(text.startsWith(prefix)).toBe(true);
      // One more character would not have fitted (before trimming trailing spaces).
      const kept = text.slice(0, text.indexOf(prefix) + prefix.length);
      let n = kept.length;
      while (n < text.length && text[n] === ' ') n++;
      if (n + 1 < text.length) expect(fakeWidth(text.slice(0, n + 1)) + 8).toBeGreaterThan(max);
    }
  });

  it('measures each distinct string once', () => {
    let calls = 0;
    const m = new TextMeasurer((s) => {
      calls++;
      return fakeWidth(s);
    });
    for (let i = 0; i < 100; i++) m.width('kernel');
    expect(calls).toBe(1);
    m.setFont('12px sans-serif');
    m.width('kernel');
    expect(calls).toBe(2);
  });

  it('elides as before the prefix widths were kept, measuring each prefix of a text once (random texts and widths)', () => {
    /** The elide of before: prefixes measured every time. */
    const elideUncached = (text: string, maxWidth: number): string => {
      if (fakeWidth(text) <= maxWidth) return text;
      const ellipsis = fakeWidth('…');
      if (text.length < 3 || maxWidth < ellipsis) return '';
      const room = maxWidth - ellipsis;
      let n = Math.min(text.length - 1, Math.floor(room / (fakeWidth(text) / text.length)));
      while (n > 0 && fakeWidth(text.slice(0, n)) > room) n--;
      while (n + 1 < text.length && fakeWidth(text.slice(0, n + 1)) <= room) n++;
      return n < 2 ? '' : `${text.slice(0, n).trimEnd()}…`;
    };
    let calls = 0;
    const m = new TextMeasurer((s) => {
      calls++;
      return fakeWidth(s);
    });
    const random = seededRandom(9);
    const names = Array.from({ length: 30 }, () => {
      let text = '';
      const length = 1 + Math.floor(random() * 30);
      for (let i = 0; i < length; i++) text += 'ilmwabcdefgh _'[Math.floor(random() * 14)];
      return text;
    });
    const cases = Array.from({ length: 5000 }, () => [names[Math.floor(random() * names.length)], random() * 250] as const);
    for (const [text, max] of cases) expect(m.elide(text, max)).toBe(elideUncached(text, max));
    // The same elisions again (a frame like the last): nothing is measured twice.
    calls = 0;
    for (const [text, max] of cases) m.elide(text, max);
    expect(calls).toBe(0);
  });
});
