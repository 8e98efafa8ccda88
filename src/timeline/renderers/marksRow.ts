/** A thread's marks row: diamonds with their names where there is room. */
import { MARKS_ROW_CSS } from '../rowGeometry.ts';
import type { CssPx } from '../units.ts';
import { LabelBatch } from './labels.ts';
import { ShapeBatch } from './shapeBatch.ts';
import { drawMarkSeries, hitMarkSeries, markSeriesOf, seriesShown } from './markSeries.ts';
import type { Hit, RowDrawEnv, RowHitEnv, TrackRenderer } from './trackRenderer.ts';

export const MARK_HALF_CSS: CssPx = 5;

export const marksRowRenderer: TrackRenderer = {
  draw(env: RowDrawEnv): void {
    const labels = new LabelBatch();
    const shapes = new ShapeBatch();
    drawMarkSeries(
      {
        model: env.row.model,
        scale: env.scale,
        dpr: env.dpr,
        paint: env.paint,
        mixedColor: env.theme.mixed,
        labelColor: env.theme.fgMuted,
        text: env.text,
        shapes,
        labels,
      },
      markSeriesOf(env.row.model, env.row.track),
      MARKS_ROW_CSS / 2,
      MARK_HALF_CSS,
      seriesShown(env.row.model, env.row.track, env.row.filter),
    );
    shapes.flush(env.ctx, env.theme.bg, 0);
    labels.flush(env.ctx);
  },

  hitTest(xCss: CssPx, _yCss: CssPx, env: RowHitEnv): Hit | null {
    const { model, track, filter } = env.row;
    const mark = hitMarkSeries(markSeriesOf(model, track), env.scale, xCss, MARK_HALF_CSS, seriesShown(model, track, filter));
    return mark < 0 ? null : { kind: 'mark', row: env.row, index: mark };
  },
};
