/** A blank overlay is not redrawn: `overlayIsBlank` must say blank only when drawOverlay draws nothing. */
import { describe, expect, it } from 'vitest';
import { builder, loaded } from '../../../testkit/models/timelineModels.ts';
import { RecordingCanvas } from '../../../testkit/canvas/recordingCanvas.ts';
import { testFrame } from '../../../testkit/canvas/testFrames.ts';
import { hitTestFrame } from '../frame.ts';
import { buildHighlightIndex } from './highlight.ts';
import { drawOverlay, overlayIsBlank, type OverlayState } from './overlay.ts';
import { RULER_HEIGHT_CSS } from './ruler.ts';

function model() {
  const b = builder();
  const t = b.thread(1, 1, 'main');
  b.range(t, 100, 900, { name: 'step' });
  b.mark(t, 500, { name: 'tick' });
  return b.finish();
}

describe('blank overlay', () => {
  const m = model();
  const frame = testFrame([loaded(m)], { startNs: 0, endNs: 1000, widthCss: 400 });
  const step = Array.from(m.ranges.style).findIndex((s) => m.strings[m.styles.name[s]] === 'step');
  const stepRow = frame.layout.rows.findIndex((r) => r.kind === 'track' && m.tracks[r.track].kind !== 'marks' && r.track >= 0 && m.tracks[r.track].rangeEnd > m.tracks[r.track].rangeBegin);
  const boxY = RULER_HEIGHT_CSS + frame.layout.rows[stepRow].yCss + 12;
  const hover = hitTestFrame(frame, 200, boxY);
  const none: OverlayState = { pointer: null, hover: null, selection: null, span: null, highlight: null, flags: [] };

  /** Calls other than clearing: what the overlay shows. */
  const drawn = (state: OverlayState) => {
    const ctx = new RecordingCanvas();
    drawOverlay(ctx, frame, state);
    return ctx.calls.filter((c) => c.op !== 'clearRect');
  };

  it('is blank with nothing to show, and then draws nothing but the clearing', () => {
    expect(overlayIsBlank(none)).toBe(true);
    expect(overlayIsBlank({ ...none, flags: undefined, highlight: undefined })).toBe(true);
    expect(drawn(none)).toEqual([]);
  });

  it('is not blank whenever something is shown', () => {
    expect(hover && hover !== 'ruler' && hover.kind === 'range' && hover.index === step).toBe(true);
    const states: [string, OverlayState][] = [
      ['pointer', { ...none, pointer: { xCss: 200, yCss: boxY } }],
      ['hover', { ...none, hover: hover as Exclude<typeof hover, 'ruler' | null> }],
      ['selection', { ...none, selection: { kind: 'range', capture: 1, index: step } }],
      ['span', { ...none, span: { startNs: 200, endNs: 400 } }],
      ['highlight', { ...none, highlight: buildHighlightIndex(1, m, 0, Int32Array.of(step)) }],
      ['flags', { ...none, flags: [{ id: 1, timeNs: 300, note: '' }] }],
    ];
    for (const [what, state] of states) {
      expect(drawn(state).length, what).toBeGreaterThan(0);
      expect(overlayIsBlank(state), what).toBe(false);
    }
  });
});
