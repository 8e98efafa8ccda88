/** A frame recorded and replayed draws what the same frame drawn directly draws, call for call. */
import { describe, expect, it } from 'vitest';
import { CHAR_WIDTH, RecordingCanvas } from '../../../testkit/canvas/recordingCanvas.ts';
import { testFrame, testText } from '../../../testkit/canvas/testFrames.ts';
import { counterTestModel } from '../../../testkit/models/counterModel.ts';
import { randomModel } from '../../../testkit/models/randomModel.ts';
import { loaded } from '../../../testkit/models/timelineModels.ts';
import { drawStaticFrame, drawStaticSlice } from '../frame.ts';
import { DrawOp, DrawRecorder, ENTRY, replayDraw } from './drawRecorder.ts';

const captures = [
  ...[1, 2, 3].map((seed) => loaded(randomModel({ seed, ops: 300, startEnds: 40, maxStep: 4 }), seed, seed * 5)),
  loaded(counterTestModel(), 4),
];

describe('DrawRecorder', () => {
  it('replays the calls of a static frame as drawn directly, at every zoom, scroll and pixel ratio', () => {
    for (const fraction of [1, 0.2, 0.01]) {
      for (const [scrollTopCss, dpr] of [[0, 1], [150, 2], [40, 1.5]]) {
        const frame = testFrame(captures, { startNs: 0, endNs: 2500 * fraction, widthCss: 640, heightCss: 500 }, { scrollTopCss, dpr });
        const direct = new RecordingCanvas();
        drawStaticFrame(direct, frame, testText());
        const recorder = new DrawRecorder((text) => text.length * CHAR_WIDTH);
        drawStaticFrame(recorder, frame, testText());
        const recorded = recorder.take();
        const replayed = new RecordingCanvas();
        replayDraw(replayed, recorded);
        expect(direct.calls.length).toBeGreaterThan(50);
        expect(replayed.calls).toEqual(direct.calls);
        expect([replayed.font, replayed.textBaseline, replayed.textAlign, replayed.globalAlpha]).toEqual([direct.font, direct.textBaseline, direct.textAlign, direct.globalAlpha]);
      }
    }
  });

  it('records slices one after the other, and starts over after take', () => {
    const frame = testFrame(captures, { startNs: 0, endNs: 2500, widthCss: 640, heightCss: 500 });
    const direct = new RecordingCanvas();
    drawStaticFrame(direct, frame, testText());
    const recorder = new DrawRecorder((text) => text.length * CHAR_WIDTH);
    const replayed = new RecordingCanvas();
    // A deadline already passed: one row per slice.
    let next = drawStaticSlice(recorder, frame, testText(), null, -Infinity);
    let slices = 1;
    replayDraw(replayed, recorder.take());
    while (next >= 0) {
      next = drawStaticSlice(recorder, frame, testText(), next, -Infinity);
      replayDraw(replayed, recorder.take());
      slices++;
    }
    expect(slices).toBeGreaterThan(3);
    expect(replayed.calls).toEqual(direct.calls);
    expect(recorder.take().count).toBe(0);
  });

  it('grows past its first buffer and measures text in the font last set', () => {
    const fonts: string[] = [];
    const recorder = new DrawRecorder((text, font) => {
      fonts.push(font);
      return text.length;
    });
    recorder.font = '11px test';
    expect(recorder.measureText('abc').width).toBe(3);
    expect(fonts).toEqual(['11px test']);
    for (let i = 0; i < 10_000; i++) recorder.fillRect(i, 1, 2, 3);
    const taken = recorder.take();
    expect(taken.count).toBe(10_001);
    expect(Array.from(taken.ops.subarray((taken.count - 1) * ENTRY + 1, taken.count * ENTRY))).toEqual([9999, 1, 2, 3]);
    // A buffer handed back holds the recording that follows the next take.
    recorder.recycle(taken.ops);
    recorder.fillRect(1, 2, 3, 4);
    recorder.take();
    recorder.fillRect(5, 6, 7, 8);
    const next = recorder.take();
    expect(next.ops).toBe(taken.ops);
    expect(Array.from(next.ops.subarray(0, ENTRY))).toEqual([DrawOp.FillRect, 5, 6, 7, 8]);
  });

  it('restores what it reads back (the font it measures in, the colours, alpha and widths) as a canvas does', () => {
    const fonts: string[] = [];
    const recorder = new DrawRecorder((text, font) => {
      fonts.push(font);
      return text.length;
    });
    const ctx = recorder;
    ctx.font = '11px outer';
    ctx.fillStyle = '#111111';
    ctx.globalAlpha = 0.5;
    ctx.save();
    ctx.font = 'bold 11px inner';
    ctx.fillStyle = '#222222';
    ctx.globalAlpha = 1;
    ctx.lineWidth = 3;
    ctx.textAlign = 'right';
    ctx.save();
    ctx.font = '9px innermost';
    ctx.restore();
    ctx.restore();
    // One restore too many does nothing, as on a canvas.
    ctx.restore();
    ctx.measureText('abc');
    expect(fonts).toEqual(['11px outer']);
    expect([ctx.font, ctx.fillStyle, ctx.globalAlpha, ctx.lineWidth, ctx.textAlign, ctx.textBaseline]).toEqual(['11px outer', '#111111', 0.5, 1, 'start', 'alphabetic']);
    expect(() => ctx.setLineDash([1, 2, 3])).toThrow(/two segments/);
  });
});
