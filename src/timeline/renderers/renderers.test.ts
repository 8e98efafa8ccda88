import { beforeAll, describe, expect, it } from 'vitest';
import { levelCount } from '../../model/query.ts';
import { RangeFlag, type Model } from '../../model/types.ts';
import { stylePaint } from '../styleColors.ts';
import { drawStaticFrame, hitTestFrame, locateMark, locateRange, RULER_HEIGHT_CSS } from '../frame.ts';
import { BOX_HEIGHT_CSS, levelTopCss } from '../rowGeometry.ts';
import { builder, loaded, twoThreadModel } from '../../../testkit/models/timelineModels.ts';
import { seededRandom } from '../../../testkit/gen/random.ts';
import { CHAR_WIDTH, RecordingCanvas, type DrawCall } from '../../../testkit/canvas/recordingCanvas.ts';
import { TEST_THEME, testFrame, testText } from '../../../testkit/canvas/testFrames.ts';
import { TimeScale } from '../timeScale.ts';
import { drawLevel, LABEL_PAD_CSS, TEAR_CSS, type LevelPainter } from './rangeLevel.ts';
import { ShapeBatch } from './shapeBatch.ts';

/** A TimeScale that counts conversions: the work of a draw, independent of timing. */
class CountingScale extends TimeScale {
  conversions = 0;
  override toX(t: number): number {
    this.conversions++;
    return super.toX(t);
  }
  override toNs(x: number): number {
    this.conversions++;
    return super.toNs(x);
  }
}

/** Draws ranges [lo, hi) of one level into a recording canvas. */
function drawOneLevel(ctx: RecordingCanvas, model: Model, scale: TimeScale, lo: number, hi: number): void {
  const shapes = new ShapeBatch();
  const painter: LevelPainter = {
    model,
    scale,
    dpr: 1,
    paint: stylePaint(model, false),
    mixedColor: TEST_THEME.mixed,
    text: testText(),
    shapes,
    labels: null,
  };
  drawLevel(painter, lo, hi, 0, BOX_HEIGHT_CSS);
  shapes.flush(ctx, TEST_THEME.bg, TEAR_CSS);
}

/** Range-colored rectangles in the track area (not background, grid, separators or headers). */
function boxCalls(ctx: RecordingCanvas, model: Model): DrawCall[] {
  const colors = new Set([...stylePaint(model, false).fill, TEST_THEME.mixed]);
  return ctx.calls.filter((c) => c.op === 'fillRect' && colors.has(c.fillStyle) && c.y >= RULER_HEIGHT_CSS);
}

describe('per-pixel merging of a row with a million ranges', () => {
  let model: Model;
  beforeAll(() => {
    // 1M ranges of 5 ns every 10 ns, with a wide one every 100k ranges and irregular gaps.
    const b = builder('big.nvtxt');
    const t = b.thread(1, 1);
    const names = [b.intern('a'), b.intern('b')];
    let time = 0;
    for (let i = 0; i < 1_000_000; i++) {
      const wide = i % 100_000 === 50_000;
      const length = wide ? 2_000_000 : 5;
      b.range(t, time, time + length, { nameId: names[i & 1] });
      time += length + (i % 7 === 0 ? 40 : 5);
    }
    model = b.finish();
  }, 60_000);

  it('draws O(width) blocks and does O(width log n) work when the whole row is in view', () => {
    const track = model.tracks[0];
    const width = 1000;
    const scale = new CountingScale(0, model.durationNs, width);
    const ctx = new RecordingCanvas();
    drawOneLevel(ctx, model, scale, track.levelBegin[0], track.levelBegin[1]);
    const rects = ctx.count('fillRect');
    expect(rects).toBeGreaterThan(0);
    expect(rects).toBeLessThanOrEqual(2 * width);
    // Each column costs a few conversions; a per-range loop would cost at least 1M.
    expect(scale.conversions).toBeLessThan(10 * width);
    // Nothing outside the canvas.
    for (const c of ctx.calls) {
      expect(c.x).toBeGreaterThanOrEqual(-2);
      expect(c.x + c.w).toBeLessThanOrEqual(width + 2);
    }
  });

  it('covers every pixel column that holds a range, and no other', () => {
    const track = model.tracks[0];
    const width = 800;
    // A window where ranges are about 0.3 px apart, with 2.4 px gaps every seventh range.
    const scale = new TimeScale(1_000_000, 1_000_000 + width * 30, width);
    const ctx = new RecordingCanvas();
    drawOneLevel(ctx, model, scale, track.levelBegin[0], track.levelBegin[1]);
    const covered = new Uint8Array(width + 2);
    for (const c of ctx.calls) {
      if (c.op !== 'fillRect') continue;
      for (let x = Math.max(0, Math.floor(c.x)); x < Math.min(width, Math.ceil(c.x + c.w)); x++) covered[x] = 1;
    }
    const expected = new Uint8Array(width + 2);
    for (let i = track.levelBegin[0]; i < track.levelBegin[1]; i++) {
      const x0 = scale.toX(model.ranges.startNs[i]);
      const x1 = scale.toX(model.ranges.endNs[i]);
      if (x1 < 0 || x0 > width) continue;
      for (let x = Math.max(0, Math.floor(x0)); x <= Math.min(width - 1, Math.floor(x1 - 1e-9)); x++) expected[x] = 1;
    }
    let missing = 0;
    let extra = 0;
    for (let x = 0; x < width; x++) {
      if (expected[x] && !covered[x]) missing++;
      if (covered[x] && !expected[x]) extra++;
    }
    expect(missing).toBe(0);
    // Merged runs may close a gap narrower than a pixel; they never invent whole empty stretches.
    expect(extra).toBeLessThanOrEqual(width * 0.05);
  });

  it('draws the wide ranges as their own boxes across the merged ones', () => {
    const track = model.tracks[0];
    const wide = [...Array(track.levelBegin[1]).keys()].filter((i) => model.ranges.endNs[i] - model.ranges.startNs[i] > 1000);
    expect(wide.length).toBe(10);
    const scale = new TimeScale(0, model.durationNs, 2000);
    const ctx = new RecordingCanvas();
    drawOneLevel(ctx, model, scale, track.levelBegin[0], track.levelBegin[1]);
    for (const i of wide) {
      const x0 = scale.toX(model.ranges.startNs[i]);
      const x1 = scale.toX(model.ranges.endNs[i]);
      expect(ctx.calls.some((c) => c.op === 'fillRect' && Math.abs(c.x - x0) <= 1 && c.x + c.w >= x1 - 2)).toBe(true);
    }
  });
});

describe('marks and counters at scale', () => {
  it('draws a million marks as at most one diamond per pixel column, merged where they touch', () => {
    const b = builder();
    const t = b.thread(1, 1);
    const id = b.intern('m');
    for (let i = 0; i < 1_000_000; i++) b.mark(t, i * 3, { nameId: id });
    const model = b.finish();
    const frame = testFrame([loaded(model)], { startNs: 0, endNs: model.durationNs, widthCss: 1200 });
    const ctx = new RecordingCanvas();
    drawStaticFrame(ctx, frame, testText());
    // Diamonds one pixel column apart merge into one shape (one moveTo) across the row; all of
    // one color fill in one call.
    expect(ctx.count('moveTo')).toBeLessThanOrEqual(2);
    expect(ctx.count('fill')).toBe(1);
    const xs = ctx.calls.filter((c) => c.op === 'lineTo' || c.op === 'moveTo').map((c) => c.x);
    expect(Math.min(...xs)).toBeLessThan(10);
    expect(Math.max(...xs)).toBeGreaterThan(1190);
  });

  it('draws a million counter samples as O(width) line segments that reach the extremes', () => {
    const b = builder();
    const p = b.process(1, 'p');
    const row = b.counterRow({ label: 'memory', process: p, unit: 'bytes' });
    const random = seededRandom(4);
    for (let i = 0; i < 1_000_000; i++) b.counter(row, i * 2, i === 500_000 ? 1e9 : Math.floor(random() * 1000));
    const model = b.finish();
    const frame = testFrame([loaded(model)], { startNs: 0, endNs: model.durationNs, widthCss: 1000 });
    const ctx = new RecordingCanvas();
    drawStaticFrame(ctx, frame, testText());
    const lines = ctx.count('lineTo');
    expect(lines).toBeLessThanOrEqual(4 * 1000 + 10);
    // The single spike reaches the top of the plot.
    const ys = ctx.calls.filter((c) => c.op === 'lineTo').map((c) => c.y);
    const rowTop = RULER_HEIGHT_CSS + frame.layout.rows.find((r) => r.track >= 0)!.yCss;
    expect(Math.min(...ys)).toBeLessThan(rowTop + 8);
  });
});

/** Random nested stacks and packed categories with widths from sub-pixel to whole-view. */
function randomModel(seed: number): Model {
  const random = seededRandom(seed);
  const b = builder(`r${seed}.nvtxt`);
  b.process(1, 'p');
  for (let th = 0; th < 2; th++) {
    const t = b.thread(1, th + 1, `t${th}`);
    let time = 0;
    for (let k = 0; k < 300; k++) {
      const length = 10 ** (random() * 6);
      b.range(t, time, time + length, { name: `n${Math.floor(random() * 8)}` });
      if (random() < 0.5) b.range(t, time + length * 0.1, time + length * 0.6, { name: 'child' });
      time += length + (random() < 0.3 ? 10 ** (random() * 5) : 0);
    }
    for (let k = 0; k < 100; k++) {
      const s = random() * time;
      b.startEnd(t, s, s + 10 ** (random() * 5), { name: `c${k % 5}`, category: 1 + (k % 2) });
    }
  }
  return b.finish();
}

describe('hit testing agrees with drawing', () => {
  it('hits, at the centre of every drawn box, a range drawn there', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const model = randomModel(seed);
      const random = seededRandom(seed * 31);
      for (let view = 0; view < 4; view++) {
        const span = model.durationNs * 10 ** (-random() * 4);
        const start = random() * (model.durationNs - span);
        const frame = testFrame([loaded(model)], { startNs: start, endNs: start + span, widthCss: 600 + Math.floor(random() * 900) });
        const ctx = new RecordingCanvas();
        drawStaticFrame(ctx, frame, testText());
        const boxes = boxCalls(ctx, model);
        for (const box of boxes) {
          if (box.h < BOX_HEIGHT_CSS) continue; // summaries of collapsed rows are not hit targets
          const x = Math.max(0, box.x) + (Math.min(box.x + box.w, frame.widthCss) - Math.max(0, box.x)) / 2;
          const y = box.y + box.h / 2;
          const hit = hitTestFrame(frame, x, y);
          expect(hit, `seed ${seed} box at ${box.x},${box.y}`).not.toBeNull();
          if (hit === null || hit === 'ruler' || hit.kind !== 'range') throw new Error('expected a range hit');
          const found = locateRange(frame, 1, hit.index)!;
          // The hit range lies in that box's lane, within a pixel of the box.
          expect(found.y).toBeCloseTo(box.y, 6);
          expect(found.x1).toBeGreaterThanOrEqual(box.x - 1);
          expect(found.x0).toBeLessThanOrEqual(box.x + box.w + 1);
        }
      }
    }
  });

  it('finds a wide range at the centre locateRange gives for it', () => {
    const model = twoThreadModel();
    const frame = testFrame([loaded(model)], { startNs: 0, endNs: 1000, widthCss: 1000 });
    for (let i = 0; i < model.ranges.startNs.length; i++) {
      const box = locateRange(frame, 1, i)!;
      const hit = hitTestFrame(frame, (box.x0 + box.x1) / 2, box.y + box.h / 2);
      expect(hit && hit !== 'ruler' && hit.kind === 'range' ? hit.index : -1).toBe(i);
    }
    for (let m = 0; m < model.marks.timeNs.length; m++) {
      const point = locateMark(frame, 1, m)!;
      const hit = hitTestFrame(frame, point.x + 1, point.y);
      expect(hit && hit !== 'ruler' && hit.kind === 'mark' ? hit.index : -1).toBe(m);
    }
  });

  it('reports the ruler, empty space and hidden rows', () => {
    const model = twoThreadModel();
    const frame = testFrame([loaded(model)], { startNs: 0, endNs: 1000, widthCss: 1000 });
    expect(hitTestFrame(frame, 10, 5)).toBe('ruler');
    expect(hitTestFrame(frame, 10, RULER_HEIGHT_CSS + frame.layout.totalHeightCss + 10)).toBeNull();
    const collapsed = testFrame([loaded(model)], { startNs: 0, endNs: 1000, widthCss: 1000 }, { collapsed: { '1': true } });
    expect(locateRange(collapsed, 1, 0)).toBeNull();
  });

  it('keeps hit testing right when scrolled', () => {
    const model = twoThreadModel();
    const scrolled = testFrame([loaded(model)], { startNs: 0, endNs: 1000, widthCss: 1000, heightCss: 120 }, { scrollTopCss: 60 });
    for (let i = 0; i < model.ranges.startNs.length; i++) {
      const box = locateRange(scrolled, 1, i)!;
      if (box.y < RULER_HEIGHT_CSS || box.y + box.h > 120) continue;
      const hit = hitTestFrame(scrolled, (box.x0 + box.x1) / 2, box.y + 2);
      expect(hit && hit !== 'ruler' && hit.kind === 'range' ? hit.index : -1).toBe(i);
    }
  });
});

describe('labels, folding and unterminated ranges', () => {
  it('labels wide boxes inside their visible part, elided to fit', () => {
    const b = builder();
    const t = b.thread(1, 1);
    b.range(t, 0, 1000, { name: 'a_rather_long_range_name_that_will_not_fit' });
    b.range(t, 1000, 1100, { name: 'short' });
    const model = b.finish();
    const frame = testFrame([loaded(model)], { startNs: 500, endNs: 1500, widthCss: 400 });
    const ctx = new RecordingCanvas();
    drawStaticFrame(ctx, frame, testText());
    const texts = ctx.calls.filter((c) => c.op === 'fillText' && c.y > RULER_HEIGHT_CSS);
    const long = texts.find((c) => c.text!.startsWith('a_rather'))!;
    // The first range shows from x = 0 to 200: its label starts at the canvas edge and fits.
    expect(long.text!.endsWith('…')).toBe(true);
    expect(long.x).toBe(LABEL_PAD_CSS);
    expect(long.text!.length * CHAR_WIDTH).toBeLessThanOrEqual(200 - 2 * LABEL_PAD_CSS);
    expect(texts.find((c) => c.text === 'short')).toBeDefined();
  });

  it('folds levels beyond the cap into the last lane, where the deepest range is hit', () => {
    const b = builder();
    const t = b.thread(1, 1);
    for (let d = 0; d < 40; d++) b.range(t, d * 10, 10_000 - d * 10, { name: `d${d}` });
    const model = b.finish();
    const frame = testFrame([loaded(model)], { startNs: 0, endNs: 10_000, widthCss: 1000 });
    const row = frame.layout.rows.find((r) => r.track >= 0)!;
    const geometry = row.geometry!;
    expect(levelCount(model.tracks[row.track])).toBe(40);
    const lastLaneY = RULER_HEIGHT_CSS + row.yCss + levelTopCss(geometry, geometry.levelsShown - 1) + 5;
    const hit = hitTestFrame(frame, 500, lastLaneY);
    expect(hit && hit !== 'ruler' && hit.kind === 'range' ? model.ranges.depth[hit.index] : -1).toBe(39);
  });

  it('tears the right edge of unterminated ranges', () => {
    const b = builder();
    const t = b.thread(1, 1);
    b.push(t, 0, { name: 'open' });
    b.push(t, 10, { name: 'closed' });
    b.pop(t, 20);
    b.mark(t, 1000, { name: 'end' });
    const model = b.finish();
    expect(model.ranges.flags[0] & RangeFlag.Unterminated).toBeTruthy();
    const frame = testFrame([loaded(model)], { startNs: 0, endNs: 1200, widthCss: 1200 });
    const ctx = new RecordingCanvas();
    drawStaticFrame(ctx, frame, testText());
    const torn = ctx.calls.filter((c) => c.op === 'fill' && c.fillStyle === TEST_THEME.bg);
    expect(torn.length).toBe(1);
    // The tear cuts the right end of the open range, not the closed one.
    const tearX = ctx.calls.filter((c) => c.op === 'lineTo' && c.fillStyle === TEST_THEME.bg).map((c) => c.x);
    const openEnd = frame.scale.toX(model.ranges.endNs[0]);
    expect(Math.max(...tearX)).toBeGreaterThan(openEnd - 3);
    expect(Math.min(...tearX)).toBeGreaterThan(openEnd - 10);
  });
});
