/**
 * Capture and group (process, thread, NVTX...) header rows. A collapsed one summarises what it
 * hides: the outermost ranges and the marks of its tracks, merged per pixel into one strip, and its
 * counters as lines on one scale (a collapsed counter group is the group as one track).
 */
import { levelCount } from '../../model/query.ts';
import type { CssPx } from '../units.ts';
import { drawCounterGroup } from './counterRow.ts';
import { drawMarkSeries, markSeriesOf, seriesShown } from './markSeries.ts';
import { drawLevel, TEAR_CSS, type LevelPainter } from './rangeLevel.ts';
import { ShapeBatch } from './shapeBatch.ts';
import type { Hit, RowDrawEnv, TrackRenderer } from './trackRenderer.ts';

const STRIP_INSET_CSS: CssPx = 6;
/** Lanes of a packed row shown in a summary (stacked rows show their outermost level only). */
const SUMMARY_LANES = 4;

export const groupRowRenderer: TrackRenderer = {
  draw(env: RowDrawEnv): void {
    const { ctx, row, theme } = env;
    ctx.fillStyle = theme.groupBg;
    ctx.fillRect(0, 0, env.scale.widthCss, row.heightCss);
    if (!row.summaryTracks) return;
    const model = row.model;
    const y = STRIP_INSET_CSS;
    const h = row.heightCss - 2 * STRIP_INSET_CSS;
    const shapes = new ShapeBatch();
    const painter: LevelPainter = {
      model,
      scale: env.scale,
      dpr: env.dpr,
      paint: env.paint,
      mixedColor: theme.mixed,
      text: env.text,
      shapes,
      labels: null,
      shown: row.filter?.ranges ?? null,
    };
    // Marks are summarised only where there are no ranges: diamonds over boxes read as noise.
    const marksOnly = row.summaryTracks.every((t) => model.tracks[t].rangeEnd === model.tracks[t].rangeBegin);
    for (const t of row.summaryTracks) {
      const track = model.tracks[t];
      if (track.kind === 'counter') continue;
      if (track.kind === 'marks') {
        if (!marksOnly) continue;
        drawMarkSeries({ ...painter, labelColor: theme.fgMuted }, markSeriesOf(model, t), y + h / 2, h / 2 - 1, seriesShown(model, t, row.filter));
        continue;
      }
      const lanes = Math.min(levelCount(track), track.kind === 'category' || track.kind === 'gpu' ? SUMMARY_LANES : 1);
      for (let level = 0; level < lanes; level++) drawLevel(painter, track.levelBegin[level], track.levelBegin[level + 1], y, h);
    }
    shapes.flush(ctx, theme.groupBg, TEAR_CSS, env.strips ?? null);
    // A group of counters only (a counter group, a scope's counters) as one track: their lines on one scale.
    if (row.summaryTracks.every((t) => model.tracks[t].kind === 'counter')) drawCounterGroup(env, row.summaryTracks, y, h);
  },

  hitTest(): Hit | null {
    return null;
  },
};
