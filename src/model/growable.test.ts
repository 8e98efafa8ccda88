/**
 * Growable columns: values survive every growth, with or without a growth plan; with one, a
 * column filling at a known share of its file grows toward its projected size (bounded) instead of
 * doubling, and `reserve` makes room once.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder } from './builder.ts';
import { f64, u32, type GrowthPlan } from './growable.ts';

describe('growable columns', () => {
  it('keep every value pushed, whatever the plan says along the way', () => {
    for (const fractions of [[0], [0.5, 1], [0.001, 0.02, 0.3, 0.9], [2, 0.1, 0]]) {
      const plan: GrowthPlan = { fraction: 0 };
      const column = f64(64, plan);
      for (let i = 0; i < 100_000; i++) {
        plan.fraction = fractions[Math.floor((i / 100_000) * fractions.length)];
        column.push(i * 1.5);
      }
      const values = column.view();
      expect(values.length).toBe(100_000);
      for (let i = 0; i < values.length; i++) if (values[i] !== i * 1.5) expect.fail(`value ${i} is ${values[i]}`);
    }
  });

  it('double without a plan, and grow toward the projected size (bounded) with one', () => {
    const plain = u32(64);
    for (let i = 0; i <= 1024; i++) plain.push(i);
    expect(plain.capacityBytes).toBe(2048 * 4);

    // Full at 1,024 values a quarter into the file: about 4,096 expected, with a little headroom.
    const plan: GrowthPlan = { fraction: 0.25 };
    const planned = u32(1024, plan);
    for (let i = 0; i <= 1024; i++) planned.push(i);
    expect(planned.capacityBytes / 4).toBeGreaterThanOrEqual(4096);
    expect(planned.capacityBytes / 4).toBeLessThan(4096 * 1.25);

    // Early in the file the jump is bounded (32x), and a projection below doubling still doubles.
    const early = u32(1024, { fraction: 0.02 });
    for (let i = 0; i <= 1024; i++) early.push(i);
    expect(early.capacityBytes / 4).toBe(32 * 1024);
    const late = u32(1024, { fraction: 0.9 });
    for (let i = 0; i <= 1024; i++) late.push(i);
    expect(late.capacityBytes / 4).toBe(2048);
    // Too early to trust (below 1/64 of the file): doubling.
    const tooEarly = u32(1024, { fraction: 0.01 });
    for (let i = 0; i <= 1024; i++) tooEarly.push(i);
    expect(tooEarly.capacityBytes / 4).toBe(2048);
  });

  it('reserve makes room once and keeps the values', () => {
    const column = f64(64);
    for (let i = 0; i < 100; i++) column.push(i);
    column.reserve(10_000);
    expect(column.capacityBytes).toBe(10_000 * 8);
    column.reserve(50);
    expect(column.capacityBytes).toBe(10_000 * 8);
    for (let i = 100; i < 10_000; i++) column.push(i);
    expect(column.capacityBytes).toBe(10_000 * 8);
    expect(Array.from(column.view().subarray(0, 5))).toEqual([0, 1, 2, 3, 4]);
    expect(column.get(9_999)).toBe(9_999);
  });
});

describe('Growable.release', () => {
  it('hands out a view of a nearly full column, a tight copy of a mostly empty one, with the same values', () => {
    const full = u32(100);
    for (let i = 0; i < 80; i++) full.push(i * 3);
    const kept = full.release();
    expect(kept.buffer).toBe(full.array().buffer);
    expect(Array.from(kept)).toEqual(Array.from({ length: 80 }, (_, i) => i * 3));

    const sparse = f64(100);
    for (let i = 0; i < 74; i++) sparse.push(i + 0.5);
    const copied = sparse.release();
    expect(copied.buffer).not.toBe(sparse.array().buffer);
    expect(copied.buffer.byteLength).toBe(74 * 8);
    expect(Array.from(copied)).toEqual(Array.from({ length: 74 }, (_, i) => i + 0.5));

    expect(u32(64).release().length).toBe(0);
  });
});

describe('ModelBuilder.inputRead', () => {
  /** Held bytes after `ranges` complete ranges on one thread, the builder told it is a quarter into its file. */
  function heldAfter(ranges: number, budget: number | undefined): number {
    const b = new ModelBuilder({ fileName: 'plan.test', format: 'test', byteSize: 4_000_000 });
    if (budget !== undefined) b.setBudget(budget);
    const t = b.thread(1, 1);
    for (let i = 0; i < ranges; i++) {
      if (i % 100 === 0) b.inputRead(1_000_000);
      b.range(t, 10 * i, 10 * i + 5, { name: 'r' });
    }
    return b.heldBytes();
  }

  it('sizes columns for the whole file, unless that would pass half the memory budget', () => {
    const planned = heldAfter(5000, undefined);
    const roomy = heldAfter(5000, 1e9);
    const tight = heldAfter(5000, 5e5);
    // A quarter into the file: room for about four times what came so far.
    expect(roomy).toBe(planned);
    // Near the budget the columns double as they always did: less held than the projection.
    expect(tight).toBeLessThan(planned);
  });
});
