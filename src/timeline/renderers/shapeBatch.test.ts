import { describe, expect, it } from 'vitest';
import { RecordingCanvas } from '../../../testkit/canvas/recordingCanvas.ts';
import { ShapeBatch } from './shapeBatch.ts';

function drawn(add: (b: ShapeBatch) => void): RecordingCanvas {
  const batch = new ShapeBatch();
  add(batch);
  const ctx = new RecordingCanvas();
  batch.flush(ctx, '#fff', 4);
  return ctx;
}

const points = (ctx: RecordingCanvas) => ctx.calls.filter((c) => c.op === 'moveTo' || c.op === 'lineTo').map((c) => [c.op, c.x, c.y]);

describe('ShapeBatch diamonds', () => {
  it('a lone diamond is four points', () => {
    expect(points(drawn((b) => b.diamond('red', 10, 20, 4)))).toEqual([
      ['moveTo', 10, 16],
      ['lineTo', 14, 20],
      ['lineTo', 10, 24],
      ['lineTo', 6, 20],
    ]);
  });

  it('diamonds one pixel apart on one line merge into their union; farther, on another line or of another size they do not', () => {
    const ctx = drawn((b) => {
      for (let x = 10; x <= 13; x++) b.diamond('red', x, 20, 4);
      b.diamond('red', 30, 20, 4);
      b.diamond('red', 31, 40, 4);
      b.diamond('red', 32, 40, 3);
      b.diamond('blue', 33, 40, 3);
    });
    expect(ctx.count('moveTo')).toBe(5);
    expect(ctx.count('fill')).toBe(2);
    expect(points(ctx).slice(0, 6)).toEqual([
      ['moveTo', 10, 16],
      ['lineTo', 13, 16],
      ['lineTo', 17, 20],
      ['lineTo', 13, 24],
      ['lineTo', 10, 24],
      ['lineTo', 6, 20],
    ]);
  });
});
