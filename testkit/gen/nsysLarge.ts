/**
 * Nsight Systems exports of any size, written to a file, for the benchmarks (`nsys-decode`,
 * `bench:browser`'s nsysLarge case): the schema of `testkit/writers/nsysExport.ts`, then
 * `ranges` nested push/pop NVTX ranges on 8 threads, one CUDA runtime call per 4 ranges and one
 * kernel per call on 4 streams, inserted by SQLite itself (recursive CTEs). With `bytes`, a table
 * nvtxview never reads (1 MiB blobs, like the sampling and event tables of a long nsys session)
 * is written first until the file reaches about that size, so every page the importer reads lies
 * beyond it (past 2 or 4 GiB).
 *
 * python3's sqlite3 writes the file: SQLite in WebAssembly (sql.js) holds the database in memory and
 * cannot make files over about 2 GB. A few seconds per GB of filler, about 10 s per 10M ranges.
 */
import { spawnSync } from 'node:child_process';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { buildExport } from '../writers/nsysExport.ts';

export interface LargeNsysOptions {
  /** NVTX push/pop ranges (depth 4 stacks on 8 threads); runtime calls and kernels: ranges / 4 each. */
  ranges: number;
  /** Size to reach with the unread table written before the rows (0 or unset: none). */
  bytes?: number;
}

export interface LargeNsysExport {
  bytes: number;
  ranges: number;
  calls: number;
  kernels: number;
  /** Bytes of the table nvtxview never reads. */
  fillerBytes: number;
}

/** Bytes per generated range (with its share of calls and kernels), measured: 78.5 MB per 1M ranges. */
const BYTES_PER_RANGE = 79;

const SCRIPT = String.raw`
import sqlite3, sys
out, base, n, filler_mib = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
db = sqlite3.connect(out, isolation_level=None)
db.execute('PRAGMA journal_mode=OFF')
db.execute('PRAGMA synchronous=OFF')
db.execute('BEGIN')
if filler_mib > 0:
    db.execute('CREATE TABLE SAMPLING_FILLER (id INTEGER PRIMARY KEY, payload BLOB)')
    db.execute('WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < ?) '
               'INSERT INTO SAMPLING_FILLER SELECT i, zeroblob(1048576) FROM k', (filler_mib,))
db.execute('COMMIT')
db.execute('ATTACH ? AS src', (base,))
db.execute('BEGIN')
for name, sql in db.execute("SELECT name, sql FROM src.sqlite_master WHERE type = 'table'").fetchall():
    db.execute(sql)
    db.execute(f'INSERT INTO main."{name}" SELECT * FROM src."{name}"')
# Range k on thread k % 8 is at depth k / 8 % 4 of a 4-deep stack that repeats every 32 ranges;
# the innermost range launches one kernel.
gid = lambda tid: f'((1 << 48) | (1000 << 24) | ({tid}))'
db.execute(f'''WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < {n})
  INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId, color)
  SELECT (i / 32) * 10000 + (i / 8 % 4) * 100, (i / 32) * 10000 + 9000 - (i / 8 % 4) * 100, 59,
    'range ' || (i % 97), {gid('1000 + i % 8')}, 0, 4278190335 - (i % 7) FROM k''')
calls = n // 4
db.execute(f'''WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < {calls})
  INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId, returnValue)
  SELECT (i / 8) * 10000 + 400, (i / 8) * 10000 + 450, 0, {gid('1000 + i % 8')}, i, 0, 0 FROM k''')
db.execute(f'''WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < {calls})
  INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, globalPid, demangledName, shortName)
  SELECT (i / 8) * 10000 + 500 + (i % 8) * 50, (i / 8) * 10000 + 1500 + (i % 8) * 50, 0, 1, 7 + i % 4, i,
    {gid('0')}, 1, 1 FROM k''')
db.execute(f'UPDATE ANALYSIS_DETAILS SET stopTime = {(n // 32 + 1) * 10000}, duration = {(n // 32 + 1) * 10000}')
db.execute('COMMIT')
db.close()
`;

/** Writes the export to `path` (replacing it). Needs python3. */
export async function writeLargeNsysExport(path: string, options: LargeNsysOptions): Promise<LargeNsysExport> {
  const base = await buildExport({
    threads: Array.from({ length: 8 }, (_, t) => [1000, 1000 + t, `worker ${t}`] as [number, number, string]),
    strings: ['cudaLaunchKernel_v7000', 'gemm_kernel'],
    span: [0, 1],
  });
  const basePath = `${path}.schema`;
  writeFileSync(basePath, base);
  rmSync(path, { force: true });
  const fillerMiB = Math.max(0, Math.round(((options.bytes ?? 0) - options.ranges * BYTES_PER_RANGE) / 1048576));
  try {
    const run = spawnSync('python3', ['-c', SCRIPT, path, basePath, String(options.ranges), String(fillerMiB)], { encoding: 'utf8' });
    if (run.error) throw new Error(`python3 is needed to write large nsys exports (${run.error.message})`);
    if (run.status !== 0) throw new Error(`writing ${path} failed: ${run.stderr.trim()}`);
  } finally {
    rmSync(basePath, { force: true });
  }
  const calls = Math.floor(options.ranges / 4);
  return { bytes: statSync(path).size, ranges: options.ranges, calls, kernels: calls, fillerBytes: fillerMiB * 1048576 };
}
