import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadModel, memorySource } from '../../import/pipeline.ts';
import { computeStats, type StatsScope } from './compute.ts';

describe('statistics panel: GPU work and API calls in their own tables', async () => {
  const text = readFileSync('../shared/fixtures/pytorch/cnn-h100-torch2.11.json', 'utf8');
  const m = await loadModel(memorySource('cnn.json', new TextEncoder().encode(text)));
  const events = (JSON.parse(text) as { traceEvents: { ph: string; cat?: string; name?: string }[] }).traceEvents;
  const count = (...cats: string[]) => events.filter((e) => e.ph === 'X' && cats.includes(e.cat ?? '')).length;
  const rows = (scope: Partial<StatsScope>) => {
    const r = computeStats(m, { kind: 'ranges', scope: { span: null, mode: 'clip', tracks: null, ...scope }, grouping: { by: 'name' } });
    if (r.kind !== 'ranges') throw new Error('ranges expected');
    return r.result.rows;
  };
  const total = (r: { count: number }[]) => r.reduce((n, x) => n + x.count, 0);

  it('counts each kind apart', () => {
    expect(total(rows({ rangeKind: 'gpu' }))).toBe(count('kernel', 'gpu_memcpy', 'gpu_memset'));
    expect(total(rows({ rangeKind: 'api' }))).toBe(count('cuda_runtime', 'cuda_driver'));
    const cpu = rows({});
    expect(total(cpu)).toBe(count('cpu_op', 'user_annotation', 'overhead', 'Trace'));
    expect(cpu.some((r) => r.label === 'cudaLaunchKernel')).toBe(false);
  });

  it('keeps the caller\'s track choice', () => {
    const stream13 = m.tracks.findIndex((t) => t.kind === 'gpu' && t.label === 'Stream 13');
    expect(total(rows({ rangeKind: 'gpu', tracks: [stream13] }))).toBe(3);
  });
});
