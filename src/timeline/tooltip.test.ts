import { describe, expect, it } from 'vitest';
import { PayloadType } from '../model/types.ts';
import { hitTestFrame, locateMark, locateRange } from './frame.ts';
import type { Hit } from './renderers/trackRenderer.ts';
import { testFrame } from '../../testkit/canvas/testFrames.ts';
import { builder, loaded } from '../../testkit/models/timelineModels.ts';
import { tooltipContent } from './tooltip.ts';

function captureWithEverything() {
  const b = builder();
  b.process(7, 'server');
  const t = b.thread(7, 70, 'io');
  b.nameCategory(0, 4, 'disk');
  b.push(t, 1_000, { name: 'load', category: 4, payload: { type: PayloadType.U64, value: 12345678901234567890n }, color: 0xff00ff00 });
  b.pop(t, 2_501_000);
  b.push(t, 3_000_000, { name: 'hang' });
  b.mark(t, 2_000_000, { name: 'flush', payload: { type: PayloadType.String, value: 'done' } });
  const row = b.counterRow({ label: 'queue', process: 0, unit: 'items' });
  b.counter(row, 0, 3);
  b.counter(row, 1_000_000, 1500);
  b.mark(t, 4_000_000, { name: 'end' });
  return b.finish();
}

function hitAt(frame: ReturnType<typeof testFrame>, x: number, y: number): Hit {
  const hit = hitTestFrame(frame, x, y);
  if (!hit || hit === 'ruler') throw new Error('nothing hit');
  return hit;
}

describe('tooltipContent', () => {
  const model = captureWithEverything();
  const frame = testFrame([loaded(model)], { startNs: 0, endNs: 4_000_000, widthCss: 1000 });

  it('describes a range: name, start, duration, category, thread, process, exact payload, color', () => {
    const index = [...model.ranges.style].findIndex((s) => model.strings[model.styles.name[s]] === 'load');
    const box = locateRange(frame, 1, index)!;
    const content = tooltipContent(hitAt(frame, (box.x0 + box.x1) / 2, box.y + 4), false);
    expect(content.title).toBe('load');
    expect(content.swatch).toBe('#00ff00');
    expect(Object.fromEntries(content.rows)).toMatchObject({
      Start: '1 µs',
      Duration: '2.5 ms',
      Category: 'disk (4)',
      Thread: 'io (70)',
      Process: 'server (7)',
      Payload: '12345678901234567890',
    });
  });

  it('says when a range was never closed', () => {
    const index = [...model.ranges.style].findIndex((s) => model.strings[model.styles.name[s]] === 'hang');
    const box = locateRange(frame, 1, index)!;
    const content = tooltipContent(hitAt(frame, (box.x0 + Math.min(box.x1, 1000)) / 2, box.y + 4), false);
    expect(content.rows.map((r) => r[0])).toContain('Unterminated');
  });

  it('describes a mark and a counter value at the pointer', () => {
    const markIndex = [...model.marks.style].findIndex((s) => model.strings[model.styles.name[s]] === 'flush');
    const point = locateMark(frame, 1, markIndex)!;
    const mark = tooltipContent(hitAt(frame, point.x, point.y), false);
    expect(mark.title).toBe('flush');
    expect(Object.fromEntries(mark.rows)).toMatchObject({ Time: '2 ms', Payload: 'done' });

    const counterRow = frame.layout.rows.find((r) => r.track >= 0 && model.tracks[r.track].kind === 'counter')!;
    const y = 28 + counterRow.yCss + counterRow.heightCss / 2;
    const later = tooltipContent(hitAt(frame, 500, y), false);
    expect(later.title).toBe('queue');
    expect(Object.fromEntries(later.rows)).toMatchObject({ Value: '1.5 k items', Since: '1 ms' });
    expect(Object.fromEntries(tooltipContent(hitAt(frame, 100, y), false).rows).Value).toBe('3 items');
  });

  it('says how many ranges share the pixel over a merged block, and describes the nearest', () => {
    const b = builder();
    const t = b.thread(1, 1, 'main');
    // 50 ranges of 100 ns, one every 200 ns; at 1 µs per pixel, five share each pixel.
    for (let k = 0; k < 50; k++) b.range(t, 10_000 + k * 200, 10_100 + k * 200, { name: `tiny ${k}` });
    b.range(t, 500_000, 900_000, { name: 'wide' });
    const m = b.finish();
    const f = testFrame([loaded(m)], { startNs: 0, endNs: 1_000_000, widthCss: 1000 });
    const first = locateRange(f, 1, 0)!;
    const dense = tooltipContent(hitAt(f, first.x0 + 0.5, first.y + 4), false);
    expect(dense.title).toBe('5 ranges here');
    expect(dense.rows[0]).toEqual(['Zoom in', 'to tell them apart']);
    expect(dense.rows[1][0]).toBe('Nearest');
    const wideIndex = [...m.ranges.style].findIndex((s) => m.strings[m.styles.name[s]] === 'wide');
    const wide = locateRange(f, 1, wideIndex)!;
    expect(tooltipContent(hitAt(f, (wide.x0 + wide.x1) / 2, wide.y + 4), false).title).toBe('wide');
  });
});
