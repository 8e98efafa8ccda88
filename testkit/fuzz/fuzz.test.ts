/**
 * The short fuzz run of CI: a few dozen seeded mutations of generated captures per format, each
 * through loadModel, the model invariants and the CLI statistics in a worker with a time bound.
 * The long run is `npm run fuzz` (testkit/fuzz/main.ts, figures in docs/reliability.md).
 */
import { describe, expect, it } from 'vitest';
import type { FuzzFormat } from './cases.ts';
import { runFuzz, type FuzzSummary } from './harness.ts';

/** Cases per format: about 300 in all, well under a minute on the shared 2-core machine. */
const CASES: Record<FuzzFormat, number> = { native: 60, nvtxt: 80, chrome: 80, nsys: 40, 'nsys-sql': 40 };

/** What failed, one line per case, for the assertion message. */
function failures(s: FuzzSummary): string[] {
  return s.failures.map((f) => `case ${f.index} from ${f.from}: ${f.outcome}: ${f.detail?.slice(0, 200)}`);
}

async function shortRun(format: FuzzFormat): Promise<FuzzSummary> {
  // A floor of 3 s: CI shares its cores; a real hang (the were minutes) still shows.
  return runFuzz({ format, cases: CASES[format], seed: 20261124, scale: { maxDepth: 300 }, floorMs: 3000 });
}

describe('fuzz (short run)', () => {
  it('nvtxt: no hang, no exception, no invalid model', async () => {
    const s = await shortRun('nvtxt');
    expect(failures(s)).toEqual([]);
    // The run exercised both paths: some cases load, some are refused or report problems.
    expect(s.counts.loaded).toBeGreaterThan(CASES.nvtxt / 2);
  });

  it('native: no hang, no exception, no invalid model', async () => {
    const s = await shortRun('native');
    expect(failures(s)).toEqual([]);
  });

  it('chrome: no hang, no exception, no invalid model', async () => {
    const s = await shortRun('chrome');
    expect(failures(s)).toEqual([]);
  });

  it('nsys (byte-mutated): no hang, no exception, no invalid model', async () => {
    const s = await shortRun('nsys');
    expect(failures(s)).toEqual([]);
  });

  it('nsys (SQL-mutated and crafted): no hang, no exception, no invalid model', async () => {
    const s = await shortRun('nsys-sql');
    expect(failures(s)).toEqual([]);
  });
});
