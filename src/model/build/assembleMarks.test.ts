/**
 * Marks at finish: a marks row that arrived in time order is placed by plain copies, one that did
 * not is sorted; either way the model is the same, and so are the references category rows keep
 * to their marks (`markRefs`, sorted by time, then position).
 */
import { describe, expect, it } from 'vitest';
import { Random } from '../../../testkit/gen/random.ts';
import { modelViolations } from '../../../testkit/models/invariants.ts';
import { ModelBuilder } from '../builder.ts';
import type { Model } from '../types.ts';

interface MarkInput {
  thread: number;
  t: number;
  style: number;
}

function build(marks: MarkInput[], styles: { name: string; category: number }[]): Model {
  const b = new ModelBuilder({ fileName: 'marks.test', format: 'test', byteSize: 0 });
  const threads = [b.thread(1, 1), b.thread(1, 2), b.thread(1, 3)];
  const styleIds = styles.map((s) => b.style({ name: s.name, category: s.category }));
  // Rows in a fixed order (rows are made on first use): early marks on every thread and category.
  for (const t of threads) b.mark(t, -1, { name: 'first' });
  styles.forEach((s, k) => b.mark(threads[0], -1, { name: s.name, category: s.category, style: styleIds[k] }));
  for (const m of marks) {
    const s = styles[m.style];
    b.mark(threads[m.thread], m.t, { name: s.name, category: s.category, style: styleIds[m.style] });
  }
  return b.finish();
}

function shuffled<T>(rnd: Random, items: T[]): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = rnd.int(0, i);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function expectByTimeThenIndex(m: Model, refs: number[]): void {
  for (let k = 1; k < refs.length; k++) {
    const [a, b] = [refs[k - 1], refs[k]];
    const ordered = m.marks.timeNs[a] < m.marks.timeNs[b] || (m.marks.timeNs[a] === m.marks.timeNs[b] && a < b);
    expect(ordered, `references ${k - 1} and ${k}: marks ${a} and ${b}`).toBe(true);
  }
}

describe('marks at finish', () => {
  it('gives the same model for marks in time order and in any order', () => {
    const rnd = new Random(8);
    for (let trial = 0; trial < 60; trial++) {
      const styles = Array.from({ length: rnd.int(1, 6) }, (_, i) => ({ name: `m${i}`, category: rnd.int(0, 3) }));
      const times = new Set<number>();
      const count = rnd.int(1, 400);
      while (times.size < count) times.add(rnd.int(0, 1_000_000));
      const inOrder = [...times]
        .sort((a, b) => a - b)
        .map((t) => ({ thread: rnd.int(0, 2), t, style: rnd.int(0, styles.length - 1) }));
      const a = build(inOrder, styles);
      const b = build(shuffled(rnd, inOrder), styles);
      expect(modelViolations(a)).toEqual([]);
      expect(modelViolations(b)).toEqual([]);
      expect(Array.from(b.marks.timeNs), `trial ${trial}`).toEqual(Array.from(a.marks.timeNs));
      expect(Array.from(b.marks.style)).toEqual(Array.from(a.marks.style));
      expect(Array.from(b.marks.thread)).toEqual(Array.from(a.marks.thread));
      expect(Array.from(b.marks.payload)).toEqual(Array.from(a.marks.payload));
      expect(Array.from(b.markRefs)).toEqual(Array.from(a.markRefs));
      expect(b.tracks).toEqual(a.tracks);
      // Each category row refers to exactly its category's marks, by time.
      for (const track of a.tracks.filter((x) => x.kind === 'category')) {
        const refs = Array.from(a.markRefs.subarray(track.markRefBegin, track.markRefEnd));
        const want = Array.from(a.marks.style.keys()).filter((k) => a.styles.category[a.marks.style[k]] === track.category);
        expect([...refs].sort((x, y) => x - y)).toEqual(want);
        expectByTimeThenIndex(a, refs);
      }
    }
  });

  it('orders category mark references by time, then position, with ties and marks in any order', () => {
    const rnd = new Random(12);
    for (let trial = 0; trial < 40; trial++) {
      const styles = Array.from({ length: rnd.int(1, 4) }, (_, i) => ({ name: `m${i}`, category: rnd.int(1, 2) }));
      const marks = Array.from({ length: rnd.int(1, 500) }, () => ({ thread: rnd.int(0, 2), t: rnd.int(0, 50), style: rnd.int(0, styles.length - 1) }));
      const m = build(marks, styles);
      expect(modelViolations(m)).toEqual([]);
      for (const track of m.tracks.filter((x) => x.kind === 'category')) {
        const refs = Array.from(m.markRefs.subarray(track.markRefBegin, track.markRefEnd));
        const want = Array.from(m.marks.style.keys()).filter((k) => m.styles.category[m.marks.style[k]] === track.category);
        expect([...refs].sort((x, y) => x - y)).toEqual(want);
        expectByTimeThenIndex(m, refs);
      }
    }
  });
});
