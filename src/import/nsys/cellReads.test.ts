/**
 * The importer reads rows cell by cell (rowCursor.ts): from SQLite's column API when paged, from one
 * row array per step on the whole-file peer. Both must give one model, with the payloads and names
 * the row arrays gave before.
 */
import { describe, expect, it } from 'vitest';
import { payloadValue } from '../../model/payload.ts';
import { rangeName } from '../../model/query.ts';
import type { Model } from '../../model/types.ts';
import { PayloadType } from '../../model/types.ts';
import { loadModel, memorySource } from '../pipeline.ts';
import { buildExport, T, type ExportSpec } from '../../../testkit/writers/nsysExport.ts';

const spec: ExportSpec = {
  span: [0, 10_000],
  processes: [[100, 'app']],
  threads: [
    [100, 101, 'main'],
    [100, 102, 'worker'],
  ],
  nvtx: [
    { start: 0, type: T.domainCreate, pid: 100, tid: 101, domainId: 1, text: 'net' },
    { start: 1, type: T.category, pid: 100, tid: 101, category: 3, text: 'Forward' },
    { start: 0, end: 1000, type: T.pushPop, pid: 100, tid: 101, text: 'step é', color: 0xff00ff00, category: 3 },
    { start: 100, end: 400, type: T.pushPop, pid: 100, tid: 101, text: 'step é', domainId: 1 },
    { start: 500, end: 600, type: T.pushPop, pid: 100, tid: 101, textId: 0 },
    { start: 10, type: T.mark, pid: 100, tid: 101, text: 'u64', uint64: 18446744073709551615n },
    { start: 11, type: T.mark, pid: 100, tid: 101, text: 'json', jsonText: '{"a":1}' },
    { start: 20, end: 70, type: T.startEnd, pid: 100, tid: 101, endPid: 100, endTid: 102, text: 'handoff' },
    { start: 60, type: T.start, pid: 100, tid: 102, rangeId: 9, text: 'split' },
    { start: 90, type: T.end, pid: 100, tid: 102, rangeId: 9 },
  ],
  strings: ['registered'],
  runtime: [
    { start: 110, end: 120, pid: 100, tid: 101, correlationId: 1, name: 'cudaLaunchKernel_v7000' },
    { start: 130, end: 140, pid: 100, tid: 101, correlationId: 2, name: 'cudaMemcpyAsync_v3020', returnValue: 700 },
  ],
  kernels: [{ start: 200, end: 300, pid: 100, stream: 7, correlationId: 1, name: 'gemm' }],
  memcpy: [{ start: 310, end: 320, pid: 100, stream: 7, correlationId: 2, kind: 1, bytes: 4096 }],
  memset: [{ start: 330, end: 340, pid: 100, stream: 7, correlationId: 2, bytes: 64 }],
  sync: [{ start: 350, end: 360, pid: 100, stream: 7, correlationId: 2, kind: 3 }],
};

/** Every range as name, times, track label and payload, in model order. */
function rangesOf(m: Model) {
  return Array.from(m.ranges.startNs, (start, r) => ({
    name: rangeName(m, r),
    start,
    end: m.ranges.endNs[r],
    payload: payloadValue(m, m.ranges.payload[r]),
  }));
}

describe('cell-by-cell reads', async () => {
  const bytes = await buildExport(spec);
  const paged = await loadModel(memorySource('cells.sqlite', bytes));
  const whole = await loadModel(memorySource('cells.sqlite', bytes), { decode: { nsysWholeFile: true } });

  it('give the paged and the whole-file load one model', () => {
    expect(rangesOf(paged)).toEqual(rangesOf(whole));
    expect(paged.strings).toEqual(whole.strings);
    expect(paged.tracks.map((t) => t.label)).toEqual(whole.tracks.map((t) => t.label));
    expect(paged.issues.map((i) => i.message)).toEqual(whole.issues.map((i) => i.message));
  });

  it('keep the payloads and names the row arrays gave', () => {
    const byName = (name: string) => rangesOf(paged).filter((r) => r.name === name);
    expect(byName('gemm')[0]!.payload).toEqual({
      type: PayloadType.Json,
      value: '{"grid":[4,1,1],"block":[128,1,1],"registersPerThread":32,"staticSharedMemory":0,"dynamicSharedMemory":0}',
    });
    expect(byName('[CUDA memcpy Host-to-Device]')[0]!.payload).toEqual({ type: PayloadType.Json, value: '{"bytes":4096}' });
    expect(byName('cudaMemcpyAsync')[0]!.payload).toEqual({ type: PayloadType.Json, value: '{"returnValue":700}' });
    // One text, one string: the same bytes in two rows, once in the default domain and once in "net".
    expect(byName('step é').length).toBeGreaterThanOrEqual(2);
    expect(paged.strings.filter((s) => s === 'step é')).toHaveLength(1);
    expect(byName('registered')).toHaveLength(1);
    expect(byName('split')).toEqual([expect.objectContaining({ start: 60, end: 90 })]);
  });
});
