/**
 * The large nsys export generator (python3's sqlite3): the rows it promises load, and the table
 * written before them is never read (the paged reader touches a few MB of a file of tens).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { fileSource } from '../../src/import/nodeSource.ts';
import { loadModel } from '../../src/import/pipeline.ts';
import { writeLargeNsysExport } from './nsysLarge.ts';

const hasPython = spawnSync('python3', ['--version']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'nvtxview-nsys-large-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it.skipIf(!hasPython)('writes the rows after an unread table up to the size asked; only the rows are read', async () => {
  const path = join(dir, 'large.sqlite');
  const made = await writeLargeNsysExport(path, { ranges: 4000, bytes: 40e6 });
  expect(made.bytes).toBeGreaterThan(39e6);
  expect(made.fillerBytes).toBeGreaterThan(35e6);
  let read = 0;
  const source = await fileSource(path);
  try {
    const model = await loadModel(source, { onProgress: (done) => (read = Math.max(read, done)) });
    expect(model.issues.filter((i) => i.severity === 'error')).toEqual([]);
    const tracks = model.tracks as unknown as Array<{ kind: string; rangeBegin: number; rangeEnd: number }>;
    const pushpop = tracks.filter((t) => t.kind === 'pushpop').reduce((n, t) => n + t.rangeEnd - t.rangeBegin, 0);
    expect(pushpop).toBe(4000);
    // Each runtime call and its kernel share a correlation id.
    expect(model.correlation?.range.length ?? 0).toBeGreaterThanOrEqual(2 * made.calls);
  } finally {
    await source.close();
  }
  // The unread table's pages stay unread: the 1 MiB blocks around the rows and the schema.
  expect(read).toBeLessThan(8e6);
});
