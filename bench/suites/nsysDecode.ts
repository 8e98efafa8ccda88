/**
 * nsys SQLite import benchmark: generates an export in memory (nested push/pop NVTX ranges on 8
 * threads, one CUDA runtime call per innermost range, one kernel per call on 4 streams) and prints
 * how long `loadModel` takes from a file (SQLite open + queries + build, incl. the GPU projection),
 * page by page and, alternated in the same run, the former whole-file sql.js load.
 * Run: `node scripts/run-ts.mjs bench/run.ts nsys-decode [nvtxRanges] [pairs]`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSource } from '../../src/import/nodeSource.ts';
import { loadModel } from '../../src/import/pipeline.ts';
import { buildExport } from '../../testkit/writers/nsysExport.ts';
import { openDatabase } from '../../src/import/nsys/sqlite.ts';

const ranges = Number(process.argv[2] ?? 1_000_000);
/** Measured pairs (paged, whole file) after one warm-up pair; `0` measures one pair without warm-up (big files). */
const pairs = Number(process.argv[3] ?? 2);

async function generate(n: number): Promise<Uint8Array> {
  const base = await buildExport({
    threads: Array.from({ length: 8 }, (_, t) => [1000, 1000 + t, `worker ${t}`] as [number, number, string]),
    strings: ['cudaLaunchKernel_v7000', 'gemm_kernel'],
    span: [0, 1],
  });
  const db = await openDatabase(base);
  // Rows in bulk with recursive CTEs: range k on thread k % 8 is at depth k % 4 of a 4-deep stack
  // that repeats every 4 ranges per thread; the innermost range (depth 3) launches one kernel.
  const gid = (tid: string) => `((1 << 48) | (1000 << 24) | (${tid}))`;
  db.run(`WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < ${n})
    INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId, color)
    SELECT (i / 32) * 10000 + (i / 8 % 4) * 100, (i / 32) * 10000 + 9000 - (i / 8 % 4) * 100, 59,
      'range ' || (i % 97), ${gid('1000 + i % 8')}, 0, 4278190335 - (i % 7) FROM k`);
  const calls = Math.floor(n / 4);
  db.run(`WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < ${calls})
    INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId, returnValue)
    SELECT (i / 8) * 10000 + 400, (i / 8) * 10000 + 450, 0, ${gid('1000 + i % 8')}, i, 0, 0 FROM k`);
  db.run(`WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < ${calls})
    INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, globalPid, demangledName, shortName)
    SELECT (i / 8) * 10000 + 500 + (i % 8) * 50, (i / 8) * 10000 + 1500 + (i % 8) * 50, 0, 1, 7 + i % 4, i,
      ${gid('0')}, 1, 1 FROM k`);
  db.run(`UPDATE ANALYSIS_DETAILS SET stopTime = ${(n / 32 + 1) * 10000}`);
  const bytes = db.export();
  db.close();
  return bytes;
}

const t0 = performance.now();
const bytes = await generate(ranges);
console.log(`generated ${(bytes.length / 1e6).toFixed(1)} MB in ${(performance.now() - t0).toFixed(0)} ms`);
// From a file, as the CLI reads it: page by page (today) and the former whole-file sql.js load,
// alternated in one run. One warm-up run of each, then the measured runs.
const dir = mkdtempSync(join(tmpdir(), 'nvtxview-nsys-bench-'));
const path = join(dir, 'bench.sqlite');
writeFileSync(path, bytes);
try {
  const warmUp = pairs === 0 ? 0 : 2;
  for (let run = 0; run < warmUp + 2 * Math.max(1, pairs); run++) {
    const wholeFile = run % 2 === 1;
    const source = await fileSource(path);
    const start = performance.now();
    const cpu0 = process.cpuUsage();
    const model = await loadModel(source, { decode: { nsysWholeFile: wholeFile } });
    const ms = performance.now() - start;
    const cpu = process.cpuUsage(cpu0);
    await source.close();
    if (run < warmUp) continue;
    const rows = ranges + 2 * Math.floor(ranges / 4);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    // On a shared machine wall time mostly measures the neighbours; CPU time is this process's work.
    console.log(
      `${wholeFile ? 'whole file' : 'paged     '}  ${(bytes.length / 1e6).toFixed(1)} MB  ${rows} table rows  ${model.ranges.startNs.length} model ranges  ` +
        `${ms.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms CPU  ${(rows / cpuMs / 1e3).toFixed(2)} M rows per CPU-second  ` +
        `issues ${model.issues.length}  rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
