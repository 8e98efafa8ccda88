import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../model/builder.ts';
import { captureFacts, timeZero } from './captureFacts.ts';

function model() {
  const b = new ModelBuilder({ fileName: 'run.nvtxc', format: 'nvtxc', byteSize: 2048 });
  b.setCaptureSpan(0, 2_500_000);
  b.setProperty('command', 'python train.py --epochs 1');
  b.setProperty('host', 'gpu-node-7');
  const t = b.thread(10, 11, 'main');
  b.push(t, 0, { name: 'step' });
  b.pop(t, 1_000_000);
  b.mark(t, 500, { name: 'm' });
  b.report('warning', 'something odd');
  return b.finish();
}

describe('capture facts', () => {
  it('says what the file is and holds, and how loading it went', () => {
    const { title, facts, properties } = captureFacts(model(), { formatLabel: 'nvtxview native capture (.nvtxc)', decodeMs: 12.5 });
    expect(title).toBe('run.nvtxc');
    const fact = new Map(facts);
    expect(fact.get('File')).toBe('run.nvtxc');
    expect(fact.get('Format')).toBe('nvtxview native capture (.nvtxc)');
    expect(fact.get('Size')).toBe('2.00 KiB (2,048 bytes)');
    expect(fact.get('Duration')).toBe('2.5 ms');
    expect(fact.get('Processes')).toBe('1');
    expect(fact.get('Threads')).toBe('1');
    expect(fact.get('Ranges')).toBe('1');
    expect(fact.get('Marks')).toBe('1');
    expect(fact.get('Counter samples')).toBe('0');
    expect(fact.get('Decoded in')).toBe('12.5 ms');
    expect(fact.get('Load report')).toBe('0 errors, 1 warning, 0 info');
    expect(fact.has('Name')).toBe(false);
    expect(fact.has('API calls')).toBe(false);
    expect(new Map(captureFacts(model(), { formatLabel: 'x' }).facts).has('Decoded in')).toBe(false);
    // What the file records, in the importer's order.
    expect(properties).toEqual([
      ['command', 'python train.py --epochs 1'],
      ['host', 'gpu-node-7'],
    ]);
  });
});

describe('capture facts: the load report', () => {
  it('counts the problems a summary line stands for', () => {
    const b = new ModelBuilder({ fileName: 'x.nvtxt', format: 'nvtxt', byteSize: 1 });
    for (let i = 0; i < 25; i++) b.report('warning', `odd value ${i}`);
    const m = b.finish();
    expect(m.issues.length).toBeLessThan(25); // grouped: the first ones, then "and N more"
    expect(new Map(captureFacts(m, { formatLabel: 'NVTXT' }).facts).get('Load report')).toBe('0 errors, 25 warnings, 0 info');
  });
});

describe('time zero', () => {
  it('is a date on a UTC clock, to the nanosecond', () => {
    expect(timeZero('1741793819608633856', 'UTC')).toBe('2025-03-12 15:36:59.608633856 UTC');
    expect(timeZero('1741793819000000007', 'UTC')).toBe('2025-03-12 15:36:59.000000007 UTC');
  });

  it("is the clock's own count otherwise", () => {
    expect(timeZero('123456', 'CLOCK_MONOTONIC_RAW')).toBe('123456 ns of CLOCK_MONOTONIC_RAW');
  });
});
