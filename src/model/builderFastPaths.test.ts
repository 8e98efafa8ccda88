/**
 * The builder's fast paths give what the general paths give: 64-bit payloads written from numbers
 * without BigInt, and styles found through the per-name cache.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder } from './builder.ts';
import { payloadValue } from './payload.ts';
import { PayloadType } from './types.ts';

const fresh = () => new ModelBuilder({ fileName: 'fast.test', format: 'test', byteSize: 0 });

describe('64-bit payloads', () => {
  const cases: Array<[typeof PayloadType.U64 | typeof PayloadType.I64, number | bigint, bigint]> = [
    [PayloadType.I64, 0, 0n],
    [PayloadType.I64, -1, -1n],
    [PayloadType.I64, -4294967296, -4294967296n],
    [PayloadType.I64, -4294967297, -4294967297n],
    [PayloadType.I64, Number.MIN_SAFE_INTEGER, BigInt(Number.MIN_SAFE_INTEGER)],
    [PayloadType.I64, Number.MAX_SAFE_INTEGER, BigInt(Number.MAX_SAFE_INTEGER)],
    [PayloadType.I64, -(2n ** 63n), -(2n ** 63n)],
    [PayloadType.I64, 2n ** 63n, -(2n ** 63n)],
    [PayloadType.I64, 2 ** 60, 2n ** 60n],
    [PayloadType.U64, 4294967295, 4294967295n],
    [PayloadType.U64, 4294967296, 4294967296n],
    [PayloadType.U64, Number.MAX_SAFE_INTEGER, BigInt(Number.MAX_SAFE_INTEGER)],
    [PayloadType.U64, 2n ** 64n - 1n, 2n ** 64n - 1n],
    [PayloadType.U64, -1n, 2n ** 64n - 1n],
    [PayloadType.U64, -1, 2n ** 64n - 1n],
  ];
  for (const [type, value, read] of cases) {
    it(`${type === PayloadType.U64 ? 'u64' : 'i64'} ${String(value)} (${typeof value}) reads back as ${read}`, () => {
      const b = fresh();
      const t = b.thread(1, 1);
      b.mark(t, 10, { name: 'm', payload: { type, value } });
      const m = b.finish();
      expect(payloadValue(m, m.marks.payload[0])).toEqual({ type, value: read });
    });
  }
});

describe('styles', () => {
  it('one style per (name, color, category, domain), whatever the order they come in', () => {
    const b = fresh();
    const t = b.thread(1, 1);
    const d = b.domain(1, 'd');
    const attrs = [
      { name: 'a' },
      { name: 'a', color: 0xff0000ff },
      { name: 'a' },
      { name: 'a', category: 3 },
      { name: 'a', color: 0xff0000ff },
      { name: 'a', domain: d },
      { name: 'a', category: 3 },
      { name: 'b', color: 0xff0000ff },
      { name: 'a', domain: d },
      { name: 'a' },
    ];
    for (let i = 0; i < attrs.length; i++) b.mark(t, i, attrs[i]);
    const m = b.finish();
    const key = (i: number) => {
      const s = m.marks.style[i];
      const c = m.styles.category[s];
      return `${m.strings[m.styles.name[s]]}/${m.styles.color[s]}/${c < 0 ? 0 : m.categories[c].id}/${m.styles.domain[s]}`;
    };
    expect(attrs.map((_, i) => key(i))).toEqual(
      attrs.map((a) => `${a.name}/${a.color ?? 0}/${a.category ?? 0}/${a.domain ?? 0}`),
    );
    expect(new Set(m.marks.style).size).toBe(5);
    expect(m.styles.name.length).toBe(5);
  });
});
