/**
 * Placing a row's ranges by writing each to its place (reading the row in arrival order) gives
 * the same model columns as gathering the row in layout order, the way finish() placed rows
 * before: the reference implementations below are that earlier code, run on random rows.
 */
import { describe, expect, it } from 'vitest';
import { RangeFlag, type Model } from '../types.ts';
import { placeOnlineRow, placeRows } from './placeRanges.ts';
import { layoutOnline, MAX_DEPTH, type Layout } from './rowLayout.ts';
import { OnlineStack, RowEvents } from './rows.ts';
import { seededRandom as random } from '../../../testkit/gen/random.ts';

/** Fails at the first value that differs (faster than a deep equality on long columns). */
function expectSameColumns(actual: object, expected: object, what: string): void {
  for (const [key, column] of Object.entries(expected) as [string, ArrayLike<number>][]) {
    const other = (actual as Record<string, ArrayLike<number>>)[key];
    expect(other.length, `${what}: ${key} length`).toBe(column.length);
    for (let i = 0; i < column.length; i++) {
      if (!Object.is(other[i], column[i])) expect.fail(`${what}: ${key}[${i}] is ${other[i]}, expected ${column[i]}`);
    }
  }
}

function emptyRanges(n: number): Model['ranges'] {
  return {
    startNs: new Float64Array(n),
    endNs: new Float64Array(n),
    style: new Uint32Array(n),
    depth: new Uint16Array(n),
    parent: new Int32Array(n),
    thread: new Int32Array(n),
    payload: new Int32Array(n),
    flags: new Uint8Array(n),
  };
}

/** The earlier `placeRows`: a gather in layout order. */
function placeRowsByGather(laid: Layout, ev: RowEvents, newIndex: Int32Array, at: number, zero: number, ranges: Model['ranges']): void {
  const order = laid.order;
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    const out = at + k;
    newIndex[i] = out;
    ranges.startNs[out] = ev.start.get(i) - zero;
    ranges.endNs[out] = ev.end.get(i) - zero;
    ranges.style[out] = ev.style.get(i);
    ranges.payload[out] = ev.payload.get(i);
    ranges.thread[out] = ev.thread.get(i);
    const p = laid.parent[i];
    ranges.parent[out] = p === -1 ? -1 : newIndex[p];
    ranges.depth[out] = laid.depth[i];
    ranges.flags[out] = ev.flags.get(i) | laid.extraFlags[i];
  }
}

/** A row of random ranges and a random layout: an order over the kept ones, parents placed before their children or dropped. */
function randomRow(rand: () => number, n: number): { ev: RowEvents; laid: Layout; dropped: boolean } {
  const ev = new RowEvents();
  for (let i = 0; i < n; i++) {
    const t = Math.floor(rand() * 1e6);
    ev.start.push(t);
    ev.end.push(t + Math.floor(rand() * 1e4));
    ev.style.push(Math.floor(rand() * 2 ** 32));
    ev.payload.push(Math.floor(rand() * 100) - 1);
    ev.thread.push(Math.floor(rand() * 8));
    ev.flags.push(Math.floor(rand() * 4));
  }
  const indices = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [indices[i], indices[j]] = [indices[j], indices[i]];
  }
  const dropRate = rand() < 0.5 ? 0 : rand() * 0.3;
  const droppedList = indices.filter(() => rand() < dropRate);
  const droppedSet = new Set(droppedList);
  const order = Uint32Array.from(indices.filter((i) => !droppedSet.has(i)));
  const parent = new Int32Array(n).fill(-1);
  const depth = new Uint16Array(n);
  const extraFlags = new Uint8Array(n);
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    const pick = rand();
    if (pick < 0.6 && k > 0) parent[i] = order[Math.floor(rand() * k)];
    else if (pick < 0.7 && droppedList.length > 0) parent[i] = droppedList[Math.floor(rand() * droppedList.length)];
    depth[i] = Math.floor(rand() * 60);
    extraFlags[i] = rand() < 0.1 ? RangeFlag.BadNesting : 0;
  }
  return { ev, laid: { order, depth, parent, extraFlags, levelCounts: [] }, dropped: droppedList.length > 0 };
}

describe('placing ranges', () => {
  it('placeRows writes what the gather in layout order wrote, on random rows and layouts', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rand = random(seed);
      const n = Math.floor(rand() * 300);
      const { ev, laid, dropped } = randomRow(rand, n);
      const at = Math.floor(rand() * 5);
      const zero = Math.floor(rand() * 1000);
      const expected = emptyRanges(at + n);
      const actual = emptyRanges(at + n);
      const expectedIndex = new Int32Array(n);
      const actualIndex = new Int32Array(n);
      if (dropped) {
        expectedIndex.fill(-1);
        actualIndex.fill(-1);
      }
      placeRowsByGather(laid, ev, expectedIndex, at, zero, expected);
      const flagged: number[] = [];
      placeRows(laid, ev, actualIndex, at, zero, actual, flagged);
      expectSameColumns(actual, expected, `seed ${seed}`);
      expect(flagged.sort((a, b) => a - b), `seed ${seed}`).toEqual(flaggedByScan(actual.flags));
      expectSameColumns({ index: actualIndex }, { index: expectedIndex }, `seed ${seed}`);
    }
  });

  it('placeOnlineRow writes what the earlier layout order of a row resolved on arrival (by level, then push order; parents by row-local index) and the gather wrote, on random stacks', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rand = random(seed);
      const on = new OnlineStack();
      // Each range's parent (row-local index), as the earlier builder kept it.
      const parents: number[] = [];
      let t = 0;
      const pushes = Math.floor(rand() * 400);
      const maxOpen = 1 + Math.floor(rand() * 12);
      for (let k = 0; k < pushes; k++) {
        while (on.open.length >= maxOpen || (on.open.length > 0 && rand() < 0.45)) {
          t += Math.floor(rand() * 3);
          on.end[on.open.pop()!] = t;
        }
        t += Math.floor(rand() * 3);
        parents.push(on.open.length > 0 ? on.open[on.open.length - 1] : -1);
        on.push(t, Math.floor(rand() * 50), Math.floor(rand() * 20) - 1, -2 - k);
      }
      // Now and then a row deeper than the layout keeps: its deepest ranges are dropped.
      if (seed % 100 === 0) {
        for (let k = 0; k < MAX_DEPTH + 3; k++) {
          parents.push(on.open.length > 0 ? on.open[on.open.length - 1] : -1);
          on.push(++t, 1, -1, -1);
        }
      }
      const n = on.count;
      // Ranges still open end with the capture, flagged (what resolveStack does).
      on.unterminated = on.open.splice(0);
      for (const i of on.unterminated) on.end[i] = t + 10;
      const thread = Math.floor(rand() * 16);
      const at = Math.floor(rand() * 5);
      const zero = Math.floor(rand() * 100);

      // The earlier path: an order by level then push order, and the gather.
      const ev = new RowEvents();
      const flags = new Uint8Array(n);
      for (const i of on.unterminated) flags[i] = RangeFlag.Unterminated;
      ev.start.adopt(on.start.slice(), n);
      ev.end.adopt(on.end.slice(), n);
      ev.style.adopt(on.style.slice(), n);
      ev.payload.adopt(on.payload.slice(), n);
      ev.thread.adopt(new Int32Array(n).fill(thread), n);
      ev.flags.adopt(flags, n);
      const depth = new Uint16Array(n);
      const levelCounts: number[] = [];
      let droppedAny = false;
      for (let i = 0; i < n; i++) {
        if (on.depth[i] > MAX_DEPTH) {
          droppedAny = true;
          continue;
        }
        depth[i] = on.depth[i];
        levelCounts[depth[i]] = (levelCounts[depth[i]] ?? 0) + 1;
      }
      const order = Array.from({ length: n }, (_, i) => i)
        .filter((i) => on.depth[i] <= MAX_DEPTH)
        .sort((a, b) => on.depth[a] - on.depth[b] || a - b);
      const expected = emptyRanges(at + order.length);
      const expectedIndex = new Int32Array(n).fill(droppedAny ? -1 : 0);
      placeRowsByGather(
        { order: Uint32Array.from(order), depth, parent: Int32Array.from(parents), extraFlags: new Uint8Array(n), levelCounts },
        ev,
        expectedIndex,
        at,
        zero,
        expected,
      );

      const laid = layoutOnline(on);
      expect(laid.placed, `seed ${seed}`).toBe(order.length);
      expect(laid.levelCounts, `seed ${seed}`).toEqual(levelCounts);
      const actual = emptyRanges(at + laid.placed);
      const flagged: number[] = [];
      placeOnlineRow(laid, on, thread, at, zero, actual, flagged);
      expectSameColumns(actual, expected, `seed ${seed}`);
      expect(flagged.sort((a, b) => a - b), `seed ${seed}`).toEqual(flaggedByScan(actual.flags));

    }
  });
});

/** The ranges whose flags are set, by a pass over the flags (what `Model.flaggedRanges` lists). */
function flaggedByScan(flags: Uint8Array): number[] {
  return [...flags.keys()].filter((i) => flags[i] !== 0);
}
