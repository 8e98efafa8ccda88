/**
 * Highlighted ranges on the overlay (the statistics panel's duration band): each instance in
 * view outlined in a colour of its own, and a tick on the ruler's lower edge for every one, so
 * instances in collapsed or scrolled-away rows still show where they are. The index sorts the
 * instances by start once, so a frame only visits those that can be in the window.
 */
import { lowerBound, trackOfRange } from '../../model/query.ts';
import type { Model } from '../../model/types.ts';
import type { Canvas2D } from '../canvas2d.ts';
import { rowTopCss, type Frame } from '../frame.ts';
import { RULER_HEIGHT_CSS } from './ruler.ts';
import { BOX_HEIGHT_CSS } from '../rowGeometry.ts';
import { rangeBoxInRow } from './rangeRow.ts';

/** Most instances outlined per frame; beyond that they are packed far below a pixel anyway. */
export const MAX_DRAWN_HIGHLIGHTS = 20_000;

export interface HighlightIndex {
  captureId: number;
  model: Model;
  offsetNs: number;
  /** Instances by start time. */
  starts: Float64Array;
  ranges: Int32Array;
  /** Longest instance: bounds how far before the window a visible one can start. */
  maxDurationNs: number;
}

export function buildHighlightIndex(captureId: number, model: Model, offsetNs: number, ranges: Int32Array): HighlightIndex {
  const { startNs, endNs } = model.ranges;
  const valid = Array.from(ranges).filter((r) => r >= 0 && r < startNs.length);
  valid.sort((a, b) => startNs[a] - startNs[b] || a - b);
  let maxDurationNs = 0;
  for (const r of valid) maxDurationNs = Math.max(maxDurationNs, endNs[r] - startNs[r]);
  return {
    captureId,
    model,
    offsetNs,
    starts: Float64Array.from(valid, (r) => startNs[r]),
    ranges: Int32Array.from(valid),
    maxDurationNs,
  };
}

/** Positions in the index of the instances meeting the window [fromNs, toNs] (capture times). */
export function highlightsInWindow(index: HighlightIndex, fromNs: number, toNs: number): [number, number] {
  const first = lowerBound(index.starts, fromNs - index.maxDurationNs, 0, index.starts.length);
  let last = first;
  while (last < index.starts.length && index.starts[last] <= toNs) last++;
  return [first, last];
}

export function highlightColor(dark: boolean): string {
  return dark ? '#ffb020' : '#d9480f';
}

export function drawHighlights(ctx: Canvas2D, frame: Frame, index: HighlightIndex): void {
  const scale = frame.scale.forCapture(index.offsetNs);
  const fromNs = scale.toNs(0);
  const [first, last] = highlightsInWindow(index, fromNs, scale.toNs(frame.widthCss));
  const { startNs, endNs } = index.model.ranges;
  const color = highlightColor(frame.theme.dark);
  const visible: number[] = [];
  for (let k = first; k < last && visible.length < MAX_DRAWN_HIGHLIGHTS; k++) {
    if (endNs[index.ranges[k]] >= fromNs) visible.push(index.ranges[k]);
  }
  const left = (r: number) => Math.max(-4, scale.toX(startNs[r]));
  const right = (r: number, x0: number) => Math.min(frame.widthCss + 4, Math.max(scale.toX(endNs[r]), x0 + 2));
  ctx.save();
  ctx.fillStyle = color;
  ctx.strokeStyle = color;
  ctx.lineWidth = 2;
  // Ticks on the ruler's lower edge: one per pixel column is enough.
  let lastTickX = -Infinity;
  for (const r of visible) {
    const x0 = left(r);
    if (x0 - lastTickX < 1) continue;
    ctx.fillRect(x0, RULER_HEIGHT_CSS - 4, Math.max(2, right(r, x0) - x0), 4);
    lastTickX = x0;
  }
  ctx.beginPath();
  ctx.rect(0, RULER_HEIGHT_CSS, frame.widthCss, frame.heightCss - RULER_HEIGHT_CSS);
  ctx.clip();
  for (const r of visible) {
    const rowIndex = frame.layout.rowOfTrack(index.captureId, trackOfRange(index.model, r));
    if (rowIndex < 0) continue;
    const row = frame.layout.rows[rowIndex];
    const y = rangeBoxInRow(index.model, row.geometry!, r, scale).y + rowTopCss(frame, row);
    if (y + BOX_HEIGHT_CSS < RULER_HEIGHT_CSS || y > frame.heightCss) continue;
    const x0 = left(r);
    const x1 = right(r, x0);
    ctx.globalAlpha = 0.16;
    ctx.fillRect(x0, y, x1 - x0, BOX_HEIGHT_CSS);
    ctx.globalAlpha = 1;
    ctx.strokeRect(x0 - 1, y - 1, x1 - x0 + 2, BOX_HEIGHT_CSS + 2);
  }
  ctx.restore();
}
