import { describe, expect, it } from 'vitest';
import { rangeStats } from '../../analysis/rangeStats.ts';
import { ModelBuilder } from '../../model/builder.ts';
import { cellText, counterRowDetail, rowByteScale } from './cells.ts';
import { counterTableCsv, csvNumber, markTableCsv, rangeTableCsv, rangeTableJson } from './exportTable.ts';
import { COLUMNS, DEFAULT_FIGURES, groupHeader, nextSort, shownFigures, sortRows, tableRows, tableTotals, type StatsRow } from './tableModel.ts';

/** main: frame [0, 1000] > update [100, 400], draw [500, 800]; a second frame [1000, 1500.5 → 1500]. */
function model() {
  const b = new ModelBuilder({ fileName: 'r.nvtxt', format: 'test', byteSize: 0 });
  const t = b.thread(1, 1, 'main');
  const d = b.domain(1, 'gfx');
  b.range(t, 0, 1000, { name: 'frame' });
  b.range(t, 100, 400, { name: 'update' });
  b.range(t, 500, 800, { name: 'draw, "main"', domain: d });
  b.range(t, 1000, 1500, { name: 'frame' });
  return b.finish();
}

function rows(): StatsRow[] {
  return tableRows({ id: 3, file: 'r.nvtxt' }, rangeStats(model()));
}

describe('table rows and sorting', () => {
  it('keys rows by capture and sorts by every column, ties by name', () => {
    const r = rows();
    expect(r.map((x) => x.id.startsWith('3|'))).toEqual([true, true, true]);
    const names = (col: (typeof COLUMNS)[number]['id'], descending: boolean) => sortRows(r, { column: col, descending }).map((x) => x.label);
    expect(names('totalNs', true)).toEqual(['frame', 'gfx:draw, "main"', 'update']);
    expect(names('count', true)).toEqual(['frame', 'gfx:draw, "main"', 'update']);
    expect(names('selfNs', false)).toEqual(['gfx:draw, "main"', 'update', 'frame']);
    expect(names('label', false)).toEqual(['frame', 'gfx:draw, "main"', 'update']);
    expect(names('label', true)).toEqual(['update', 'gfx:draw, "main"', 'frame']);
    for (const c of COLUMNS) expect(sortRows(r, { column: c.id, descending: false })).toHaveLength(3);
  });

  it('sorts names with numbers in them by number', () => {
    const named = ['batch 10', 'batch 2', 'batch 1'].map((label, i) => ({ ...rows()[0], label, id: `1|${i}` }));
    expect(sortRows(named, { column: 'label', descending: false }).map((r) => r.label)).toEqual(['batch 1', 'batch 2', 'batch 10']);
  });

  it('starts figures descending and text ascending; the same header flips', () => {
    expect(nextSort({ column: 'totalNs', descending: true }, 'totalNs')).toEqual({ column: 'totalNs', descending: false });
    expect(nextSort({ column: 'totalNs', descending: true }, 'p99Ns')).toEqual({ column: 'p99Ns', descending: true });
    expect(nextSort({ column: 'totalNs', descending: true }, 'style')).toEqual({ column: 'style', descending: false });
  });

  it('sums instances and totals, names the group column', () => {
    expect(tableTotals(rows())).toEqual({ instances: 4, unended: 0, totalNs: 1500 + 300 + 300 });
    expect(groupHeader({ by: 'thread' })).toBe('Thread');
    expect(groupHeader({ by: 'payloadField', path: 'cfg.mode' })).toBe('cfg.mode');
    // The GPU work and CUDA API tables name what they list.
    expect(groupHeader({ by: 'name' }, 'GPU work')).toBe('GPU work');
    expect(groupHeader({ by: 'family' }, 'API call')).toBe('API call (numbers folded)');
    expect(groupHeader({ by: 'thread' }, 'API call')).toBe('Thread');
    expect(groupHeader({ by: 'name' })).toBe('Range');
  });
});

describe('CSV and JSON export', () => {
  it('writes the nsys nvtx_sum columns in ns, quoting names that need it', () => {
    const text = rangeTableCsv(sortRows(rows(), { column: 'totalNs', descending: true }), { by: 'name' }, false);
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'Time (%),Total Time (ns),Instances,Unended,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Style,Range,Self Time (ns),P90 (ns),P99 (ns)',
    );
    // frame: 1000 and 500 -> avg 750, sample sigma 353.55..; self 1500 - 300 (draw, in domain gfx,
    // is on another push/pop row, so it is not a child of frame).
    expect(lines[1]).toBe('71.4,1500,2,0,750,750,500,1000,353.6,PushPop,frame,1200,950,995');
    expect(lines[2]).toBe('14.3,300,1,0,300,300,300,300,0,PushPop,"gfx:draw, ""main""",300,300,300');
    expect(lines).toHaveLength(4);
  });

  it('adds a capture column for several captures and names the group column', () => {
    const text = rangeTableCsv(rows(), { by: 'thread' }, true);
    expect(text.split('\r\n')[0]).toMatch(/^Capture,Time \(%\),.*,Style,Thread,Self Time \(ns\)/);
    expect(text.split('\r\n')[1]).toMatch(/^r\.nvtxt,/);
  });

  it('gives JSON records with the keys of nvtxview stats --format json', () => {
    const json = JSON.parse(rangeTableJson(rows(), { by: 'name' }, { kind: 'span', startNs: 0, endNs: 10, mode: 'clip', tracks: 'all' }));
    expect(json.scope).toEqual({ kind: 'span', startNs: 0, endNs: 10, mode: 'clip', tracks: 'all' });
    expect(Object.keys(json.rows[0])).toEqual([
      'file', 'groupBy', 'name', 'domain', 'style', 'count', 'unended', 'totalNs', 'selfNs', 'avgNs', 'medianNs', 'minNs', 'maxNs', 'stdDevNs', 'p90Ns', 'p99Ns', 'timePercent',
    ]);
    const draw = json.rows.find((r: { name: string }) => r.name.includes('draw'));
    expect(draw).toMatchObject({ domain: 'gfx', count: 1, totalNs: 300, groupBy: 'name' });
  });

  it('exports marks and counters with their own columns', () => {
    const marks = markTableCsv([{ file: 'f', key: 'k', label: 'tick', count: 3, firstNs: 5, lastNs: 9, firstMark: 0 }], false);
    expect(marks).toBe('Count,First (ns),Last (ns),Mark\r\n3,5,9,tick\r\n');
    const counters = counterTableCsv(
      [{ file: 'f', track: 0, label: 'power', unit: 'W', samples: 2, min: 0.001, max: 2, average: 1 / 3, first: 0.001, last: 2, delta: 1.999, ratePerSecond: 1e9, coveredNs: 5 }],
      true,
    );
    expect(counters.split('\r\n')[1]).toBe('f,power,W,2,0.001,2,0.333333333333,0.001,2,1.999,1000000000,absolute,0,5,0,');
    const changes = counterTableCsv(
      [
        { file: 'f', track: 1, label: 'bytes', valueType: 'delta', samples: 3, unavailable: 1, min: 1, max: 4, average: 2, first: 1, last: 4, delta: 6, ratePerSecond: 2, coveredNs: 30, noValueNs: 10 },
        { file: 'f', track: 2, label: 'bytes (running total)', derivedFrom: 'bytes', samples: 3, min: 1, max: 6, average: 3, first: 1, last: 6, delta: 5, ratePerSecond: 1, coveredNs: 40 },
      ],
      false,
    ).split('\r\n');
    expect(changes[0]).toBe('Counter,Unit,Samples,Min,Max,Average,First,Last,Delta,Rate (/s),Values,Unavailable samples,Time with a value (ns),Time without a value (ns),Running total of');
    expect(changes[1]).toBe('bytes,,3,1,4,2,1,4,6,2,delta,1,30,10,');
    expect(changes[2]).toBe('bytes (running total),,3,1,6,3,1,6,5,1,absolute,0,40,0,bytes');
  });

  it('says on a counter row what its values are and how long it had none', () => {
    const row = { file: 'f', track: 1, label: 'bytes', samples: 1200, min: 1, max: 4, average: 2, first: 1, last: 4, delta: 6, ratePerSecond: 2, coveredNs: 75 };
    expect(counterRowDetail(row, undefined)).toBe('1,200 samples');
    expect(counterRowDetail({ ...row, unit: 'bytes', valueType: 'delta', unavailable: 3, noValueNs: 25 }, 'a.nvtxc')).toBe(
      'a.nvtxc · bytes · 1,200 samples · changes · 3 unavailable · no value 25.0% of the time',
    );
    expect(counterRowDetail({ ...row, derivedFrom: 'bytes' }, undefined)).toBe('1,200 samples · running total of bytes');
  });

  it('shows a row of byte counts in one binary unit, chosen by its largest figure', () => {
    const memory = { file: 'f', track: 1, label: 'CUDA 0 allocated', unit: 'bytes', samples: 312, min: 71_819_776, max: 157_358_080, average: 88_405_000, first: 72_000_000, last: 71_819_776, delta: -786_432, ratePerSecond: -3.6e7, coveredNs: 10 };
    expect(rowByteScale(memory)).toEqual([2 ** 20, 'MiB']);
    expect(counterRowDetail(memory, undefined)).toBe('MiB · 312 samples');
    expect(rowByteScale({ ...memory, min: 0, max: 8, average: 0.2, first: 8, last: 0, delta: -8 })).toEqual([1, 'bytes']);
    expect(rowByteScale({ ...memory, max: 3 * 2 ** 30 })).toEqual([2 ** 30, 'GiB']);
    expect(rowByteScale({ ...memory, unit: 'W' })).toBeUndefined();
  });

  it('writes integers as they are, fractions to 0.1, non-finite values empty', () => {
    expect(csvNumber(123456789012)).toBe('123456789012');
    expect(csvNumber(2.25)).toBe('2.3');
    expect(csvNumber(NaN)).toBe('');
    expect(csvNumber(Infinity)).toBe('');
  });
});

describe('ranges that never ended', () => {
  /** "frame" ended once and is open at the end once; "load" only open. */
  function open(): StatsRow[] {
    const b = new ModelBuilder({ fileName: 'o.nvtxt', format: 'test', byteSize: 0 });
    const t = b.thread(1, 1, 'main');
    b.range(t, 0, 100, { name: 'frame' });
    b.push(t, 200, { name: 'frame' });
    b.push(t, 300, { name: 'load' });
    b.range(t, 400, 500, { name: 'io' });
    return tableRows({ id: 1, file: 'o.nvtxt' }, rangeStats(b.finish()));
  }

  it('adds the Unended column when some listed range never ended, and counts them in the totals line', () => {
    const r = open();
    expect(shownFigures(DEFAULT_FIGURES, r)).toContain('unended');
    expect(shownFigures(DEFAULT_FIGURES, r).indexOf('unended')).toBe(DEFAULT_FIGURES.indexOf('count') + 1);
    expect(shownFigures(DEFAULT_FIGURES, rows())).toEqual(DEFAULT_FIGURES);
    expect(tableTotals(r)).toEqual({ instances: 2, unended: 2, totalNs: 200 });
    const load = r.find((x) => x.label === 'load')!;
    expect(cellText(load, 'unended')).toBe('1');
    expect(cellText(load, 'count')).toBe('0');
    expect(cellText(load, 'avgNs')).toBe('-');
    expect(cellText(load, 'totalNs')).toBe('-');
    expect(cellText(load, 'timePercent')).toBe('-');
  });

  it('sorts rows without figures last in both directions, and exports the unended count', () => {
    const r = open();
    expect(sortRows(r, { column: 'avgNs', descending: true }).map((x) => x.label).at(-1)).toBe('load');
    expect(sortRows(r, { column: 'avgNs', descending: false }).map((x) => x.label).at(-1)).toBe('load');
    const csv = rangeTableCsv(r, { by: 'name' }, false).split('\r\n');
    expect(csv[0].startsWith('Time (%),Total Time (ns),Instances,Unended,Avg (ns)')).toBe(true);
    expect(csv.find((l) => l.includes(',load,'))).toMatch(/^0,0,0,1,,,,,,PushPop,load,0,,$/);
    const json = JSON.parse(rangeTableJson(r, { by: 'name' }, { kind: 'capture', tracks: 'all' })) as { rows: { name: string; count: number; unended: number }[] };
    expect(json.rows.find((x) => x.name === 'frame')).toMatchObject({ count: 1, unended: 1 });
  });
});
