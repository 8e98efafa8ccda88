/**
 * The nsys importer against SQLite exports generated here with sql.js: what the real fixture lacks
 * (marks, start/end ranges incl. cross-thread ones, domains, categories, colors, payloads, several
 * processes, NVTXT types), an older schema, and broken files.
 */
import { gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { PROJECTION_ROW_LABEL } from '../../model/cudaRows.ts';
import { rangeCudaStatistics } from '../../analysis/cuda/statistics.ts';
import { payloadValue } from '../../model/payload.ts';
import { correlatedRanges, rangeName, trackOfRange } from '../../model/query.ts';
import { PayloadType, RangeFlag, type Model } from '../../model/types.ts';
import { loadModel, memorySource } from '../pipeline.ts';
import { buildExport, T, type ExportSpec } from '../../../testkit/writers/nsysExport.ts';
import { openDatabase } from './sqlite.ts';

const load = async (bytes: Uint8Array, name = 'gen.sqlite') => loadModel(memorySource(name, bytes));

const trackOf = (m: Model, r: number) => m.tracks[trackOfRange(m, r)];

/** Ranges called `name`, leaving out their copies on the GPU projection rows. */
function rangesNamed(m: Model, name: string): number[] {
  const out: number[] = [];
  for (let r = 0; r < m.ranges.startNs.length; r++) {
    if (rangeName(m, r) === name && trackOf(m, r).label !== PROJECTION_ROW_LABEL) out.push(r);
  }
  return out;
}
const only = (m: Model, name: string) => {
  const list = rangesNamed(m, name);
  expect(list, name).toHaveLength(1);
  return list[0];
};
const threadOf = (m: Model, tid: number) => m.threads.findIndex((t) => t.tid === tid);

/** Two processes; NVTX of every kind; CUDA calls and GPU work laid out for hand-checked statistics. */
const rich: ExportSpec = {
  hardwareId: 2,
  sessionStartUtcNs: 1_700_000_000_000_000_000n,
  span: [0, 5000],
  strings: ['registered name'],
  processes: [
    [100, 'trainer'],
    [200, 'loader'],
  ],
  threads: [
    [100, 101, 'main'],
    [100, 102, 'worker'],
    [200, 201, 'io'],
  ],
  gpus: [{ id: 0, name: 'Test GPU' }],
  streams: [[100, 7, 3]],
  nvtx: [
    // Domains: "net" created in process 100; id 1 means another domain in process 200; id 5 never created.
    { start: 0, type: T.domainCreate, pid: 100, tid: 101, domainId: 1, text: 'net' },
    { start: 0, type: T.domainCreate, pid: 200, tid: 201, domainId: 1, text: 'disk' },
    { start: 1, type: T.category, pid: 100, tid: 101, category: 3, text: 'Forward' },
    { start: 1, type: T.category, pid: 100, tid: 101, domainId: 1, category: 3, text: 'Net forward' },
    { start: 2, type: T.thread, pid: 100, tid: 102, text: 'renamed worker' },
    // Push/pop ranges on main: P [0,1000] with child C [100,400].
    { start: 0, end: 1000, type: T.pushPop, pid: 100, tid: 101, text: 'P', color: 0xff00ff00, category: 3 },
    { start: 100, end: 400, type: T.pushPop, pid: 100, tid: 101, textId: 0 },
    { start: 1100, end: 1200, type: T.pushPop, pid: 100, tid: 101, domainId: 1, text: 'in net' },
    { start: 1300, end: 1400, type: T.pushPop, pid: 100, tid: 101, domainId: 5, text: 'in 5' },
    { start: 1500, type: T.pushPop, pid: 100, tid: 101, text: 'never popped' },
    // Marks with every payload kind.
    { start: 10, type: T.mark, pid: 100, tid: 101, text: 'i64', int64: -5n },
    { start: 11, type: T.mark, pid: 100, tid: 101, text: 'u64', uint64: 18446744073709551615n },
    { start: 12, type: T.mark, pid: 100, tid: 101, text: 'f64', double: 2.5 },
    { start: 13, type: T.mark, pid: 100, tid: 101, text: 'f32', float: 0.5 },
    { start: 14, type: T.mark, pid: 100, tid: 101, text: 'u32', uint32: 4294967295 },
    { start: 15, type: T.mark, pid: 100, tid: 101, text: 'i32', int32: -7 },
    { start: 16, type: T.mark, pid: 100, tid: 101, text: 'json', jsonText: '{"a":1}' },
    { start: 17, type: T.mark, pid: 100, tid: 101, text: 'binary', binary: true },
    { start: 18, type: T.mark, pid: 100, tid: 101, text: 'categorized', category: 3, color: 0xffff0000 },
    // Start/end ranges: one ending on another thread, one never ended.
    { start: 20, end: 70, type: T.startEnd, pid: 100, tid: 101, endPid: 100, endTid: 102, text: 'handoff', category: 3 },
    { start: 30, end: 40, type: T.startEnd, pid: 100, tid: 102, text: 'local' },
    { start: 50, type: T.startEnd, pid: 100, tid: 102, text: 'open' },
    // Separate start and end events, paired by range id.
    { start: 60, type: T.start, pid: 200, tid: 201, rangeId: 9, text: 'split' },
    { start: 90, type: T.end, pid: 200, tid: 201, rangeId: 9 },
    // NVTXT-imported events and process naming.
    { start: 5, type: T.nvtxtMark, pid: 200, tid: 201, text: 'nvtxt mark' },
    { start: 6, end: 9, type: T.nvtxtPushPop, pid: 200, tid: 201, text: 'nvtxt range' },
    { start: 7, type: T.nvtxtProcess, pid: 200, tid: 201, text: 'loader (nvtxt)' },
    { start: 8, end: 9, type: T.pushPop, pid: 200, tid: 201, domainId: 1, text: 'in disk' },
    { start: 8, type: T.nameStream, pid: 100, tid: 101, uint64: 8n, text: 'copies' },
    { start: 9, type: 4242, pid: 100, tid: 101, text: 'from the future' },
  ],
  runtime: [
    { start: 10, end: 20, pid: 100, tid: 101, correlationId: 1, name: 'cudaLaunchKernel_v7000' },
    { start: 150, end: 160, pid: 100, tid: 101, correlationId: 2, name: 'cudaLaunchKernel_v7000' },
    { start: 500, end: 520, pid: 100, tid: 101, correlationId: 3, name: 'cudaMemcpyAsync_v3020' },
    { start: 800, end: 810, pid: 100, tid: 101, correlationId: 4, name: 'cuGetProcAddress_v2', eventClass: 1 },
    { start: 900, end: 950, pid: 100, tid: 101, correlationId: 5, name: 'cudaStreamSynchronize_v3020', returnValue: 700 },
    // Same correlation id in the other process: must not link to process 100's work.
    { start: 10, end: 20, pid: 200, tid: 201, correlationId: 1, name: 'cudaLaunchKernel_v7000' },
  ],
  kernels: [
    { start: 30, end: 130, pid: 100, stream: 7, correlationId: 1, name: 'k1' },
    { start: 120, end: 300, pid: 100, stream: 8, correlationId: 2, name: 'k2' },
    { start: 2000, end: 2100, pid: 200, stream: 7, correlationId: 1, name: 'k3' },
  ],
  memcpy: [{ start: 600, end: 700, pid: 100, stream: 8, correlationId: 3, kind: 2, bytes: 4096 }],
  memset: [{ start: 650, end: 720, pid: 100, stream: 8, correlationId: 3, bytes: 64 }],
  sync: [{ start: 900, end: 950, pid: 100, stream: 7, correlationId: 5, kind: 3 }],
};

describe('nsys importer: generated modern export', async () => {
  const m = await load(await buildExport(rich));
  const main = threadOf(m, 101);

  it('decodes processes and threads from GlobalIds, masking the hardware and VM bits', () => {
    expect(m.processes.map((p) => [p.pid, p.name]).sort()).toEqual([
      [100, 'trainer'],
      [200, 'loader (nvtxt)'],
    ]);
    expect(m.threads[main].name).toBe('main');
    expect(m.threads[threadOf(m, 102)].name).toBe('renamed worker');
    expect(m.threads[threadOf(m, 201)].name).toBe('io');
    expect(m.capture.format).toBe('nsys-sqlite');
    expect(m.capture.clock).toBe('UTC');
    expect(m.capture.originNs).toBe('1700000000000000000');
    expect(m.durationNs).toBe(5000);
  });

  it('reads push/pop ranges with names from text and textId, colors and categories', () => {
    const p = only(m, 'P');
    const c = only(m, 'registered name');
    expect(m.ranges.parent[c]).toBe(p);
    expect(m.styles.color[m.ranges.style[p]]).toBe(0xff00ff00);
    const cat = m.styles.category[m.ranges.style[p]];
    expect(m.categories[cat]).toMatchObject({ id: 3, name: 'Forward' });
    expect(trackOf(m, p).kind).toBe('pushpop');
    const open = only(m, 'never popped');
    expect(m.ranges.flags[open] & RangeFlag.Unterminated).toBeTruthy();
    expect(m.ranges.endNs[open]).toBe(5000);
  });

  it('keeps domains per process; an uncreated domain keeps its id as name', () => {
    const net = m.styles.domain[m.ranges.style[only(m, 'in net')]];
    const disk = m.styles.domain[m.ranges.style[only(m, 'in disk')]];
    const five = m.styles.domain[m.ranges.style[only(m, 'in 5')]];
    expect(m.domains[net]).toEqual({ name: 'net', process: m.processes.findIndex((x) => x.pid === 100) });
    expect(m.domains[disk]).toEqual({ name: 'disk', process: m.processes.findIndex((x) => x.pid === 200) });
    expect(m.domains[five].name).toBe('5');
    expect(m.issues.some((i) => /domain id\(s\) 5 have no domain-create event/.test(i.message))).toBe(true);
    expect(m.categories.some((c) => c.name === 'Net forward' && c.domain === net)).toBe(true);
  });

  it('reads marks with every payload type', () => {
    const value = (name: string) => {
      const k = Array.from(m.marks.style).findIndex((s) => m.strings[m.styles.name[s]] === name);
      expect(k, name).toBeGreaterThanOrEqual(0);
      return payloadValue(m, m.marks.payload[k]);
    };
    expect(value('i64')).toEqual({ type: PayloadType.I64, value: -5n });
    expect(value('u64')).toEqual({ type: PayloadType.U64, value: 18446744073709551615n });
    expect(value('f64')).toEqual({ type: PayloadType.F64, value: 2.5 });
    expect(value('f32')).toEqual({ type: PayloadType.F32, value: 0.5 });
    expect(value('u32')).toEqual({ type: PayloadType.U32, value: 4294967295 });
    expect(value('i32')).toEqual({ type: PayloadType.I32, value: -7 });
    expect(value('json')).toEqual({ type: PayloadType.Json, value: '{"a":1}' });
    expect(value('binary')).toBeUndefined();
    expect(m.issues.some((i) => /1 event\(s\) carry a binary/.test(i.message))).toBe(true);
    expect(value('nvtxt mark')).toBeUndefined();
  });

  it('reads start/end ranges, also ending on another thread or never ending', () => {
    const handoff = only(m, 'handoff');
    expect(m.ranges.flags[handoff] & RangeFlag.CrossThread).toBeTruthy();
    const k = Array.from(m.crossThreadEnds.range).indexOf(handoff);
    expect(m.crossThreadEnds.thread[k]).toBe(threadOf(m, 102));
    expect(trackOf(m, handoff).kind).toBe('category');
    expect(m.ranges.flags[only(m, 'open')] & RangeFlag.Unterminated).toBeTruthy();
    const split = only(m, 'split');
    expect(m.ranges.endNs[split] - m.ranges.startNs[split]).toBe(30);
  });

  it('reports event types it does not know, with their code', () => {
    expect(m.issues.some((i) => i.severity === 'warning' && /type 4242/.test(i.message))).toBe(true);
    expect(rangesNamed(m, 'from the future')).toEqual([]);
  });

  it('puts CUDA API calls under their thread, per API domain, without version suffixes', () => {
    const api = m.tracks.filter((t) => t.kind === 'api' && t.thread === main).map((t) => t.label).sort();
    expect(api).toEqual(['CUDA Driver API', 'CUDA Runtime API']);
    expect(rangesNamed(m, 'cudaLaunchKernel')).toHaveLength(3);
    expect(rangesNamed(m, 'cuGetProcAddress_v2')).toHaveLength(1);
    const sync = only(m, 'cudaStreamSynchronize');
    expect(payloadValue(m, m.ranges.payload[sync])).toEqual({ type: PayloadType.Json, value: '{"returnValue":700}' });
  });

  it('puts GPU work on rows per process, device and stream, linked to its API call', () => {
    const k1 = only(m, 'k1');
    expect(trackOf(m, k1).path).toEqual(['CUDA', 'GPU 0 (Test GPU)']);
    expect(trackOf(m, k1).label).toBe('Default stream 7');
    expect(trackOf(m, only(m, 'k2')).label).toBe('Stream 8 · copies');
    expect(trackOf(m, only(m, '[CUDA memcpy Device-to-Host]')).label).toBe('Stream 8 · copies');
    expect(trackOf(m, only(m, '[CUDA Stream sync]')).label).toBe('Synchronization');
    const launch = correlatedRanges(m, k1);
    expect(launch.map((r) => [rangeName(m, r), m.ranges.thread[r]])).toEqual([['cudaLaunchKernel', main]]);
    // Process 200 reuses correlation id 1: its kernel links to its own call only.
    const k3 = correlatedRanges(m, only(m, 'k3'));
    expect(k3).toHaveLength(1);
    expect(m.threads[m.ranges.thread[k3[0]]].tid).toBe(201);
    const memcpyLaunch = correlatedRanges(m, only(m, 'cudaMemcpyAsync')).map((r) => rangeName(m, r)).sort();
    expect(memcpyLaunch).toEqual(['[CUDA memcpy Device-to-Host]', '[CUDA memset]']);
  });

  it('projects NVTX ranges onto the GPU on a row under the thread', () => {
    const row = m.tracks.find((t) => t.kind === 'gpu' && t.thread === main && t.label === PROJECTION_ROW_LABEL)!;
    expect(row).toBeDefined();
    const projected: Array<[string, number, number]> = [];
    for (let r = row.rangeBegin; r < row.rangeEnd; r++) projected.push([rangeName(m, r), m.ranges.startNs[r], m.ranges.endNs[r]]);
    projected.sort((a, b) => a[0].localeCompare(b[0]));
    // P launched k1, k2 (in C), the memcpy and memset: 30..720. C launched k2 only.
    expect(projected).toEqual([
      ['P', 30, 720],
      ['registered name', 120, 300],
    ]);
  });

  it('computes API and GPU range statistics as the NVTX guide defines them', () => {
    const s = rangeCudaStatistics(m, only(m, 'P'))!;
    expect(s.durationNs).toBe(1000);
    expect(s.selfNs).toBe(700);
    const runtime = s.api.find((a) => a.domain === 'CUDA Runtime API')!;
    const driver = s.api.find((a) => a.domain === 'CUDA Driver API')!;
    // Calls inside P: runtime 10-20, 150-160 (in child C), 500-520, 900-950; driver 800-810.
    expect(runtime.callCount).toEqual({ total: 4, totalPct: 80, self: 3, selfPct: 75 });
    expect(runtime.callDurationNs).toEqual({ total: 90, totalPct: 9, self: 80, selfPct: (100 * 80) / 700 });
    expect(driver.callCount).toEqual({ total: 1, totalPct: 20, self: 1, selfPct: 25 });
    // GPU work: k1 30-130 (self), k2 120-300 (launched in C), memcpy 600-700, memset 650-720 (self).
    expect(s.gpu.workCount).toEqual({ total: 4, totalPct: 100, self: 3, selfPct: 100 });
    expect(s.gpu.activityNs).toEqual({ total: 390, totalPct: (100 * 390) / 690, self: 220, selfPct: (100 * 220) / 690 });
    expect(s.gpu.overlapNs).toEqual({ total: 60, totalPct: (100 * 60) / 690, self: 50, selfPct: (100 * 50) / 690 });
    expect(s.gpuByDevice.map((g) => g.label)).toEqual(['GPU 0 (Test GPU)']);
    expect(s.projection).toEqual({ startNs: 30, endNs: 720, durationNs: 690, workCount: 4, callCount: 3 });

    const child = rangeCudaStatistics(m, only(m, 'registered name'))!;
    expect(child.selfNs).toBe(300);
    expect(child.api.find((a) => a.domain === 'CUDA Runtime API')!.callCount).toEqual({ total: 1, totalPct: 100, self: 1, selfPct: 100 });
    expect(child.gpu.activityNs.total).toBe(180);
    expect(child.projection).toMatchObject({ startNs: 120, endNs: 300, workCount: 1 });

    // A range with no CUDA activity gets zeros and no projection.
    const quiet = rangeCudaStatistics(m, only(m, 'in net'))!;
    expect(quiet.gpu.workCount.total).toBe(0);
    expect(quiet.projection).toBeUndefined();
  });
});

describe('nsys importer: older schema', () => {
  it('loads without enum tables, with the old metadata table, a separate driver table and no session time', async () => {
    const m = await load(
      await buildExport({
        layout: 'old',
        metadata: [['EXPORT_SCHEMA_VERSION', '2.7.1']],
        threads: [[10, 11, 'main']],
        nvtx: [
          { start: 100, end: 200, type: T.pushPop, pid: 10, tid: 11, text: 'outer' },
          { start: 120, end: 180, type: T.pushPop, pid: 10, tid: 11, text: 'inner' },
          { start: 130, type: T.mark, pid: 10, tid: 11, text: 'tick' },
        ],
        runtime: [{ start: 140, end: 150, pid: 10, tid: 11, correlationId: 1, name: 'cudaLaunchKernel_v7000' }],
        driver: [{ start: 160, end: 170, pid: 10, tid: 11, correlationId: 2, name: 'cuLaunchKernel' }],
        kernels: [
          { start: 150, end: 300, pid: 10, correlationId: 1, name: 'a' },
          { start: 310, end: 320, pid: 10, correlationId: 2, name: 'b' },
        ],
      }),
    );
    expect(m.capture.properties['export schema']).toBe('2.7.1');
    expect(m.capture.clock).toBe('nsys session');
    expect(m.issues.some((i) => /no ENUM_NSYS_EVENT_TYPE table/.test(i.message))).toBe(true);
    expect(m.issues.filter((i) => i.severity !== 'info')).toEqual([]);
    expect(m.ranges.parent[only(m, 'inner')]).toBe(only(m, 'outer'));
    expect(m.marks.timeNs.length).toBe(1);
    const labels = m.tracks.filter((t) => t.kind === 'api').map((t) => t.label).sort();
    expect(labels).toEqual(['CUDA Driver API', 'CUDA Runtime API']);
    expect(correlatedRanges(m, only(m, 'b')).map((r) => rangeName(m, r))).toEqual(['cuLaunchKernel']);
    expect(rangeCudaStatistics(m, only(m, 'outer'))!.projection).toMatchObject({ startNs: 50, endNs: 220, workCount: 2 });
  });

  it('rebases UTC-normalized timestamps so that they stay exact', async () => {
    const t0 = 1_741_793_819_042_497_997n;
    const bytes = await buildExport({
      sessionStartUtcNs: t0,
      metadata: [['EXPORT_PARAM_TIME_NORMALIZE', 'true']],
      nvtx: [],
    });
    // Epoch timestamps need 64-bit integers: insert them with SQL.
    const db = await openDatabase(bytes);
    db.run(`INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) VALUES (${t0 + 1001n}, ${t0 + 1004n}, 59, 'x', (1 << 48) | (5 << 24) | 6)`);
    const m = await load(db.export());
    db.close();
    const x = only(m, 'x');
    expect(m.ranges.endNs[x] - m.ranges.startNs[x]).toBe(3);
    expect(BigInt(m.capture.originNs) + BigInt(m.ranges.startNs[x])).toBe(t0 + 1001n);
  });
});

describe('nsys importer: unexpected schemas', () => {
  it('names a missing column and loads the other tables', async () => {
    const db = await openDatabase(
      await buildExport({
        nvtx: [{ start: 0, end: 10, type: T.pushPop, pid: 1, tid: 2, text: 'lost' }],
        runtime: [{ start: 1, end: 2, pid: 1, tid: 2, correlationId: 1, name: 'cudaMalloc_v3020' }],
        kernels: [{ start: 3, end: 4, pid: 1, correlationId: 1, name: 'kept' }],
        memset: [{ start: 5, end: 6, pid: 1, correlationId: 1 }],
      }),
    );
    db.run('ALTER TABLE NVTX_EVENTS DROP COLUMN globalTid');
    db.run('ALTER TABLE CUPTI_ACTIVITY_KIND_MEMSET DROP COLUMN "end"');
    const m = await load(db.export());
    db.close();
    const errors = m.issues.filter((i) => i.severity === 'error').map((i) => i.message);
    expect(errors).toEqual([
      'table NVTX_EVENTS has no column globalTid: NVTX events cannot be read',
      'table CUPTI_ACTIVITY_KIND_MEMSET has no column end: its rows are not shown',
    ]);
    expect(rangesNamed(m, 'lost')).toEqual([]);
    expect(correlatedRanges(m, only(m, 'kept')).map((r) => rangeName(m, r))).toEqual(['cudaMalloc']);
  });

  it('loads a gzip-compressed export', async () => {
    const bytes = await buildExport({ nvtx: [{ start: 0, end: 10, type: T.pushPop, pid: 1, tid: 2, text: 'zipped' }] });
    const m = await load(gzipSync(bytes), 'report.sqlite.gz');
    expect(m.capture.format).toBe('nsys-sqlite');
    expect(m.capture.properties.compression).toBe('gzip');
    expect(rangesNamed(m, 'zipped')).toHaveLength(1);
  });
});

describe('nsys importer: bad files', () => {
  it('claims SQLite files by their header and says when one is not an nsys export', async () => {
    const db = await openDatabase(new Uint8Array(0));
    db.run('CREATE TABLE recipes (name TEXT)');
    const bytes = db.export();
    db.close();
    await expect(load(bytes, 'cookbook.sqlite')).rejects.toThrow(
      /cookbook\.sqlite: not an Nsight Systems export: no NVTX_EVENTS, CUPTI_ACTIVITY_KIND_\*, StringIds or TARGET_INFO_\* table \(it has 1 table\(s\): recipes\)/,
    );
  });

  it('names the file when bytes called .sqlite are no database', async () => {
    await expect(load(new TextEncoder().encode('hello, this is text'.repeat(20)), 'notes.sqlite')).rejects.toThrow(
      /notes\.sqlite: .*not a database/,
    );
  });

  it('says a file is truncated, and loads the tables it can still read', async () => {
    const nvtx = Array.from({ length: 4000 }, (_, i) => ({
      start: i * 10,
      end: i * 10 + 5,
      type: T.pushPop,
      pid: 1,
      tid: 1,
      text: `range ${i} with a long enough name to fill many pages`,
    }));
    const bytes = await buildExport({ threads: [[1, 1, 'main']], nvtx });
    const cut = bytes.subarray(0, Math.floor(bytes.length * 0.6));
    const m = await load(cut, 'cut.sqlite');
    expect(m.issues[0]).toMatchObject({ severity: 'error', file: 'cut.sqlite' });
    expect(m.issues[0].message).toMatch(new RegExp(`truncated: its SQLite header says ${bytes.length} bytes, but it has ${cut.length}`));
    const damaged = m.issues.find((i) => /table NVTX_EVENTS: could not read past row \d+/.test(i.message));
    expect(damaged).toBeDefined();
    const read = m.ranges.startNs.length;
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(4000);
    expect(damaged!.message).toContain(`the first ${read} rows are shown`);
  });

  it('fails clearly when not even the schema survives truncation', async () => {
    const bytes = await buildExport({ nvtx: [{ start: 0, end: 1, type: T.pushPop, pid: 1, tid: 1, text: 'a' }] });
    await expect(load(bytes.subarray(0, 3000), 'stub.sqlite')).rejects.toThrow(/stub\.sqlite: .*truncated/);
  });
});

describe('nsys importer: what Nsight Systems noted while recording (DIAGNOSTIC_EVENT)', () => {
  it('passes errors on as warnings and warnings as information, grouped, with their processes; notes are counted', async () => {
    const diagnostics = [
      { timestamp: 0, severity: 1, text: 'Profiling has started.', pid: 0 },
      { timestamp: 10, severity: 3, text: 'CUPTI buffers overflowed: 120 CUDA activity records were dropped.', pid: 41 },
      { timestamp: 20, severity: 2, text: 'No NVTX events collected. Does the process use NVTX?', pid: 42 },
      { timestamp: 30, severity: 2, text: 'No NVTX events collected. Does the process use NVTX?', pid: 43 },
      { timestamp: 40, severity: 3, text: 'CUPTI buffers overflowed: 120 CUDA activity records were dropped.', pid: 41 },
      { timestamp: 50, severity: 4, text: 'Verbose note', pid: 41 },
    ];
    const m = await load(await buildExport({ threads: [[41, 41, 'main']], nvtx: [{ start: 0, end: 10, type: T.pushPop, pid: 41, tid: 41, text: 'r' }], diagnostics }));
    expect(m.issues.map((i) => `${i.severity}: ${i.message}`)).toEqual([
      'warning: Nsight Systems reported an error while recording: CUPTI buffers overflowed: 120 CUDA activity records were dropped. (process 41, 2 times)',
      'info: Nsight Systems warned while recording: No NVTX events collected. Does the process use NVTX? (2 processes, 2 times)',
    ]);
    expect(m.capture.properties['Nsight Systems diagnostics']).toBe('2 error(s), 2 warning(s), 2 note(s)');
    expect(rangeName(m, 0)).toBe('r');
  });

  it('lists at most 20 distinct messages per severity and counts the rest', async () => {
    // Texts without numbers: the load report groups messages that differ only in numbers by itself.
    const diagnostics = Array.from({ length: 25 }, (_, i) => ({ timestamp: i, severity: 2, text: `warning ${String.fromCharCode(97 + i)}`, pid: 0 }));
    const m = await load(await buildExport({ diagnostics }));
    const infos = m.issues.filter((i) => i.severity === 'info').map((i) => i.message);
    expect(infos.slice(0, 2)).toEqual(['Nsight Systems warned while recording: warning a', 'Nsight Systems warned while recording: warning b']);
    expect(infos.filter((t) => t.startsWith('Nsight Systems warned'))).toHaveLength(21);
    expect(infos).toContain('Nsight Systems warned while recording: 5 more distinct message(s) (DIAGNOSTIC_EVENT table)');
  });

  it('reads a text of digits as it is, and a StringIds id as its string', async () => {
    const strings = ['zero', 'one', 'CUPTI dropped records'];
    const digits = await load(await buildExport({ strings, diagnostics: [{ timestamp: 0, severity: 2, text: '1', pid: 0 }] }));
    expect(digits.issues.map((i) => i.message)).toEqual(['Nsight Systems warned while recording: 1']);
    const ids = await load(await buildExport({ strings, diagnostics: [{ timestamp: 0, severity: 3, text: 2, pid: 0 }] }));
    expect(ids.issues.map((i) => i.message)).toEqual(['Nsight Systems reported an error while recording: CUPTI dropped records']);
  });

  it('says nothing when the export has no such table', async () => {
    const m = await load(await buildExport({ threads: [[1, 1, 'main']], nvtx: [{ start: 0, end: 10, type: T.pushPop, pid: 1, tid: 1, text: 'r' }] }));
    expect(m.issues).toEqual([]);
    expect(m.capture.properties['Nsight Systems diagnostics']).toBeUndefined();
  });
});
