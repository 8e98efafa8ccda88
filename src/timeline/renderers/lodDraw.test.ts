/** Drawing with the range summaries draws the boxes that drawing range by range draws. */
import { describe, expect, it } from 'vitest';
import { Random } from '../../../testkit/gen/random.ts';
import { drawStaticFrame } from '../frame.ts';
import { RecordingCanvas } from '../../../testkit/canvas/recordingCanvas.ts';
import { testFrame, testText } from '../../../testkit/canvas/testFrames.ts';
import { builder, loaded } from '../../../testkit/models/timelineModels.ts';

function dense(seed: number) {
  const rnd = new Random(seed);
  const b = builder();
  b.process(1, 'p');
  const names = ['a', 'b'].map((s) => b.intern(s));
  for (let th = 0; th < 3; th++) {
    const t = b.thread(1, th + 1);
    let time = 0;
    for (let i = 0; i < 20_000; i++) {
      const start = time + Math.floor(10 ** (rnd.next() * 4));
      const end = start + Math.floor(10 ** (rnd.next() * 3));
      b.range(t, start, end, { nameId: names[Math.floor(i / 2000) % 2] });
      if (rnd.chance(0.3)) b.range(t, start, start + Math.floor((end - start) / 2), { nameId: names[1] });
      time = end;
    }
  }
  return b.finish();
}

const boxes = (ctx: RecordingCanvas) => ctx.calls.filter((c) => c.op === 'fillRect').map((c) => [c.x, c.y, c.w, c.h].map((v) => Math.round(v * 100) / 100).join(','));

describe('range summaries in drawing', () => {
  it('the same boxes at every zoom, with and without summaries', () => {
    const model = dense(3);
    expect(model.rangeLod).toBeDefined();
    const plain = { ...model, rangeLod: undefined };
    for (const fraction of [1, 0.3, 0.05, 0.01, 0.001]) {
      const startNs = model.durationNs * (0.5 - fraction / 2);
      const view = { startNs, endNs: startNs + model.durationNs * fraction, widthCss: 900 };
      const a = new RecordingCanvas();
      drawStaticFrame(a, testFrame([loaded(model)], view), testText());
      const b = new RecordingCanvas();
      drawStaticFrame(b, testFrame([loaded(plain)], view), testText());
      expect(boxes(a)).toEqual(boxes(b));
    }
  });
});
