/**
 * End to end: builds the collector and the C test programs (make), runs each program under
 * nvtx-capture, decodes the capture with the same pipeline as the viewer, and compares the model
 * with the JSON lines the program printed about what it did (collector/tests/emit.h).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileSource } from '../../src/import/nodeSource.ts';
import { readFrames } from '../../src/import/native/chunks.ts';
import { Chunk } from '../../src/import/native/format.ts';
import { ByteReader } from '../../src/import/native/reader.ts';
import { loadBytes, markRows, rangeRows, type MarkRow, type RangeRow } from '../../testkit/load/nativeCapture.ts';
import { loadModel } from '../../src/import/pipeline.ts';
import { PayloadType, RangeFlag, type Model } from '../../src/model/types.ts';

const collector = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const build = join(collector, 'build');
const launcher = join(build, 'nvtx-capture');
let work = '';

interface Line {
  type: string;
  pid: number;
  tid: number;
  [key: string]: unknown;
}

interface Run {
  lines: Line[];
  stderr: string;
  status: number | null;
  path: string;
}

function run(program: string, args: string[], output: string, options: string[] = []): Run {
  const path = join(work, output);
  const result = spawnSync(launcher, [...options, '-o', path, '--', join(build, 'tests', program), ...args], {
    cwd: work,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const lines = result.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line);
  return { lines, stderr: result.stderr, status: result.status, path };
}

async function decode(path: string): Promise<Model> {
  const source = await fileSource(path);
  try {
    return await loadModel(source);
  } finally {
    await source.close();
  }
}

const PAYLOAD_CODES: Record<string, number> = {
  u64: PayloadType.U64,
  i64: PayloadType.I64,
  f64: PayloadType.F64,
  u32: PayloadType.U32,
  i32: PayloadType.I32,
  f32: PayloadType.F32,
};

function expectedPayload(p: unknown): string {
  if (p === null || p === undefined) return '-';
  const { type, value } = p as { type: string; value: string };
  const text = type === 'f64' || type === 'f32' ? String(Number(value)) : value;
  return `${PAYLOAD_CODES[type]}:${text}`;
}

function decodedPayload(row: RangeRow | MarkRow): string {
  return row.payloadType === undefined ? '-' : `${row.payloadType}:${String(row.payload)}`;
}

function sorted(keys: string[]): string[] {
  return [...keys].sort();
}

beforeAll(() => {
  const made = spawnSync('make', ['-s', '-C', collector, 'tests'], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`make -C collector tests failed:\n${made.stdout}\n${made.stderr}`);
  work = mkdtempSync(join(tmpdir(), 'nvtxcapture-test-'));
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('collector + decoder, end to end', () => {
  let result: Run;
  let model: Model;

  beforeAll(async () => {
    result = run('all_calls', [], 'all.nvtxc');
    model = await decode(result.path);
  });

  it('runs the program unchanged and reports the capture', () => {
    expect(result.status).toBe(0);
    const events = result.lines.find((l) => l.type === 'events')!.count;
    expect(result.stderr).toContain(`nvtx-capture: ${events} events from 5 threads in ${result.path}`);
    expect(model.issues).toEqual([]);
    expect(model.capture.properties.events).toBe(String(events));
    expect(model.capture.properties['NVTX linkage units']).toBe('3');
    expect(model.capture.properties['capture end']).toBe('normal exit');
    expect(model.processes[0].pid).toBe(result.lines[0].pid);
  });

  it('has every push/pop range with its nesting, domain, category, color and payload', () => {
    const expected = result.lines
      .filter((l) => l.type === 'range' && l.layout === 'pushpop')
      .map((l) => [l.tid, l.domain, l.name, l.depth, l.parent ?? '-', l.category, l.color, expectedPayload(l.payload)].join('|'));
    const decoded = rangeRows(model)
      .filter((r) => r.kind === 'pushpop')
      .map((r) => [r.tid, r.domain, r.name, r.depth, r.parent ?? '-', r.category, r.color, decodedPayload(r)].join('|'));
    expect(expected.length).toBeGreaterThan(150);
    expect(sorted(decoded)).toEqual(sorted(expected));
  });

  it('has every start/end range, the cross-thread one flagged with its end thread', () => {
    const ender = result.lines.find((l) => l.type === 'thread' && l.name === 'ender')!.tid;
    const expected = result.lines
      .filter((l) => l.type === 'range' && l.layout === 'startend')
      .map((l) => [l.tid, l.endTid === -1 ? ender : l.endTid, l.domain, l.name, l.category, l.color, expectedPayload(l.payload)].join('|'));
    const crossRows = new Map<number, number>();
    for (let k = 0; k < model.crossThreadEnds.range.length; k++) {
      crossRows.set(model.crossThreadEnds.range[k], model.threads[model.crossThreadEnds.thread[k]].tid);
    }
    const rows = rangeRows(model);
    const decoded: string[] = [];
    let index = 0;
    for (const track of model.tracks) {
      for (let i = track.rangeBegin; i < track.rangeEnd; i++, index++) {
        const r = rows[index];
        if (r.kind !== 'category') continue;
        const endTid = crossRows.get(i) ?? r.tid;
        if ((r.flags & RangeFlag.CrossThread) !== 0) expect(endTid).toBe(ender);
        decoded.push([r.tid, endTid, r.domain, r.name, r.category, r.color, decodedPayload(r)].join('|'));
      }
    }
    expect(sorted(decoded)).toEqual(sorted(expected));
  });

  it('keeps an extended payload given with a core event as its raw bytes', () => {
    const line = result.lines.find((l) => l.type === 'extpayload')!;
    const mark = markRows(model).findIndex((m) => m.name === line.name);
    const payload = model.marks.payload[mark];
    expect(model.payloads.type[payload]).toBe(PayloadType.Ext);
    const ext = model.extPayloads!;
    const row = new DataView(new ArrayBuffer(8));
    row.setFloat64(0, model.payloads.bits[payload], true);
    const head = row.getFloat64(0, true);
    expect(ext.schema[head]).toBe(line.schema);
    const bytes = ext.bytes.subarray(ext.offset[head], ext.offset[head] + ext.length[head]);
    expect(Buffer.from(bytes).toString('hex')).toBe(line.bytes);
    expect(ext.address[head]).toBeGreaterThan(0);
  });

  it('has every mark, including wide strings with non-ASCII text', () => {
    const expected = result.lines
      .filter((l) => l.type === 'mark' || l.type === 'extpayload')
      .map((l) => (l.type === 'mark' ? [l.tid, l.domain, l.name, l.category, l.color, expectedPayload(l.payload)] : [l.tid, '', l.name, 0, 0, `${PayloadType.Ext}:ext`]).join('|'));
    const decoded = markRows(model).map((m) =>
      [m.tid, m.domain, m.name, m.category, m.color, m.payloadType === PayloadType.Ext ? `${PayloadType.Ext}:ext` : decodedPayload(m)].join('|'),
    );
    expect(sorted(decoded)).toEqual(sorted(expected));
    expect(decoded.some((k) => k.includes('mark W größe ✓ 日本 🚀'))).toBe(true);
  });

  it('names threads (nvtxNameOsThread over the OS name, late OS renames), categories and resources', () => {
    for (const l of result.lines.filter((x) => x.type === 'thread')) {
      expect(model.threads.find((t) => t.tid === l.tid)?.name, `thread ${l.tid}`).toBe(l.name);
    }
    for (const l of result.lines.filter((x) => x.type === 'category')) {
      const c = model.categories.find((x) => x.id === l.id && model.domains[x.domain].name === l.domain);
      expect(c?.name, `category ${l.domain}/${l.id}`).toBe(l.name);
    }
    const expected = result.lines.filter((l) => l.type === 'resource').map((l) => `${l.kind}|${l.handle}|${l.name}`);
    const decoded = (model.resources ?? []).map((r) => `${r.kind}|${r.handle}|${r.name}`);
    expect(sorted(decoded)).toEqual(sorted(expected));
  });

  it('shows sync objects as acquire / held ranges on a row per object', () => {
    const expected = result.lines.filter((l) => l.type === 'sync').map((l) => `${l.object}|${l.name}|${l.tid}`);
    const decoded = rangeRows(model)
      .filter((r) => r.row.startsWith('Sync > '))
      .map((r) => `${r.row.split(' > ').pop()}|${r.name}|${r.tid}`);
    expect(sorted(decoded)).toEqual(sorted(expected));
  });

  it('keeps every complete chunk of a capture cut at random offsets', async () => {
    const bytes = new Uint8Array(readFileSync(result.path));
    // Event records per chunk end, from a verified scan of the whole file.
    const ends: { end: number; events: number }[] = [];
    const whole = (async function* () {
      yield bytes;
    })();
    for await (const frame of readFrames(whole, () => {}, () => {})) {
      let events = 0;
      if (frame.kind === Chunk.Events) {
        const r = new ByteReader(frame.body, 0, frame.body.length, 0);
        r.varint();
        r.varint();
        r.varintBig();
        r.varintBig();
        events = r.varint();
      }
      ends.push({ end: frame.offset + 12 + frame.body.length, events });
    }
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let k = 0; k < 40; k++) {
      const cut = 16 + Math.floor(random() * (bytes.length - 16));
      const cutModel = await loadBytes(bytes.slice(0, cut));
      const kept = ends.filter((e) => e.end <= cut).reduce((n, e) => n + e.events, 0);
      expect(cutModel.capture.properties.events, `cut at ${cut}`).toBe(String(kept));
      if (!ends.some((e) => e.end === cut)) {
        expect(cutModel.issues.some((i) => i.severity === 'error' && i.offset !== undefined)).toBe(true);
      }
    }
  });
});

describe('collector lifecycle', () => {
  it('writes a separate capture for a forked child, with the parent metadata it uses', async () => {
    const result = run('fork_child', [], 'fork.nvtxc');
    expect(result.status).toBe(0);
    const parentPid = result.lines.find((l) => l.type === 'range' && l.name === 'parent around fork')!.pid;
    const childPid = result.lines.find((l) => l.type === 'range' && l.name === 'child work')!.pid;
    const childPath = join(work, `fork.${childPid}.nvtxc`);
    expect(result.stderr).toContain(`nvtx-capture: process ${childPid} wrote 5 events to ${childPath}`);
    for (const [pid, path] of [
      [parentPid, result.path],
      [childPid, childPath],
    ] as const) {
      const model = await decode(path);
      const lines = result.lines.filter((l) => l.pid === pid);
      expect(model.issues).toEqual([]);
      expect(model.processes.map((p) => p.pid)).toEqual([pid]);
      expect(model.capture.properties.events).toBe(String(lines.find((l) => l.type === 'events')!.count));
      const expectedRanges = lines.filter((l) => l.type === 'range').map((l) => `${l.tid}|${l.name}|${l.depth}`);
      expect(sorted(rangeRows(model).map((r) => `${r.tid}|${r.name}|${r.depth}`))).toEqual(sorted(expectedRanges));
      const expectedMarks = lines.filter((l) => l.type === 'mark').map((l) => `${l.domain}|${l.name}|${l.category}`);
      expect(sorted(markRows(model).map((m) => `${m.domain}|${m.name}|${m.category}`))).toEqual(sorted(expectedMarks));
      expect(model.categories.find((c) => c.id === 3)?.name).toBe('shared category');
    }
    const child = await decode(childPath);
    expect(child.capture.properties['forked from pid']).toBe(String(parentPid));
    expect(child.threads.find((t) => t.name === 'child-worker')).toBeDefined();
  });

  it('decodes 16 threads x 200k ranges: as many ranges as the program emitted', async () => {
    const result = run('stress', ['16', '200000'], 'stress.nvtxc');
    expect(result.status).toBe(0);
    const lines = result.lines.filter((l) => l.type === 'stress');
    expect(lines.length).toBe(16);
    const model = await decode(result.path);
    expect(model.issues).toEqual([]);
    const emitted = lines.reduce((n, l) => n + (l.ranges as number), 0);
    expect(emitted).toBe(3_200_000);
    expect(model.ranges.startNs.length).toBe(emitted);
    const perThread = new Map<number, number>();
    for (let i = 0; i < model.ranges.thread.length; i++) {
      const tid = model.threads[model.ranges.thread[i]].tid;
      perThread.set(tid, (perThread.get(tid) ?? 0) + 1);
    }
    for (const l of lines) expect(perThread.get(l.tid)).toBe(l.ranges);
  }, 120_000);

  for (const [mode, signal, end] of [
    ['term', 15, 'signal 15 (SIGTERM)'],
    ['abort', 6, 'signal 6 (SIGABRT)'],
    ['segv', 11, 'signal 11 (SIGSEGV)'],
  ] as const) {
    it(`flushes every thread on ${mode} and lets the signal end the program`, async () => {
      const result = run('signals', [mode, '50000'], `signal-${mode}.nvtxc`, ['--buffer-kb', '64']);
      expect(result.status).toBe(128 + signal);
      const model = await decode(result.path);
      expect(model.capture.properties['capture end']).toBe(end);
      const main = result.lines[0];
      const mainRanges = rangeRows(model).filter((r) => r.tid === main.tid && r.name === 'main range');
      expect(mainRanges.length).toBe(main.ranges);
      expect(model.issues.filter((i) => i.severity === 'error')).toEqual([]);
    });
  }

  it('leaves a readable capture after kill -9, up to the last complete chunk', async () => {
    const result = run('signals', ['kill', '200000'], 'signal-kill.nvtxc', ['--buffer-kb', '64']);
    expect(result.status).toBe(137);
    // The kill can land between chunks (no end record) or inside a chunk's write (cut short);
    // either way the launcher says so and everything before is readable.
    expect(result.stderr).toMatch(/the capture has no end record|ends inside a chunk \(cut short\) at byte \d+/);
    const model = await decode(result.path);
    expect(model.capture.properties['capture end']).toBeUndefined();
    const main = result.lines[0];
    const kept = rangeRows(model).filter((r) => r.tid === main.tid && r.name === 'main range').length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(main.ranges as number);
  });

  it('keeps the program running with one message when the output cannot be written', () => {
    const result = run('stress', ['2', '1000'], 'missing-dir/x.nvtxc');
    expect(result.status).toBe(0);
    expect(result.lines.filter((l) => l.type === 'stress')).toHaveLength(2);
    const messages = result.stderr.split('\n').filter((l) => l.startsWith('nvtx-capture: cannot'));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('missing-dir/x.nvtxc');
    expect(existsSync(result.path)).toBe(false);
  });

  it('never overwrites an existing capture silently', () => {
    const path = join(work, 'exists.nvtxc');
    writeFileSync(path, 'keep me');
    const refused = run('fork_child', [], 'exists.nvtxc');
    expect(refused.status).toBe(2);
    expect(refused.lines).toEqual([]);
    expect(refused.stderr).toContain('exists; use -f to overwrite it');
    expect(readFileSync(path, 'utf8')).toBe('keep me');
    const forced = run('fork_child', [], 'exists.nvtxc', ['-f']);
    expect(forced.status).toBe(0);
    expect(readFileSync(path).subarray(0, 6).toString('latin1')).toBe('\x89NVTXC');
  });
});
