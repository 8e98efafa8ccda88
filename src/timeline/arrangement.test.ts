import { describe, expect, it } from 'vitest';
import { createViewerStore } from '../state/viewerStore.ts';
import { menuFor, parentKeyOf, type MenuEntry } from './menu/menuItems.ts';
import { COUNTER_ROW_CSS, COUNTER_ROW_MAX_CSS } from './rowGeometry.ts';
import { builder, loaded, twoThreadModel } from '../../testkit/models/timelineModels.ts';
import { buildTrackLayout, keyedChildren, type TrackArrangement } from './trackLayout.ts';

const labels = (arrangement: TrackArrangement, model = twoThreadModel()) =>
  buildTrackLayout([loaded(model)], {}, { arrangement }).rows.map((r) => r.label);

describe('track arrangement', () => {
  const model = twoThreadModel();
  const plain = buildTrackLayout([loaded(model)], {}).rows;
  const keyOf = (label: string) => plain.find((r) => r.label === label)!.key;

  it('lays out the tree as the model gives it when nothing is arranged', () => {
    expect(plain.map((r) => r.label)).toEqual(labels({}));
    expect(plain.map((r) => r.label)).toContain('worker (2)');
  });

  it('hides a row with everything below it, and its group summary leaves it out', () => {
    const hidden = labels({ hidden: { [keyOf('worker (2)')]: true } });
    expect(hidden).not.toContain('worker (2)');
    expect(hidden.length).toBeLessThan(plain.length - 1);
    const rootKey = plain[0].key;
    const collapsed = buildTrackLayout([loaded(model)], { [rootKey]: true }, { arrangement: { hidden: { [keyOf('worker (2)')]: true } } });
    const all = buildTrackLayout([loaded(model)], { [rootKey]: true });
    expect(collapsed.rows[0].summaryTracks!.length).toBeLessThan(all.rows[0].summaryTracks!.length);
  });

  it('shows pinned tracks in the band at the top, labelled with their path, and draws them there', () => {
    const mainStack = plain.find((r) => r.kind === 'track' && r.key.includes('main (1)'))!;
    const layout = buildTrackLayout([loaded(model)], {}, { arrangement: { pinned: [mainStack.key] } });
    expect(layout.rows[0].key).toBe(mainStack.key);
    expect(layout.rows[0].pinned).toBe(true);
    expect(layout.rows[0].label).toBe(`app (100) › main (1) › ${mainStack.label}`);
    expect(layout.rowOfTrack(1, mainStack.track)).toBe(0);
    expect(layout.pinnedCount).toBe(1);
    expect(layout.pinnedHeightCss).toBe(layout.rows[0].heightCss);
    // The capture's rows follow the band.
    expect(layout.rows[1].kind).toBe('capture');
    expect(layout.rows[1].yCss).toBe(layout.pinnedHeightCss);
    expect(layout.totalHeightCss).toBe(plain.reduce((h, r) => h + r.heightCss, 0));
    // Not a second time in its place.
    expect(layout.rows.filter((r) => r.key === mainStack.key)).toHaveLength(1);
    // A group left with nothing below it leaves the tree.
    const categories = plain.filter((r) => r.kind === 'track' && r.key.includes('/NVTX/')).map((r) => r.key);
    expect(categories.length).toBe(2);
    expect(plain.map((r) => r.label)).toContain('NVTX');
    const pinnedAll = buildTrackLayout([loaded(model)], {}, { arrangement: { pinned: categories } }).rows.map((r) => r.label);
    expect(pinnedAll).not.toContain('NVTX');
    expect(pinnedAll.length).toBe(plain.length - 1);
  });

  it('keeps the pinned rows of every capture in the one band, named by capture, even when a capture is collapsed', () => {
    const mainStack = plain.find((r) => r.kind === 'track' && r.key.includes('main (1)') && model.tracks[r.track].kind === 'pushpop')!;
    const other = twoThreadModel();
    const key2 = mainStack.key.replace(/^1\//, '2/');
    const layout = buildTrackLayout([loaded(model, 1), loaded(other, 2)], { '2': true }, { arrangement: { pinned: [key2, mainStack.key] } });
    expect(layout.pinnedCount).toBe(2);
    expect(layout.rows.slice(0, 2).map((r) => [r.key, r.label])).toEqual([
      [key2, `test.nvtxt › app (100) › main (1) › ${mainStack.label}`],
      [mainStack.key, `test.nvtxt › app (100) › main (1) › ${mainStack.label}`],
    ]);
    expect(layout.rowOfTrack(2, mainStack.track)).toBe(0);
    // The collapsed capture shows only its own row below the band.
    expect(layout.rows.filter((r) => r.captureId === 2).map((r) => r.kind)).toEqual(['track', 'capture']);
  });

  it('orders siblings as the user chose, the others keeping their places', () => {
    const threads = plain.filter((r) => r.label === 'main (1)' || r.label === 'worker (2)');
    const parent = parentKeyOf(threads[0].key);
    expect(parentKeyOf(threads[1].key)).toBe(parent);
    const moved = labels({ order: { [parent]: [threads[1].key, threads[0].key] } });
    expect(moved.indexOf('worker (2)')).toBeLessThan(moved.indexOf('main (1)'));
    // A stale key in the order changes nothing.
    expect(labels({ order: { [parent]: ['1/gone'] } })).toEqual(plain.map((r) => r.label));
  });

  it('filters the tree by name: matching rows with their ancestors and everything below them', () => {
    const onlyWorker = labels({ nameFilter: 'WORK' });
    expect(onlyWorker).toContain('worker (2)');
    expect(onlyWorker).not.toContain('main (1)');
    expect(onlyWorker[0]).toBe(plain[0].label);
    expect(labels({ nameFilter: 'no such track' })).toEqual([plain[0].label]);
  });

  it('puts the CUDA group first under its process', () => {
    const b = builder('c.sqlite');
    b.process(9, 'trainer');
    const t = b.thread(9, 90, 'main');
    const api = b.customRow({ kind: 'api', label: 'CUDA Runtime API', process: 0, thread: t });
    const gpu = b.customRow({ kind: 'gpu', label: 'Stream 7', process: 0, path: ['CUDA', 'GPU 0'] });
    b.rowRange(api, 0, 10, { name: 'launch' }, t);
    b.rowRange(gpu, 5, 20, { name: 'kernel' });
    const rows = labels({}, b.finish());
    expect(rows.slice(0, 5)).toEqual(['c.sqlite', 'trainer (9)', 'CUDA', 'GPU 0', 'Stream 7']);
  });

  it('gives counter rows the height the user chose, within limits', () => {
    const b = builder();
    b.process(1, 'p');
    const c = b.counterRow({ label: 'bytes', process: 0 });
    b.counter(c, 0, 1);
    b.counter(c, 10, 5);
    const m = b.finish();
    const row = buildTrackLayout([loaded(m)], {}).rows.find((r) => r.label === 'bytes')!;
    expect(row.heightCss).toBe(COUNTER_ROW_CSS);
    const tall = buildTrackLayout([loaded(m)], {}, { arrangement: { heights: { [row.key]: 120 } } }).rows.find((r) => r.label === 'bytes')!;
    expect(tall.heightCss).toBe(120);
    const huge = buildTrackLayout([loaded(m)], {}, { arrangement: { heights: { [row.key]: 1e6 } } }).rows.find((r) => r.label === 'bytes')!;
    expect(huge.heightCss).toBe(COUNTER_ROW_MAX_CSS);
  });

  it('keys repeated sibling labels by occurrence, whatever the display order', () => {
    const node = { label: 'x', track: -1, children: [] };
    expect(keyedChildren([node, { ...node }, { ...node, label: 'a/b' }], '1').map((k) => k.key)).toEqual(['1/x', '1/x~2', '1/a%2Fb']);
  });
});

describe('right-click menu', () => {
  const labelsOf = (entries: MenuEntry[]) => entries.map((e) => (e === 'separator' ? '—' : `${e.label}${e.disabled ? ' (off)' : ''}`));

  it('offers range actions that act on the store', () => {
    const store = createViewerStore();
    store.getState().addCapture({ model: twoThreadModel(), decodeMs: 0 });
    const layout = buildTrackLayout(store.getState().captures, {});
    const row = layout.rows.find((r) => r.kind === 'track' && r.key.includes('main (1)') && r.label === 'Push/Pop')!;
    const model = row.model;
    const update = Array.from(model.ranges.style).findIndex((s) => model.strings[model.styles.name[s]] === 'update');
    const zoomed: number[][] = [];
    const copied: string[] = [];
    const menu = menuFor({ kind: 'range', row, index: update }, { store, layout, zoomTo: (a, b) => zoomed.push([a, b]), copy: (t) => copied.push(t) });
    expect(menu.title).toBe('update');
    expect(labelsOf(menu.entries)).toEqual([
      'Zoom to range',
      'Copy name',
      'Show in events table',
      'Find this name',
      'Show only this name',
      'Hide this name',
      '—',
      'Pin to top',
      // The thread's marks row comes first, its push/pop row last.
      'Move up',
      'Move down (off)',
      'Hide track',
    ]);
    const run = (label: string) => (menu.entries.find((e) => e !== 'separator' && e.label === label) as Exclude<MenuEntry, 'separator'>).run();
    run('Zoom to range');
    expect(zoomed).toEqual([[100, 400]]);
    run('Copy name');
    expect(copied).toEqual(['update']);
    run('Show in events table');
    expect(store.getState().selection).toEqual({ kind: 'range', capture: row.captureId, index: update });
    expect(store.getState().panel).toBe('events');
    run('Find this name');
    expect(store.getState().search).toEqual({ text: '^update$', regex: true, matchCase: true });
    run('Show only this name');
    expect(store.getState().filters.hidden).toEqual([{ kind: 'only', domain: '', name: 'update' }]);
    run('Hide this name');
    expect(store.getState().filters.hidden).toEqual([
      { kind: 'only', domain: '', name: 'update' },
      { kind: 'name', domain: '', name: 'update' },
    ]);
    run('Pin to top');
    expect(store.getState().tracks.pinned).toEqual([row.key]);
    run('Hide track');
    expect(store.getState().tracks.hidden).toEqual({ [row.key]: true });
  });

  it('moves a row among its siblings', () => {
    const store = createViewerStore();
    store.getState().addCapture({ model: twoThreadModel(), decodeMs: 0 });
    const layout = buildTrackLayout(store.getState().captures, {});
    const main = layout.rows.find((r) => r.label === 'main (1)')!;
    const menu = menuFor({ kind: 'row', row: main }, { store, layout, zoomTo: () => undefined, copy: () => undefined });
    const down = menu.entries.find((e) => e !== 'separator' && e.label === 'Move down') as Exclude<MenuEntry, 'separator'>;
    expect(down.disabled).toBeFalsy();
    down.run();
    const moved = buildTrackLayout(store.getState().captures, {}, { arrangement: store.getState().tracks }).rows.map((r) => r.label);
    expect(moved.indexOf('worker (2)')).toBeLessThan(moved.indexOf('main (1)'));
  });

  it('moves a pinned row within the band in one change, across captures', () => {
    const store = createViewerStore();
    store.getState().addCapture({ model: twoThreadModel(), decodeMs: 0 });
    store.getState().addCapture({ model: twoThreadModel(), decodeMs: 0 });
    const [a, b] = store.getState().captures.map((c) => c.id);
    const stack = (id: number) => `${id}/app (100)/main (1)/Push%2FPop`;
    store.getState().setRowPinned(stack(a), true);
    store.getState().setRowPinned(stack(b), true);
    store.getState().setRowPinned(`${a}/gone`, true);
    const layout = buildTrackLayout(store.getState().captures, {}, { arrangement: store.getState().tracks });
    expect(layout.rows.slice(0, 2).map((r) => r.key)).toEqual([stack(a), stack(b)]);
    let changes = 0;
    store.subscribe(() => changes++);
    const menu = menuFor({ kind: 'row', row: layout.rows[1] }, { store, layout, zoomTo: () => undefined, copy: () => undefined });
    (menu.entries.find((e) => e !== 'separator' && e.label === 'Move up') as Exclude<MenuEntry, 'separator'>).run();
    expect(changes).toBe(1);
    expect(store.getState().tracks.pinned).toEqual([stack(b), stack(a), `${a}/gone`]);
  });
});
