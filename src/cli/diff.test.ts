import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturePairNvtxt, type PairRangeSpec } from '../../testkit/gen/comparePair.ts';
import { runCli as run } from '../../testkit/cli.ts';

const side = (count: number, medianNs: number, sigma: number) => ({ count, medianNs, sigma });
const SPECS: PairRangeSpec[] = [
  { name: 'step', base: side(200, 100_000, 0.05), candidate: side(200, 120_000, 0.05) },
  { name: 'added', base: side(0, 1, 0), candidate: side(30, 30_000, 0.1) },
  { name: 'removed', base: side(30, 20_000, 0.1), candidate: side(0, 1, 0) },
  { name: 'noisy', base: side(400, 50_000, 0.3), candidate: side(400, 50_000, 0.3) },
];

let dir: string;
const file = (name: string) => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'nvtxview-diff-'));
  const pair = capturePairNvtxt({ ranges: SPECS, seed: 5 });
  writeFileSync(file('base.nvtxt'), pair.base);
  writeFileSync(file('candidate.nvtxt'), pair.candidate);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));


describe('nvtxview diff', () => {
  it('prints the comparison table and exits 0 without thresholds', async () => {
    const r = await run('diff', file('base.nvtxt'), file('candidate.nvtxt'));
    expect(r.err).toBe('');
    expect(r.status).toBe(0);
    const lines = r.out.split('\n');
    const row = (name: string) => lines.find((l) => l.endsWith(`  ${name}`))!;
    expect(row('step')).toMatch(/slower/);
    expect(row('step')).toMatch(/\+1[789]\.\d%/);
    expect(row('added')).toMatch(/added/);
    expect(row('removed')).toMatch(/removed/);
    expect(row('noisy')).toMatch(/within noise/);
    // Largest increase of total first.
    expect(lines.findIndex((l) => l.endsWith('  step'))).toBeLessThan(lines.findIndex((l) => l.endsWith('  removed')));
  });

  it('exits 0 when no threshold is passed, noise included', async () => {
    const r = await run('diff', file('base.nvtxt'), file('candidate.nvtxt'), '--fail-if', 'step:total>+50%', '--fail-if', 'noisy:p99>+0%');
    expect(r.status).toBe(0);
    expect(r.err).toBe('');
  });

  it('exits 3 naming the range and the figures when a threshold is passed', async () => {
    const r = await run('diff', file('base.nvtxt'), file('candidate.nvtxt'), '--format', 'csv', '--fail-if', 'st.p:total>+5%', '--fail-if', 'st.p:median>+1ms');
    expect(r.status).toBe(3);
    expect(r.err).toMatch(/1 threshold\(s\) passed/);
    expect(r.err).toMatch(/"step": total \+\d+\.\d% \([\d.]+ ms -> [\d.]+ ms, \+[\d.]+ ms\) passes 'st\.p:total>\+5%' \(slower; durations slower, p = /);
    expect(r.out.split('\n')[0]).toMatch(/^groupBy,name,domain,style,status,pValue,effect,countA,countB/);
  });

  it('exits 1 when a file cannot be read', async () => {
    const r = await run('diff', file('base.nvtxt'), file('missing.nvtxt'));
    expect(r.status).toBe(1);
    expect(r.err).toMatch(/missing\.nvtxt: no such file/);
  });

  it('exits 2 on bad usage: a bad threshold, one file, a bad option', async () => {
    const bad = await run('diff', file('base.nvtxt'), file('candidate.nvtxt'), '--fail-if', 'step:speed>5%');
    expect(bad.status).toBe(2);
    expect(bad.err).toMatch(/--fail-if: "step:speed>5%": column "speed"/);
    expect((await run('diff', file('base.nvtxt'))).status).toBe(2);
    expect((await run('diff', file('base.nvtxt'), file('candidate.nvtxt'), '--group-by', 'color')).status).toBe(2);
    expect((await run('stats', file('base.nvtxt'), '--fail-if', 'x:total>1%')).status).toBe(2);
  });

  it('gives JSON records with both sides and the noise test', async () => {
    const r = await run('diff', file('base.nvtxt'), file('candidate.nvtxt'), '--json', '--fail-if', 'nothing:total>1%');
    expect(r.status).toBe(0);
    expect(r.err).toMatch(/'nothing:total>1%' matches no range/);
    const records = JSON.parse(r.out) as Record<string, unknown>[];
    const step = records.find((x) => x.name === 'step')!;
    expect(step).toMatchObject({ status: 'slower', countA: 200, countB: 200, countChange: 0 });
    expect(step.totalRelChange as number).toBeGreaterThan(0.15);
    expect(records.find((x) => x.name === 'added')).toMatchObject({ status: 'added', countA: null, medianNsA: null, totalRelChange: null });
  });

  it('compares inside a time window, and by thread', async () => {
    const r = await run('diff', file('base.nvtxt'), file('candidate.nvtxt'), '--to', '1ms', '--group-by', 'thread');
    expect(r.status).toBe(0);
    expect(r.out).toMatch(/0 ns to 1 ms/);
    expect(r.out).toMatch(/worker 0/);
  });

  it('documents the command and its exit codes in --help', async () => {
    const r = await run('--help');
    expect(r.out).toMatch(/diff BASE CANDIDATE/);
    expect(r.out).toMatch(/3 \(diff\) a --fail-if threshold was passed/);
  });
});
