/** Pinned rows stay in a band at the top of the track area while the other rows scroll under it. */
import { describe, expect, it } from 'vitest';
import { contentYAt, drawStaticFrame, framedRows, hitTestFrame, locateRange, rowAtFrameY, rowTopCss, RULER_HEIGHT_CSS } from './frame.ts';
import { RecordingCanvas } from '../../testkit/canvas/recordingCanvas.ts';
import { testFrame, testText } from '../../testkit/canvas/testFrames.ts';
import { loaded, twoThreadModel } from '../../testkit/models/timelineModels.ts';
import { drawOverlay } from './renderers/overlay.ts';
import { buildTrackLayout } from './trackLayout.ts';

describe('pinned band', () => {
  const model = twoThreadModel();
  const plain = buildTrackLayout([loaded(model)], {});
  const workerStack = plain.rows.find((r) => r.kind === 'track' && r.key.includes('worker (2)') && model.tracks[r.track].kind === 'pushpop')!;
  const job = Array.from(model.ranges.style).findIndex((s) => model.strings[model.styles.name[s]] === 'job');

  /** Scrolled so far that the worker's own row is out of view: only the band shows it. */
  const scrolled = (scrollTopCss: number) =>
    testFrame([loaded(model)], { startNs: 0, endNs: 1000, widthCss: 800, heightCss: RULER_HEIGHT_CSS + 120 }, { scrollTopCss, arrangement: { pinned: [workerStack.key] } });

  it('keeps pinned rows at the top of the track area whatever the scroll, and maps the y below it to scrolled rows', () => {
    const frame = scrolled(230);
    const band = frame.layout.pinnedHeightCss;
    const pinned = frame.layout.rows[0];
    expect(pinned.pinned).toBe(true);
    expect(rowTopCss(frame, pinned)).toBe(RULER_HEIGHT_CSS);
    expect(rowAtFrameY(frame, RULER_HEIGHT_CSS + 2)).toBe(pinned);
    // Just under the band: the row at content y band + scroll.
    expect(contentYAt(frame, RULER_HEIGHT_CSS + band + 1)).toBe(band + 1 + 230);
    const under = rowAtFrameY(frame, RULER_HEIGHT_CSS + band + 1)!;
    expect(under.pinned).toBeFalsy();
    expect(under.yCss).toBeLessThanOrEqual(band + 231);
    expect(under.yCss + under.heightCss).toBeGreaterThan(band + 231);
    // The scrolled rows drawn start at that row, never above the band.
    const [first] = framedRows(frame);
    expect(frame.layout.rows[first]).toBe(under);
    expect(rowTopCss(frame, under)).toBeLessThanOrEqual(RULER_HEIGHT_CSS + band + 1);
  });

  it('hit tests and locates ranges of a pinned row in the band', () => {
    const frame = scrolled(230);
    const box = locateRange(frame, 1, job)!;
    expect(box.y).toBeGreaterThanOrEqual(RULER_HEIGHT_CSS);
    expect(box.y + box.h).toBeLessThanOrEqual(RULER_HEIGHT_CSS + frame.layout.pinnedHeightCss);
    expect(hitTestFrame(frame, (box.x0 + box.x1) / 2, box.y + box.h / 2)).toMatchObject({ kind: 'range', index: job });
  });

  it('draws the pinned row in the band, scrolled far past its place in the tree', () => {
    const frame = scrolled(230);
    const canvas = new RecordingCanvas();
    drawStaticFrame(canvas, frame, testText());
    // Its range's label is written in the band.
    const labels = canvas.calls.filter((c) => c.op === 'fillText' && c.text === 'job');
    expect(labels).toHaveLength(1);
    expect(labels[0].y).toBeGreaterThan(RULER_HEIGHT_CSS);
    expect(labels[0].y).toBeLessThan(RULER_HEIGHT_CSS + frame.layout.pinnedHeightCss);
    // Without the pin, at this scroll the worker's stack is not drawn at all.
    const unpinned = testFrame([loaded(model)], { startNs: 0, endNs: 1000, widthCss: 800, heightCss: RULER_HEIGHT_CSS + 120 }, { scrollTopCss: 230 });
    const [first, last] = framedRows(unpinned);
    expect(unpinned.layout.rows.slice(first, last).map((r) => r.key)).not.toContain(workerStack.key);
  });

  it('does not outline a selection whose row is scrolled under the band', () => {
    const done = Array.from(model.marks.style).findIndex((st) => model.strings[model.styles.name[st]] === 'done');
    const strokes = (scrollTopCss: number) => {
      const canvas = new RecordingCanvas();
      drawOverlay(canvas, scrolled(scrollTopCss), { pointer: null, hover: null, selection: { kind: 'mark', capture: 1, index: done }, span: null });
      return canvas.calls.filter((c) => c.op === 'strokeRect');
    };
    // The worker's marks row: in view at the top; scrolled so that it sits wholly under the band.
    expect(strokes(0)).toHaveLength(1);
    const frame = scrolled(0);
    const marksRow = frame.layout.rows.find((r) => r.key.endsWith('worker (2)/Marks'))!;
    const under = marksRow.yCss - 3;
    expect(marksRow.yCss - under + marksRow.heightCss).toBeLessThanOrEqual(frame.layout.pinnedHeightCss);
    expect(strokes(under)).toHaveLength(0);
  });
});
