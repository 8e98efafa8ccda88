import { describe, expect, it } from 'vitest';
import { rangeStats } from '../../analysis/rangeStats.ts';
import { ModelBuilder } from '../../model/builder.ts';
import { EntryType as T, SchemaType, type PayloadRegistry } from '../../payload/schema.ts';
import { w } from '../../../testkit/payload/payloadBytes.ts';
import { computeStats, type StatsScope } from './compute.ts';
import { payloadChoices, payloadFieldText, projectPayloadField } from './payloadFields.ts';

const S = 1 << 24;
const WHOLE: StatsScope = { span: null, mode: 'clip', tracks: null };

/** "copy" ranges whose extended payload has fields `bytes` (u32) and `kind` (string id as u32): */
function payloadModel() {
  const b = new ModelBuilder({ fileName: 'p.nvtxcap', format: 'test', byteSize: 0 });
  const t = b.thread(1, 10, 'main');
  const d = b.domain(1, 'app');
  const registry: PayloadRegistry = {
    schemas: [
      {
        domain: d,
        id: S,
        type: SchemaType.Static,
        flags: 0,
        entries: [
          { flags: 0, type: T.UInt32, name: 'bytes', arrayOrUnionDetail: 0, offset: 0 },
          { flags: 0, type: T.Int32, name: 'lane', arrayOrUnionDetail: 0, offset: 0 },
        ],
      },
    ],
    enums: [],
  };
  b.setPayloadRegistry(registry);
  const blob = (bytes: number, lane: number) => ({ schemaId: S, bytes: w().u32(bytes).u32(lane).done() });
  // bytes 64: durations 10 and 30; bytes 128: duration 50; one range without payload (20).
  const spec: [number, number, number, number][] = [
    [0, 10, 64, 0],
    [100, 130, 64, 1],
    [200, 250, 128, 0],
  ];
  for (const [s, e, bytes, lane] of spec) {
    b.push(t, s, { name: 'copy', domain: d, payload: b.extPayload(d, [blob(bytes, lane)]) });
    b.pop(t, e, d);
  }
  b.push(t, 300, { name: 'copy', domain: d });
  b.pop(t, 320, d);
  b.push(t, 400, { name: 'tagged', payload: { type: 4, value: 7 } });
  b.pop(t, 405);
  return b.finish();
}

describe('payload fields', () => {
  it('lists the leaf fields of the extended payloads and sees core payload values', () => {
    expect(payloadChoices(payloadModel())).toEqual({ values: true, fields: ['bytes', 'lane'] });
  });

  it('groups whole extended payloads by their decoded record, not one group per event', () => {
    const rows = rangeStats(payloadModel(), { groupBy: 'payload' }).rows.map((r) => [r.label, r.count, r.totalNs]);
    expect(rows).toEqual([
      ['bytes=128, lane=0', 1, 50],
      ['bytes=64, lane=1', 1, 30],
      ['(no payload)', 1, 20],
      ['bytes=64, lane=0', 1, 10],
      ['7', 1, 5],
    ]);
  });

  it('reads a field of one event and projects the model onto it', () => {
    const m = payloadModel();
    const first = m.ranges.payload.find((p) => p >= 0)!;
    expect(payloadFieldText(m, first, 'bytes')).toBe('64');
    expect(payloadFieldText(m, first, 'nope')).toBeUndefined();
    const projected = projectPayloadField(m, 'bytes');
    expect(projectPayloadField(m, 'bytes')).toBe(projected);
    expect(projected.ranges).toBe(m.ranges);
    const rows = rangeStats(projected, { groupBy: 'payload' }).rows.map((r) => [r.label, r.count, r.totalNs]);
    expect(rows).toEqual([
      ['64', 2, 40],
      ['128', 1, 50],
      ['(no payload)', 1, 20],
      ['(no bytes)', 1, 5],
    ].sort((a, b) => (b[2] as number) - (a[2] as number)));
  });

  it('groups the range table by a payload field and lists the instances of a group', () => {
    const m = payloadModel();
    const grouping = { by: 'payloadField', path: 'bytes' } as const;
    const table = computeStats(m, { kind: 'ranges', scope: WHOLE, grouping });
    if (table.kind !== 'ranges') throw new Error(table.kind);
    const row = table.result.rows.find((r) => r.label === '64')!;
    const instances = computeStats(m, { kind: 'instances', scope: WHOLE, grouping, key: row.key });
    if (instances.kind !== 'instances') throw new Error(instances.kind);
    expect(Array.from(instances.result.durations)).toEqual([10, 30]);
  });
});

describe('computeStats scope', () => {
  function twoThreads() {
    const b = new ModelBuilder({ fileName: 't.nvtxt', format: 'test', byteSize: 0 });
    const a = b.thread(1, 1, 'a');
    const c = b.thread(1, 2, 'c');
    b.range(a, 0, 100, { name: 'work' });
    b.range(c, 50, 150, { name: 'work' });
    b.mark(a, 60, { name: 'tick' });
    b.mark(c, 120, { name: 'tick' });
    const queue = b.counterRow({ process: 0, label: 'queue' });
    b.counter(queue, 0, 1);
    b.counter(queue, 100, 3);
    return b.finish();
  }

  it('limits ranges, marks and counters to a span and to tracks', () => {
    const m = twoThreads();
    const span = { span: { startNs: 80, endNs: 130 }, mode: 'clip' as const, tracks: null };
    const r = computeStats(m, { kind: 'ranges', scope: span, grouping: { by: 'name' } });
    if (r.kind !== 'ranges') throw new Error();
    expect(r.result.rows[0]).toMatchObject({ count: 2, totalNs: 20 + 50 });
    const marks = computeStats(m, { kind: 'marks', scope: span });
    if (marks.kind !== 'marks') throw new Error();
    expect(marks.result.rows.map((x) => [x.label, x.count])).toEqual([['tick', 1]]);
    const counters = computeStats(m, { kind: 'counters', scope: span });
    if (counters.kind !== 'counters') throw new Error();
    expect(counters.result[0]).toMatchObject({ first: 1, last: 3, min: 1, max: 3 });

    const threadA = m.tracks.findIndex((t) => t.kind === 'pushpop' && m.threads[t.thread].name === 'a');
    const only = computeStats(m, { kind: 'ranges', scope: { ...WHOLE, tracks: [threadA] }, grouping: { by: 'name' } });
    if (only.kind !== 'ranges') throw new Error();
    expect(only.result.rows[0]).toMatchObject({ count: 1, totalNs: 100 });
  });

  it('finds nothing for a span outside the capture', () => {
    const m = twoThreads();
    const r = computeStats(m, { kind: 'ranges', scope: { span: { startNs: 1e6, endNs: 2e6 }, mode: 'overlap', tracks: null }, grouping: { by: 'name' } });
    if (r.kind !== 'ranges') throw new Error();
    expect(r.result.rows).toEqual([]);
  });
});
