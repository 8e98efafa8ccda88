/** A static frame drawn in slices draws what one whole draw draws. */
import { describe, expect, it } from 'vitest';
import { drawStaticFrame, drawStaticSlice, framedRows } from './frame.ts';
import { RecordingCanvas } from '../../testkit/canvas/recordingCanvas.ts';
import { testFrame, testText } from '../../testkit/canvas/testFrames.ts';
import { loaded, twoThreadModel } from '../../testkit/models/timelineModels.ts';

describe('drawStaticSlice', () => {
  it('draws the whole frame in slices, one row per slice when the clock is always past the deadline', () => {
    const frame = testFrame([loaded(twoThreadModel())], { startNs: 0, endNs: 1000, widthCss: 800 });
    const whole = new RecordingCanvas();
    drawStaticFrame(whole, frame, testText());

    const [first, last] = framedRows(frame);
    expect(last - first).toBeGreaterThan(2);
    const sliced = new RecordingCanvas();
    const text = testText();
    const starts: number[] = [];
    let next: number | null = null;
    do {
      starts.push(next ?? first);
      next = drawStaticSlice(sliced, frame, text, next, 0, undefined, () => 1);
    } while (next >= 0);
    expect(starts).toEqual(Array.from({ length: last - first }, (_, k) => first + k));
    expect(sliced.calls).toEqual(whole.calls);
  });

  it('draws everything in one slice while the clock is before the deadline', () => {
    const frame = testFrame([loaded(twoThreadModel())], { startNs: 0, endNs: 1000, widthCss: 800 });
    const whole = new RecordingCanvas();
    drawStaticFrame(whole, frame, testText());
    const one = new RecordingCanvas();
    expect(drawStaticSlice(one, frame, testText(), null, 100, undefined, () => 1)).toBe(-1);
    expect(one.calls).toEqual(whole.calls);
  });
});
