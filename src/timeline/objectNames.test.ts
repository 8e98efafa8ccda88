/** The tooltip of GPU work names the device, context and stream of its row, with the names the program gave them. */
import { describe, expect, it } from 'vitest';
import { CUDA_CONTEXT, CUDA_DEVICE, CUDA_STREAM } from '../model/cudaRows.ts';
import { testFrame } from '../../testkit/canvas/testFrames.ts';
import { builder, loaded } from '../../testkit/models/timelineModels.ts';
import { tooltipContent } from './tooltip.ts';

describe('CUDA object names in the hover tooltip', () => {
  const b = builder('c.sqlite');
  const process = b.process(9, 'trainer');
  const row = b.customRow({
    kind: 'gpu',
    label: 'Stream 7 · compute',
    process,
    path: ['CUDA', 'GPU 0 (H100)'],
    objects: [
      { kind: CUDA_DEVICE, handle: '0' },
      { kind: CUDA_CONTEXT, handle: '1' },
      { kind: CUDA_STREAM, handle: '7' },
    ],
  });
  b.nameResource({ kind: CUDA_STREAM, handle: '7', name: 'compute', process, domain: 0 });
  b.nameResource({ kind: CUDA_DEVICE, handle: '0', name: 'main GPU', process: -1, domain: 0 });
  b.rowRange(row, 0, 100, { name: 'kernel' });
  const m = b.finish();

  it('lists each object, named or not, and the row`s process for work without a thread', () => {
    const frame = testFrame([loaded(m)], { startNs: 0, endNs: 200, widthCss: 200 });
    const layoutRow = frame.layout.rows[frame.layout.rowOfTrack(1, 0)];
    const content = tooltipContent({ kind: 'range', row: layoutRow, index: 0 } as Parameters<typeof tooltipContent>[0], false);
    expect(content.rows.filter(([label]) => /^CUDA|^Process/.test(label))).toEqual([
      ['CUDA device', '0 · main GPU'],
      ['CUDA context', '1'],
      ['CUDA stream', '7 · compute'],
      ['Process', 'trainer (9)'],
    ]);
  });
});
