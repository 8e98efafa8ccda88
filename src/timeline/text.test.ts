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
});
