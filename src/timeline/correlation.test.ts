import { describe, expect, it } from 'vitest';
import { rangeName } from '../model/query.ts';
import type { Model } from '../model/types.ts';
import { describePartner, outlinedPartners, partnerRows } from './correlation.ts';
import { locateRange } from './frame.ts';
import { drawOverlay } from './renderers/overlay.ts';
import { testFrame } from '../../testkit/canvas/testFrames.ts';
import { builder, loaded } from '../../testkit/models/timelineModels.ts';
import { RecordingCanvas } from '../../testkit/canvas/recordingCanvas.ts';
import { tooltipContent } from './tooltip.ts';

/** One API row on thread "main" and two GPU streams; launchA started kernelA and copyA, launchB five kernels. */
function cudaModel(): Model {
  const b = builder('c.sqlite');
  b.process(9, 'trainer');
  const t = b.thread(9, 90, 'main');
  const api = b.customRow({ kind: 'api', label: 'CUDA Runtime API', process: 0, thread: t });
  const s7 = b.customRow({ kind: 'gpu', label: 'Stream 7', process: 0, path: ['CUDA', 'GPU 0 (H200)'] });
  const s9 = b.customRow({ kind: 'gpu', label: 'Stream 9', process: 0, path: ['CUDA', 'GPU 0 (H200)'] });
  b.rowRange(api, 1_000, 2_000, { name: 'launchA' }, t, 1);
  b.rowRange(api, 3_000, 4_000, { name: 'launchB' }, t, 2);
  b.rowRange(api, 5_000, 6_000, { name: 'sync' }, t);
  b.rowRange(s7, 2_500, 7_500, { name: 'kernelA' }, -1, 1);
  b.rowRange(s9, 3_000, 3_500, { name: 'copyA' }, -1, 1);
  for (let k = 0; k < 5; k++) b.rowRange(s7, 8_000 + k * 1_000, 8_500 + k * 1_000, { name: `k${k}` }, -1, 2);
  return b.finish();
}

const named = (m: Model, name: string) => {
  for (let r = 0; r < m.ranges.startNs.length; r++) if (rangeName(m, r) === name) return r;
  throw new Error(name);
};

describe('correlated partners', () => {
  const m = cudaModel();

  it('describe GPU work for an API call and the launching call for GPU work', () => {
    expect(partnerRows(m, named(m, 'launchA')).sort()).toEqual([
      ['GPU work', 'copyA · GPU 0 (H200) › Stream 9 · 500 ns'],
      ['GPU work', 'kernelA · GPU 0 (H200) › Stream 7 · 5 µs'],
    ]);
    expect(partnerRows(m, named(m, 'kernelA'))).toEqual([
      ['API call', 'launchA · main (90) · 1 µs'],
      ['GPU work', 'copyA · GPU 0 (H200) › Stream 9 · 500 ns'],
    ]);
    expect(describePartner(m, named(m, 'launchB'))).toBe('launchB · main (90) · 1 µs');
    expect(partnerRows(m, named(m, 'sync'))).toEqual([]);
  });

  it('list at most three partners in a tooltip and count the rest', () => {
    const rows = partnerRows(m, named(m, 'launchB'));
    expect(rows).toHaveLength(4);
    expect(rows[3]).toEqual(['GPU work', 'and 2 more']);
  });

  it('appear in the hover tooltip of a range', () => {
    const frame = testFrame([loaded(m)], { startNs: 0, endNs: 14_000, widthCss: 1400 });
    const launchA = named(m, 'launchA');
    const row = frame.layout.rows[frame.layout.rowOfTrack(1, m.tracks.findIndex((t) => t.kind === 'api'))];
    const content = tooltipContent({ kind: 'range', row, index: launchA } as Parameters<typeof tooltipContent>[0], false);
    expect(content.rows.filter(([label]) => label === 'GPU work')).toHaveLength(2);
  });

  it('are outlined on the overlay when one side is selected', () => {
    const frame = testFrame([loaded(m)], { startNs: 0, endNs: 14_000, widthCss: 1400 });
    const launchA = named(m, 'launchA');
    expect(outlinedPartners(m, launchA).map((r) => rangeName(m, r)).sort()).toEqual(['copyA', 'kernelA']);
    const strokes = (selection: Parameters<typeof drawOverlay>[2]['selection']) => {
      const ctx = new RecordingCanvas();
      drawOverlay(ctx, frame, { pointer: null, hover: null, selection, span: null });
      return ctx.calls.filter((c) => c.op === 'strokeRect').map((c) => Math.round(c.x + c.w / 2));
    };
    const centre = (r: number) => {
      const box = locateRange(frame, 1, r)!;
      return Math.round((box.x0 + box.x1) / 2);
    };
    // The selection and both partners, each outlined around its own box.
    expect(strokes({ kind: 'range', capture: 1, index: launchA }).sort()).toEqual(
      [launchA, named(m, 'kernelA'), named(m, 'copyA')].map(centre).sort(),
    );
    expect(strokes({ kind: 'range', capture: 1, index: named(m, 'sync') })).toHaveLength(1);
  });
});
