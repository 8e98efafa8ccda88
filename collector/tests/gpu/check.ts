/**
 * The check of collector/tests/gpu/run.sh: decodes each capture it left with the nvtxview CLI
 * (`nvtxview stats --json`, with --kind api|kernels|memops) and compares with what the programs
 * printed about themselves. Fails (exit 1) on any difference.
 *
 *   node scripts/run-ts.mjs collector/tests/gpu/check.ts OUTPUT_DIR
 *
 * gpu_work: NVTX ranges per name, kernels, copies + sets, and the runtime calls that launched them
 * (cudaLaunchKernel, cudaMemcpyAsync, cudaMemsetAsync, cudaStreamSynchronize), all exact.
 * train.py: NVTX ranges per name exact; kernels launched inside the "step" ranges (their GPU
 * projection) equal to torch.profiler's count of a separate run of the same deterministic loop.
 * Both: no GPU record dropped or lost (the load report).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli as cli } from '../../../testkit/cli.ts';
import type { StatsRecord } from '../../../src/cli/stats.ts';

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: check.ts OUTPUT_DIR (the directory collector/tests/gpu/run.sh wrote)\n');
  process.exit(2);
}

let differences = 0;
function compare(what: string, expected: number, got: number): void {
  const ok = expected === got;
  if (!ok) differences++;
  process.stdout.write(`${ok ? 'ok  ' : 'DIFF'} ${what}: expected ${expected}, capture ${got}\n`);
}


async function stats(file: string, ...options: string[]): Promise<StatsRecord[]> {
  const r = await cli('stats', '--json', ...options, file);
  if (r.status !== 0) throw new Error(`nvtxview stats ${options.join(' ')} ${file} failed (${r.status}): ${r.err}`);
  return JSON.parse(r.out) as StatsRecord[];
}

const total = (rows: StatsRecord[], match: (name: string) => boolean = () => true) =>
  rows.filter((r) => match(r.name)).reduce((n, r) => n + r.count, 0);

/** The load report must not say that GPU records were dropped or lost. */
async function noLosses(file: string, name: string): Promise<void> {
  const r = await cli('stats', file);
  const lost = r.err.split('\n').filter((l) => /dropped|lost/i.test(l));
  if (lost.length > 0) differences++;
  process.stdout.write(`${lost.length ? 'DIFF' : 'ok  '} ${name}: ${lost.length ? lost.join('; ') : 'no GPU record dropped or lost'}\n`);
}

function said(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(dir, file), 'utf8').trim().split('\n').pop()!) as Record<string, unknown>;
}

async function checkRanges(capture: string, name: string, expected: Record<string, number>): Promise<void> {
  const rows = await stats(capture);
  for (const [range, count] of Object.entries(expected)) compare(`${name} NVTX ranges "${range}"`, count, total(rows, (n) => n === range));
}

async function gpuWork(): Promise<void> {
  const capture = join(dir, 'gpu_work.nvtxc');
  const p = said('gpu_work.json') as {
    ranges: Record<string, number>;
    kernels: number;
    memcpys: number;
    memsets: number;
    api: Record<string, number>;
  };
  await checkRanges(capture, 'gpu_work', p.ranges);
  compare('gpu_work kernels', p.kernels, total(await stats(capture, '--kind', 'kernels')));
  compare('gpu_work copies and sets', p.memcpys + p.memsets, total(await stats(capture, '--kind', 'memops')));
  const api = await stats(capture, '--kind', 'api');
  for (const [call, count] of Object.entries(p.api)) compare(`gpu_work ${call} calls`, count, total(api, (n) => n === call || n.startsWith(`${call}_v`)));
  await noLosses(capture, 'gpu_work');
}

async function train(): Promise<void> {
  const capture = join(dir, 'train.nvtxc');
  if (!existsSync(capture)) {
    process.stdout.write('--   train.py: not recorded on that machine (no PyTorch with CUDA)\n');
    return;
  }
  const p = said('train.json') as { ranges: Record<string, number> };
  await checkRanges(capture, 'train', p.ranges);
  const reference = said('train.profiler.json') as { kernels?: number };
  if (typeof reference.kernels === 'number') {
    compare('train kernels in "step" ranges (torch.profiler, separate run)', reference.kernels, total(await stats(capture, '--kind', 'kernels', '--range', 'step')));
  }
  await noLosses(capture, 'train');
}

await gpuWork();
await train();
process.stdout.write(differences === 0 ? 'check: every count matches\n' : `check: ${differences} difference(s)\n`);
process.exitCode = differences === 0 ? 0 : 1;
