/**
 * Event filters on the timeline: a row drawn with some events hidden draws exactly what the same
 * row without those events draws (no hidden range merged into a block, no hidden mark), hit tests
 * never return a hidden event, and rows whose every event is hidden leave the layout.
 */
import { describe, expect, it } from 'vitest';
import type { Model } from '../../model/types.ts';
import { captureFilter, NO_FILTERS, withHidden, type CaptureFilter } from '../../analysis/eventFilters.ts';
import { stylePaint } from '../styleColors.ts';
import { builder, loaded, twoThreadModel } from '../../../testkit/models/timelineModels.ts';
import { seededRandom } from '../../../testkit/gen/random.ts';
import { RecordingCanvas } from '../../../testkit/canvas/recordingCanvas.ts';
import { TEST_THEME, testText } from '../../../testkit/canvas/testFrames.ts';
import { TimeScale } from '../timeScale.ts';
import { buildTrackLayout } from '../trackLayout.ts';
import { drawMarkSeries, hitMarkSeries, markSeriesOf, seriesShown } from './markSeries.ts';
import { drawLevel, hitLevel, TEAR_CSS } from './rangeLevel.ts';
import { ShapeBatch } from './shapeBatch.ts';

/** One thread with back-to-back ranges and marks named 'keep' or 'drop', many narrower than a pixel. */
function randomRow(seed: number, keepOnly: boolean): Model {
  const random = seededRandom(seed);
  const b = builder(`row-${seed}.test`);
  b.setCaptureSpan(0, 1_000_000);
  const t = b.thread(1, 1, 'main');
  let time = 0;
  for (let i = 0; i < 3000; i++) {
    const length = random() < 0.05 ? Math.floor(random() * 20_000) : Math.floor(random() * 300);
    const name = random() < 0.4 ? 'drop' : 'keep';
    if (!keepOnly || name === 'keep') b.range(t, time, time + length, { name });
    if (random() < 0.3 && (!keepOnly || name === 'keep')) b.mark(t, time, { name });
    time += length + Math.floor(random() * 200);
  }
  return b.finish();
}

function draw(model: Model, filter: CaptureFilter | null, scale: TimeScale): RecordingCanvas {
  const ctx = new RecordingCanvas();
  const shapes = new ShapeBatch();
  const track = model.tracks.findIndex((tr) => tr.kind === 'pushpop');
  const marks = model.tracks.findIndex((tr) => tr.kind === 'marks');
  const tr = model.tracks[track];
  const common = { model, scale, dpr: 1, paint: stylePaint(model, false), mixedColor: TEST_THEME.mixed, text: testText(), shapes, labels: null };
  drawLevel({ ...common, shown: filter?.ranges ?? null }, tr.levelBegin[0], tr.levelBegin[1], 0, 16);
  drawMarkSeries({ ...common, labelColor: 'muted' }, markSeriesOf(model, marks), 30, 4, seriesShown(model, marks, filter));
  shapes.flush(ctx, TEST_THEME.bg, TEAR_CSS);
  return ctx;
}

describe('filtered rows', () => {
  it('draw what the row without the hidden events draws, at every zoom (property)', () => {
    for (const seed of [1, 2, 3]) {
      const full = randomRow(seed, false);
      const kept = randomRow(seed, true);
      const filter = captureFilter(full, withHidden(NO_FILTERS, [{ kind: 'name', domain: '', name: 'drop' }], true));
      expect(filter).not.toBeNull();
      const random = seededRandom(seed + 100);
      for (let v = 0; v < 12; v++) {
        const span = full.durationNs * 10 ** -(random() * 3);
        const start = random() * (full.durationNs - span);
        const scale = new TimeScale(start, start + span, 800);
        expect(draw(full, filter, scale).calls, `seed ${seed} view ${v}`).toEqual(draw(kept, null, scale).calls);
      }
    }
  });

  it('never hit a hidden range or mark', () => {
    const full = randomRow(4, false);
    const filter = captureFilter(full, withHidden(NO_FILTERS, [{ kind: 'name', domain: '', name: 'drop' }], true))!;
    const track = full.tracks.find((tr) => tr.kind === 'pushpop')!;
    const marks = full.tracks.findIndex((tr) => tr.kind === 'marks');
    const scale = new TimeScale(0, full.durationNs / 20, 1000);
    let hits = 0;
    for (let x = 0; x < 1000; x += 0.5) {
      const r = hitLevel(full, track.levelBegin[0], track.levelBegin[1], scale, x, filter.ranges);
      if (r >= 0) {
        hits++;
        expect(filter.ranges.shown(r)).toBe(true);
      }
      const m = hitMarkSeries(markSeriesOf(full, marks), scale, x, 4, seriesShown(full, marks, filter));
      if (m >= 0) expect(filter.marks.shown(m)).toBe(true);
    }
    expect(hits).toBeGreaterThan(100);
  });

  it('leave the layout when hidden, with groups left empty', () => {
    const model = twoThreadModel();
    const labels = (filters = NO_FILTERS) => buildTrackLayout([loaded(model)], {}, { filters }).rows.map((r) => r.label);
    const all = labels();
    const noWorker = labels(withHidden(NO_FILTERS, [{ kind: 'thread', pid: 100, tid: 2 }], true));
    expect(all.some((l) => l.startsWith('worker'))).toBe(true);
    expect(noWorker.some((l) => l.startsWith('worker'))).toBe(false);
    // Hiding category io hides its child net too: no category rows are left.
    const noIo = buildTrackLayout([loaded(model)], {}, { filters: withHidden(NO_FILTERS, [{ kind: 'category', domain: '', id: 1 }], true) });
    expect(noIo.rows.filter((r) => r.track >= 0 && model.tracks[r.track].kind === 'category')).toHaveLength(0);
    expect(noIo.rows.length).toBeLessThan(all.length);
  });
});

describe('searchPaint', () => {
  it('keeps the colors of matching styles and fades the others toward the background', async () => {
    const { searchPaint } = await import('../searchPaint.ts');
    const model = twoThreadModel();
    const base = stylePaint(model, false);
    const match = Uint8Array.from(base.fill, (_, s) => (model.strings[model.styles.name[s]] === 'frame' ? 1 : 0));
    const paint = searchPaint(model, false, '#ffffff', match);
    const lightness = (css: string) => parseInt(css.slice(1, 3), 16) + parseInt(css.slice(3, 5), 16) + parseInt(css.slice(5, 7), 16);
    for (let s = 0; s < match.length; s++) {
      if (match[s]) expect(paint.fill[s]).toBe(base.fill[s]);
      else expect(lightness(paint.fill[s])).toBeGreaterThan(lightness(base.fill[s]));
    }
    expect(searchPaint(model, false, '#ffffff', match)).toBe(paint);
  });
});
