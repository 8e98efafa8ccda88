import { describe, expect, it } from 'vitest';
import { Random } from '../../../testkit/gen/random.ts';
import { ModelBuilder } from '../../model/builder.ts';
import { EventStyles } from './eventStyles.ts';

describe('EventStyles', () => {
  it('gives the style the builder gives, whatever the mix of names, colors and categories (slots shared and overwritten)', () => {
    for (let seed = 1; seed <= 8; seed++) {
      const rnd = new Random(seed);
      const cached = new ModelBuilder({ fileName: 'a', format: 'test', byteSize: 0 });
      const plain = new ModelBuilder({ fileName: 'b', format: 'test', byteSize: 0 });
      const names = Array.from({ length: rnd.int(1, 9000) }, (_, i) => `name ${i}`);
      const ids = names.map((n) => cached.intern(n));
      expect(names.map((n) => plain.intern(n))).toEqual(ids);
      const styles = new EventStyles(cached);
      const colors = [0, 0xff00ff00, 0x80123456, 0xffffffff, rnd.int(1, 2 ** 31)];
      for (let k = 0; k < 20_000; k++) {
        const nameId = ids[rnd.chance(0.7) ? rnd.int(0, Math.min(20, ids.length - 1)) : rnd.int(0, ids.length - 1)];
        const color = rnd.pick(colors) >>> 0;
        const category = rnd.chance(0.6) ? 0 : rnd.int(1, 200);
        expect(styles.styleOf(nameId, color, category)).toBe(plain.style({ nameId, color, category }));
      }
    }
  });
});

describe('EventStyles, unusual keys', () => {
  it('gives the builder style for category ids beyond 32 bits and colors above 2^31', () => {
    const cached = new ModelBuilder({ fileName: 'a', format: 'test', byteSize: 0 });
    const plain = new ModelBuilder({ fileName: 'b', format: 'test', byteSize: 0 });
    const nameId = cached.intern('x');
    plain.intern('x');
    const styles = new EventStyles(cached);
    for (const [color, category] of [
      [0, 2 ** 40],
      [0xffffffff, 2 ** 32 + 3],
      [0xffffffff, 3],
      [0x80000000, 3],
      [0, 2 ** 40],
      [0xffffffff, 3],
    ]) {
      expect(styles.styleOf(nameId, color, category)).toBe(plain.style({ nameId, color, category }));
    }
  });
});
