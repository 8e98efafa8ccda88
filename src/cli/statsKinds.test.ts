import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli as run } from '../../testkit/cli.ts';
import type { StatsRecord } from './stats.ts';

const FIXTURE = '../shared/fixtures/pytorch/cnn-h100-torch2.11.json';


interface JsonEvent {
  ph: string;
  cat?: string;
  name?: string;
}
const events = (JSON.parse(readFileSync(FIXTURE, 'utf8')) as { traceEvents: JsonEvent[] }).traceEvents;
const countOf = (...cats: string[]) => events.filter((e) => e.ph === 'X' && cats.includes(e.cat ?? '')).length;
const total = (rows: StatsRecord[]) => rows.reduce((n, r) => n + r.count, 0);

describe('nvtxview stats --kind: GPU work never mixed with CPU ranges', () => {
  it('counts kernels, memory operations, GPU work and API calls apart', async () => {
    const json = async (kind: string) => JSON.parse((await run('stats', '--json', '--kind', kind, FIXTURE)).out) as StatsRecord[];
    expect(total(await json('kernels'))).toBe(countOf('kernel'));
    expect(total(await json('memops'))).toBe(countOf('gpu_memcpy', 'gpu_memset'));
    expect(total(await json('gpu'))).toBe(countOf('kernel', 'gpu_memcpy', 'gpu_memset'));
    expect(total(await json('api'))).toBe(countOf('cuda_runtime', 'cuda_driver'));
    const ranges = await json('ranges');
    expect(total(ranges)).toBe(countOf('cpu_op', 'user_annotation', 'overhead', 'Trace'));
    // gpu_user_annotation shadows are not CPU range instances.
    expect(ranges.find((r) => r.name === 'backward')!.count).toBe(events.filter((e) => e.cat === 'user_annotation' && e.name === 'backward').length);
  });

  it('elides long names in tables only', async () => {
    const table = await run('stats', '--kind', 'kernels', FIXTURE);
    expect(table.status).toBe(0);
    const widths = table.out.split('\n').map((l) => l.length);
    expect(Math.max(...widths)).toBeLessThanOrEqual(200);
    expect(table.out).toContain('…');
    expect(table.out.split('\n')[1]).toContain('Name');
    const csv = await run('stats', '--format', 'csv', '--kind', 'kernels', FIXTURE);
    const longest = events.filter((e) => e.cat === 'kernel').reduce((m, e) => Math.max(m, e.name!.length), 0);
    expect(Math.max(...csv.out.split('\n').map((l) => l.length))).toBeGreaterThan(longest);
  });

  it('scopes GPU work by the GPU projection of --range instances', async () => {
    const { out } = await run('stats', '--kind', 'gpu', '--range', 'forward', FIXTURE);
    expect(out.split('\n')[0]).toContain('GPU projections of 3 of the 3 instance(s) of "forward"');
  });

  it('rejects an unknown kind', async () => {
    const r = await run('stats', '--kind', 'threads', FIXTURE);
    expect(r.status).toBe(2);
    expect(r.err).toContain('--kind: "threads" is not one of ranges, api, gpu, kernels, memops');
  });
});
