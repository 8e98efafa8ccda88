/** `nvtxview info`: what each file is and holds and what it records, as table, CSV and JSON. */
import { describe, expect, it } from 'vitest';
import { NSYS_FIXTURE } from '../../testkit/fixtures.ts';
import { runCli as run } from '../../testkit/cli.ts';

describe('nvtxview info', () => {
  it("prints the file's facts and what it records about its run", async () => {
    const r = await run('info', NSYS_FIXTURE);
    expect(r.status).toBe(0);
    const line = (key: string) => r.out.split('\n').find((l) => l.startsWith(`${key} `))?.slice(key.length).trim();
    expect(line('Format')).toBe('Nsight Systems SQLite export');
    expect(line('Ranges')).toBe('13,513');
    expect(line('API calls')).toBe('990');
    expect(line('Time zero')).toMatch(/^2025-03-12 15:36:59\.\d{9} UTC$/);
    expect(r.out).toContain('Recorded in the file:');
    expect(line('Nsight Systems')).toBe('2025.1.1.110');
    expect(line('command')).toMatch(/^pytest benchmarks\/python\/test_cross_entropy_loss\.py/);
    // The load report goes to stderr, as for every command: its counts, then errors first.
    expect(r.err).toContain('fuser-report1.sqlite: 0 error(s), 0 warning(s), 3 info while loading:');
    expect(r.err).toContain('Nsight Systems warned while recording');
  });

  it('gives the same as JSON and CSV records', async () => {
    const json = JSON.parse((await run('info', '--json', NSYS_FIXTURE)).out) as { file: string; section: string; key: string; value: string }[];
    expect(json.find((x) => x.key === 'GPUs')).toEqual({ file: NSYS_FIXTURE, section: 'recorded', key: 'GPUs', value: 'NVIDIA H200' });
    expect(json.find((x) => x.key === 'Threads')).toMatchObject({ section: 'file', value: '10' });
    const csv = (await run('info', '--format', 'csv', NSYS_FIXTURE)).out.split('\n');
    expect(csv[0]).toBe('file,section,key,value');
    expect(csv).toContain(`${NSYS_FIXTURE},recorded,GPUs,NVIDIA H200`);
  });

  it('refuses the options of other commands', async () => {
    const r = await run('info', '--group-by', 'thread', NSYS_FIXTURE);
    expect(r.status).toBe(2);
    expect(r.err).toContain('--group-by is not an option of info');
  });
});
