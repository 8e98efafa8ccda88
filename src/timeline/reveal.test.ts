import { describe, expect, it } from 'vitest';
import { viewLimits } from './navigation.ts';
import { collapsedAbove, revealWindow, scrollToShow } from './reveal.ts';
import { loaded, twoThreadModel } from '../../testkit/models/timelineModels.ts';
import { buildTrackLayout } from './trackLayout.ts';

describe('collapsedAbove', () => {
  const capture = loaded(twoThreadModel(), 7);
  const rows = buildTrackLayout([capture], {}).rows;
  const mainStack = capture.model.tracks.findIndex((t) => t.kind === 'pushpop' && t.thread === 0);
  const trackRow = rows.find((r) => r.track === mainStack)!;
  const ancestors = rows.filter((r, i) => r.depth < trackRow.depth && i < rows.indexOf(trackRow));

  it('lists only the collapsed ancestors of the row, outermost first', () => {
    const all = Object.fromEntries(rows.filter((r) => r.kind !== 'track').map((r) => [r.key, true as const]));
    const keys = collapsedAbove(capture, all, mainStack);
    expect(keys[0]).toBe('7');
    expect(keys.length).toBeGreaterThan(1);
    for (const k of keys) expect(ancestors.map((r) => r.key)).toContain(k);
    // Expanding them shows the row.
    const collapsed = { ...all };
    for (const k of keys) delete collapsed[k];
    expect(buildTrackLayout([capture], collapsed).rowOfTrack(7, mainStack)).toBeGreaterThanOrEqual(0);
  });

  it('is empty when nothing above the row is collapsed', () => {
    const sibling = rows.find((r) => r.kind === 'track' && r.track !== mainStack)!;
    expect(collapsedAbove(capture, { [sibling.key]: true }, mainStack)).toEqual([]);
  });
});

describe('revealWindow', () => {
  const limits = viewLimits({ start: 0, end: 1e9 }, 1000);

  it('shows the range in the middle third of the view', () => {
    const v = revealWindow(400e6, 410e6, { startNs: 0, endNs: 1e9 }, limits);
    expect(v.startNs).toBeCloseTo(390e6);
    expect(v.endNs).toBeCloseTo(420e6);
  });

  it('centres an instant out of view at the current zoom, leaves the view when it is in it', () => {
    const v = revealWindow(500e6, 500e6, { startNs: 0, endNs: 100e6 }, limits);
    expect(v).toEqual({ startNs: 450e6, endNs: 550e6 });
    const current = { startNs: 0, endNs: 1e9 };
    expect(revealWindow(140e6, 140e6, current, limits)).toBe(current);
  });
});

describe('scrollToShow', () => {
  it('keeps a visible row where it is and centres a row out of view', () => {
    expect(scrollToShow(100, 20, 50, 200)).toBe(50);
    expect(scrollToShow(500, 20, 50, 200)).toBe(410);
    expect(scrollToShow(10, 20, 50, 200)).toBe(0);
    expect(scrollToShow(1000, 400, 0, 200)).toBe(1000);
  });
});
