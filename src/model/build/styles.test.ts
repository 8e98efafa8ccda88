/**
 * Style lookup: whatever path finds a style (the last one found for the name, the walk of the
 * name's styles, the keyed map for names with many variants), equal attributes always give the
 * same style and different ones different styles, numbered in order of first use.
 */
import { describe, expect, it } from 'vitest';
import { Random } from '../../../testkit/gen/random.ts';
import { ModelBuilder } from '../builder.ts';

describe('StyleTable.styleOf', () => {
  it('gives each (name, color, category, domain) one style, in order of first use', () => {
    const rnd = new Random(3);
    for (let trial = 0; trial < 8; trial++) {
      const b = new ModelBuilder({ fileName: 'styles.test', format: 'test', byteSize: 0 });
      const domains = [0, b.domain(1, 'a'), b.domain(-1, 'b')];
      // Up to 40 variants of a name: past the 16 styles the walk tries before the keyed map.
      const variants = rnd.int(1, 40);
      const expected = new Map<string, number>();
      // Up to 50 names: up to 2,000 styles, so that lookups probe past other styles in the hash table.
      const nameCount = rnd.int(1, 50);
      for (let k = 0; k < 20_000; k++) {
        const name = `n${rnd.int(0, nameCount - 1)}`;
        const v = rnd.int(0, variants - 1);
        const color = v % 2 === 0 ? 0 : (0xff000000 | (v * 0x10101)) >>> 0;
        const category = v % 7;
        const domain = domains[v % 3];
        const key = `${name}|${color}|${category}|${domain}`;
        const style = b.style({ name, color, category, domain });
        if (!expected.has(key)) expected.set(key, expected.size);
        expect(style, `event ${k}: ${key}`).toBe(expected.get(key));
      }
      const m = b.finish();
      expect(m.styles.name.length).toBe(expected.size);
    }
  });
});
