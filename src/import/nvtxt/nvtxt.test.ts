import { describe, expect, it } from 'vitest';
import { PayloadType } from '../../model/types.ts';
import { payloadValue } from '../../model/payload.ts';
import { issuesOf, load, marksOf, problems, rangesOf } from '../../../testkit/load/nvtxtText.ts';

/** Lines joined with LF. */
const lines = (...l: string[]) => l.join('\n') + '\n';

describe('NVTXT: the guide example', () => {
  it('loads the RangeStartEnd example with static arguments', async () => {
    const m = await load(
      lines(
        '@RangeStartEnd, Start, End, Message',
        'ProcessId = 1844',
        'ThreadId = 4880',
        'CategoryId = 1',
        'Color = Blue',
        'TimeBase = Qpc',
        'RangeStartEnd, 8236719005, 8236928073, "My Message"',
      ),
    );
    expect(problems(m, 'error')).toEqual([]);
    const [r] = rangesOf(m);
    expect(rangesOf(m)).toHaveLength(1);
    expect(r).toMatchObject({ name: 'My Message', kind: 'category', pid: 1844, tid: 4880, color: 0xff0000ff, category: 1 });
    // Qpc at the default 10 MHz: 100 ns per tick.
    expect(r.end - r.start).toBe((8236928073 - 8236719005) * 100);
    expect(m.capture.clock).toBe('Qpc@10MHz');
    expect(m.capture.originNs).toBe(String(8236719005n * 100n));
    expect(problems(m, 'info')).toEqual([{ line: 7, message: expect.stringContaining('10 MHz, the default') }]);
    // The capture row names the file; its category rows do not repeat it (issue 17).
    expect(m.tracks.find((t) => t.kind === 'category')!.label).toBe('Category 1');
  });
});

describe('NVTXT: lines, comments, encodings', () => {
  it('skips comments and blank lines, accepts CRLF, a BOM and leading blanks', async () => {
    const text = '# header\r\n\r\n   \r\n  # indented comment\r\n\tMarker, 10, ns, 1, 2, 0, 0, "a", 1\r\nMarker, 20, ns, 1, 2, 0, 0, "b", 2';
    const bytes = new TextEncoder().encode(text);
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]);
    const m = await load(withBom);
    expect(problems(m, 'error')).toEqual([]);
    expect(marksOf(m).map((x) => [x.name, x.time])).toEqual([
      ['a', 0],
      ['b', 10],
    ]);
  });

  it('reads UTF-8 names', async () => {
    const m = await load(lines('Marker, 1, ns, 1, 2, 0, 0, "Übergabe → 完了", 0', 'NameProcess, 1, Größe'));
    expect(marksOf(m)[0].name).toBe('Übergabe → 完了');
    expect(m.processes[0].name).toBe('Größe');
  });
});

describe('NVTXT: variables', () => {
  it('expands $variables of both types outside quotes, and re-assignment changes later calls', async () => {
    const m = await load(
      lines(
        'msg = "step one"',
        't0 = 100',
        'pid = 7',
        'Marker, $t0, ns, $pid, 3, 0, 0, $msg, 0',
        'msg = second',
        'Marker, 200, ns, $pid, 3, 0, 0, $msg, 0',
        'Marker, 300, ns, $pid, 3, 0, 0, "$msg", 0',
        'alias = $msg',
        'Marker, 400, ns, $pid, 3, 0, 0, $alias, 0',
      ),
    );
    expect(problems(m, 'error')).toEqual([]);
    expect(marksOf(m).map((x) => x.name)).toEqual(['step one', 'second', '$msg', 'second']);
    expect(marksOf(m)[0].pid).toBe(7);
  });

  it('reports an undefined variable with its name and line; the rest loads', async () => {
    const m = await load(lines('Marker, 1, ns, 1, 2, 0, 0, $nope, 0', 'Marker, 2, ns, 1, 2, 0, 0, ok, 0'));
    expect(problems(m, 'error')).toEqual([{ line: 1, message: expect.stringContaining('undefined variable $nope') }]);
    expect(marksOf(m).map((x) => x.name)).toEqual(['ok']);
  });

  it('accepts bare identifiers as strings and rejects malformed values', async () => {
    const m = await load(
      lines(
        'a = _some_th1ng',
        'b = 1abc',
        'c = "unterminated',
        'd = x, y',
        'e =',
        '1x = 5',
        'f = pre$a',
        'g = -',
        'h = -0x10',
        'i = 0x',
        'j = ab#c',
        'Marker, 1, ns, 1, 2, 0, 0, $a, 0',
      ),
    );
    const errors = problems(m, 'error');
    expect(errors.map((e) => e.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(errors[0].message).toMatch(/invalid integer '1abc'/);
    expect(errors[1].message).toMatch(/unterminated string/);
    expect(errors[2].message).toMatch(/takes one value, got 2/);
    expect(errors[3].message).toMatch(/has no value/);
    expect(errors[4].message).toMatch(/invalid variable name "1x"/);
    expect(errors[5].message).toMatch(/\$variable stands for a whole value/);
    expect(errors[6].message).toMatch(/'-' must be followed by decimal digits/);
    expect(errors[7].message).toMatch(/cannot be negative/);
    expect(errors[8].message).toMatch(/'0x' must be followed by hexadecimal digits/);
    expect(errors[9].message).toMatch(/found '#'/);
    expect(marksOf(m)[0].name).toBe('_some_th1ng');
  });

  it('keeps quoted text literal: commas, $, #, the other quote, leading/trailing blanks', async () => {
    const m = await load(
      lines(
        `Marker, 1, ns, 1, 2, 0, 0, "a, b $c # d 'e'", 0`,
        `Marker, 2, ns, 1, 2, 0, 0, 'say "hi", then #', 0`,
        `Marker, 3, ns, 1, 2, 0, 0, "  padded  ", 0`,
        `Marker, 4, ns, 1, 2, 0, 0, "", 0`,
      ),
    );
    expect(problems(m, 'error')).toEqual([]);
    expect(marksOf(m).map((x) => x.name)).toEqual([`a, b $c # d 'e'`, 'say "hi", then #', '  padded  ', '']);
  });
});

describe('NVTXT: integers', () => {
  it('reads Int64 bounds exactly and rejects values beyond them', async () => {
    const m = await load(
      lines(
        'Marker, 1, ns, 1, 2, 0, 0, max, 9223372036854775807',
        'Marker, 2, ns, 1, 2, 0, 0, min, -9223372036854775808',
        'Marker, 3, ns, 1, 2, 0, 0, over, 9223372036854775808',
        'Marker, 4, ns, 1, 2, 0, 0, under, -9223372036854775809',
        'Marker, 5, ns, 1, 2, 0, 0, big, 12345678901234567',
      ),
    );
    expect(marksOf(m).map((x) => [x.name, x.payload])).toEqual([
      ['max', 9223372036854775807n],
      ['min', -9223372036854775808n],
      ['big', 12345678901234567n],
    ]);
    expect(problems(m, 'error')).toEqual([
      { line: 3, message: expect.stringContaining('9223372036854775808 is out of the Int64 range') },
      { line: 4, message: expect.stringContaining('-9223372036854775809 is out of the Int64 range') },
    ]);
  });

  it('reads hexadecimal integers (any case, as 64-bit patterns) and negative decimals', async () => {
    const m = await load(
      lines(
        'Marker, 0x10, ns, 1, 2, 0, 0, a, 0XcafE42',
        'Marker, 0x20, ns, 1, 2, 0, 0, b, 0xFFFFFFFFFFFFFFFF',
        'Marker, 0x30, ns, 1, 2, 0, 0, c, 0x7FFFFFFFFFFFFFFF',
        'Marker, 0x40, ns, 1, 2, 0, 0, d, -42',
        'Marker, 0x50, ns, 1, 2, 0, 0, e, 0x10000000000000000',
        'Marker, -0x50, ns, 1, 2, 0, 0, f, 0',
        'Marker, 0x0000000000000000001, ns, 1, 2, 0, 0, g, 0',
      ),
    );
    expect(marksOf(m).map((x) => [x.name, x.time, x.payload])).toEqual([
      ['g', 0, 0n],
      ['a', 15, 0xcafe42n],
      ['b', 31, -1n],
      ['c', 47, 0x7fffffffffffffffn],
      ['d', 63, -42n],
    ]);
    expect(problems(m, 'error').map((e) => e.line)).toEqual([5, 6]);
    expect(problems(m, 'error')[0].message).toMatch(/more than 16 hexadecimal digits/);
  });

  it('places negative timestamps before later ones', async () => {
    const m = await load(lines('RangePush, -500, ns, 1, 2, 0, 0, r, 0', 'RangePop, -100, ns, 1, 2'));
    expect(rangesOf(m).map((r) => [r.start, r.end])).toEqual([[0, 400]]);
    expect(BigInt(m.capture.originNs)).toBe(-500n);
  });

  it('stores payloads as exact signed 64-bit integers', async () => {
    const m = await load(lines('RangePush, 1, ns, 1, 2, 0, 0, r, -1', 'RangePop, 2, ns, 1, 2'));
    const range = m.tracks.find((t) => t.kind === 'pushpop')!.rangeBegin;
    expect(payloadValue(m, m.ranges.payload[range])).toEqual({ type: PayloadType.I64, value: -1n });
  });
});

describe('NVTXT: command definitions and calls', () => {
  it('redefines a command; each call follows the definition in force', async () => {
    const m = await load(
      lines(
        'TimeBase = ns',
        'ProcessId = 1',
        'ThreadId = 2',
        '@Marker, Time, Message',
        'Marker, 10, first',
        '@Marker, Message, Time, Payload',
        'Marker, second, 20, 5',
        '@Marker, Time, TimeBase, ProcessId, ThreadId, CategoryId, Color, Message, Payload',
        'Marker, 30, ns, 1, 2, 0, 0, third, 6',
      ),
    );
    expect(problems(m, 'error')).toEqual([]);
    expect(marksOf(m).map((x) => [x.name, x.time, x.payload])).toEqual([
      ['first', 0, undefined],
      ['second', 10, 5n],
      ['third', 20, 6n],
    ]);
  });

  it('reads static arguments from variables at call time', async () => {
    const m = await load(
      lines(
        '@RangePush, Time, Message',
        '@RangePop, Time',
        'TimeBase = ns',
        'ProcessId = 1',
        'ThreadId = 10',
        'RangePush, 0, on10',
        'ThreadId = 11',
        'RangePush, 5, on11',
        'RangePop, 6',
        'ThreadId = 10',
        'RangePop, 9',
      ),
    );
    expect(problems(m, 'error')).toEqual([]);
    expect(rangesOf(m).map((r) => [r.name, r.tid, r.start, r.end])).toEqual([
      ['on10', 10, 0, 9],
      ['on11', 11, 5, 6],
    ]);
  });

  it('reports a static argument whose variable is missing, naming it', async () => {
    const m = await load(lines('@Marker, Time', 'TimeBase = ns', 'ThreadId = 2', 'Marker, 5'));
    expect(problems(m, 'error')).toEqual([
      { line: 4, message: expect.stringMatching(/argument ProcessId is static .* variable ProcessId is not defined/) },
    ]);
    expect(marksOf(m)).toEqual([]);
  });

  it('gives optional arguments missing from definition and variables their defaults', async () => {
    const m = await load(lines('@Marker, Time, ProcessId, ThreadId', '@RangePop, Time, ProcessId, ThreadId', 'Marker, 5, 1, 2'));
    expect(problems(m, 'error')).toEqual([]);
    expect(marksOf(m)).toEqual([{ name: '', time: 0, pid: 1, tid: 2, color: 0, category: 0, payload: undefined }]);
    expect(problems(m, 'info')).toEqual([{ line: 3, message: expect.stringContaining('no TimeBase given') }]);
  });

  it('checks the static argument types', async () => {
    const m = await load(lines('@Marker, Time', 'TimeBase = ns', 'ProcessId = one', 'ThreadId = 2', 'Marker, 5'));
    expect(problems(m, 'error')).toEqual([
      {
        line: 5,
        message: 'Marker: expected Integer for ProcessId (static, from variable ProcessId), got String "one"',
      },
    ]);
  });

  it('rejects bad definitions and keeps the previous one', async () => {
    const m = await load(
      lines(
        '@Marker, Time, Bogus',
        '@Marker, Time, Time',
        '@NameProcess, Time',
        '@Nothing, Time',
        '@marker, Time',
        '@',
        '@Marker, 5',
        'Marker, 1, ns, 1, 2, 0, 0, still_default, 0',
      ),
    );
    const errors = problems(m, 'error');
    expect(errors.map((e) => e.line)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(errors[0].message).toMatch(/"Bogus" is not an argument of Marker \(its arguments: Time, TimeBase/);
    expect(errors[1].message).toMatch(/argument Time appears twice/);
    expect(errors[2].message).toMatch(/"Time" is not an argument of NameProcess/);
    expect(errors[3].message).toMatch(/unknown command "Nothing"/);
    expect(errors[4].message).toMatch(/did you mean Marker\?/);
    expect(errors[5].message).toMatch(/must be followed by a command name/);
    expect(errors[6].message).toMatch(/expected an argument name, got Integer 5/);
    expect(marksOf(m).map((x) => x.name)).toEqual(['still_default']);
  });

  it('a definition with no arguments makes every argument static', async () => {
    const m = await load(
      lines('@SetFileDisplayName', 'Name = "from variable"', 'SetFileDisplayName', 'SetFileDisplayName, extra'),
    );
    expect(m.capture.displayName).toBe('from variable');
    expect(problems(m, 'error')).toEqual([
      { line: 4, message: 'SetFileDisplayName takes no values (all its arguments are static), got 1' },
    ]);
  });

  it('reports unknown commands and bad arity', async () => {
    const m = await load(
      lines(
        'Mark, 1, ns, 1, 2, 0, 0, x, 0',
        'rangepush, 1, ns, 1, 2, 0, 0, x, 0',
        'Marker, 1, ns, 1, 2, 0, 0, x',
        'RangePop, 1, ns, 1, 2, 3',
        'Marker, 1, ns, 1, 2, 0, 0, x, 0,',
        'Marker, 1, ns, 1, 2, 0,, x, 0',
        '42, 1',
        'Marker 1',
      ),
    );
    const errors = problems(m, 'error');
    expect(errors.map((e) => e.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(errors[0].message).toMatch(/unknown command "Mark" \(known: Marker, RangePush/);
    expect(errors[1].message).toMatch(/did you mean RangePush\?/);
    expect(errors[2].message).toBe(
      'Marker expects 8 values (Time, TimeBase, ProcessId, ThreadId, CategoryId, Color, Message, Payload), got 7',
    );
    expect(errors[3].message).toBe('RangePop expects 4 values (Time, TimeBase, ProcessId, ThreadId), got 5');
    expect(errors[4].message).toMatch(/value 9 is empty/);
    expect(errors[5].message).toMatch(/value 6 is empty/);
    expect(errors[6].message).toMatch(/starts with Integer 42/);
    expect(errors[7].message).toMatch(/expected ',' after the command name, found '1'/);
  });

  it('reports type errors naming the argument, the expected type and the value', async () => {
    const m = await load(
      lines(
        'Marker, soon, ns, 1, 2, 0, 0, x, 0',
        'Marker, 1, 5, 1, 2, 0, 0, x, 0',
        'Marker, 1, ns, 1, 2, 0, 0, 17, 0',
        'Marker, 1, ns, 1, 2, 0, 0, x, "7"',
        'NameCategory, "1", x',
      ),
    );
    expect(problems(m, 'error').map((e) => `${e.line} ${e.message}`)).toEqual([
      '1 Marker: expected Integer for Time (value 1), got String "soon"',
      '2 Marker: expected String for TimeBase (value 2), got Integer 5',
      '3 Marker: expected String for Message (value 7), got Integer 17',
      '4 Marker: expected Integer for Payload (value 8), got String "7"',
      '5 NameCategory: expected Integer for CategoryId (value 1), got String "1"',
    ]);
    expect(marksOf(m)).toEqual([]);
  });

  it('checks id ranges', async () => {
    const m = await load(
      lines(
        'Marker, 1, ns, 1, 2, -1, 0, x, 0',
        'Marker, 1, ns, 1, 2, 4294967296, 0, x, 0',
        'Marker, 1, ns, 9007199254740993, 2, 0, 0, x, 0',
        'Marker, 1, ns, -1, -2, 4294967295, 0, ok, 0',
      ),
    );
    expect(problems(m, 'error').map((e) => e.line)).toEqual([1, 2, 3]);
    expect(problems(m, 'error')[0].message).toMatch(/CategoryId must be between 0 and 4294967295, got -1/);
    expect(problems(m, 'error')[2].message).toMatch(/ProcessId 9007199254740993 is too large/);
    expect(marksOf(m)).toMatchObject([{ name: 'ok', pid: -1, tid: -2, category: 4294967295 }]);
  });
});

describe('NVTXT: events', () => {
  it('nests push/pop ranges written in any order (ranges written when they end)', async () => {
    const m = await load(
      lines(
        // inner range is complete before the outer one is written
        'RangePush, 20, ns, 1, 2, 0, 0, inner, 0',
        'RangePop, 30, ns, 1, 2',
        'RangePush, 10, ns, 1, 2, 0, 0, outer, 0',
        'RangePop, 50, ns, 1, 2',
        'RangePush, 60, ns, 1, 2, 0, 0, later, 0',
        'RangePop, 70, ns, 1, 2',
        'RangePush, 22, ns, 1, 2, 0, 0, innermost, 0',
        'RangePop, 25, ns, 1, 2',
      ),
    );
    expect(problems(m, 'error')).toEqual([]);
    expect(rangesOf(m).map((r) => [r.name, r.start, r.end, r.depth])).toEqual([
      ['outer', 0, 40, 0],
      ['inner', 10, 20, 1],
      ['innermost', 12, 15, 2],
      ['later', 50, 60, 0],
    ]);
  });

  it('keeps threads, processes and their names apart', async () => {
    const m = await load(
      lines(
        'NameProcess, 100, trainer',
        'NameOsThread, 100, 1, main',
        'NameOsThread, 100, 2, "worker 0"',
        'RangePush, 1, ns, 100, 1, 0, 0, a, 0',
        'RangePush, 2, ns, 100, 2, 0, 0, b, 0',
        'RangePop, 3, ns, 100, 2',
        'RangePop, 4, ns, 100, 1',
        'Marker, 5, ns, 200, 1, 0, 0, elsewhere, 0',
        'NameProcess, 200, loader',
      ),
    );
    expect(m.processes.map((p) => [p.pid, p.name])).toEqual([
      [100, 'trainer'],
      [200, 'loader'],
    ]);
    expect(m.threads.map((t) => [m.processes[t.process].pid, t.tid, t.name])).toEqual([
      [100, 1, 'main'],
      [100, 2, 'worker 0'],
      [200, 1, ''],
    ]);
    expect(rangesOf(m).map((r) => [r.name, r.tid, r.depth])).toEqual([
      ['a', 1, 0],
      ['b', 2, 0],
    ]);
    expect(marksOf(m)[0]).toMatchObject({ name: 'elsewhere', pid: 200, tid: 1 });
  });

  it('packs overlapping start/end ranges of a category row into lanes', async () => {
    const m = await load(
      lines(
        'NameCategory, 3, "I/O"',
        'RangeStartEnd, 0, 100, ns, 1, 2, 3, 0, "read a", 1',
        'RangeStartEnd, 50, 150, ns, 1, 5, 3, 0, "read b", 2',
        'RangeStartEnd, 120, 130, ns, 1, 2, 3, 0, "read c", 3',
      ),
    );
    expect(problems(m, 'error')).toEqual([]);
    const rows = rangesOf(m);
    expect(rows.map((r) => [r.name, r.start, r.end, r.depth, r.tid, r.category, r.payload])).toEqual([
      ['read a', 0, 100, 0, 2, 3, 1n],
      ['read b', 50, 150, 1, 5, 3, 2n],
      ['read c', 120, 130, 0, 2, 3, 3n],
    ]);
    const track = m.tracks.find((t) => t.kind === 'category')!;
    expect(track.label).toBe('I/O (3)');
  });

  it('warns (through the model) about a start/end range ending before it starts', async () => {
    const m = await load(lines('RangeStartEnd, 100, 50, ns, 1, 2, 0, 0, backwards, 0'));
    expect(problems(m, 'warning')).toEqual([{ line: 1, message: expect.stringMatching(/^range "backwards" on thread 2 ends \(-?\d+\) before it starts/) }]);
  });

  it('reports pops without push and pushes without pop at their lines', async () => {
    const m = await load(lines('RangePop, 5, ns, 1, 2', 'RangePush, 10, ns, 1, 2, 0, 0, open, 0', 'Marker, 20, ns, 1, 2, 0, 0, m, 0'));
    expect(problems(m, 'warning').map((w) => w.line)).toEqual([1, 2]);
  });

  it('names categories and links child categories, rejecting cycles', async () => {
    const m = await load(
      lines(
        'NameCategory, 1, Compute',
        'NameCategory, 2, "Compute / GEMM"',
        'AddChildCategory, 1, 2',
        'AddChildCategory, 2, 3',
        'AddChildCategory, 3, 1',
        'AddChildCategory, 2, 2',
        'NameCategory, 0, nothing',
        'AddChildCategory, 1, -4',
      ),
    );
    const byId = new Map(m.categories.map((c) => [c.id, c]));
    expect(byId.get(1)!.name).toBe('Compute');
    expect(byId.get(2)!.name).toBe('Compute / GEMM');
    expect(m.categories[byId.get(2)!.parent].id).toBe(1);
    expect(m.categories[byId.get(3)!.parent].id).toBe(2);
    expect(byId.get(1)!.parent).toBe(-1);
    expect(problems(m, 'error').map((e) => e.line)).toEqual([5, 6, 8]);
    expect(problems(m, 'error')[0].message).toMatch(/would make a cycle/);
    expect(problems(m, 'warning').map((e) => e.line)).toEqual([7]);
  });

  it('sets the file display name, which the capture row shows (category rows do not repeat it)', async () => {
    const m = await load(lines('SetFileDisplayName, "Training run 7"', 'Marker, 1, ns, 1, 2, 4, 0, x, 0'));
    expect(m.capture.displayName).toBe('Training run 7');
    expect(m.capture.fileName).toBe('t.nvtxt');
    expect(m.tracks.find((t) => t.kind === 'category')!.label).not.toContain('Training run 7');
  });

  it('gives ranges their source line (problems found later point at it)', async () => {
    const m = await load(lines('# c', 'RangePush, 10, ns, 1, 2, 0, 0, unclosed, 0', 'RangeStartEnd, 0, 20, ns, 1, 2, 0, 0, x, 0'));
    expect(issuesOf(m).some((s) => s.startsWith('warning@2:') && s.includes('"unclosed"'))).toBe(true);
  });
});

describe('NVTXT: colors', () => {
  it('accepts ARGB integers (unsigned and .NET signed), hex integers, hex strings and names in any case', async () => {
    const m = await load(
      lines(
        'Marker, 1, ns, 1, 2, 0, 4278190335, a, 0',
        'Marker, 2, ns, 1, 2, 0, -16776961, b, 0',
        'Marker, 3, ns, 1, 2, 0, 0xFF004488, c, 0',
        'Marker, 4, ns, 1, 2, 0, "0xff004488", d, 0',
        'Marker, 5, ns, 1, 2, 0, cornflowerblue, e, 0',
        'Marker, 6, ns, 1, 2, 0, "CORNFLOWERBLUE", f, 0',
        'Marker, 7, ns, 1, 2, 0, Transparent, g, 0',
        'Color = DarkOrange',
        '@Marker, Time, TimeBase, ProcessId, ThreadId, CategoryId, Message, Payload',
        'Marker, 8, ns, 1, 2, 0, h, 0',
      ),
    );
    expect(problems(m, 'warning')).toEqual([]);
    expect(marksOf(m).map((x) => x.color)).toEqual([
      0xff0000ff, 0xff0000ff, 0xff004488, 0xff004488, 0xff6495ed, 0xff6495ed, 0x00ffffff, 0xffff8c00,
    ]);
  });

  it('keeps the color and category of each event when one message comes with several', async () => {
    const m = await load(
      lines(
        'Marker, 1, ns, 1, 2, 0, Red, same, 0',
        'Marker, 2, ns, 1, 2, 0, Blue, same, 0',
        'Marker, 3, ns, 1, 2, 7, Blue, same, 0',
        'Marker, 4, ns, 1, 2, 0, Red, same, 0',
      ),
    );
    expect(marksOf(m).map((x) => [x.color, x.category])).toEqual([
      [0xffff0000, 0],
      [0xff0000ff, 0],
      [0xff0000ff, 7],
      [0xffff0000, 0],
    ]);
  });

  it('warns once per unknown color name or bad ARGB value; the events load without color', async () => {
    const m = await load(
      lines(
        'Marker, 1, ns, 1, 2, 0, Bleu, a, 0',
        'Marker, 2, ns, 1, 2, 0, Bleu, b, 0',
        'Marker, 3, ns, 1, 2, 0, "0xFF004488FF", c, 0',
        'Marker, 4, ns, 1, 2, 0, 0x1FF004488, d, 0',
        'Marker, 5, ns, 1, 2, 0, "0xGG", e, 0',
      ),
    );
    expect(marksOf(m).map((x) => [x.name, x.color])).toEqual([
      ['a', 0],
      ['b', 0],
      ['c', 0],
      ['d', 0],
      ['e', 0],
    ]);
    expect(problems(m, 'warning').map((w) => w.line)).toEqual([1, 3, 4, 5]);
    expect(problems(m, 'warning')[0].message).toMatch(/unknown color name "Bleu"/);
    expect(problems(m, 'warning')[1].message).toMatch(/"0xFF004488FF" is not a hexadecimal 32-bit ARGB/);
  });
});

describe('NVTXT: robustness', () => {
  it('loads everything valid around errors', async () => {
    const good = (t: number) => `Marker, ${t}, ns, 1, 2, 0, 0, m${t}, 0`;
    const m = await load(lines(good(1), 'garbage line here', good(2), '"', good(3), '@Bad', good(4)));
    expect(marksOf(m).map((x) => x.name)).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(problems(m, 'error').map((e) => e.line)).toEqual([2, 4, 6]);
  });

  it('lists the first problems of a kind, counts the rest, and stops building messages after 1000', async () => {
    const bad = Array.from({ length: 1005 }, () => 'Marker, x').join('\n');
    const m = await load(bad + '\nMarker, 1, ns, 1, 2, 0, 0, ok, 0\n');
    const errors = problems(m, 'error');
    // The model's issue list groups repeats (src/model/issueList.ts): ten listed, then a count.
    expect(errors.map((e) => e.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, undefined]);
    expect(errors[10].message).toMatch(/^and 990 more of this kind \(line 11 to line 1,000\): Marker expects # values/);
    expect(errors[11]).toEqual({
      line: undefined,
      message: '5 more problems on lines 1001..1005 are not listed one by one (only the first 1000 are)',
    });
    expect(marksOf(m)).toHaveLength(1);
  });

  it('loads two files independently: no shared variables, definitions or ids', async () => {
    const a = load(lines('@Marker, Time, Message', 'TimeBase = ns', 'ProcessId = 1', 'ThreadId = 1', 'X = 5', 'Marker, 1, fromA'), undefined, 'a.nvtxt');
    const b = load(lines('Marker, $X, ns, 1, 1, 0, 0, fromB, 0', 'Marker, 2, fromB'), undefined, 'b.nvtxt');
    const [ma, mb] = await Promise.all([a, b]);
    expect(problems(ma, 'error')).toEqual([]);
    expect(marksOf(ma).map((x) => x.name)).toEqual(['fromA']);
    expect(problems(mb, 'error').map((e) => [e.line, e.message.slice(0, 30)])).toEqual([
      [1, 'undefined variable $X (column '],
      [2, 'Marker expects 8 values (Time,'],
    ]);
    expect(mb.issues.every((i) => i.file === 'b.nvtxt')).toBe(true);
  });
});

describe('NVTXT: text encoding', () => {
  it('warns once about lines that are not UTF-8 and still loads them', async () => {
    const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
    const m = await load(latin1('Marker, 1, ns, 1, 2, 0, 0, "caf\u00e9", 0\nMarker, 2, ns, 1, 2, 0, 0, "na\u00efve", 0\n'));
    expect(marksOf(m).map((x) => x.name)).toEqual(['caf\ufffd', 'na\ufffdve']);
    expect(problems(m, 'warning')).toEqual([{ line: 1, message: expect.stringMatching(/^2 lines \(the first is this one\) hold bytes that could not be decoded/) }]);
  });
});

describe('NVTXT: UTF-16 files', () => {
  it('loads a UTF-16LE file with a BOM', async () => {
    const text = 'NameProcess, 1, "Prozeß"\r\nMarker, 5, ns, 1, 2, 0, Red, "größer", 0\r\n';
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes[0] = 0xff;
    bytes[1] = 0xfe;
    for (let i = 0; i < text.length; i++) {
      bytes[2 + 2 * i] = text.charCodeAt(i) & 0xff;
      bytes[3 + 2 * i] = text.charCodeAt(i) >> 8;
    }
    const m = await load(bytes);
    expect(m.issues).toEqual([]);
    expect(m.processes[0].name).toBe('Prozeß');
    expect(marksOf(m)).toMatchObject([{ name: 'größer', color: 0xffff0000 }]);
  });
});
