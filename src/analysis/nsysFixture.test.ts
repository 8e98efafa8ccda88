/**
 * The range table of a real Nsight Systems export (../shared/fixtures/nsys/fuser-report1.sqlite,
 * 13,513 push/pop ranges on 9 threads) against values computed independently: SQL over the same
 * file for counts, totals, extremes, means and clipped span totals; sort-based quantiles, a
 * two-pass deviation and a plain nesting stack over the SQL rows for the rest.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { openNsysFixture, type NsysFixture } from '../../testkit/load/nsysFixture.ts';
import type { Model } from '../model/types.ts';
import { rangeStats, type RangeStatsRow } from './rangeStats.ts';
import { referenceQuantile } from '../../testkit/models/referenceStats.ts';

let model: Model;
let rows: NsysFixture['rows'];
let toModel: NsysFixture['toModel'];

const RANGES = `SELECT COALESCE(n.text, s.value) AS name, n.start AS s, n."end" AS e, n.globalTid AS tid, COALESCE(n.domainId, 0) AS dom
  FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId WHERE n.eventType = 59 AND n."end" IS NOT NULL`;

beforeAll(async () => {
  ({ model, rows, toModel } = await openNsysFixture());
});

function byName(result: { rows: RangeStatsRow[] }): Map<string, RangeStatsRow> {
  return new Map(result.rows.map((r) => [r.label, r]));
}

describe('range statistics of a real nsys export', () => {
  it('agree with SQL and reference computations on every column', () => {
    const got = byName(rangeStats(model));
    const sql = rows(`SELECT name, count(*), sum(e - s), min(e - s), max(e - s), avg(e - s) FROM (${RANGES}) GROUP BY name`) as [string, number, number, number, number, number][];
    expect(got.size).toBe(sql.length);
    const durations = new Map<string, number[]>();
    for (const [name, s, e] of rows(`SELECT name, s, e FROM (${RANGES})`) as [string, number, number][]) {
      if (!durations.has(name)) durations.set(name, []);
      durations.get(name)!.push(e - s);
    }
    // Self time: a plain stack per thread and domain over the rows ordered by (start, end desc).
    const self = new Map<string, number>();
    const ordered = rows(`SELECT name, s, e, tid, dom FROM (${RANGES}) ORDER BY tid, dom, s, e DESC`) as [string, number, number, number, number][];
    const stack: { name: string; e: number; key: string }[] = [];
    for (const [name, s, e, tid, dom] of ordered) {
      const key = `${tid}/${dom}`;
      while (stack.length > 0 && (stack[stack.length - 1].key !== key || stack[stack.length - 1].e <= s)) stack.pop();
      self.set(name, (self.get(name) ?? 0) + e - s);
      if (stack.length > 0) {
        const parent = stack[stack.length - 1];
        self.set(parent.name, self.get(parent.name)! - (Math.min(e, parent.e) - s));
      }
      stack.push({ name, e, key });
    }
    const sumOfTotals = sql.reduce((acc, r) => acc + r[2], 0);
    for (const [name, count, total, min, max, avg] of sql) {
      const row = got.get(name)!;
      expect(row, name).toBeDefined();
      expect(row.style).toBe('PushPop');
      expect([row.count, row.totalNs, row.minNs, row.maxNs], name).toEqual([count, total, min, max]);
      expect(row.avgNs, name).toBeCloseTo(avg, 6);
      const d = durations.get(name)!;
      expect(row.medianNs, name).toBe(referenceQuantile(d, 0.5));
      expect(row.p90Ns, name).toBe(referenceQuantile(d, 0.9));
      expect(row.p99Ns, name).toBe(referenceQuantile(d, 0.99));
      const mean = d.reduce((a, b) => a + b, 0) / d.length;
      const sd = d.length > 1 ? Math.sqrt(d.reduce((a, x) => a + (x - mean) ** 2, 0) / (d.length - 1)) : 0;
      expect(row.stdDevNs, name).toBeCloseTo(sd, 3);
      expect(row.selfNs, name).toBe(self.get(name));
      expect(row.timePercent, name).toBeCloseTo((100 * total) / sumOfTotals, 9);
    }
  });

  it('clip ranges to a span like SQL does', () => {
    const [[first, last]] = rows(`SELECT min(s), max(e) FROM (${RANGES})`) as [number, number][];
    const from = Math.round(first + (last - first) * 0.3);
    const to = Math.round(first + (last - first) * 0.4);
    const got = byName(rangeStats(model, { spans: [{ startNs: toModel(from), endNs: toModel(to) }] }));
    const sql = rows(
      `SELECT name, count(*), sum(min(e, :to) - max(s, :from)) FROM (${RANGES}) WHERE s < :to AND e > :from GROUP BY name`,
      { ':from': from, ':to': to },
    ) as [string, number, number][];
    expect(sql.length).toBeGreaterThan(3);
    expect(got.size).toBe(sql.length);
    for (const [name, count, total] of sql) expect([got.get(name)?.count, got.get(name)?.totalNs], name).toEqual([count, total]);
    const overlap = byName(rangeStats(model, { spans: [{ startNs: toModel(from), endNs: toModel(to) }], mode: 'overlap' }));
    const whole = rows(`SELECT name, sum(e - s) FROM (${RANGES}) WHERE s < :to AND e > :from GROUP BY name`, { ':from': from, ':to': to }) as [string, number][];
    for (const [name, total] of whole) expect(overlap.get(name)?.totalNs, name).toBe(total);
  });

  it('group by thread like SQL does', () => {
    const got = rangeStats(model, { groupBy: 'thread' });
    const sql = rows(`SELECT tid & 16777215, count(*), sum(e - s) FROM (${RANGES}) GROUP BY tid`) as [number, number, number][];
    const byTid = new Map(got.rows.map((r) => [Number(/\((\d+)\)/.exec(r.label)![1]), r]));
    for (const [tid, count, total] of sql) expect([byTid.get(tid)?.count, byTid.get(tid)?.totalNs], String(tid)).toEqual([count, total]);
  });
});
