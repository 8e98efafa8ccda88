import { describe, expect, it } from 'vitest';
import { launchTable, projectRange } from './projection.ts';

describe('projectRange', () => {
  // Calls (given out of order): [10,20] -> GPU [30,50], [40,45] -> [100,120] (2 ops), [90,110] -> [60,70].
  const table = launchTable([40, 10, 90, 200], [45, 20, 110, 210], [100, 30, 60, 0], [120, 50, 70, 0], [2, 1, 1, 0]);

  it('leaves out calls that launched nothing and orders the rest by start', () => {
    expect(Array.from(table.start)).toEqual([10, 40, 90]);
  });

  it('spans the GPU work of the calls lying entirely inside the range', () => {
    expect(projectRange(table, 0, 100)).toEqual({ startNs: 30, endNs: 120, workCount: 3, callCount: 2 });
    // Bounds are inclusive: a call from 10 to 20 is inside [10, 20].
    expect(projectRange(table, 10, 20)).toEqual({ startNs: 30, endNs: 50, workCount: 1, callCount: 1 });
    // A call straddling the range end is not inside it.
    expect(projectRange(table, 50, 100)).toBeUndefined();
    expect(projectRange(table, 85, 115)).toEqual({ startNs: 60, endNs: 70, workCount: 1, callCount: 1 });
    expect(projectRange(table, 21, 39)).toBeUndefined();
  });
});

describe('launchTable', () => {
  it('gives the same table for calls already in time order and for the same calls shuffled', () => {
    const inOrder = launchTable([10, 10, 40, 90], [20, 30, 45, 110], [30, 31, 100, 60], [50, 51, 120, 70], [1, 0, 2, 1]);
    const shuffled = launchTable([90, 10, 40, 10], [110, 30, 45, 20], [60, 31, 100, 30], [70, 51, 120, 50], [1, 0, 2, 1]);
    expect(inOrder).toEqual(shuffled);
    expect(Array.from(inOrder.start)).toEqual([10, 40, 90]);
    // Equal starts are ordered by end.
    const ties = launchTable([10, 10], [30, 20], [1, 2], [3, 4], [1, 1]);
    expect(Array.from(ties.end)).toEqual([20, 30]);
  });
});
