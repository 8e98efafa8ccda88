import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSink } from '../../testkit/gen/sink.ts';
import { writeNvtxt } from '../../testkit/gen/nvtxt.ts';
import { rangeStats } from '../analysis/rangeStats.ts';
import { loadFile } from './load.ts';
import { runCli as run } from '../../testkit/cli.ts';
import type { StatsRecord } from './stats.ts';

/** Two threads: step [1000,3000] > load [1100,1600]; step [4000,5500]; fetch (start/end) [2000,2600]. */
const SMALL = `# small capture
TimeBase = ClockMonotonicRaw
ProcessId = 7
NameProcess, 7, "app"
NameOsThread, 7, 1, "main"
NameOsThread, 7, 2, "io"
NameCategory, 3, "net"
@RangePush, Time, ThreadId, Message
@RangePop, Time, ThreadId
@Marker, Time, ThreadId, Message, Payload
@RangeStartEnd, Start, End, ThreadId, CategoryId, Color, Message
RangePush, 1000, 1, "step"
RangePush, 1100, 1, "load"
RangePop, 1600, 1
RangePop, 3000, 1
RangePush, 4000, 1, "step"
RangePop, 5500, 1
Marker, 4500, 1, "tick", 42
RangeStartEnd, 2000, 2600, 2, 3, Blue, "fetch"
`;

/** A start/end range that ends on another thread, in Chrome trace JSON. */
const CROSS = JSON.stringify({
  traceEvents: [
    { ph: 'b', cat: 'c', name: 'job', id: '1', pid: 1, tid: 10, ts: 1 },
    { ph: 'e', cat: 'c', name: 'job', id: '1', pid: 1, tid: 11, ts: 5.5 },
    { ph: 'M', name: 'thread_name', pid: 1, tid: 11, args: { name: 'finisher' } },
  ],
});

/** Two "InputLatency" ranges that end and one that never does; a "frame" push never popped. */
const OPEN = JSON.stringify({
  traceEvents: [
    { ph: 'b', cat: 'input', name: 'InputLatency', id: '1', pid: 1, tid: 10, ts: 1 },
    { ph: 'e', cat: 'input', name: 'InputLatency', id: '1', pid: 1, tid: 10, ts: 3 },
    { ph: 'b', cat: 'input', name: 'InputLatency', id: '2', pid: 1, tid: 10, ts: 4 },
    { ph: 'e', cat: 'input', name: 'InputLatency', id: '2', pid: 1, tid: 10, ts: 8 },
    { ph: 'b', cat: 'input', name: 'InputLatency', id: '3', pid: 1, tid: 10, ts: 9 },
    { ph: 'B', name: 'frame', pid: 1, tid: 10, ts: 2 },
    { ph: 'X', name: 'draw', pid: 1, tid: 10, ts: 5, dur: 1 },
    { ph: 'i', name: 'end', pid: 1, tid: 10, ts: 1000, s: 't' },
  ],
});

let dir: string;
const file = (name: string) => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'nvtxview-cli-'));
  writeFileSync(file('small.nvtxt'), SMALL);
  writeFileSync(file('small.nvtxt.gz'), gzipSync(SMALL));
  writeFileSync(file('cross.json'), CROSS);
  writeFileSync(file('open.json'), OPEN);
  writeFileSync(file('junk.bin'), Uint8Array.from({ length: 256 }, (_, i) => (i * 37 + 11) & 0xff));
  writeFileSync(file('empty.nvtxt'), '');
  // Six top-level keys nvtxview does not show (information), then a truncated event (an error).
  writeFileSync(file('cut.json'), '{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"traceEvents":[{"ph":"X","name":"ok","ts":0,"dur":1,"pid":1,"tid":1},{"ph":"X","name":"cu');
  writeFileSync(file('empty.bin'), '');
  writeFileSync(file('comments.nvtxt'), '# nothing but a comment\n');
  writeFileSync(file('escape.nvtxt'), 'RangePush, 1, ns, 1, 2, 0, 0, "\u001b]0;pwned\u0007red\u009b", 0\nRangePop, 5, ns, 1, 2\n');
  const sink = new FileSink(file('generated.nvtxt'));
  writeNvtxt(sink, { events: 3000, seed: 9, threads: 4 });
  sink.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));


describe('the load report on stderr', () => {
  it('gives the counts by severity and lists errors before information', async () => {
    const r = await run('stats', file('cut.json'));
    expect(r.status).toBe(0);
    const lines = r.err.split('\n');
    expect(lines[0]).toBe(`${file('cut.json')}: 1 error(s), 0 warning(s), 6 info while loading:`);
    expect(lines[1]).toMatch(/^  error: line 1: the file ends inside an event /);
    expect(lines[2]).toMatch(/: top-level "a" \(1 bytes\) is not shown$/);
    expect(lines[6]).toBe('  ... and 2 more');
    expect(r.out).toContain('ok');
  });
});

describe('nvtxview stats', () => {
  it('prints per-name rows as JSON with integer nanoseconds', async () => {
    const { status, out, err } = await run('stats', '--json', file('small.nvtxt'));
    expect(err).toBe('');
    expect(status).toBe(0);
    const rows = JSON.parse(out) as StatsRecord[];
    expect(rows.map((r) => [r.name, r.style, r.count, r.totalNs])).toEqual([
      ['step', 'PushPop', 2, 3500],
      ['fetch', 'StartEnd', 1, 600],
      ['load', 'PushPop', 1, 500],
    ]);
    const step = rows[0];
    expect(step).toMatchObject({ file: file('small.nvtxt'), groupBy: 'name', domain: '', minNs: 1500, maxNs: 2000, medianNs: 1750, avgNs: 1750, selfNs: 3000 });
    expect(step.stdDevNs).toBeCloseTo(353.553, 3);
    expect(step.timePercent).toBeCloseTo((100 * 3500) / 4600, 3);
    for (const key of ['totalNs', 'minNs', 'maxNs', 'selfNs'] as const) expect(Number.isInteger(step[key])).toBe(true);
  });

  it('agrees with the statistics engine on a generated capture', async () => {
    const { status, out } = await run('stats', '--format', 'json', file('generated.nvtxt'));
    expect(status).toBe(0);
    const rows = JSON.parse(out) as StatsRecord[];
    const engine = rangeStats(await loadFile(file('generated.nvtxt')));
    expect(rows.length).toBe(engine.rows.length);
    expect(rows.reduce((a, r) => a + r.count, 0)).toBe(engine.rangeCount);
    expect(rows.map((r) => r.totalNs)).toEqual(engine.rows.map((r) => r.totalNs));
  });

  it('prints a table with human durations, and CSV', async () => {
    const table = await run('stats', file('small.nvtxt'));
    expect(table.status).toBe(0);
    const lines = table.out.split('\n');
    expect(lines[0]).toContain('4 ranges, whole capture');
    expect(lines[1]).toMatch(/^Time \(%\)\s+Total Time\s+Instances\s+Avg\s+Med\s+Min\s+Max\s+StdDev\s+P90\s+P99\s+Self\s+Style\s+Range$/);
    expect(lines[3]).toMatch(/^\s+76\.1%\s+3\.500 µs\s+2\s+1\.750 µs\s+1\.750 µs\s+1\.500 µs\s+2\.000 µs\s+353\.6 ns\s+.*PushPop\s+step$/);
    const csv = await run('stats', '--format', 'csv', file('small.nvtxt'));
    const [header, first] = csv.out.split('\n');
    expect(header).toBe('file,groupBy,name,domain,style,count,unended,totalNs,selfNs,avgNs,medianNs,minNs,maxNs,stdDevNs,p90Ns,p99Ns,timePercent');
    expect(first).toBe(`${file('small.nvtxt')},name,step,,PushPop,2,0,3500,3000,1750,1750,1500,2000,353.553,1950,1995,76.087`);
  });

  it('keeps ranges that never ended out of every figure and counts them apart', async () => {
    const json = await run('stats', '--json', file('open.json'));
    expect(json.err).toContain('never ended; closed at the end of the capture');
    const rows = JSON.parse(json.out) as StatsRecord[];
    const latency = rows.find((r) => r.name === 'InputLatency')!;
    expect(latency).toMatchObject({ count: 2, unended: 1, totalNs: 6000, maxNs: 4000, avgNs: 3000 });
    // A name with no instance that ended: a row with its count and no figures.
    expect(rows.find((r) => r.name === 'frame')).toMatchObject({ count: 0, unended: 1, totalNs: 0, avgNs: null, maxNs: null, p99Ns: null });
    const table = (await run('stats', file('open.json'))).out.split('\n');
    expect(table[0]).toContain('3 ranges (and 2 never ended, counted apart and in no figure)');
    expect(table[1]).toMatch(/Instances\s+Unended\s+Avg/);
    expect(table.find((l) => l.endsWith('frame'))).toMatch(/^\s+-\s+-\s+0\s+1\s+-\s+-/);
    const csv = (await run('stats', '--format', 'csv', file('open.json'))).out.split('\n');
    expect(csv.find((l) => l.includes(',InputLatency,'))).toContain(',2,1,6000,');
  });

  it('restricts to --from/--to (with units) and to the instances of --range', async () => {
    // Times count from the first event (1000 ns in the file).
    const span = JSON.parse((await run('stats', '--json', '--from', '1us', '--to', '2.5us', file('small.nvtxt'))).out) as StatsRecord[];
    expect(span.map((r) => [r.name, r.totalNs])).toEqual([['step', 1000], ['fetch', 600]]);
    const whole = JSON.parse((await run('stats', '--json', '--from', '1us', '--to', '2500', '--mode', 'overlap', file('small.nvtxt'))).out) as StatsRecord[];
    expect(whole.map((r) => [r.name, r.totalNs])).toEqual([['step', 2000], ['fetch', 600]]);
    const inStep = JSON.parse((await run('stats', '--json', '--range', 'load', file('small.nvtxt'))).out) as StatsRecord[];
    expect(inStep.map((r) => [r.name, r.totalNs])).toEqual([['load', 500], ['step', 500]]);
    const missing = await run('stats', '--range', 'nope@', file('small.nvtxt'));
    expect(missing.status).toBe(1);
    expect(missing.err).toContain(`${file('small.nvtxt')}: no range named "nope@"`);
  });

  it('groups by thread and reads gzip files', async () => {
    const rows = JSON.parse((await run('stats', '--json', '--group-by', 'thread', file('small.nvtxt.gz'))).out) as StatsRecord[];
    expect(rows.map((r) => [r.name, r.count, r.domain])).toEqual([['main (1)', 3, null], ['io (2)', 1, null]]);
    const table = (await run('stats', '--group-by', 'thread', file('small.nvtxt.gz'))).out.split('\n');
    expect(table[1]).toMatch(/\sStyle\s+Thread$/);
  });

  it('fails clearly on unreadable or undecodable files and keeps going with the others', async () => {
    const r = await run('stats', '--json', file('missing.nvtxt'), file('junk.bin'), file('empty.bin'), file('small.nvtxt'), dir);
    expect(r.status).toBe(1);
    expect(r.err).toContain(`nvtxview: ${file('missing.nvtxt')}: no such file`);
    expect(r.err).toContain(`nvtxview: ${file('junk.bin')}: not a format nvtxview knows`);
    expect(r.err).toContain(`nvtxview: ${file('empty.bin')}: the file is empty`);
    expect(r.err).toContain(`nvtxview: ${dir}: not a regular file`);
    expect((JSON.parse(r.out) as StatsRecord[]).length).toBe(3);
  });

  it('fails an empty file of any format with status 1 (issue 16), and says when a file decodes to nothing', async () => {
    const r = await run('stats', '--json', file('empty.nvtxt'));
    expect(r.status).toBe(1);
    expect(r.err).toBe(`nvtxview: ${file('empty.nvtxt')}: the file is empty\n`);
    expect(JSON.parse(r.out)).toEqual([]);
    const comments = await run('stats', '--json', file('comments.nvtxt'));
    expect(comments.status).toBe(0);
    expect(comments.err).toBe(`${file('comments.nvtxt')}: no events\n`);
  });

  it('prints names with terminal escape codes neutralised in tables', async () => {
    const r = await run('stats', file('escape.nvtxt'));
    expect(r.status).toBe(0);
    expect(r.out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(r.out).toContain('\\x1b]0;pwned\\x07red');
  });

  it('reports bad usage with status 2', async () => {
    expect((await run('stats', '--group-by', 'colour', 'x')).status).toBe(2);
    expect((await run('stats', '--from', 'soon', 'x')).err).toContain('--from: "soon" is not a duration');
    expect((await run('stats')).err).toContain('give at least one capture file');
    expect((await run('frobnicate')).err).toContain('unknown command "frobnicate"');
    expect((await run('stats', '--bogus', 'x')).status).toBe(2);
    const help = await run('--help');
    expect(help.status).toBe(0);
    expect(help.out).toContain('Usage: nvtxview <command>');
  });
});

describe('nvtxview events', () => {
  it('lists every range and mark as JSON in time order', async () => {
    const { status, out } = await run('events', '--json', file('small.nvtxt'));
    expect(status).toBe(0);
    const events = JSON.parse(out) as Record<string, unknown>[];
    expect(events.map((e) => [e.kind, e.name, e.startNs, e.endNs])).toEqual([
      ['pushpop', 'step', 0, 2000],
      ['pushpop', 'load', 100, 600],
      ['startend', 'fetch', 1000, 1600],
      ['pushpop', 'step', 3000, 4500],
      ['mark', 'tick', 3500, 3500],
    ]);
    expect(events[2]).toMatchObject({ tid: 2, threadName: 'io', pid: 7, processName: 'app', category: 3, categoryName: 'net', color: '#FF0000FF', domain: '' });
    expect(events[4]).toMatchObject({ payload: 42, depth: null });
    expect(events[2].endTid).toBeUndefined();
  });

  it('names the end thread of a cross-thread range, and writes CSV', async () => {
    const events = JSON.parse((await run('events', '--json', file('cross.json'))).out) as Record<string, unknown>[];
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'startend', name: 'job', tid: 10, endTid: 11, endThreadName: 'finisher', durationNs: 4500 });
    const csv = (await run('events', '--format', 'csv', file('small.nvtxt'))).out.split('\n');
    expect(csv[0]).toBe('file,kind,name,domain,startNs,endNs,durationNs,depth,tid,threadName,pid,processName,category,categoryName,color,payload,unterminated,endTid,endThreadName,value,unit,counter,noValue,valueType,runningTotal,row,correlationId,device,deviceName,context,contextName,stream,streamName');
    expect(csv).toHaveLength(7);
    expect((await run('events', file('small.nvtxt'))).status).toBe(2);
  });

  it('writes an empty array when every file fails', async () => {
    const r = await run('events', '--json', file('missing.nvtxt'));
    expect(r.status).toBe(1);
    expect(JSON.parse(r.out)).toEqual([]);
  });
});

describe('the nvtxview bin', () => {
  it('runs the CLI through tsx as a real process', async () => {
    const bin = resolve(__dirname, '../../scripts/nvtxview.mjs');
    const { stdout } = await promisify(execFile)(process.execPath, [bin, 'stats', '--json', file('small.nvtxt')]);
    expect((JSON.parse(stdout) as StatsRecord[]).map((r) => r.name)).toEqual(['step', 'fetch', 'load']);
    const failed = await promisify(execFile)(process.execPath, [bin, 'stats', file('missing.nvtxt')]).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain('no such file');
  });
});
