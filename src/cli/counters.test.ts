/** `nvtxview counters`: the Counters tab's figures per counter row, as table, CSV and JSON. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { counterTestModel as model } from '../../testkit/models/counterModel.ts';
import { fileCounterStats, renderCounterCsv, renderCounterTable } from './counters.ts';
import { runCli as run } from '../../testkit/cli.ts';

describe('counter figures per row', () => {
  it('gives levels time-weighted figures without the time with no value', () => {
    const { records } = fileCounterStats('c.test', model(), {});
    const level = records.find((r) => r.counter.endsWith('level'))!;
    // 3 over [0, 10), no value over [10, 20), 4 over [20, 30).
    expect(level).toMatchObject({ samples: 2, unavailableSamples: 1, min: 3, max: 4, average: 3.5, first: 3, last: 4, delta: 1, coveredNs: 20, noValueNs: 10, valueType: 'absolute', runningTotalOf: null });
  });

  it('gives counters of changes figures over the changes, and names the running total source', () => {
    const { records } = fileCounterStats('c.test', model(), {});
    const sent = records.find((r) => r.counter.endsWith('sent'))!;
    expect(sent).toMatchObject({ valueType: 'delta', samples: 2, unavailableSamples: 1, min: 2, max: 5, average: 3.5, first: 2, last: 5, delta: 7 });
    const total = records.find((r) => r.counter.endsWith('(running total)'))!;
    expect(total.runningTotalOf).toBe(sent.counter);
  });

  it('limits the figures to --from/--to', () => {
    const { records, scope } = fileCounterStats('c.test', model(), { fromNs: 20, toNs: 30 });
    expect(scope).not.toBe('whole capture');
    expect(records.find((r) => r.counter.endsWith('level'))).toMatchObject({ min: 4, max: 4, first: 4, last: 4, delta: 0, coveredNs: 10, noValueNs: 0 });
    expect(records.find((r) => r.counter.endsWith('sent'))).toMatchObject({ samples: 1, delta: 5 });
  });

  it('renders a table that says what rows of changes hold, and CSV with one column per figure', () => {
    const stats = fileCounterStats('c.test', model(), {});
    const table = renderCounterTable('c.test', stats);
    expect(table).toMatch(/^c\.test: 3 counter rows, whole capture\n/);
    expect(table).toMatch(/changes/);
    expect(table).toMatch(/running total/);
    expect(table).toMatch(/Rows of changes: /);
    const csv = renderCounterCsv(stats.records).split('\n');
    expect(csv[0]).toBe('file,counter,owner,unit,valueType,runningTotalOf,samples,unavailableSamples,min,max,average,first,last,delta,ratePerSecond,coveredNs,noValueNs');
    expect(csv.find((l) => l.includes('level'))).toMatch(/,level,p \(1\),B,absolute,,2,1,3,4,3\.5,3,4,1,/);
  });
});

describe('nvtxview counters', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nvtxview-counters-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const trace = JSON.stringify({
    traceEvents: [
      { ph: 'C', name: 'queue', pid: 1, ts: 0, args: { value: 2 } },
      { ph: 'C', name: 'queue', pid: 1, ts: 10, args: { value: null } },
      { ph: 'C', name: 'queue', pid: 1, ts: 20, args: { value: 6 } },
      { ph: 'X', name: 'work', pid: 1, tid: 1, ts: 0, dur: 40 },
    ],
  });
  writeFileSync(join(dir, 'c.json'), trace);


  it('prints JSON per counter row of each file, over --from/--to', async () => {
    const all = await run('counters', '--json', join(dir, 'c.json'));
    expect(all.status).toBe(0);
    // The null sample is a gap, and the load report says so.
    expect(all.err).toMatch(/info: .*1 counter samples with value null, shown as gaps/);
    const [queue] = JSON.parse(all.out);
    expect(queue).toMatchObject({ counter: expect.stringContaining('queue'), samples: 2, unavailableSamples: 1, min: 2, max: 6, noValueNs: 10_000 });
    const late = await run('counters', '--json', '--from', '20us', join(dir, 'c.json'));
    expect(JSON.parse(late.out)[0]).toMatchObject({ samples: 1, min: 6, max: 6 });
  });

  it('refuses options of stats and a bad format, naming them', async () => {
    const grouped = await run('counters', '--group-by', 'thread', join(dir, 'c.json'));
    expect(grouped.status).toBe(2);
    expect(grouped.err).toMatch(/--group-by is an option of stats/);
    const bad = await run('counters', '--format', 'xml', join(dir, 'c.json'));
    expect(bad.status).toBe(2);
    expect(bad.err).toMatch(/--format: "xml"/);
  });
});
