import { describe, expect, it } from 'vitest';
import { Random } from '../../../testkit/gen/random.ts';
import { ModelBuilder } from '../../model/builder.ts';
import type { Model } from '../../model/types.ts';
import { loadBytes } from '../../../testkit/load/nativeCapture.ts';
import { CaptureWriter, StreamRecords } from '../../../testkit/writers/nvtxcWriter.ts';
import { EventStyles } from './eventStyles.ts';
import { MessageType, Op } from './format.ts';
import { MAX_PUSH_DEPTH } from './pushNesting.ts';

describe('EventStyles', () => {
  it('gives the style the builder gives, whatever the mix of names, colors and categories (the table grown past its first size)', () => {
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

describe('EventStyles, builder calls', () => {
  it('asks the builder once per combination, however many combinations there are', () => {
    const rnd = new Random(3);
    const builder = new ModelBuilder({ fileName: 'a', format: 'test', byteSize: 0 });
    const ids = Array.from({ length: 3000 }, (_, i) => builder.intern(`name ${i}`));
    let asked = 0;
    const style = builder.style.bind(builder);
    builder.style = (attrs) => (asked++, style(attrs));
    const styles = new EventStyles(builder);
    const seen = new Set<string>();
    for (let k = 0; k < 60_000; k++) {
      const nameId = ids[rnd.int(0, ids.length - 1)];
      const color = rnd.pick([0, 0xff00ff00, 0x80123456]) >>> 0;
      const category = rnd.int(0, 5);
      seen.add(`${nameId} ${color} ${category}`);
      styles.styleOf(nameId, color, category);
    }
    expect(seen.size).toBeGreaterThan(20_000);
    expect(asked).toBe(seen.size);
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

describe('the decoder with EventStyles', () => {
  const T0 = 1_000_000n;
  const N0 = 5_000_000_000n;
  const SEAL: [bigint, bigint] = [T0 + 2_000_000_000n, N0 + 1_000_000_000n];
  const styleNames = (model: Model) => Array.from(model.styles.name, (n) => model.strings[n]);
  const message = (rec: StreamRecords, text: string) => ({ type: MessageType.Ascii, id: rec.sid(text) });

  it('makes no style for a start/end range started again while open, nor for a push dropped for its depth', async () => {
    const rec = new StreamRecords().thread(5, 'w');
    rec.ex(Op.StartEx, 10, 0, { category: 1, message: message(rec, 'first') }, 7);
    rec.ex(Op.StartEx, 20, 0, { category: 2, message: message(rec, 'again while open') }, 7);
    rec.end(30, 7);
    rec.ex(Op.StartEx, 40, 0, { category: 3, message: message(rec, 'after the end') }, 7);
    rec.end(50, 7);
    const deep = message(rec, 'deep');
    for (let k = 0; k < MAX_PUSH_DEPTH; k++) rec.ex(Op.PushEx, 100 + k, 0, { category: 1, message: deep });
    rec.ex(Op.PushEx, 100 + MAX_PUSH_DEPTH, 0, { category: 4, message: message(rec, 'too deep') });
    const all = rec.bytes();
    const w = new CaptureWriter().process({ pid: 7, t0: T0, n0: N0, tickRate: 2_000_000_000 }).exitNormally();
    w.events(1, SEAL, all);
    const model = await loadBytes(w.bytes());
    const names = styleNames(model);
    expect(names).toContain('first');
    expect(names).toContain('after the end');
    expect(names).toContain('deep');
    expect(names).not.toContain('again while open');
    expect(names).not.toContain('too deep');
    expect(model.issues.map((i) => i.message).join('\n')).toMatch(/started again while still open[\s\S]*nest deeper than/);
  });
});
