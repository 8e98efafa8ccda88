import { describe, expect, it } from 'vitest';
import { randomModel } from '../../../testkit/models/randomModel.ts';
import { ModelBuilder } from '../../model/builder.ts';
import { rangeName, selfTime } from '../../model/query.ts';
import type { Model } from '../../model/types.ts';
import { captureFilter, NO_FILTERS, withHidden } from '../../analysis/eventFilters.ts';
import {
  ancestors,
  flattenTree,
  hierarchyKey,
  initialView,
  noExpansion,
  pushPopRow,
  pushPopTree,
  revealInView,
  type HierarchyKey,
  type HierarchyView,
  type PushPopTree,
} from './hierarchy.ts';

/**
 * Thread "main": frame [0,100] > (update [10,30] > (physics [12,20]), draw [40,90] > (cull [41,45],
 * submit [50,80] > wait [60,70])), then frame [110,200] > draw [120,190].
 */
function sample(): { model: Model; track: number } {
  const b = new ModelBuilder({ fileName: 'tree.test', format: 'test', byteSize: 0 });
  b.setCaptureSpan(0, 300);
  const t = b.thread(1, 1, 'main');
  const push = (name: string, at: number) => b.push(t, at, { name });
  const pop = (at: number) => b.pop(t, at);
  push('frame', 0);
  push('update', 10);
  push('physics', 12);
  pop(20);
  pop(30);
  push('draw', 40);
  push('cull', 41);
  pop(45);
  push('submit', 50);
  push('wait', 60);
  pop(70);
  pop(80);
  pop(90);
  pop(100);
  push('frame', 110);
  push('draw', 120);
  pop(190);
  pop(200);
  const model = b.finish();
  return { model, track: model.tracks.findIndex((tr) => tr.kind === 'pushpop') };
}

const names = (model: Model, rows: ArrayLike<number>) => Array.from(rows, (r) => rangeName(model, r));
const focusName = (model: Model, view: HierarchyView) => rangeName(model, view.focus);

function press(tree: PushPopTree, view: HierarchyView, ...keys: HierarchyKey[]): HierarchyView {
  return keys.reduce((v, k) => hierarchyKey(tree, v, k, null), view);
}

describe('push/pop tree', () => {
  it('has the nsys pushpop_trace columns', () => {
    const { model, track } = sample();
    const tree = pushPopTree(model, track);
    const draw = model.ranges.startNs.findIndex((s, i) => s === 40 && rangeName(model, i) === 'draw');
    expect(pushPopRow(tree, draw)).toEqual({ startNs: 40, endNs: 90, durationNs: 50, durChildNs: 34, durNonChildNs: 16, level: 1, numChild: 2, unended: false });
    expect(names(model, ancestors(model, draw))).toEqual(['frame']);
  });

  it('marks a range still open at the end of the capture as unended', () => {
    const b = new ModelBuilder({ fileName: 'open.test', format: 'test', byteSize: 0 });
    const t = b.thread(1, 1);
    b.range(t, 0, 10, { name: 'done' });
    b.push(t, 20, { name: 'open' });
    b.range(t, 30, 40, { name: 'inner' });
    const model = b.finish();
    const track = model.tracks.findIndex((x) => x.kind === 'pushpop');
    const tree = pushPopTree(model, track);
    const at = (name: string) => model.ranges.startNs.findIndex((_, i) => rangeName(model, i) === name);
    expect(pushPopRow(tree, at('open')).unended).toBe(true);
    expect(pushPopRow(tree, at('done')).unended).toBe(false);
    expect(pushPopRow(tree, at('inner')).unended).toBe(false);
  });

  it('agrees with selfTime and the parent column on random captures (property)', () => {
    for (const seed of [1, 2, 3, 4]) {
      const model = randomModel({ seed });
      model.tracks.forEach((tr, track) => {
        if (tr.kind !== 'pushpop') return;
        const tree = pushPopTree(model, track);
        let nodes = 0;
        for (let r = tr.rangeBegin; r < tr.rangeEnd; r++) {
          const row = pushPopRow(tree, r);
          expect(row.durNonChildNs).toBeCloseTo(selfTime(model, r), 6);
          const kids = model.ranges.parent.filter((p) => p === r).length;
          expect(row.numChild).toBe(kids);
          nodes++;
        }
        // Everything expanded lists every range once, each after its parent.
        const all = flattenTree(tree, new Uint8Array(nodes).fill(1), null);
        expect(all.length).toBe(nodes);
        const position = new Map(Array.from(all, (r, k) => [r, k]));
        for (const r of all) if (model.ranges.parent[r] >= 0) expect(position.get(model.ranges.parent[r])!).toBeLessThan(position.get(r)!);
      });
    }
  });
});

describe('hierarchy keyboard', () => {
  it('moves, expands one level, collapses and restores the previous expansion', () => {
    const { model, track } = sample();
    const tree = pushPopTree(model, track);
    let view = initialView(tree, null);
    expect(names(model, view.rows)).toEqual(['frame', 'frame']);
    view = press(tree, view, 'ArrowRight');
    expect(names(model, view.rows)).toEqual(['frame', 'update', 'draw', 'frame']);
    view = press(tree, view, 'ArrowRight', 'ArrowDown', 'ArrowRight');
    expect(focusName(model, view)).toBe('draw');
    expect(names(model, view.rows)).toEqual(['frame', 'update', 'draw', 'cull', 'submit', 'frame']);
    // Left on draw closes it; Left again moves to frame; Left closes frame; Right brings back draw open.
    view = press(tree, view, 'ArrowLeft', 'ArrowLeft');
    expect(focusName(model, view)).toBe('frame');
    view = press(tree, view, 'ArrowLeft');
    expect(names(model, view.rows)).toEqual(['frame', 'frame']);
    view = press(tree, view, 'ArrowRight', 'ArrowDown', 'ArrowDown', 'ArrowRight');
    expect(names(model, view.rows)).toEqual(['frame', 'update', 'draw', 'cull', 'submit', 'frame']);
    // Closing frame with draw open and opening it again brings draw back open.
    view = press(tree, view, 'ArrowUp', 'ArrowUp', 'ArrowLeft');
    expect(names(model, view.rows)).toEqual(['frame', 'frame']);
    view = press(tree, view, 'ArrowRight');
    expect(names(model, view.rows)).toEqual(['frame', 'update', 'draw', 'cull', 'submit', 'frame']);
  });

  it('expands and collapses whole subtrees with * and /', () => {
    const { model, track } = sample();
    const tree = pushPopTree(model, track);
    let view = press(tree, initialView(tree, null), '*');
    expect(names(model, view.rows)).toEqual(['frame', 'update', 'physics', 'draw', 'cull', 'submit', 'wait', 'frame']);
    view = press(tree, view, 'ArrowDown', 'ArrowDown', 'ArrowDown', '/');
    expect(focusName(model, view)).toBe('draw');
    expect(names(model, view.rows)).toEqual(['frame', 'update', 'physics', 'draw', 'frame']);
    // '/' forgot the inner expansion: Right opens one level only.
    view = press(tree, view, 'ArrowRight');
    expect(names(model, view.rows)).toEqual(['frame', 'update', 'physics', 'draw', 'cull', 'submit', 'frame']);
    expect(focusName(model, press(tree, view, 'End'))).toBe('frame');
    expect(focusName(model, press(tree, view, 'End', 'Home'))).toBe('frame');
    expect(press(tree, view, 'PageDown').focus).toBe(view.rows[Math.min(view.rows.length - 1, view.rows.indexOf(view.focus) + 10)]);
  });

  it('reveals a deep range by expanding its ancestors', () => {
    const { model, track } = sample();
    const tree = pushPopTree(model, track);
    const wait = model.ranges.startNs.findIndex((s, i) => s === 60 && rangeName(model, i) === 'wait');
    const view = revealInView(tree, initialView(tree, null), wait, null);
    expect(focusName(model, view)).toBe('wait');
    expect(names(model, view.rows)).toEqual(['frame', 'update', 'draw', 'cull', 'submit', 'wait', 'frame']);
  });

  it('replaces filtered-out ranges by their children', () => {
    const { model, track } = sample();
    const tree = pushPopTree(model, track);
    const filter = captureFilter(model, withHidden(NO_FILTERS, [{ kind: 'name', domain: '', name: 'draw' }], true));
    const expanded = noExpansion(tree).fill(1);
    expect(names(model, flattenTree(tree, expanded, filter))).toEqual(['frame', 'update', 'physics', 'cull', 'submit', 'wait', 'frame']);
    let view = revealInView(tree, initialView(tree, filter), model.ranges.startNs.findIndex((s) => s === 41), filter);
    expect(focusName(model, view)).toBe('cull');
    view = hierarchyKey(tree, view, 'ArrowLeft', filter);
    expect(focusName(model, view)).toBe('frame');
  });
});
