/**
 * The reproducers of issue 16 (../shared/fixtures/fuzz/, README there) as regression tests: each
 * must load (or be refused with a clear message) with a sound model, within a bound, through the
 * same worker and checks as the fuzz harness.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_FIXTURES } from './cases.ts';
import { checkFiles } from './harness.ts';

const DIR = join(SHARED_FIXTURES, 'fuzz');

/**
 * Each reproducer loads and passes the checks in about 1 s on a quiet machine (the bound
 * was 10 s); twice that leaves room for a CI machine busy with other suites. The hangs of issue 16
 * ran for minutes.
 */
const LIMIT_MS = 20_000;

async function check(name: string) {
  const [result] = await checkFiles([{ name, bytes: new Uint8Array(readFileSync(join(DIR, name))) }], LIMIT_MS);
  return result;
}

const sound = async (name: string) => {
  const result = await check(name);
  expect(['loaded', 'refused'], `${name}: ${result.outcome}: ${result.detail}`).toContain(result.outcome);
};

describe.runIf(existsSync(DIR))('fuzz reproducers of issue 16', () => {
  it.each(['nvtxt-2419-invalid-model.nvtxt', 'nvtxt-3653-invalid-model.nvtxt'])('%s loads a sound model', sound);

  it.each(['chrome-2808-internal.json', 'chrome-3324-internal.json'])('%s loads a sound model', sound);

  // Non-finite times from 1e309: reported and skipped by the Chrome importer.
  it.each(['chrome-1450-invalid-model.json', 'chrome-3557-invalid-model.json'])('%s loads a sound model', sound);
  // Hung before the Chrome importer's line counter searched each byte once.
  it.each(['chrome-2288-hang.json', 'chrome-70-hang.json'])('%s loads a sound model', sound);

  // Native captures that hung or broke the model's rules before the decoder's resync and bounds.
  it.each(['nvtxc-2008-invalid-model.nvtxc', 'nvtxc-3221-invalid-model.nvtxc', 'nvtxc-3575-hang.nvtxc', 'nvtxc-4326-hang.nvtxc'])(
    '%s loads a sound model',
    sound,
  );

  // REAL timestamps of ±inf (BigInt(-Infinity) before): reported and skipped by the Nsight importer.
  it.each(['sqlite-crafted-181-internal.sqlite', 'sqlite-crafted-200-internal.sqlite'])('%s loads a sound model', sound);
});
