import { describe, expect, it } from 'vitest';
import { load, marksOf, problems, rangesOf } from '../../../testkit/load/nvtxtText.ts';

const lines = (...l: string[]) => l.join('\n') + '\n';
const mark = (t: string | number, base: string, name = 'm') => `Marker, ${t}, ${base}, 1, 2, 0, 0, ${name}, 0`;

describe('NVTXT time bases', () => {
  it('FileTime: 100 ns ticks since 1601, exact beyond 2^53', async () => {
    const m = await load(
      lines('RangePush, 133500000000000001, FileTime, 1, 2, 0, 0, r, 0', 'RangePop, 133500000000000003, FileTime, 1, 2'),
    );
    expect(problems(m, 'error')).toEqual([]);
    expect(rangesOf(m).map((r) => [r.start, r.end])).toEqual([[0, 200]]);
    expect(m.capture.clock).toBe('FileTime');
    expect(m.capture.originNs).toBe('13350000000000000100');
    expect(problems(m, 'info')).toEqual([]);
  });

  it('ClockRealtime and FileTime are the same clock on different epochs', async () => {
    const fileTime = 133500000000000000n;
    const realtimeNs = fileTime * 100n - 11644473600n * 1_000_000_000n + 5_000n;
    const m = await load(lines(mark(fileTime.toString(), 'FileTime', 'a'), mark(realtimeNs.toString(), 'ClockRealtime', 'b')));
    expect(problems(m, 'warning')).toEqual([]);
    expect(marksOf(m).map((x) => [x.name, x.time])).toEqual([
      ['a', 0],
      ['b', 5000],
    ]);
  });

  it('Qpc uses the default 10 MHz with an info, or the rate from the options', async () => {
    const text = lines(mark(1000, 'Qpc', 'a'), mark(1003, 'qpc', 'b'));
    const byDefault = await load(text);
    expect(marksOf(byDefault).map((x) => x.time)).toEqual([0, 300]);
    expect(problems(byDefault, 'info')).toEqual([{ line: 1, message: expect.stringMatching(/^Qpc timestamps are converted at 10 MHz, the default/) }]);
    expect(byDefault.capture.properties['Qpc rate']).toBe('10 MHz (default)');

    const given = await load(text, { qpcHz: 3_000_000 });
    expect(marksOf(given).map((x) => x.time)).toEqual([0, 1000]);
    expect(problems(given, 'info')).toEqual([]);
    expect(given.capture.clock).toBe('Qpc@3MHz');
    expect(given.capture.properties['Qpc rate']).toBe('3 MHz');

    // The ACPI PM timer rate: not a divisor of 1 GHz, rounded to the nearest ns.
    const odd = await load(lines(mark(0, 'Qpc'), mark(3579545, 'Qpc'), mark(1, 'Qpc')), { qpcHz: 3579545 });
    expect(marksOf(odd).map((x) => x.time)).toEqual([0, 279, 1_000_000_000]);
  });

  it('Rdtsc uses the default 1 GHz with an info, or the rate from the options', async () => {
    const text = lines(mark(5000, 'Rdtsc'), mark(5005, 'Rdtsc'), mark(5007, 'RDTSC'));
    const byDefault = await load(text);
    expect(marksOf(byDefault).map((x) => x.time)).toEqual([0, 5, 7]);
    expect(problems(byDefault, 'info')[0].message).toMatch(/^Rdtsc timestamps are converted at 1 GHz, the default/);
    expect(byDefault.capture.clock).toBe('Rdtsc@1GHz');

    const given = await load(text, { rdtscHz: 2_500_000_000 });
    expect(marksOf(given).map((x) => x.time)).toEqual([0, 2, 3]);
    expect(given.capture.clock).toBe('Rdtsc@2.5GHz');
  });

  it('an invalid rate option falls back to the default with a warning', async () => {
    const m = await load(lines(mark(0, 'Qpc'), mark(1, 'Qpc')), { qpcHz: -5 });
    expect(marksOf(m).map((x) => x.time)).toEqual([0, 100]);
    expect(problems(m, 'warning')).toEqual([{ line: undefined, message: expect.stringContaining('qpcHz -5 is not a valid tick rate') }]);
  });

  it('nanosecond clocks of real emitters, any case, with their clock names', async () => {
    for (const [base, clock] of [
      ['ClockMonotonicRaw', 'CLOCK_MONOTONIC_RAW'],
      ['CLOCK_MONOTONIC_RAW', 'CLOCK_MONOTONIC_RAW'],
      ['clockmonotonic', 'CLOCK_MONOTONIC'],
      ['ClockRealtime', 'CLOCK_REALTIME'],
      ['ClockBoottime', 'CLOCK_BOOTTIME'],
      ['Manual', 'Manual'],
      ['ns', 'Manual'],
      ['Nanoseconds', 'Manual'],
    ]) {
      const m = await load(lines(mark('1700000000123456789', base), mark('1700000000123456790', base)));
      expect(problems(m, 'warning'), base).toEqual([]);
      expect(marksOf(m).map((x) => x.time), base).toEqual([0, 1]);
      expect(m.capture.clock, base).toBe(clock);
      expect(m.capture.originNs, base).toBe('1700000000123456789');
    }
  });

  it('unit time bases scale to nanoseconds and share one clock', async () => {
    const m = await load(lines(mark(2, 'us', 'a'), mark(3, 'Microseconds', 'b'), mark(1, 'ms', 'c'), mark(1, 'Seconds', 'd'), mark(2500, 'ns', 'e')));
    expect(problems(m, 'warning')).toEqual([]);
    expect(marksOf(m).map((x) => [x.name, x.time])).toEqual([
      ['a', 0],
      ['e', 500],
      ['b', 1000],
      ['c', 998_000],
      ['d', 999_998_000],
    ]);
  });

  it('unknown time bases are read as nanoseconds, with one warning per name', async () => {
    const m = await load(lines(mark(10, 'Ticks'), mark(15, 'Ticks'), mark(20, 'Jiffies')));
    expect(marksOf(m).map((x) => x.time)).toEqual([0, 5, 10]);
    expect(problems(m, 'warning').map((w) => [w.line, w.message.slice(0, 26)])).toEqual([
      [1, 'unknown TimeBase "Ticks": '],
      [3, 'unknown TimeBase "Jiffies"'],
    ]);
  });

  it('warns when time bases cannot be compared and lines up their first timestamps', async () => {
    const m = await load(
      lines(mark('133500000000000000', 'FileTime', 'f0'), mark('133500000000000010', 'FileTime', 'f1'), mark(77, 'Qpc', 'q0'), mark(78, 'Qpc', 'q1')),
    );
    expect(marksOf(m).map((x) => [x.name, x.time])).toEqual([
      ['f0', 0],
      ['q0', 0],
      ['q1', 100],
      ['f1', 1000],
    ]);
    expect(problems(m, 'warning')).toEqual([{ line: 3, message: expect.stringContaining('TimeBase Qpc cannot be compared with FileTime') }]);
    expect(m.capture.clock).toBe('FileTime');
  });

  it('reports timestamps too far from the first one to be exact', async () => {
    const m = await load(lines(mark(0, 'ns', 'a'), mark('1152921504606846976', 'ns', 'far'), mark(7, 'ns', 'b')));
    expect(marksOf(m).map((x) => x.name)).toEqual(['a', 'b']);
    expect(problems(m, 'error')).toEqual([{ line: 2, message: expect.stringContaining('more than 104 days away') }]);
  });

  it('keeps nanosecond differences exact between timestamps beyond 2^53', async () => {
    const m = await load(lines(mark('9007199254740993', 'ns', 'a'), mark('9007199254740995', 'ns', 'b'), mark('-9007199254740993', 'us', 'c')));
    const [a, b] = marksOf(m).filter((x) => x.name !== 'c');
    expect(b.time - a.time).toBe(2);
    // c is 2^53 µs before a: far beyond 104 days.
    expect(problems(m, 'error').map((e) => e.line)).toEqual([3]);
  });
});
