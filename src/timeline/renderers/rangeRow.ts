/** Stacked (push/pop, API) and lane (category, GPU) rows: levels of ranges, plus a marks strip on category rows. */
import { lowerBound, upperBound } from '../../model/query.ts';
import type { Model } from '../../model/types.ts';
import { BOX_HEIGHT_CSS, laneAtY, levelTopCss, type RowGeometry } from '../rowGeometry.ts';
import type { TimeScale } from '../timeScale.ts';
import type { CssPx } from '../units.ts';
import { LabelBatch } from './labels.ts';
import { drawMarkSeries, hitMarkSeries, markSeriesOf, seriesShown } from './markSeries.ts';
import { drawLevel, hitLevel, TEAR_CSS, type LevelPainter } from './rangeLevel.ts';
import { ShapeBatch } from './shapeBatch.ts';
import type { BoxCss, Hit, RowDrawEnv, RowHitEnv, TrackRenderer } from './trackRenderer.ts';

export const STRIP_MARK_HALF_CSS: CssPx = 4;

export const rangeRowRenderer: TrackRenderer = {
  draw(env: RowDrawEnv): void {
    const { row, ctx } = env;
    const geometry = row.geometry!;
    const model = row.model;
    const track = model.tracks[row.track];
    const labels = new LabelBatch();
    const shapes = new ShapeBatch();
    if (geometry.markStripCss > 0 && env.visibleTopCss < geometry.markStripCss) {
      drawMarkSeries(
        {
          model,
          scale: env.scale,
          dpr: env.dpr,
          paint: env.paint,
          mixedColor: env.theme.mixed,
          labelColor: env.theme.fgMuted,
          text: env.text,
          shapes,
          labels,
        },
        markSeriesOf(model, row.track),
        geometry.markStripCss / 2,
        STRIP_MARK_HALF_CSS,
        seriesShown(model, row.track, row.filter),
      );
    }
    const painter: LevelPainter = {
      model,
      scale: env.scale,
      dpr: env.dpr,
      paint: env.paint,
      mixedColor: env.theme.mixed,
      text: env.text,
      shapes,
      labels,
      shown: row.filter?.ranges ?? null,
    };
    // The folded lane gets no labels: its levels are drawn over each other.
    const foldedLane = geometry.levelsTotal > geometry.levelsShown ? geometry.levelsShown - 1 : -1;
    for (let level = 0; level < geometry.levelsTotal; level++) {
      const top = levelTopCss(geometry, level);
      if (top + BOX_HEIGHT_CSS <= env.visibleTopCss || top >= env.visibleBottomCss) continue;
      painter.labels = level >= foldedLane && foldedLane >= 0 ? null : labels;
      drawLevel(painter, track.levelBegin[level], track.levelBegin[level + 1], top, BOX_HEIGHT_CSS);
    }
    shapes.flush(ctx, env.theme.bg, TEAR_CSS, env.strips ?? null);
    labels.flush(ctx);
  },

  hitTest(xCss: CssPx, yCss: CssPx, env: RowHitEnv): Hit | null {
    const { row, scale } = env;
    const geometry = row.geometry!;
    const model = row.model;
    if (yCss < geometry.markStripCss) {
      const mark = hitMarkSeries(markSeriesOf(model, row.track), scale, xCss, STRIP_MARK_HALF_CSS, seriesShown(model, row.track, row.filter));
      return mark < 0 ? null : { kind: 'mark', row, index: mark };
    }
    const lane = laneAtY(geometry, yCss);
    if (lane < 0) return null;
    const track = model.tracks[row.track];
    // The folded lane shows every deeper level drawn over each other: the deepest is on top.
    const deepest = lane === geometry.levelsShown - 1 ? geometry.levelsTotal - 1 : lane;
    for (let level = deepest; level >= lane; level--) {
      const lo = track.levelBegin[level];
      const hi = track.levelBegin[level + 1];
      const index = hitLevel(model, lo, hi, scale, xCss, row.filter?.ranges ?? null);
      if (index < 0) continue;
      const merged = rangesInColumn(model, lo, hi, scale, xCss);
      return merged > 1 ? { kind: 'range', row, index, merged } : { kind: 'range', row, index };
    }
    return null;
  },
};

/**
 * Ranges of one level ([lo, hi), sorted by start, not overlapping, so their ends are sorted too)
 * that touch the pixel column at `xCss`: more than one means the pointer is over a merged block.
 */
export function rangesInColumn(model: Model, lo: number, hi: number, scale: TimeScale, xCss: CssPx): number {
  const t0 = scale.toNs(Math.floor(xCss));
  const t1 = scale.toNs(Math.floor(xCss) + 1);
  const { startNs, endNs } = model.ranges;
  return Math.max(0, lowerBound(startNs, t1, lo, hi) - upperBound(endNs, t0, lo, hi));
}

/** Where a range of this row is drawn (row-local y), before clipping to the canvas. */
export function rangeBoxInRow(model: Model, geometry: RowGeometry, index: number, scale: TimeScale): BoxCss {
  return {
    x0: scale.toX(model.ranges.startNs[index]),
    x1: scale.toX(model.ranges.endNs[index]),
    y: levelTopCss(geometry, model.ranges.depth[index]),
    h: BOX_HEIGHT_CSS,
  };
}
