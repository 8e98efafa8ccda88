/**
 * Exports are read page by page where they lie: only the tables the importer queries are read, the
 * file is never copied whole, and the result is the one the whole-file engine gave.
 */
import { describe, expect, it } from 'vitest';
import { modelViolations as modelProblems } from '../../../testkit/models/invariants.ts';
import { loadModel, memorySource } from '../pipeline.ts';
import type { ByteSource } from '../importer.ts';
import { buildExport, T } from '../../../testkit/writers/nsysExport.ts';
import { openDatabase } from './sqlite.ts';

/** A ByteSource over `bytes` that counts what is read at random and refuses to stream the file past its head. */
function countingSource(bytes: Uint8Array) {
  const counted = { randomBytes: 0, streamedBytes: 0 };
  const source: ByteSource = {
    name: 'big.sqlite',
    size: bytes.length,
    read: async (start, end) => {
      counted.streamedBytes += Math.min(end, bytes.length) - start;
      return bytes.subarray(start, Math.min(end, bytes.length));
    },
    readSync: (start, end) => {
      counted.randomBytes += Math.min(end, bytes.length) - start;
      return bytes.subarray(start, Math.min(end, bytes.length));
    },
  };
  return { source, counted };
}

describe('paged reading of an export', async () => {
  const base = await buildExport({
    threads: [[1, 1, 'main']],
    span: [0, 100_000],
    nvtx: Array.from({ length: 2000 }, (_, i) => ({ start: i * 10, end: i * 10 + 5, type: T.pushPop, pid: 1, tid: 1, text: `r${i % 13}` })),
  });
  // A table nvtxview never reads (as sampling or OS runtime tables are), ten times the size of the rest.
  const db = await openDatabase(base);
  db.run('CREATE TABLE SAMPLING_CALLCHAINS (id INTEGER, stack BLOB)');
  db.run(`WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 20000) INSERT INTO SAMPLING_CALLCHAINS SELECT i, randomblob(1000) FROM k`);
  const bytes = db.export();
  db.close();

  it('reads only the pages of the tables it queries, not the whole file', async () => {
    const { source, counted } = countingSource(bytes);
    const model = await loadModel(source);
    expect(model.ranges.startNs.length).toBe(2000);
    expect(modelProblems(model)).toEqual([]);
    expect(bytes.length).toBeGreaterThan(20_000_000);
    // The unread table is ~90% of the file; the pages read are in 1 MiB blocks.
    expect(counted.randomBytes).toBeLessThan(bytes.length * 0.25);
    // Only the head (and the reads already under way when decoding began) streamed.
    expect(counted.streamedBytes).toBeLessThanOrEqual(2 * 16 * 1024 * 1024 + 4 * 1024 * 1024);
  });

  it('gives the model the whole-file engine gave', async () => {
    const paged = await loadModel(memorySource('a.sqlite', bytes));
    const whole = await loadModel(memorySource('a.sqlite', bytes), { decode: { nsysWholeFile: true } });
    expect(Array.from(paged.ranges.startNs)).toEqual(Array.from(whole.ranges.startNs));
    expect(Array.from(paged.ranges.endNs)).toEqual(Array.from(whole.ranges.endNs));
    expect(paged.strings).toEqual(whole.strings);
    expect(paged.issues).toEqual(whole.issues);
  });
});
