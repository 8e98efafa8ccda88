/** `nvtxview` on a native capture with CUDA records (format 1.3): the same kinds of statistics as an nsys export. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CudaStatus } from '../import/native/format.ts';
import { nativeCudaCapture } from '../../testkit/gen/nativeCuda.ts';
import { CaptureWriter, MetaRecords, StreamRecords } from '../../testkit/writers/nvtxcWriter.ts';
import { runCli as run } from '../../testkit/cli.ts';
import type { StatsRecord } from './stats.ts';

const dir = mkdtempSync(join(tmpdir(), 'nvtxview-cuda-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const { bytes, expected } = nativeCudaCapture({ threads: 2, steps: 4, kernelsPerStep: 3, droppedRecords: 5 });
const FILE = join(dir, 'train.nvtxc');
writeFileSync(FILE, bytes);


const total = (rows: StatsRecord[]) => rows.reduce((n, r) => n + r.count, 0);
const json = async (...args: string[]) => JSON.parse((await run('stats', '--json', ...args, FILE)).out) as StatsRecord[];

describe('nvtxview stats --kind on a native CUDA capture', () => {
  it('counts API calls, GPU work, kernels and memory operations exactly', async () => {
    expect(total(await json('--kind', 'api'))).toBe(expected.apiCalls);
    expect(total(await json('--kind', 'gpu'))).toBe(expected.kernels + expected.memcpys + expected.memsets);
    expect(total(await json('--kind', 'kernels'))).toBe(expected.kernels);
    expect(total(await json('--kind', 'memops'))).toBe(expected.memcpys + expected.memsets);
    const kernels = await json('--kind', 'kernels');
    expect(kernels.map((r) => r.name).sort()).toEqual(expected.kernelNames.map((k) => k.shown).sort());
    const ranges = await json('--kind', 'ranges');
    expect(total(ranges)).toBe(expected.ranges);
  });

  it('scopes GPU work by the GPU projection of --range instances', async () => {
    const { out } = await run('stats', '--kind', 'kernels', '--range', 'forward', FILE);
    expect(out.split('\n')[0]).toContain('GPU projections of 8 of the 8 instance(s) of "forward"');
  });

  it('says on stderr what the collector lost', async () => {
    const r = await run('stats', '--kind', 'api', FILE);
    expect(r.status).toBe(0);
    expect(r.err).toMatch(/warning: byte \d+: CUPTI dropped 5 GPU activity record\(s\) \(its buffers were full\): the GPU rows miss that work/);
  });

  it('says why CUDA was not recorded', async () => {
    const s = new StreamRecords().thread(7, 'main');
    s.push(100, 'work').pop(200);
    const noCuda = join(dir, 'no-cuda.nvtxc');
    writeFileSync(
      noCuda,
      new CaptureWriter()
        .process({ pid: 1, t0: 1_000n, n0: 1_000n, clockKind: 3 })
        .meta([1_050n, 1_050n], new MetaRecords().cudaStatus(CudaStatus.NotRecorded, 'libcupti not found (looked next to libcudart, in /usr/local/cuda)', {}, 10))
        .events(1, [1_300n, 1_300n], s.bytes())
        .exitNormally()
        .bytes(),
    );
    const r = await run('stats', noCuda);
    expect(r.status).toBe(0);
    expect(r.err).toContain('CUDA not recorded: libcupti not found (looked next to libcudart, in /usr/local/cuda)');
    expect(r.out).toContain('work');
  });
});
