import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../model/builder.ts';
import type { LoadedCapture } from '../state/viewerStore.ts';
import { countBySeverity, filterRows, locationText, reportRows } from './loadReport.ts';

function capture(id: number, build: (b: ModelBuilder) => void): LoadedCapture {
  const b = new ModelBuilder({ fileName: `f${id}.nvtxt`, format: 'test', byteSize: 0 });
  build(b);
  return { id, model: b.finish(), offsetNs: 0, decodeMs: 0 };
}

describe('load report rows', () => {
  const captures = [
    capture(1, (b) => {
      b.report('error', 'bad time', { line: 3 });
      b.report('warning', 'odd color', { line: 7 });
    }),
    capture(2, (b) => b.report('info', 'assumed 10 MHz', { offset: 4096 })),
  ];
  const rows = reportRows(captures, [{ id: 9, name: 'x.bin', message: 'x.bin: not a format nvtxview knows' }]);

  it('lists whole-file failures first, then every issue with its file and location', () => {
    expect(rows).toEqual([
      { severity: 'error', file: 'x.bin', where: '', message: 'x.bin: not a format nvtxview knows' },
      { severity: 'error', file: 'f1.nvtxt', where: 'line 3', message: 'bad time' },
      { severity: 'warning', file: 'f1.nvtxt', where: 'line 7', message: 'odd color' },
      { severity: 'info', file: 'f2.nvtxt', where: 'byte 4096', message: 'assumed 10 MHz' },
    ]);
  });

  it('counts and filters by severity', () => {
    expect(countBySeverity(rows)).toEqual({ error: 2, warning: 1, info: 1 });
    expect(filterRows(rows, 'warning').map((r) => r.message)).toEqual(['odd color']);
    expect(filterRows(rows, 'all')).toHaveLength(4);
  });

  it('prefers the line over the byte offset', () => {
    expect(locationText({ line: 2, offset: 10 })).toBe('line 2');
    expect(locationText({})).toBe('');
  });
});

describe('a flood of problems (issue 16: 391,000 in one fuzzed capture)', () => {
  it('lists a few rows per kind while the counts keep every problem', () => {
    const flood = capture(3, (b) => {
      for (let k = 0; k < 50_000; k++) b.report('error', `record ${k} at byte ${k * 16} is damaged`, { offset: k * 16 });
      b.report('warning', 'one other thing');
    });
    const rows = reportRows([flood], []);
    expect(rows).toHaveLength(12);
    expect(rows[10]).toMatchObject({ severity: 'error', where: 'byte 160', count: 49_990 });
    expect(rows[10].message).toBe('and 49,990 more of this kind (byte 160 to byte 799,984): record # at byte # is damaged');
    expect(countBySeverity(rows)).toEqual({ error: 50_000, warning: 1, info: 0 });
  });
});
