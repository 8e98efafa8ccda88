import { describe, expect, it } from 'vitest';
import { HEADER_ROW_CSS, LEVEL_HEIGHT_CSS, levelTopCss, MARK_STRIP_CSS, MAX_LEVELS_SHOWN, trackGeometry } from './rowGeometry.ts';
import { builder, loaded, twoThreadModel } from '../../testkit/models/timelineModels.ts';
import { buildTrackLayout, nodeKey, rowAtY, visibleRows } from './trackLayout.ts';

describe('nodeKey', () => {
  it('joins the label path under the capture id and escapes slashes in labels', () => {
    expect(nodeKey(3, [])).toBe('3');
    expect(nodeKey(3, ['app (100)', 'main (1)', 'Push/Pop'])).toBe('3/app (100)/main (1)/Push%2FPop');
    expect(nodeKey(1, ['a/b', 'c'])).not.toBe(nodeKey(1, ['a', 'b/c']));
  });
});

describe('buildTrackLayout', () => {
  const model = twoThreadModel();

  it('lists capture, process, threads, rows and categories in tree order with stacked y offsets', () => {
    const layout = buildTrackLayout([loaded(model)], {});
    const outline = layout.rows.map((r) => `${'  '.repeat(r.depth)}${r.label}`);
    expect(outline).toEqual([
      'test.nvtxt',
      '  app (100)',
      '    main (1)',
      '      Marks',
      '      Push/Pop',
      '    worker (2)',
      '      Marks',
      '      Push/Pop',
      '    NVTX',
      '      io (1)',
      '        net (2)',
    ]);
    let y = 0;
    for (const row of layout.rows) {
      expect(row.yCss).toBe(y);
      y += row.heightCss;
    }
    expect(layout.totalHeightCss).toBe(y);
    const mainStack = layout.rows[4];
    expect(mainStack.geometry!.levelsShown).toBe(3);
    expect(mainStack.heightCss).toBeGreaterThanOrEqual(3 * LEVEL_HEIGHT_CSS);
    // The io category row has a mark (done, category 1): it gets a marks strip.
    expect(layout.rows[9].geometry!.markStripCss).toBe(MARK_STRIP_CSS);
    expect(layout.rows[10].geometry!.markStripCss).toBe(0);
  });

  it('hides the children of collapsed nodes and summarises their tracks on the group row', () => {
    const full = buildTrackLayout([loaded(model)], {});
    const threadKey = full.rows[2].key;
    const layout = buildTrackLayout([loaded(model)], { [threadKey]: true });
    expect(layout.rows.length).toBe(full.rows.length - 2);
    const group = layout.rows[2];
    expect(group.collapsed).toBe(true);
    expect(group.heightCss).toBe(HEADER_ROW_CSS);
    expect(group.summaryTracks!.map((t) => model.tracks[t].kind).sort()).toEqual(['marks', 'pushpop']);
    // Rows below moved up by the hidden rows' heights.
    expect(layout.rows[3].yCss).toBe(full.rows[5].yCss - full.rows[3].heightCss - full.rows[4].heightCss);
    // Hidden tracks have no row; visible ones map to their row.
    const hiddenTrack = full.rows[4].track;
    expect(layout.rowOfTrack(1, hiddenTrack)).toBe(-1);
    expect(layout.rows[layout.rowOfTrack(1, full.rows[7].track)].label).toBe('Push/Pop');
  });

  it('collapses a whole capture to its root row', () => {
    const layout = buildTrackLayout([loaded(model, 1), loaded(model, 2)], { '1': true });
    expect(layout.rows[0].collapsed).toBe(true);
    expect(layout.rows[1].kind).toBe('capture');
    expect(layout.rows[1].captureId).toBe(2);
    expect(layout.rows[1].yCss).toBe(HEADER_ROW_CSS);
    expect(layout.rows[0].summaryTracks!.length).toBe(model.tracks.length);
  });

  it('ignores collapse keys of leaf rows and of other captures', () => {
    const full = buildTrackLayout([loaded(model)], {});
    const layout = buildTrackLayout([loaded(model)], { [full.rows[4].key]: true, '2/app (100)': true });
    expect(layout.rows.length).toBe(full.rows.length);
  });

  it('caps the height of very deep stacks until the row is opened to every level', () => {
    const b = builder();
    const t = b.thread(1, 1);
    for (let d = 0; d < 100; d++) b.range(t, d, 1000 - d, { name: `d${d}` });
    const m = b.finish();
    const g = trackGeometry(m.tracks[0]);
    expect(g.levelsTotal).toBe(100);
    expect(g.levelsShown).toBe(MAX_LEVELS_SHOWN);
    const open = trackGeometry(m.tracks[0], true);
    expect(open.levelsShown).toBe(100);
    expect(levelTopCss(open, 99)).toBe(levelTopCss(open, 0) + 99 * LEVEL_HEIGHT_CSS);
    // The layout opens the row whose key is in `allLevels`, and only that one.
    const folded = buildTrackLayout([loaded(m)], {});
    const stack = folded.rows.find((r) => r.track === 0)!;
    const opened = buildTrackLayout([loaded(m)], {}, { allLevels: { [stack.key]: true } });
    const openRow = opened.rows.find((r) => r.track === 0)!;
    expect(openRow.geometry!.levelsShown).toBe(100);
    expect(opened.totalHeightCss - folded.totalHeightCss).toBe((100 - MAX_LEVELS_SHOWN) * LEVEL_HEIGHT_CSS);
  });

  it('finds the rows in a vertical window and the row at a y', () => {
    const layout = buildTrackLayout([loaded(model)], {});
    const r4 = layout.rows[4];
    const [first, last] = visibleRows(layout, r4.yCss + 1, r4.yCss + r4.heightCss + 1);
    expect([first, last]).toEqual([4, 6]);
    expect(rowAtY(layout, r4.yCss)).toBe(4);
    expect(rowAtY(layout, r4.yCss - 0.5)).toBe(3);
    expect(rowAtY(layout, layout.totalHeightCss + 5)).toBe(-1);
    expect(visibleRows(layout, 0, layout.totalHeightCss)).toEqual([0, layout.rows.length]);
  });
});

describe('buildTrackLayout keys', () => {
  it('gives every row the nodeKey of its label path', () => {
    const model = twoThreadModel();
    const layout = buildTrackLayout([loaded(model, 4)], {});
    const path: string[] = [];
    for (const row of layout.rows) {
      path.length = row.depth;
      if (row.depth > 0) path[row.depth - 1] = row.label;
      expect(row.key).toBe(nodeKey(4, path.slice(0, row.depth)));
    }
  });

  it('keeps keys unique when sibling labels repeat', () => {
    // Labels carry pids and tids, so real trees rarely repeat one; force it with a copied subtree.
    const model = twoThreadModel();
    model.trackTree.push(model.trackTree[0]);
    const rows = buildTrackLayout([loaded(model)], {}).rows;
    const keys = rows.map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.filter((k) => k.startsWith('1/app (100)~2')).length).toBe(rows.length / 2 - 0.5);
  });
});
