import { describe, expect, it } from 'vitest';
import { randomModel } from '../../../testkit/models/randomModel.ts';
import { ModelBuilder } from '../../model/builder.ts';
import { categoryLabel, processLabel, threadLabel } from '../../model/trackTree.ts';
import { PayloadType, type Model } from '../../model/types.ts';
import { captureFilter, NO_FILTERS, withHidden } from '../../analysis/eventFilters.ts';
import {
  cellText,
  columnValues,
  DEFAULT_TABLE_QUERY,
  eventEnd,
  eventRows,
  eventStart,
  eventTableData,
  KIND_LABELS,
  valueOf,
  VALUE_COLUMNS,
  type EventColumn,
  type EventTableQuery,
} from './eventTable.ts';

const FORMAT = { time: (ns: number) => `${ns}`, duration: (ns: number) => `${ns}ns` };

/** Thread 1 "main": frame [0,100] > draw [10,40]; thread 2 "io": a start/end range that ends on thread 1; a mark. */
function sample(): Model {
  const b = new ModelBuilder({ fileName: 'events.test', format: 'test', byteSize: 0 });
  b.setCaptureSpan(0, 200);
  const main = b.thread(7, 1, 'main');
  const io = b.thread(7, 2, 'io');
  b.nameCategory(0, 3, 'Disk');
  b.push(main, 0, { name: 'frame', payload: { type: PayloadType.I64, value: 5 } });
  b.push(main, 10, { name: 'draw' });
  b.pop(main, 40);
  b.pop(main, 100);
  b.rangeStart('r1', io, 20, { name: 'read', category: 3, payload: { type: PayloadType.String, value: 'a.bin' } });
  b.rangeEnd('r1', main, 70);
  b.mark(io, 50, { name: 'vsync' });
  return b.finish();
}

function names(model: Model, rows: Uint32Array): string[] {
  const data = eventTableData(model);
  return Array.from(rows, (e) => cellText(data, 'name', e, FORMAT));
}

const query = (q: Partial<EventTableQuery>): EventTableQuery => ({ ...DEFAULT_TABLE_QUERY, ...q });

describe('event table', () => {
  it('lists every range and mark by start time with their cells', () => {
    const model = sample();
    const data = eventTableData(model);
    const rows = eventRows(data, DEFAULT_TABLE_QUERY, null);
    expect(names(model, rows)).toEqual(['frame', 'draw', 'read', 'vsync']);
    const read = rows[2];
    const cells = (['start', 'end', 'duration', 'kind', 'category', 'thread', 'endThread', 'process', 'payload'] as EventColumn[]).map((c) =>
      cellText(data, c, read, FORMAT),
    );
    expect(cells).toEqual(['20', '70', '50ns', 'StartEnd', 'Disk (3)', 'io (2)', 'main (1)', 'Process 7', 'a.bin']);
    expect(cellText(data, 'endThread', rows[0], FORMAT)).toBe('');
    expect(cellText(data, 'payload', rows[0], FORMAT)).toBe('5');
    expect(cellText(data, 'duration', rows[3], FORMAT)).toBe('');
  });

  it('filters by text over names, categories, threads and processes', () => {
    const model = sample();
    const data = eventTableData(model);
    expect(names(model, eventRows(data, query({ text: 'DRA' }), null))).toEqual(['draw']);
    expect(names(model, eventRows(data, query({ text: 'disk' }), null))).toEqual(['read']);
    expect(names(model, eventRows(data, query({ text: 'io (2' }), null))).toEqual(['read', 'vsync']);
    expect(names(model, eventRows(data, query({ text: 'process 7' }), null))).toHaveLength(4);
  });

  it('filters by column values, by minimum duration and by the capture filter', () => {
    const model = sample();
    const data = eventTableData(model);
    const markKind = KIND_LABELS.indexOf('Mark');
    expect(names(model, eventRows(data, query({ hidden: { kind: new Set([markKind]) } }), null))).toEqual(['frame', 'draw', 'read']);
    const io = model.threads.findIndex((t) => t.name === 'io');
    expect(names(model, eventRows(data, query({ hidden: { thread: new Set([io]) } }), null))).toEqual(['frame', 'draw']);
    expect(names(model, eventRows(data, query({ minDurationNs: 50 }), null))).toEqual(['frame', 'read']);
    const filter = captureFilter(model, withHidden(NO_FILTERS, [{ kind: 'name', domain: '', name: 'draw' }], true));
    expect(names(model, eventRows(data, DEFAULT_TABLE_QUERY, filter))).toEqual(['frame', 'read', 'vsync']);
  });

  it('lists the values of a column with their counts', () => {
    const data = eventTableData(sample());
    expect(columnValues(data, 'kind').map((v) => `${v.label}:${v.count}`)).toEqual(['Mark:1', 'PushPop:2', 'StartEnd:1']);
    expect(columnValues(data, 'category').map((v) => v.label)).toEqual(['Disk (3)', 'No category']);
  });

  it('sorts by every column like a comparator sort over row objects, ties in start order (property)', () => {
    for (const seed of [1, 2, 3]) {
      // Seed 3 is large enough for the radix passes, the others take the small-table path.
      const model = randomModel({ seed, ops: seed === 3 ? 800 : 50 });
      const data = eventTableData(model);
      const all = eventRows(data, DEFAULT_TABLE_QUERY, null);
      if (seed === 3) expect(all.length).toBeGreaterThan(2000);
      // Reference: plain objects, Array.prototype.sort (stable), start order as the tie-break.
      const objects = Array.from(all, (e, k) => ({ e, k, start: eventStart(data, e), end: eventEnd(data, e) }));
      const text = (column: EventColumn, e: number) => cellText(data, column, e, FORMAT);
      const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
      const cmpText = (a: string, b: string) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
      const label: Record<string, (e: number) => string> = {
        name: (e) => text('name', e),
        thread: (e) => (valueOf(data, 'thread', e) < 0 ? '' : threadLabel(model, valueOf(data, 'thread', e))),
        process: (e) => (valueOf(data, 'process', e) < 0 ? '' : processLabel(model, valueOf(data, 'process', e))),
        category: (e) => (valueOf(data, 'category', e) < 0 ? '' : categoryLabel(model, valueOf(data, 'category', e))),
      };
      for (const descending of [false, true]) {
        const dir = descending ? -1 : 1;
        const cases: [EventColumn, (a: (typeof objects)[0], b: (typeof objects)[0]) => number][] = [
          ['duration', (a, b) => a.end - a.start - (b.end - b.start)],
          ['end', (a, b) => a.end - b.end],
          ['kind', (a, b) => valueOf(data, 'kind', a.e) - valueOf(data, 'kind', b.e)],
          ...(['name', 'thread', 'process', 'category'] as const).map(
            (c) => [c, (a: (typeof objects)[0], b: (typeof objects)[0]) => cmpText(label[c](a.e), label[c](b.e))] as [EventColumn, (a: (typeof objects)[0], b: (typeof objects)[0]) => number],
          ),
        ];
        for (const [column, cmp] of cases) {
          const expected = [...objects].sort((a, b) => dir * cmp(a, b)).map((o) => o.e);
          const got = Array.from(eventRows(data, query({ sort: { column, descending } }), null));
          expect(got, `${column} ${descending ? 'desc' : 'asc'} seed ${seed}`).toEqual(expected);
        }
      }
    }
  });

  it('has a value for every value column of every event', () => {
    const model = randomModel({ seed: 4 });
    const data = eventTableData(model);
    for (const column of VALUE_COLUMNS) {
      const total = columnValues(data, column).reduce((n, v) => n + v.count, 0);
      expect(total).toBe(data.count);
    }
  });
});
