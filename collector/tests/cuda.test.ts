/**
 * The collector's CUDA side without a GPU (docs/capture-format.md, section 10): builds the collector
 * with the toolkit's CUPTI headers and runs, under nvtx-capture,
 * - an NVTX program and a CUDA runtime program on this machine (no driver): NVTX recorded exactly,
 *   one line saying why CUDA is not recorded (only for the program that loaded CUDA), exit status
 *   passed through; `--no-cuda` and `--cupti /nonexistent`; a collector built without CUPTI;
 * - a program that plays the driver against a stand-in libcupti (tests/cuda/fake_cupti.c), in both
 *   attach orders: every API call, context, stream, kernel, copy, set, synchronisation, clock pair
 *   and dropped count it reported is in the capture, read here byte by byte from the format's text;
 * - the activity encoder on fabricated CUPTI records, field by field.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../testkit/cli.ts';
import type { StatsRecord } from '../../src/cli/stats.ts';
import { fileSource } from '../../src/import/nodeSource.ts';
import { loadModel } from '../../src/import/pipeline.ts';
import type { Model } from '../../src/model/types.ts';
import { markRows, rangeRows } from '../../testkit/load/nativeCapture.ts';

const collector = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const build = join(collector, 'build');
const launcher = join(build, 'nvtx-capture');
const cudaTests = join(build, 'tests', 'cuda');
const cuptiStatus = spawnSync('make', ['-s', '-C', collector, 'cupti-status'], { encoding: 'utf8' }).stdout.trim();
const withCupti = cuptiStatus.startsWith('cupti ');
let work = '';

interface Run {
  stdout: string;
  stderr: string;
  status: number | null;
  path: string;
}

function capture(program: string, args: string[], output: string, options: string[] = [], lib = launcher, extraEnv: Record<string, string> = {}): Run {
  const path = join(work, output);
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.CUDA_INJECTION64_PATH;
  delete env.NVTXCAPTURE_CUPTI;
  Object.assign(env, extraEnv);
  const result = spawnSync(lib, [...options, '-f', '-o', path, '--', program, ...args], {
    cwd: work,
    encoding: 'utf8',
    timeout: 120_000,
    env,
  });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status, path };
}

async function decode(path: string): Promise<Model> {
  const source = await fileSource(path);
  try {
    return await loadModel(source);
  } finally {
    await source.close();
  }
}

/** `nvtxview stats --json --kind KIND FILE`: the rows and what it said on stderr. */
async function statsOf(kind: string, path: string): Promise<{ rows: StatsRecord[]; err: string }> {
  const { status, out, err } = await runCli('stats', '--json', '--kind', kind, path);
  expect(status).toBe(0);
  return { rows: JSON.parse(out) as StatsRecord[], err };
}

const countOf = (rows: StatsRecord[]) => rows.reduce((n, r) => n + r.count, 0);

const reasonLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('nvtx-capture: CUDA not recorded:'));

// ---------------------------------------------------------------- a reader of the CUDA records, from the format's text

class Bytes {
  constructor(
    readonly b: Uint8Array,
    public at = 0,
    readonly end = b.length,
  ) {}
  get done(): boolean {
    return this.at >= this.end;
  }
  u8(): number {
    if (this.at >= this.end) throw new Error(`read past the end at ${this.at}`);
    return this.b[this.at++];
  }
  varint(): bigint {
    let v = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const c = this.u8();
      v |= BigInt(c & 0x7f) << shift;
      if ((c & 0x80) === 0) return v;
    }
  }
  num(): number {
    return Number(this.varint());
  }
  svarint(): bigint {
    const z = this.varint();
    return (z >> 1n) ^ -(z & 1n);
  }
  str(): string {
    const n = this.num();
    const s = new TextDecoder().decode(this.b.subarray(this.at, this.at + n));
    this.at += n;
    return s;
  }
  sub(n: number): Bytes {
    const s = new Bytes(this.b, this.at, this.at + n);
    this.at += n;
    return s;
  }
}

interface ApiRecord {
  tick: bigint;
  domain: number;
  callback: number;
  duration: number;
  correlation: number;
  flags: number;
  stream: bigint;
  result: number;
  /** Index of the chunk that held it (file order). */
  chunk: number;
}

interface Capture {
  startTick: bigint;
  startNs: bigint;
  tickRate: number;
  pushes: number;
  api: ApiRecord[];
  /** (domain, callback) -> [name, chunk index of its definition]. */
  names: Map<string, [string, number]>;
  nameDefinitions: number;
  devices: { device: number; name: string; major: number; minor: number; memory: number; sms: number }[];
  resources: { event: number; device: number; context: number; stream: number; contextHandle: bigint; streamHandle: bigint; flags: number }[];
  clocks: { tick: bigint; cupti: bigint; width: number }[];
  dropped: Map<number, number>;
  statuses: { state: number; cupti: number; text: string }[];
  activity: Record<string, number | bigint | string | number[]>[];
  /** Distinct kernel names (mangled -> demangled), from the chunk-local definitions. */
  kernelNames: Map<string, string>;
  end: Map<number, bigint[]>;
}

const CHUNK_META = 2;
const CHUNK_EVENTS = 3;
const CHUNK_END = 4;
const CHUNK_PROCESS = 1;
const CHUNK_CUDA_ACTIVITY = 7;

/** A CUDA_ACTIVITY record body (section 10.3), in the field names of the spec. */
function activityRecord(kind: number, r: Bytes, base: bigint): Record<string, number | bigint | string | number[]> {
  if (kind === 1) return { kind, id: r.num(), mangled: r.str(), demangled: r.str() };
  const work = {
    kind,
    start: Number(r.svarint()),
    duration: r.num(),
    device: r.num(),
    context: r.num(),
    stream: r.num(),
    correlation: r.num(),
    absoluteStart: 0n,
  };
  work.absoluteStart = base + BigInt(work.start);
  if (kind === 2) {
    return {
      ...work,
      name: r.num(),
      grid: [r.num(), r.num(), r.num()],
      block: [r.num(), r.num(), r.num()],
      registers: r.num(),
      staticShared: r.num(),
      dynamicShared: r.num(),
    };
  }
  if (kind === 3) {
    return {
      ...work,
      copyKind: r.num(),
      srcKind: r.num(),
      dstKind: r.num(),
      bytes: r.num(),
      flags: r.num(),
      srcDevice: r.num(),
      dstDevice: r.num(),
    };
  }
  if (kind === 4) return { ...work, bytes: r.num(), value: r.num(), memoryKind: r.num(), flags: r.num() };
  if (kind === 5) return { ...work, type: r.num(), event: r.num() };
  throw new Error(`unknown activity record kind ${kind}`);
}

/** Decodes the records of a CUDA_ACTIVITY body (without its pair and base). */
function activityRecords(r: Bytes, base: bigint): Record<string, number | bigint | string | number[]>[] {
  const out = [];
  while (!r.done) {
    const kind = r.u8();
    const body = r.sub(r.num());
    out.push(activityRecord(kind, body, base));
    expect(body.done, `record of kind ${kind} has bytes the spec does not define`).toBe(true);
  }
  return out;
}

/** Reads what the CUDA side wrote, with the NVTX pushes (all the simulated threads make). */
function readCapture(path: string): Capture {
  const file = new Uint8Array(readFileSync(path));
  const c: Capture = {
    startTick: 0n,
    startNs: 0n,
    tickRate: 0,
    pushes: 0,
    api: [],
    names: new Map(),
    nameDefinitions: 0,
    resources: [],
    devices: [],
    clocks: [],
    dropped: new Map(),
    statuses: [],
    activity: [],
    kernelNames: new Map(),
    end: new Map(),
  };
  const streamEnd = new Map<number, number>();
  let at = 16;
  let chunk = 0;
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  while (at + 12 <= file.length) {
    const length = view.getUint32(at, true);
    const kind = view.getUint16(at + 4, true);
    const r = new Bytes(file, at + 12, at + 12 + length);
    chunk++;
    if (kind === CHUNK_PROCESS) {
      while (!r.done) {
        const tag = r.num();
        const v = r.sub(r.num());
        if (tag === 8) [c.startTick, c.startNs] = [v.varint(), v.varint()];
        if (tag === 9) c.tickRate = v.num();
      }
    } else if (kind === CHUNK_META) {
      r.varint();
      r.varint();
      while (!r.done) {
        const op = r.u8();
        const body = r.sub(r.num());
        const dt = body.svarint();
        body.num();
        if (op === 23) {
          const key = `${body.num()}/${body.num()}`;
          c.nameDefinitions++;
          if (!c.names.has(key)) c.names.set(key, [body.str(), chunk]);
        } else if (op === 24) {
          c.resources.push({
            event: body.num(),
            device: body.num(),
            context: body.num(),
            stream: body.num(),
            contextHandle: body.varint(),
            streamHandle: body.varint(),
            flags: body.num(),
          });
        } else if (op === 28) {
          c.devices.push({ device: body.num(), name: body.str(), major: body.num(), minor: body.num(), memory: body.num(), sms: body.num() });
        } else if (op === 25) {
          c.clocks.push({ tick: c.startTick + dt, cupti: body.varint(), width: body.num() });
        } else if (op === 26) {
          const cause = body.num();
          body.num();
          body.num();
          c.dropped.set(cause, (c.dropped.get(cause) ?? 0) + body.num());
        } else if (op === 27) {
          const state = body.num();
          const cupti = body.num();
          body.num();
          c.statuses.push({ state, cupti, text: body.str() });
        }
      }
    } else if (kind === CHUNK_EVENTS) {
      const stream = r.num();
      const offset = r.num();
      r.varint();
      r.varint();
      r.varint();
      const seen = streamEnd.get(stream) ?? 0;
      const stop = offset + (r.end - r.at);
      if (stop > seen) {
        r.at += seen - offset;
        streamEnd.set(stream, stop);
        while (!r.done) {
          const op = r.u8();
          if (op === 0x01) [r.num(), r.str()];
          else if (op === 0x02) [r.num(), r.str()];
          else if (op === 0x03) r.str();
          else if (op === 0x10) [r.svarint(), r.num(), c.pushes++];
          else if (op === 0x11) r.svarint();
          else if (op === 0x12) [r.svarint(), r.num()];
          else if (op === 0x44) {
            const body = r.sub(r.num());
            c.api.push({
              tick: c.startTick + body.svarint(),
              domain: body.num(),
              callback: body.num(),
              duration: body.num(),
              correlation: body.num(),
              flags: body.num(),
              stream: body.varint(),
              result: body.num(),
              chunk,
            });
            expect(body.done).toBe(true);
          } else throw new Error(`thread record 0x${op.toString(16)} in ${path}: not one the test programs make`);
        }
      }
    } else if (kind === CHUNK_CUDA_ACTIVITY) {
      r.varint();
      r.varint();
      const base = r.varint();
      // Name ids are local to the chunk: 1, 2, 3 ... each defined once, before its first use.
      const local = new Map<number, string>();
      for (const record of activityRecords(r, base)) {
        if (record.kind === 1) {
          expect(record.id, 'kernel name ids in a chunk count 1, 2, 3 ...').toBe(local.size + 1);
          local.set(record.id as number, record.mangled as string);
          c.kernelNames.set(record.mangled as string, record.demangled as string);
        } else {
          if (record.kind === 2) {
            expect(local.has(record.name as number), 'a kernel name used before its definition in the chunk').toBe(true);
            record.kernel = local.get(record.name as number)!;
          }
          c.activity.push(record);
        }
      }
    } else if (kind === CHUNK_END) {
      while (!r.done) {
        const tag = r.num();
        const v = r.sub(r.num());
        const values: bigint[] = [];
        while (!v.done) values.push(v.varint());
        c.end.set(tag, values);
      }
    }
    at += 12 + length;
  }
  expect(at, `${path} ends inside a chunk`).toBe(file.length);
  return c;
}

// ---------------------------------------------------------------- the runs

beforeAll(() => {
  const made = spawnSync('make', ['-s', '-C', collector, 'tests'], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`make -C collector tests failed:\n${made.stdout}\n${made.stderr}`);
  work = mkdtempSync(join(tmpdir(), 'nvtxcapture-cuda-'));
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.runIf(withCupti)('collector built with CUPTI, on a machine without a GPU', () => {
  it('records an NVTX program as before, with no word about CUDA (it never loaded CUDA)', async () => {
    const run = capture(join(build, 'tests', 'stress'), ['2', '1000'], 'nvtx-only.nvtxc');
    expect(run.status).toBe(0);
    expect(run.stderr).not.toContain('CUDA');
    const model = await decode(run.path);
    expect(model.issues).toEqual([]);
    expect(rangeRows(model)).toHaveLength(2000);
    expect(readCapture(run.path).statuses).toEqual([]);
  });

  it('records NVTX of a CUDA runtime program with no driver, says once why CUDA is not, keeps its exit status', async () => {
    const run = capture(join(cudaTests, 'runtime_nodevice'), ['3'], 'nodevice.nvtxc');
    expect(run.status).toBe(3);
    const said = JSON.parse(run.stdout) as { ranges: number; marks: number; cudaGetDeviceCount: number };
    expect(said.cudaGetDeviceCount).not.toBe(0);
    const lines = reasonLines(run.stderr);
    expect(lines).toEqual([
      'nvtx-capture: CUDA not recorded: no CUDA driver: the program loaded the CUDA runtime, but libcuda.so.1 is not there (no NVIDIA driver); NVTX is recorded',
    ]);
    const model = await decode(run.path);
    expect(rangeRows(model)).toHaveLength(said.ranges);
    expect(markRows(model)).toHaveLength(said.marks);
    const statuses = readCapture(run.path).statuses;
    expect(statuses).toHaveLength(1);
    expect(statuses[0].state).toBe(2);
    expect(lines[0]).toContain(statuses[0].text);
  });

  it('--no-cuda: no line, the capture says CUDA was turned off', async () => {
    const run = capture(join(cudaTests, 'runtime_nodevice'), ['0'], 'nocuda.nvtxc', ['--no-cuda']);
    expect(run.status).toBe(0);
    expect(run.stderr).not.toContain('CUDA not recorded');
    expect(readCapture(run.path).statuses).toEqual([{ state: 2, cupti: 0, text: '--no-cuda' }]);
    const said = JSON.parse(run.stdout) as { ranges: number };
    expect(rangeRows(await decode(run.path))).toHaveLength(said.ranges);
  });

  it('leaves CUDA_INJECTION64_PATH of another tool alone and says once that CUDA is not recorded', async () => {
    const run = capture(join(cudaTests, 'runtime_nodevice'), ['5'], 'othertool.nvtxc', [], launcher, {
      CUDA_INJECTION64_PATH: '/opt/other-tool/libinject.so',
    });
    expect(run.status).toBe(5);
    expect(reasonLines(run.stderr)).toEqual([
      'nvtx-capture: CUDA not recorded: CUDA_INJECTION64_PATH is set to /opt/other-tool/libinject.so (another tool); NVTX is recorded',
    ]);
    expect(readCapture(run.path).statuses).toEqual([{ state: 2, cupti: 0, text: "CUDA_INJECTION64_PATH names another tool's library" }]);
  });

  it('--cupti with a path that does not exist is refused before the program runs', () => {
    const run = capture(join(cudaTests, 'runtime_nodevice'), ['0'], 'badcupti.nvtxc', ['--cupti', '/nonexistent/libcupti.so']);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('nvtx-capture: --cupti /nonexistent/libcupti.so: No such file or directory');
  });

  it.each(['nvtx-first', 'cuda-first'])(
    'attached by the driver (%s) with the real libcupti and no driver: CUPTI refuses, said once, NVTX kept',
    async (order) => {
      const run = capture(join(cudaTests, 'fake_driver'), [order, '4'], `realcupti-${order}.nvtxc`);
      expect(run.status).toBe(4);
      const said = JSON.parse(run.stdout) as { ranges: number; marks: number; init: number[] };
      expect(said.init).toEqual([1, 1]);
      const lines = reasonLines(run.stderr);
      expect(lines).toHaveLength(1);
      const model = await decode(run.path);
      expect(rangeRows(model)).toHaveLength(said.ranges);
      expect(markRows(model)).toHaveLength(said.marks);
      const statuses = readCapture(run.path).statuses;
      expect(statuses).toHaveLength(1);
      expect(lines[0]).toContain(statuses[0].text);
    },
  );

  it('--cupti naming a directory without libcupti: said once, NVTX kept', async () => {
    const run = capture(join(cudaTests, 'fake_driver'), ['cuda-first', '0'], 'emptydir.nvtxc', ['--cupti', work]);
    expect(run.status).toBe(0);
    expect(reasonLines(run.stderr)).toEqual([
      `nvtx-capture: CUDA not recorded: ${work} (--cupti) is not a libcupti nor a directory that holds one; NVTX is recorded`,
    ]);
  });
});

describe.runIf(withCupti)('CUDA records, with a stand-in libcupti playing the GPU', () => {
  const fake = join(cudaTests, 'libfakecupti.so');

  it.each([
    ['cuda-first', 4, 150],
    ['nvtx-first', 3, 101],
  ])('%s, %i threads x %i iterations: every call, resource, kernel, copy, set, sync, pair and drop', async (order, threads, iterations) => {
    const run = capture(join(cudaTests, 'cuda_sim'), [order, String(threads), String(iterations), '6'], `sim-${order}.nvtxc`, [
      '--cupti',
      fake,
    ]);
    expect(run.stderr).not.toContain('CUDA not recorded');
    expect(run.status).toBe(6);
    const said = JSON.parse(run.stdout) as Record<string, number>;
    const c = readCapture(run.path);

    // Recording started once, from the stand-in.
    expect(c.statuses).toHaveLength(1);
    expect(c.statuses[0]).toMatchObject({ state: 1, cupti: 130001 });
    expect(c.statuses[0].text).toBe(`CUPTI from ${fake}`);
    expect(c.pushes).toBe(said.ranges);

    // API calls: each once, names defined once per id before use, streams of the calls that take one.
    expect(c.api).toHaveLength(said.apiCalls);
    expect(c.api.filter((a) => a.flags === 1)).toHaveLength(said.streamApiCalls);
    expect(new Set(c.api.map((a) => a.correlation)).size).toBe(said.apiCalls);
    for (const a of c.api) {
      const name = c.names.get(`${a.domain}/${a.callback}`);
      expect(name, `name of ${a.domain}/${a.callback}`).toBeDefined();
      expect(name![1]).toBeLessThan(a.chunk);
      if (a.flags === 1) expect([0x200n, 0x300n, 2n]).toContain(a.stream);
      else expect(a.stream).toBe(0n);
      expect(a.result).toBe(0);
    }
    expect(c.nameDefinitions).toBe(c.names.size);
    expect([...c.names.values()].map((n) => n[0]).sort()).toEqual(
      ['api_2_17', 'api_2_214', 'cuLaunchKernel', 'cudaLaunchKernel_v7000', 'cudaMemcpyAsync_v3020', 'cudaMemsetAsync_v3020', 'cudaStreamSynchronize_v3020'].sort(),
    );
    // A driver launch inside each runtime launch: the driver record ends no later than the runtime one.
    const launches = c.api.filter((a) => a.domain === 2 && a.callback === 211);
    const driverLaunches = c.api.filter((a) => a.domain === 1);
    // ... and one launch in the per-thread-stream form (cudaLaunchKernel_ptsz) on stream 0: handle 2.
    const perThread = c.api.filter((a) => a.domain === 2 && a.callback === 214);
    expect(perThread.map((a) => a.stream)).toEqual([2n]);
    expect(launches).toHaveLength(said.kernels - 1);
    expect(driverLaunches).toHaveLength(said.kernels - 1);

    // Contexts and streams, with CUPTI's ids and the handles.
    expect(c.resources.filter((r) => r.event === 1)).toEqual([
      { event: 1, device: 0, context: 1, stream: 0xffffffff, contextHandle: 0x1000n, streamHandle: 0n, flags: 0 },
    ]);
    expect(c.devices).toEqual([{ device: 0, name: 'Simulated GPU 0', major: 9, minor: 0, memory: 80 * 2 ** 30, sms: 132 }]);
    const created = c.resources.filter((r) => r.event === 3).map((r) => [r.stream, Number(r.streamHandle), r.flags]);
    expect(created).toEqual([
      [7, 0, 1],
      [2, 0x200, 0],
      [3, 0x300, 0],
      [8, 2, 2],
    ]);
    expect(c.resources.filter((r) => r.event === 4).map((r) => r.stream)).toEqual([2, 3]);

    // GPU work: every record, linked to its launch by correlation id, on the stream of its handle.
    const byKind = (k: number) => c.activity.filter((r) => r.kind === k);
    expect(byKind(2)).toHaveLength(said.kernels);
    expect(byKind(3)).toHaveLength(said.memcpys);
    expect(byKind(4)).toHaveLength(said.memsets);
    expect(byKind(5)).toHaveLength(said.syncs);
    const apiByCorrelation = new Map(c.api.map((a) => [a.correlation, a]));
    for (const r of c.activity) {
      const call = apiByCorrelation.get(r.correlation as number);
      expect(call, `API call of correlation ${String(r.correlation)}`).toBeDefined();
      expect(call!.domain).toBe(2);
      if (call!.stream === 2n) expect(r.stream).toBe(8);
      else expect(Number(call!.stream) >> 8).toBe(r.stream);
      expect(r.context).toBe(1);
    }
    expect([...c.kernelNames.entries()]).toEqual(
      expect.arrayContaining([
        ['_Z5scaleIfEvPT_S1_i', 'void scale<float>(float*, float*, int)'],
        ['vectorAdd', ''],
      ]),
    );
    expect(c.kernelNames.size).toBe(said.kernelNames);

    // Clock pairs: CUPTI time here is the capture's CLOCK_MONOTONIC_RAW + 1000 s; each pair says so.
    expect(c.clocks.length).toBeGreaterThanOrEqual(2);
    for (const p of c.clocks) {
      const ns = Number(c.startNs) + (Number(p.tick - c.startTick) * 1e9) / c.tickRate;
      expect(Math.abs(Number(p.cupti) - 1e12 - ns)).toBeLessThan(5e6);
      expect(p.width).toBeGreaterThanOrEqual(0);
    }
    // Kernels start after the API call that launched them, once placed by the pairs.
    const first = c.clocks[0];
    const toNs = (cupti: bigint) => Number(cupti - first.cupti) + Number(c.startNs) + (Number(first.tick - c.startTick) * 1e9) / c.tickRate;
    for (const k of byKind(2)) {
      const call = apiByCorrelation.get(k.correlation as number)!;
      const enterNs = Number(c.startNs) + (Number(call.tick - c.startTick) * 1e9) / c.tickRate;
      expect(toNs(k.absoluteStart as bigint)).toBeGreaterThan(enterNs - 5e6);
    }

    // Drops and the END totals.
    expect(c.dropped.get(1)).toBe(said.dropped);
    expect(c.dropped.has(2)).toBe(false);
    expect(c.end.get(8)).toEqual([BigInt(said.apiCalls), BigInt(said.kernels + said.memcpys + said.memsets + said.syncs)]);

    // The launcher's summary.
    expect(run.stderr).toContain(
      `nvtx-capture: CUDA: ${said.apiCalls} API calls, ${said.kernels} kernels, ${said.memcpys} copies, ${said.memsets} sets, ${said.syncs} synchronisations`,
    );
    expect(run.stderr).toContain(`nvtx-capture: ${said.dropped} GPU activity records were lost`);

    // The NVTX side decodes as before (the model's other rows are the CUDA ones).
    const model = await decode(run.path);
    expect(rangeRows(model).filter((r) => r.kind === 'pushpop')).toHaveLength(said.ranges);

    // And the viewer's decoder and CLI (cudadec's) read the CUDA side to the same counts.
    const api = await statsOf('api', run.path);
    expect(countOf(api.rows)).toBe(said.apiCalls);
    expect(api.rows.find((r) => r.name === 'cudaLaunchKernel')?.count).toBe(said.kernels - 1);
    expect(countOf((await statsOf('kernels', run.path)).rows)).toBe(said.kernels);
    expect(countOf((await statsOf('memops', run.path)).rows)).toBe(said.memcpys + said.memsets);
    expect(api.err).toContain(`CUPTI dropped ${said.dropped} GPU activity record(s)`);
  });
});

describe.runIf(withCupti)('attached, but the driver finds no GPU', () => {
  it('records the failed cuInit, says once that there is no GPU work, keeps NVTX and the exit status', () => {
    const run = capture(join(cudaTests, 'cuda_sim'), ['no-device', '0', '0', '7'], 'sim-nodevice.nvtxc', ['--cupti', join(cudaTests, 'libfakecupti.so')]);
    expect(run.status).toBe(7);
    expect(reasonLines(run.stderr)).toEqual([
      'nvtx-capture: CUDA not recorded: cuInit failed (CUDA_ERROR_NO_DEVICE, 100): no GPU work to record; NVTX is recorded',
    ]);
    const c = readCapture(run.path);
    expect(c.statuses.map((s) => s.state)).toEqual([1, 3]);
    expect(c.api.map((a) => [a.domain, a.result])).toEqual([[1, 100]]);
    expect(c.pushes).toBe(2);
  });
});

describe.runIf(withCupti)('GPU work still in CUPTI at a fatal signal', () => {
  it('is flushed by the SIGTERM handler: every record in the capture, the signal ends the program', () => {
    const run = capture(join(cudaTests, 'cuda_sim'), ['cuda-first', '2', '40', 'term'], 'sim-term.nvtxc', ['--cupti', join(cudaTests, 'libfakecupti.so')]);
    expect(run.status).toBe(128 + 15);
    expect(run.stderr).toContain('killed by signal 15');
    const said = JSON.parse(run.stdout) as Record<string, number>;
    const c = readCapture(run.path);
    const kinds = (k: number) => c.activity.filter((r) => r.kind === k).length;
    expect([kinds(2), kinds(3), kinds(4), kinds(5)]).toEqual([said.kernels, said.memcpys, said.memsets, said.syncs]);
    expect(c.api).toHaveLength(said.apiCalls);
    expect(c.end.get(3)).toEqual([2n, 15n]);
  });
});

describe.runIf(withCupti)('GPU work of a process killed outright (SIGKILL: no handler runs)', () => {
  const run = (flushMs: string) =>
    capture(join(cudaTests, 'cuda_sim'), ['cuda-first', '2', '40', 'kill'], `sim-kill-${flushMs}.nvtxc`, ['--cupti', join(cudaTests, 'libfakecupti.so')], launcher, {
      NVTXCAPTURE_CUDA_FLUSH_MS: flushMs,
    });

  // Counted by the viewer's decoder and CLI, which also read the thread buffers a kill left open.
  it('is in the capture up to the last periodic flush', async () => {
    const r = run('50');
    expect(r.status).toBe(128 + 9);
    const said = JSON.parse(r.stdout) as Record<string, number>;
    const c = readCapture(r.path);
    const kinds = (k: number) => c.activity.filter((x) => x.kind === k).length;
    expect([kinds(2), kinds(3), kinds(4), kinds(5)]).toEqual([said.kernels, said.memcpys, said.memsets, said.syncs]);
    expect(countOf((await statsOf('kernels', r.path)).rows)).toBe(said.kernels);
    expect(countOf((await statsOf('api', r.path)).rows)).toBe(said.apiCalls);
  });

  it('is lost with the periodic flush turned off (what the flush is for)', async () => {
    const r = run('0');
    expect(r.status).toBe(128 + 9);
    const said = JSON.parse(r.stdout) as Record<string, number>;
    expect(readCapture(r.path).activity.filter((x) => x.kind === 2).length).toBeLessThan(said.kernels);
    expect(countOf((await statsOf('api', r.path)).rows)).toBe(said.apiCalls);
  });
});

describe.runIf(withCupti)('activity encoder on fabricated CUPTI records', () => {
  it('writes every field of kernels, copies, peer copies, sets and syncs; names once, demangled; unknown kinds skipped', () => {
    const result = spawnSync(join(cudaTests, 'activity_encode'), { encoding: 'utf8' });
    expect(result.status).toBe(0);
    const bodies = result.stdout.trim().split('\n').map((l) => JSON.parse(l) as { body: string; base: string; written: number; skipped: number; expect: Record<string, unknown>[] });
    expect(bodies).toHaveLength(2);
    expect(bodies[0].skipped).toBe(1);
    for (const b of bodies) {
      const bytes = Uint8Array.from(Buffer.from(b.body, 'hex'));
      const records = activityRecords(new Bytes(bytes), BigInt(b.base)).map((r) => {
        const { absoluteStart: _absolute, ...fields } = r;
        return fields;
      });
      expect(records).toEqual(b.expect);
      expect(b.written).toBe(b.expect.filter((r) => r.kind !== 1).length);
    }
    expect(BigInt(bodies[0].base)).toBe(1700000000000005000n);
  });
});

const hasGpu = spawnSync('nvidia-smi', ['-L'], { encoding: 'utf8' }).status === 0;

describe.runIf(!hasGpu)('the GPU test on a machine without a GPU', () => {
  it('says so, names the test that runs here instead, and exits with 2 (cannot run)', () => {
    const out = join(work, 'gpu-out');
    const run = spawnSync(join(collector, 'tests', 'gpu', 'run.sh'), [out], { encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(2);
    expect(run.stdout).toContain('run.sh: no NVIDIA GPU here (nvidia-smi -L fails): the GPU test needs one.');
    expect(run.stdout).toContain('npx vitest run collector/tests/cuda.test.ts');
    expect(readFileSync(join(out, 'summary.txt'), 'utf8')).toBe(run.stdout);
  });
});

describe('collector built without CUPTI', () => {
  it('builds, records NVTX and says once that it cannot record CUDA', async () => {
    // Kept between runs (under build/, ignored by git) so that only what changed is rebuilt.
    const other = join(build, 'nocupti');
    const made = spawnSync('make', ['-s', '-C', collector, `BUILD=${other}`, 'CUPTI=0', 'all'], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    const program = join(build, 'tests', withCupti ? 'cuda/fake_driver' : 'stress');
    const args = withCupti ? ['cuda-first', '0'] : ['1', '100'];
    const run = capture(program, args, 'nocupti.nvtxc', [], join(other, 'nvtx-capture'));
    expect(run.status).toBe(0);
    if (withCupti) {
      expect(reasonLines(run.stderr)).toEqual([
        'nvtx-capture: CUDA not recorded: this collector was built without the CUPTI headers (make -C collector CUPTI_INCLUDE=DIR); NVTX is recorded',
      ]);
      const said = JSON.parse(run.stdout) as { ranges: number };
      expect(rangeRows(await decode(run.path))).toHaveLength(said.ranges);
    } else {
      expect(rangeRows(await decode(run.path))).toHaveLength(100);
    }
  }, 180_000);
});
