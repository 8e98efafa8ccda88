/**
 * A capture whose model does not fit in memory: the load stops, keeps the model of what it read and
 * says where it stopped (issue 15 §4). The memory limit is the load's budget (`modelBudgetBytes`),
 * set small here so the same path runs deterministically; an allocation the engine refuses (a
 * RangeError) takes the same path.
 */
import { describe, expect, it } from 'vitest';
import { generatedCapture } from '../../testkit/load/twoWays.ts';
import { modelViolations } from '../../testkit/models/invariants.ts';
import { isOutOfMemory, ModelBuilder, ModelOverBudget } from '../model/builder.ts';
import type { Model } from '../model/types.ts';
import { loadModel, memorySource } from './pipeline.ts';

const generated = generatedCapture;

const countOf = (m: Model) => m.ranges.startNs.length + m.marks.timeNs.length;

describe.each([
  ['chrome-json', 'json', 200_000],
  ['nvtxc', 'nvtxc', 300_000],
  ['nvtxt', 'nvtxt', 100_000],
])('a %s capture over the memory budget', (format, ext, events) => {
  it('keeps the model of the bytes before the stop and names the byte offset reached', async () => {
    const bytes = await generated(format, { events, seed: 3 });
    const name = `big.${ext}`;
    const whole = await loadModel(memorySource(name, bytes));
    const budget = 2 * 1048576;
    const cut = await loadModel(memorySource(name, bytes), { decode: { modelBudgetBytes: budget } });

    const error = cut.issues.find((i) => i.severity === 'error' && i.message.includes('does not fit in memory'));
    expect(error, cut.issues.map((i) => i.message).join('\n')).toBeDefined();
    const at = Number(/at byte (\d+) of (\d+)/.exec(error!.message)?.[1]);
    expect(error!.message).toContain(`of ${bytes.length}`);
    expect(error!.file).toBe(name);
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(bytes.length);
    expect(cut.capture.properties['loaded only']).toBe(`bytes 0..${at}`);
    // Part of the capture, consistent, and the part of it that lies before the stop.
    expect(countOf(cut)).toBeGreaterThan(0);
    expect(countOf(cut)).toBeLessThan(countOf(whole));
    expect(modelViolations(cut)).toEqual([]);
    expect(whole.issues.some((i) => i.message.includes('does not fit'))).toBe(false);
  });
});

it('an nsys export over the budget stops at a row and says how much of the file it read', async () => {
  const bytes = await generated('nsys-sqlite', { events: 120_000, seed: 5 });
  const cut = await loadModel(memorySource('big.sqlite', bytes), { decode: { modelBudgetBytes: 1048576 } });
  const whole = await loadModel(memorySource('big.sqlite', bytes));
  const error = cut.issues.find((i) => i.message.includes('does not fit in memory'));
  expect(error?.message).toMatch(/after reading [\d.]+ MB of the [\d.]+ MB file/);
  expect(cut.issues.some((i) => /table NVTX_EVENTS: \d+ rows read when memory ran out/.test(i.message))).toBe(true);
  expect(countOf(cut)).toBeGreaterThan(0);
  expect(countOf(cut)).toBeLessThan(countOf(whole));
  expect(modelViolations(cut)).toEqual([]);
});

it('a refused allocation counts as memory running out; other errors do not', () => {
  expect(isOutOfMemory(new RangeError('Array buffer allocation failed'))).toBe(true);
  expect(isOutOfMemory(new RangeError('Invalid typed array length: 4294967296'))).toBe(true);
  expect(isOutOfMemory(new ModelOverBudget(2, 1))).toBe(true);
  expect(isOutOfMemory(new RangeError('Maximum call stack size exceeded'))).toBe(false);
  expect(isOutOfMemory(new Error('Array buffer allocation failed'))).toBe(false);
});

it("the builder's held bytes grow with what it holds and the budget check throws past it", () => {
  const b = new ModelBuilder({ fileName: 'x', format: 'test', byteSize: 0 });
  const t = b.thread(1, 1);
  const before = b.heldBytes();
  for (let i = 0; i < 100_000; i++) b.range(t, i * 10, i * 10 + 5, { name: `r${i % 10}` });
  // 7 columns of at least 100k ranges: over 3 MB.
  expect(b.heldBytes() - before).toBeGreaterThan(3e6);
  b.setBudget(1e6);
  expect(() => b.checkBudget()).toThrow(ModelOverBudget);
  b.setBudget(1e9);
  expect(() => b.checkBudget()).not.toThrow();
});
