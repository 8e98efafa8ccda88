import { describe, expect, it } from 'vitest';
import { ModelBuilder } from './builder.ts';
import { correlatedRanges, correlationIdOf, rangeName } from './query.ts';

const fresh = () => new ModelBuilder({ fileName: 'c.sqlite', format: 'test', byteSize: 0 });

describe('ModelBuilder correlation links', () => {
  it('links custom-row ranges that share an id, whatever the row order', () => {
    const b = fresh();
    const t = b.thread(1, 10, 'main');
    const api = b.customRow({ kind: 'api', label: 'CUDA Runtime API', process: 0, thread: t });
    const gpu = b.customRow({ kind: 'gpu', label: 'Stream 7', process: 0, path: ['CUDA', 'GPU 0'] });
    // Out of time order on purpose: finish() sorts rows, the links must follow their ranges.
    b.rowRange(api, 50, 60, { name: 'launchB' }, t, 2);
    b.rowRange(api, 10, 20, { name: 'launchA' }, t, 1);
    b.rowRange(api, 30, 40, { name: 'sync' }, t);
    b.rowRange(gpu, 70, 90, { name: 'kernelB' }, -1, 2);
    b.rowRange(gpu, 25, 45, { name: 'kernelA' }, -1, 1);
    b.rowRange(gpu, 26, 46, { name: 'copyA' }, -1, 1);
    const m = b.finish();
    const byName = new Map<string, number>();
    for (let r = 0; r < m.ranges.startNs.length; r++) byName.set(rangeName(m, r), r);

    expect(correlationIdOf(m, byName.get('launchA')!)).toBe(1);
    expect(correlationIdOf(m, byName.get('sync')!)).toBeUndefined();
    expect(correlatedRanges(m, byName.get('launchA')!).map((r) => rangeName(m, r)).sort()).toEqual(['copyA', 'kernelA']);
    expect(correlatedRanges(m, byName.get('kernelB')!).map((r) => rangeName(m, r))).toEqual(['launchB']);
    expect(correlatedRanges(m, byName.get('sync')!)).toEqual([]);
    // Columns: ascending by range, and byId groups each id.
    const c = m.correlation!;
    for (let k = 1; k < c.range.length; k++) expect(c.range[k]).toBeGreaterThan(c.range[k - 1]);
    expect(Array.from(c.byId, (k) => c.id[k])).toEqual([1, 1, 1, 2, 2]);
  });

  it('leaves the model without correlation columns when nothing is linked', () => {
    const b = fresh();
    const t = b.thread(1, 10);
    b.push(t, 0, { name: 'a' });
    b.pop(t, 5);
    expect(b.finish().correlation).toBeUndefined();
  });
});
