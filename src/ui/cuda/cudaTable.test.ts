import { describe, expect, it } from 'vitest';
import { rangeCudaStatistics } from '../../analysis/cuda/statistics.ts';
import { ModelBuilder } from '../../model/builder.ts';
import { rangeName } from '../../model/query.ts';
import type { Model } from '../../model/types.ts';
import { cudaStatRows, hasCudaRows, isCudaActivity } from './cudaTable.ts';

/** NVTX "step" [0, 100] on thread main, with a child "inner" [10, 30]; launches on one or two devices. */
function model(devices: number): Model {
  const b = new ModelBuilder({ fileName: 'n.sqlite', format: 'test', byteSize: 0 });
  const t = b.thread(1, 11, 'main');
  b.push(t, 0, { name: 'step' });
  b.push(t, 10, { name: 'inner' });
  b.pop(t, 30);
  b.pop(t, 100);
  const api = b.customRow({ kind: 'api', label: 'CUDA Runtime API', process: 0, thread: t });
  b.rowRange(api, 12, 20, { name: 'cudaLaunchKernel' }, t, 1);
  b.rowRange(api, 40, 50, { name: 'cudaLaunchKernel' }, t, 2);
  for (let d = 0; d < devices; d++) {
    const gpu = b.customRow({ kind: 'gpu', label: 'Stream 7', process: 0, path: ['CUDA', `GPU ${d}`] });
    b.rowRange(gpu, 60 + d * 10, 200, { name: `kernel${d}` }, -1, d + 1);
  }
  return b.finish();
}

const named = (m: Model, name: string) => Array.from({ length: m.ranges.startNs.length }, (_, i) => i).find((i) => rangeName(m, i) === name)!;

describe('CUDA statistics rows', () => {
  it('list API calls and duration per domain, then GPU work, activity and overlap of the one device', () => {
    const m = model(1);
    const rows = cudaStatRows(rangeCudaStatistics(m, named(m, 'step'))!);
    expect(rows.map((r) => r.key)).toEqual([
      'api:CUDA Runtime API:calls',
      'api:CUDA Runtime API:duration',
      'gpu:All GPUs:work',
      'gpu:All GPUs:activity',
      'gpu:All GPUs:overlap',
    ]);
    expect(rows.map((r) => r.group)).toEqual(['CUDA Runtime API', 'CUDA Runtime API', 'GPU 0', 'GPU 0', 'GPU 0']);
    const calls = rows[0].value;
    // Two calls in the range, the second outside the child: self.
    expect([calls.total, calls.self]).toEqual([2, 1]);
    expect(rows[1].value).toMatchObject({ total: 18, self: 10 });
    expect(rows[2].unit).toBe('count');
    expect(rows[3].unit).toBe('ns');
  });

  it('add per-device rows when work ran on several devices', () => {
    const m = model(2);
    const rows = cudaStatRows(rangeCudaStatistics(m, named(m, 'step'))!);
    expect(rows.filter((r) => r.key.endsWith(':activity')).map((r) => r.group)).toEqual(['All GPUs', 'GPU 0', 'GPU 1']);
    const overlap = rows.find((r) => r.key === 'gpu:All GPUs:overlap')!;
    expect(overlap.value.total).toBe(130);
  });

  it('tell CUDA captures and activity rows apart', () => {
    const m = model(1);
    expect(hasCudaRows(m)).toBe(true);
    expect(isCudaActivity(m, named(m, 'kernel0'))).toBe(true);
    expect(isCudaActivity(m, named(m, 'step'))).toBe(false);
    const plain = new ModelBuilder({ fileName: 'p', format: 'test', byteSize: 0 });
    plain.push(plain.thread(1, 1), 0, { name: 'x' });
    plain.pop(plain.thread(1, 1), 1);
    expect(hasCudaRows(plain.finish())).toBe(false);
  });
});
