import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadModel, memorySource } from '../../import/pipeline.ts';
import { rangeName } from '../../model/query.ts';
import { gpuWorkFields } from './gpuWorkFields.ts';

const FIXTURE = '../shared/fixtures/pytorch/cnn-h100-torch2.11.json';

describe('GPU work as fields', async () => {
  const m = await loadModel(memorySource('cnn.json', readFileSync(FIXTURE)));
  const first = (name: string) => [...Array(m.ranges.startNs.length).keys()].find((i) => rangeName(m, i).startsWith(name))!;
  const asMap = (range: number) => new Map(gpuWorkFields(m, range)!.map((f) => [f.label, f.value]));

  it('gives a kernel its device, stream, grid, block, registers and shared memory', () => {
    const f = asMap(first('void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>'));
    expect(f.get('Device')).toBe('GPU 0 (NVIDIA H100 80GB HBM3)');
    expect(f.get('Stream')).toBe('Stream 7');
    expect(f.get('Grid')).toBe('(1, 1, 1)');
    expect(f.get('Block')).toBe('(128, 1, 1)');
    expect(f.get('Registers per thread')).toBe('16');
    expect(f.get('Shared memory')).toBe('0 B');
    expect(f.get('Correlation id')).toBeDefined();
  });

  it('gives a copy its bytes and bandwidth', () => {
    const f = asMap(first('Memcpy HtoD'));
    expect(f.get('Bytes')).toBe('768 KiB (786,432 B)');
    expect(f.get('Bandwidth')).toBe('45.01 GB/s');
    expect(f.get('Stream')).toBe('Stream 13');
  });

  it('has no fields for a CPU range', () => {
    expect(gpuWorkFields(m, first('aten::'))).toBeUndefined();
  });
});

describe('GPU work as fields, nsys export', async () => {
  const m = await loadModel(memorySource('cnn.sqlite', readFileSync('../shared/fixtures/nsys/cnn-h100-nsys2025.3.sqlite')));
  const work = (test: (name: string) => boolean) => [...Array(m.ranges.startNs.length).keys()].find((i) => gpuWorkFields(m, i) && test(rangeName(m, i)))!;

  it('reads the same fields from the importer\'s columns', () => {
    const kernel = new Map(gpuWorkFields(m, work((n) => !n.startsWith('[CUDA')))!.map((f) => [f.label, f.value]));
    expect(kernel.get('Grid')).toMatch(/^\(\d+, \d+, \d+\)$/);
    expect(kernel.get('Block')).toMatch(/^\(\d+, \d+, \d+\)$/);
    expect(kernel.get('Registers per thread')).toMatch(/^\d+$/);
    expect(kernel.get('Shared memory')).toMatch(/static .* dynamic/);
    expect(kernel.get('Device')).toMatch(/^GPU 0/);
    const copy = new Map(gpuWorkFields(m, work((n) => n.startsWith('[CUDA memcpy')))!.map((f) => [f.label, f.value]));
    expect(copy.get('Bytes')).toMatch(/ B\)$/);
    expect(copy.get('Bandwidth')).toMatch(/GB\/s$/);
  });
});
