/**
 * The nsys importer against a real export (Nsight Systems 2025.1.1, see ../shared/fixtures/README.md),
 * with expected values computed independently by SQL over the same file.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECTION_ROW_LABEL } from '../../model/cudaRows.ts';
import { rangeCudaStatistics } from '../../analysis/cuda/statistics.ts';
import { correlatedRanges, rangeName, trackOfRange } from '../../model/query.ts';
import type { Model } from '../../model/types.ts';
import { detectFormat } from '../formats.ts';
import { openNsysFixture, type NsysFixture } from '../../../testkit/load/nsysFixture.ts';

let bytes: Uint8Array;
let m: Model;
let rows: NsysFixture['rows'];
let toModel: NsysFixture['toModel'];

beforeAll(async () => {
  const fixture = await openNsysFixture();
  ({ bytes, model: m, rows, toModel } = fixture);
  // Only for the speed of the reference queries (this copy of the file lives in memory).
  fixture.db.run('CREATE INDEX nvtx_thread ON NVTX_EVENTS (globalTid, start)');
  fixture.db.run('CREATE INDEX api_thread ON CUPTI_ACTIVITY_KIND_RUNTIME (globalTid, start)');
});

const trackOf = (r: number) => m.tracks[trackOfRange(m, r)];

describe('nsys importer on a real export', () => {
  it('is detected from the SQLite header', () => {
    expect(detectFormat(bytes.subarray(0, 65536), 'report.bin')?.id).toBe('nsys-sqlite');
    expect(m.issues.filter((i) => i.severity !== 'info')).toEqual([]);
  });

  it('reads the 13,513 push/pop ranges on 9 named threads', () => {
    const pushpop = m.tracks.filter((t) => t.kind === 'pushpop');
    expect(pushpop.reduce((n, t) => n + t.rangeEnd - t.rangeBegin, 0)).toBe(13513);
    expect(pushpop).toHaveLength(9);
    const names = pushpop.map((t) => m.threads[t.thread].name).sort();
    expect(names).toEqual(['pt_thread_pool', ...Array(7).fill('pt_thread_pool'), 'pytest'].sort());
    // Per thread, the same counts as the table.
    const expected = new Map(rows('SELECT globalTid & 16777215, count(*) FROM NVTX_EVENTS WHERE eventType = 59 GROUP BY 1') as [number, number][]);
    for (const t of pushpop) expect(t.rangeEnd - t.rangeBegin).toBe(expected.get(m.threads[t.thread].tid));
    // Names come from `text`, times are the table's.
    const [[text, start, end]] = rows('SELECT text, start, "end" FROM NVTX_EVENTS ORDER BY start LIMIT 1');
    const first = pushpop.find((t) => m.threads[t.thread].name === 'pytest')!.levelBegin[0];
    expect(rangeName(m, first)).toBe(text);
    expect([m.ranges.startNs[first], m.ranges.endNs[first]]).toEqual([toModel(start as number), toModel(end as number)]);
    expect(m.processes.find((p) => p.pid === 50556)?.name).toBe('pytest');
  });

  it('reads 18 kernels, 3 memcpys and 3 memsets on the GPU row, and 990 CUDA API calls', () => {
    const gpu = m.tracks.filter((t) => t.kind === 'gpu' && t.path[0] === 'CUDA' && t.label !== 'Synchronization');
    expect(gpu.map((t) => [t.label, ...t.path])).toEqual([['Default stream 7', 'CUDA', 'GPU 0 (NVIDIA H200)']]);
    const names: string[] = [];
    for (let r = gpu[0].rangeBegin; r < gpu[0].rangeEnd; r++) names.push(rangeName(m, r));
    const kernelNames = rows('SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName').map((r) => r[0]);
    expect(names.filter((n) => !n.startsWith('[CUDA ')).sort()).toEqual(kernelNames.sort());
    expect(kernelNames).toHaveLength(18);
    expect(names.filter((n) => n.startsWith('[CUDA memcpy'))).toHaveLength(3);
    expect(names.filter((n) => n === '[CUDA memset]')).toHaveLength(3);

    const api = m.tracks.filter((t) => t.kind === 'api');
    expect(api.reduce((n, t) => n + t.rangeEnd - t.rangeBegin, 0)).toBe(990);
    const byClass = new Map(rows('SELECT eventClass, count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME GROUP BY 1') as [number, number][]);
    const count = (label: string) => api.filter((t) => t.label === label).reduce((n, t) => n + t.rangeEnd - t.rangeBegin, 0);
    expect(count('CUDA Runtime API')).toBe(byClass.get(0));
    expect(count('CUDA Driver API')).toBe(byClass.get(1));
  });

  it('links every kernel to the API call that launched it', () => {
    const gpu = m.tracks.find((t) => t.kind === 'gpu' && t.label === 'Default stream 7')!;
    const launches = rows(
      `SELECT k.start, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r
         ON r.correlationId = k.correlationId AND (r.globalTid >> 24) = (k.globalPid >> 24) JOIN StringIds s ON s.id = r.nameId`,
    );
    const expected = new Map(launches.map(([start, name]) => [toModel(start as number), (name as string).replace(/_v\d{4,}$/, '')]));
    let checked = 0;
    for (let r = gpu.rangeBegin; r < gpu.rangeEnd; r++) {
      if (rangeName(m, r).startsWith('[CUDA ')) continue;
      const partners = correlatedRanges(m, r);
      expect(partners).toHaveLength(1);
      expect(rangeName(m, partners[0])).toBe(expected.get(m.ranges.startNs[r]));
      checked++;
    }
    expect(checked).toBe(18);
  });

  it('projects every range that launched GPU work, as nvtx_gpu_proj_sum does (checked by SQL)', () => {
    const reference = rows(
      `WITH gpu AS (
         SELECT correlationId AS corr, start, "end", globalPid >> 24 AS p FROM CUPTI_ACTIVITY_KIND_KERNEL
         UNION ALL SELECT correlationId, start, "end", globalPid >> 24 FROM CUPTI_ACTIVITY_KIND_MEMCPY
         UNION ALL SELECT correlationId, start, "end", globalPid >> 24 FROM CUPTI_ACTIVITY_KIND_MEMSET)
       SELECT n.text, n.start, min(g.start), max(g."end") FROM NVTX_EVENTS n
         JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.globalTid = n.globalTid AND r.start >= n.start AND r."end" <= n."end"
         JOIN gpu g ON g.corr = r.correlationId AND g.p = r.globalTid >> 24
       WHERE n.eventType = 59 GROUP BY n.rowid ORDER BY n.start, n.text`,
    ).map(([text, , s, e]) => `${String(text)} ${toModel(s as number)}..${toModel(e as number)}`);
    const rowsOfProjection = m.tracks.filter((t) => t.label === PROJECTION_ROW_LABEL);
    const got: Array<[number, string]> = [];
    for (const t of rowsOfProjection) {
      for (let r = t.rangeBegin; r < t.rangeEnd; r++) got.push([r, `${rangeName(m, r)} ${m.ranges.startNs[r]}..${m.ranges.endNs[r]}`]);
    }
    expect(reference.length).toBeGreaterThan(10);
    expect(got.map(([, s]) => s).sort()).toEqual([...reference].sort());
    expect(rowsOfProjection.every((t) => m.threads[t.thread].name === 'pytest')).toBe(true);
  });

  it('gives a range the API and GPU statistics that SQL computes over the same file', () => {
    // The first FusionExecutorCache::runFusionWithInputs: 6 GPU operations, launched inside children.
    const [[rowid, start, end, tidValue]] = rows(
      `SELECT rowid, start, "end", globalTid & 16777215 FROM NVTX_EVENTS
       WHERE text = 'FusionExecutorCache::runFusionWithInputs' ORDER BY start LIMIT 1`,
    ) as number[][];
    checkAgainstSql(rowid, start, end, tidValue);
  });

  it('gives a range with calls of its own the statistics SQL computes', () => {
    // An executor_utils::NVRTC range: one runtime call of its own, one driver call in a child.
    const [[rowid, start, end, tidValue]] = rows(
      `SELECT rowid, start, "end", globalTid & 16777215 FROM NVTX_EVENTS WHERE text = 'executor_utils::NVRTC' ORDER BY start LIMIT 1`,
    ) as number[][];
    checkAgainstSql(rowid, start, end, tidValue);
  });
});

describe('nsys importer on a real export: what Nsight Systems noted', () => {
  it('passes its warnings on to the load report, one line per distinct text, and counts the rest', () => {
    const warnings = rows(
      'SELECT text, COUNT(*), COUNT(DISTINCT (globalPid >> 24) & 16777215) FROM DIAGNOSTIC_EVENT WHERE severity = 2 GROUP BY text ORDER BY MIN(timestamp)',
    ) as [string, number, number][];
    expect(warnings.length).toBe(3);
    const listed = m.issues.filter((i) => i.message.startsWith('Nsight Systems warned while recording: '));
    expect(listed.map((i) => [i.severity, i.message])).toEqual(
      warnings.map(([text, count, processes]) => ['info', `Nsight Systems warned while recording: ${text} (${processes} processes, ${count} times)`]),
    );
    const [[errors, notes]] = rows('SELECT SUM(severity = 3), SUM(severity NOT IN (2, 3)) FROM DIAGNOSTIC_EVENT') as number[][];
    const total = warnings.reduce((n, [, count]) => n + count, 0);
    expect(m.capture.properties['Nsight Systems diagnostics']).toBe(`${errors} error(s), ${total} warning(s), ${notes} note(s)`);
  });
});

/** Compares `rangeCudaStatistics` of the NVTX row `rowid` with the same figures computed in SQL. */
function checkAgainstSql(rowid: number, start: number, end: number, tid: number): void {
  const range = findRange(start, end, tid);
  const stats = rangeCudaStatistics(m, range)!;
  const ref = sqlStatistics(rowid);

  expect(stats.durationNs).toBe(end - start);
  expect(stats.selfNs).toBe(end - start - ref.childNs);
  const all = ref.api.reduce((n, a) => n + a.count, 0);
  const allSelf = ref.api.reduce((n, a) => n + a.selfCount, 0);
  for (const a of ref.api) {
    const label = a.cls === 0 ? 'CUDA Runtime API' : 'CUDA Driver API';
    const got = stats.api.find((x) => x.domain === label)!;
    expect(got.callCount.total, label).toBe(a.count);
    expect(got.callCount.self, label).toBe(a.selfCount);
    expect(got.callCount.totalPct).toBeCloseTo((100 * a.count) / all, 9);
    expect(got.callCount.selfPct).toBeCloseTo(allSelf ? (100 * a.selfCount) / allSelf : 0, 9);
    expect(got.callDurationNs.total, label).toBe(a.duration);
    expect(got.callDurationNs.self, label).toBe(a.selfDuration);
    expect(got.callDurationNs.totalPct).toBeCloseTo((100 * a.duration) / (end - start), 9);
  }
  expect(stats.api.reduce((n, a) => n + a.callCount.total, 0)).toBe(all);

  expect(stats.gpu.workCount.total).toBe(ref.work);
  expect(stats.gpu.workCount.self).toBe(ref.selfWork);
  expect(stats.gpu.activityNs.total).toBe(ref.busy);
  expect(stats.gpu.overlapNs.total).toBe(ref.overlap);
  expect(stats.gpu.activityNs.self).toBe(ref.selfBusy);
  expect(stats.gpu.overlapNs.self).toBe(ref.selfOverlap);
  if (ref.work === 0) {
    expect(stats.projection).toBeUndefined();
  } else {
    expect(stats.projection).toMatchObject({
      startNs: toModel(ref.projStart),
      endNs: toModel(ref.projEnd),
      durationNs: ref.projEnd - ref.projStart,
      workCount: ref.work,
    });
    expect(stats.gpu.activityNs.totalPct).toBeCloseTo((100 * ref.busy) / (ref.projEnd - ref.projStart), 9);
  }
}

function findRange(start: number, end: number, tid: number): number {
  const thread = m.threads.findIndex((t) => t.tid === tid);
  for (let r = 0; r < m.ranges.startNs.length; r++) {
    if (
      m.ranges.thread[r] === thread &&
      trackOf(r).kind === 'pushpop' &&
      m.ranges.startNs[r] === toModel(start) &&
      m.ranges.endNs[r] === toModel(end)
    ) {
      return r;
    }
  }
  throw new Error(`no range ${start}..${end} on thread ${tid}`);
}

/**
 * The statistics of NVTX row `rid` in SQL: calls on the range's thread inside it; direct children
 * (push/pop ranges of the same thread and domain inside it with no other range in between); self =
 * overlapping no child; GPU work by correlation id within the process; busy and overlap time by an
 * endpoint sweep with window functions.
 */
function sqlStatistics(rid: number) {
  const common = `
    r AS (SELECT start AS s, "end" AS e, globalTid AS g, COALESCE(domainId, 0) AS d FROM NVTX_EVENTS WHERE rowid = :rid),
    inside AS (SELECT n.rowid AS id, n.start AS s, n."end" AS e FROM NVTX_EVENTS n, r
      WHERE n.eventType = 59 AND n.globalTid = r.g AND COALESCE(n.domainId, 0) = r.d
        AND n.start >= r.s AND n."end" <= r.e AND n.rowid <> :rid),
    kids AS (SELECT c.s, c.e FROM inside c WHERE NOT EXISTS (
      SELECT 1 FROM inside o WHERE o.id <> c.id AND o.s <= c.s AND o.e >= c.e AND NOT (o.s = c.s AND o.e = c.e AND o.id > c.id))),
    calls AS (SELECT a.start AS s, a."end" AS e, a.eventClass AS cls, a.correlationId AS corr,
        NOT EXISTS (SELECT 1 FROM kids k WHERE k.s < a."end" AND k.e > a.start) AS self
      FROM CUPTI_ACTIVITY_KIND_RUNTIME a, r WHERE a.globalTid = r.g AND a.start >= r.s AND a."end" <= r.e),
    gpu AS (SELECT 'k' AS src, rowid AS id, correlationId AS corr, start AS s, "end" AS e, globalPid >> 24 AS p FROM CUPTI_ACTIVITY_KIND_KERNEL
      UNION ALL SELECT 'c', rowid, correlationId, start, "end", globalPid >> 24 FROM CUPTI_ACTIVITY_KIND_MEMCPY
      UNION ALL SELECT 's', rowid, correlationId, start, "end", globalPid >> 24 FROM CUPTI_ACTIVITY_KIND_MEMSET),
    work AS (SELECT w.src, w.id, w.s, w.e, max(c.self) AS self FROM gpu w JOIN calls c ON c.corr = w.corr, r
      WHERE w.p = r.g >> 24 GROUP BY w.src, w.id)`;
  const sweep = (filter: string) => `WITH ${common},
    ev AS (SELECT s AS t, 1 AS d FROM work WHERE ${filter} UNION ALL SELECT e, -1 FROM work WHERE ${filter}),
    sw AS (SELECT t, SUM(d) OVER (ORDER BY t, d ROWS UNBOUNDED PRECEDING) AS open, LEAD(t) OVER (ORDER BY t, d) AS nt FROM ev)
    SELECT COALESCE(SUM(CASE WHEN open >= 1 THEN nt - t ELSE 0 END), 0), COALESCE(SUM(CASE WHEN open >= 2 THEN nt - t ELSE 0 END), 0)
    FROM sw WHERE nt IS NOT NULL`;
  const p = { ':rid': rid };
  const api = rows(
    `WITH ${common} SELECT cls, count(*), sum(self), sum(e - s), sum(CASE WHEN self THEN e - s ELSE 0 END) FROM calls GROUP BY cls`,
    p,
  ).map(([cls, count, selfCount, duration, selfDuration]) => ({
    cls: cls as number,
    count: count as number,
    selfCount: selfCount as number,
    duration: duration as number,
    selfDuration: selfDuration as number,
  }));
  const [[childNs]] = rows(`WITH ${common} SELECT COALESCE(sum(e - s), 0) FROM kids`, p) as number[][];
  const [[work, selfWork, projStart, projEnd]] = rows(
    `WITH ${common} SELECT count(*), COALESCE(sum(self), 0), min(s), max(e) FROM work`,
    p,
  ) as number[][];
  const [[busy, overlap]] = rows(sweep('1'), p) as number[][];
  const [[selfBusy, selfOverlap]] = rows(sweep('self'), p) as number[][];
  return { api, childNs, work, selfWork, projStart, projEnd, busy, overlap, selfBusy, selfOverlap };
}
