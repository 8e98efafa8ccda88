/**
 * nsys SQLite import benchmark: generates an export file (testkit/gen/nsysLarge.ts: nested push/pop NVTX ranges on 8
 * threads, one CUDA runtime call per innermost range, one kernel per call on 4 streams) and prints
 * how long `loadModel` takes from a file (SQLite open + queries + build, incl. the GPU projection),
 * page by page and, alternated in the same run, the former whole-file sql.js load.
 * Run: `node scripts/run-ts.mjs bench/run.ts nsys-decode [nvtxRanges] [pairs] [fileBytes]`; with
 * fileBytes, a table nvtxview never reads fills the file up to that size (a real export's sampling,
 * OS runtime and other tables), written before the rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSource } from '../../src/import/nodeSource.ts';
import { loadModel } from '../../src/import/pipeline.ts';
import { writeLargeNsysExport } from '../../testkit/gen/nsysLarge.ts';

const ranges = Number(process.argv[2] ?? 1_000_000);
/** Measured pairs (paged, whole file) after one warm-up pair; `0` measures one pair without warm-up (big files). */
const pairs = Number(process.argv[3] ?? 2);
/** File size to reach with a table nvtxview never reads, written before the rows (0: rows only). */
const fileBytes = Number(process.argv[4] ?? 0);

// From a file, as the CLI reads it: page by page (today) and the former whole-file sql.js load,
// alternated in one run. One warm-up run of each, then the measured runs.
const dir = mkdtempSync(join(tmpdir(), 'nvtxview-nsys-bench-'));
const path = join(dir, 'bench.sqlite');
try {
  const t0 = performance.now();
  const written = await writeLargeNsysExport(path, { ranges, bytes: fileBytes });
  const bytes = { length: written.bytes };
  console.log(`generated ${(written.bytes / 1e6).toFixed(1)} MB in ${(performance.now() - t0).toFixed(0)} ms`);
  const warmUp = pairs === 0 ? 0 : 2;
  const measured = { paged: { wall: [] as number[], cpu: [] as number[] }, whole: { wall: [] as number[], cpu: [] as number[] } };
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
    measured[wholeFile ? 'whole' : 'paged'].wall.push(ms);
    measured[wholeFile ? 'whole' : 'paged'].cpu.push(cpuMs);
    // On a shared machine wall time mostly measures the neighbours; CPU time is this process's work.
    console.log(
      `${wholeFile ? 'whole file' : 'paged     '}  ${(bytes.length / 1e6).toFixed(1)} MB  ${rows} table rows  ${model.ranges.startNs.length} model ranges  ` +
        `${ms.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms CPU  ${(rows / cpuMs / 1e3).toFixed(2)} M rows per CPU-second  ` +
        `issues ${model.issues.length}  rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`,
    );
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  console.log(
    `paged load ${(sum(measured.whole.wall) / sum(measured.paged.wall)).toFixed(2)}x faster than the whole-file load in wall time, ` +
      `${(sum(measured.whole.cpu) / sum(measured.paged.cpu)).toFixed(2)}x in CPU time (sums over the measured runs)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
