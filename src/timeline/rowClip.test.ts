/**
 * A row wholly inside its area of the canvas is drawn without a clip when its renderer paints only
 * inside the row; any other row keeps the clip to its area (the pinned band, or the scrolled rows
 * under it). The renderers that claim to paint inside their row are checked against what they draw.
 */
import { describe, expect, it } from 'vitest';
import { RecordingCanvas } from '../../testkit/canvas/recordingCanvas.ts';
import { testFrame, testText } from '../../testkit/canvas/testFrames.ts';
import { loaded } from '../../testkit/models/timelineModels.ts';
import { randomModel } from '../../testkit/models/randomModel.ts';
import { drawStaticFrame, rowTopCss, RULER_HEIGHT_CSS, type Frame } from './frame.ts';
import { rendererFor } from './renderers/index.ts';
import type { LayoutRow } from './trackLayout.ts';

/** Records, per row drawn, whether it was clipped and the extent (canvas y) of everything it painted. */
class RowRecorder extends RecordingCanvas {
  private origin: number | null = null;
  private clipped = false;
  private pendingClip = false;
  /** Saves open: the frame's own around all rows, then one per row. */
  private depth = 0;
  rows = new Map<number, { clipped: boolean; top: number; bottom: number }>();

  override rect(): void {
    this.pendingClip = true;
  }
  override clip(): void {
    if (this.pendingClip && this.depth >= 2) this.clipped = true;
    this.pendingClip = false;
  }
  override save(): void {
    super.save();
    this.depth++;
  }
  override translate(x: number, y: number): void {
    super.translate(x, y);
    this.origin = y;
  }
  override restore(): void {
    super.restore();
    this.depth--;
    this.origin = null;
    this.clipped = false;
  }
  override fillRect(x: number, y: number, w: number, h: number): void {
    super.fillRect(x, y, w, h);
    this.extent(y, y + h);
  }
  override fillText(text: string, x: number, y: number): void {
    super.fillText(text, x, y);
    // Label text is 11 px high, centred on its y ('middle' baseline).
    this.extent(y - 6, y + 6);
  }
  override moveTo(x: number, y: number): void {
    super.moveTo(x, y);
    this.extent(y, y);
  }
  override lineTo(x: number, y: number): void {
    super.lineTo(x, y);
    this.extent(y, y);
  }

  private extent(y0: number, y1: number): void {
    if (this.origin === null) return;
    y0 += this.origin;
    y1 += this.origin;
    const seen = this.rows.get(this.origin);
    if (!seen) this.rows.set(this.origin, { clipped: this.clipped, top: y0, bottom: y1 });
    else {
      seen.top = Math.min(seen.top, y0);
      seen.bottom = Math.max(seen.bottom, y1);
      seen.clipped ||= this.clipped;
    }
  }
}

function drawn(frame: Frame): { row: LayoutRow; clipped: boolean; top: number; bottom: number }[] {
  const canvas = new RowRecorder();
  drawStaticFrame(canvas, frame, testText());
  const out = [];
  for (const row of frame.layout.rows) {
    const seen = canvas.rows.get(rowTopCss(frame, row));
    if (seen) out.push({ row, ...seen });
  }
  return out;
}

describe('row clips', () => {
  const captures = [1, 2, 3].map((seed) => loaded(randomModel({ seed, ops: 400, startEnds: 60, maxStep: 3 }), seed, seed * 7));

  it('paints range and marks rows inside their own box, at every zoom (what lets them go unclipped)', () => {
    let checked = 0;
    for (const fraction of [1, 0.3, 0.05, 0.01]) {
      const frame = testFrame(captures, { startNs: 0, endNs: 3000 * fraction, widthCss: 700 });
      for (const { row, top, bottom } of drawn(frame)) {
        if (!rendererFor(row).paintsInsideRow) continue;
        const rowTop = rowTopCss(frame, row);
        expect(top, row.key).toBeGreaterThanOrEqual(rowTop);
        // The row's bottom separator is the last thing inside it.
        expect(bottom, row.key).toBeLessThanOrEqual(rowTop + row.heightCss);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('leaves out the clip only for rows wholly inside their area', () => {
    const captures = [1, 2, 3].map((seed) => loaded(randomModel({ seed, ops: 40, startEnds: 20 }), seed));
    const full = testFrame(captures, { startNs: 0, endNs: 300, widthCss: 700 });
    const marksKey = full.layout.rows.find((r) => r.track >= 0 && r.model.tracks[r.track].kind === 'marks')!.key;
    // Scrolled so that rows cross the pinned band's bottom and the canvas's bottom.
    const frame = testFrame(captures, { startNs: 0, endNs: 300, widthCss: 700, heightCss: RULER_HEIGHT_CSS + 700 }, { scrollTopCss: 97, arrangement: { pinned: [marksKey] } });
    const band = RULER_HEIGHT_CSS + frame.layout.pinnedHeightCss;
    const rows = drawn(frame);
    let unclipped = 0;
    let crossing = 0;
    for (const { row, clipped } of rows) {
      const top = rowTopCss(frame, row);
      const [areaTop, areaBottom] = row.pinned ? [RULER_HEIGHT_CSS, band] : [band, frame.heightCss];
      const inside = top >= areaTop && top + row.heightCss <= areaBottom;
      expect(clipped, row.key).toBe(!(inside && rendererFor(row).paintsInsideRow === true));
      if (!clipped) unclipped++;
      if (!inside) crossing++;
    }
    expect(unclipped).toBeGreaterThan(3);
    expect(crossing).toBeGreaterThan(0);
  });
});
