/**
 * Decode on one thread, build on another (issue 15 §2, §3): the model a tape replay builds must be
 * the model the direct load builds, issues and their order included, for every fixture, generator
 * and fuzz seed, whatever the batch size; budget stops, cancels and read errors behave alike.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_FIXTURES } from '../../testkit/fixtures.ts';
import { FUZZ_FORMATS, makeCase, seedInputs, type FuzzFormat } from '../../testkit/fuzz/cases.ts';
import { generateKineto } from '../../testkit/gen/kineto.ts';
import type { WriterOptions } from '../../testkit/gen/main.ts';
import { nativeCudaCapture } from '../../testkit/gen/nativeCuda.ts';
import { expectSameOutcome, generatedCapture, outcomeOf, sharedFixtureFiles, type LoadOutcome } from '../../testkit/load/twoWays.ts';
import { ModelBuilder } from '../model/builder.ts';
import { TapeBuilder } from '../model/tape/tapeBuilder.ts';
import type { Model } from '../model/types.ts';
import type { ByteSource } from './importer.ts';
import { CHUNK_BYTES, loadModel, memorySource } from './pipeline.ts';
import { loadModelThroughTape, MAX_BATCHES_IN_FLIGHT, TAPE_FORMATS, TapeBuild, TapeDecode, type TapeMessage } from './tapePipeline.ts';

/** As the CI fuzz run (testkit/fuzz/fuzz.test.ts). */
const SCALE = { maxDepth: 300 };

type DirectOutcome = LoadOutcome;
type Outcome = DirectOutcome | { notTaped: string };

const direct = (source: () => ByteSource, options = {}): Promise<DirectOutcome> => outcomeOf(() => loadModel(source(), options));

const taped = (source: () => ByteSource, options = {}, batchRows?: number): Promise<Outcome> => outcomeOf(() => loadModelThroughTape(source(), options, batchRows));

/** Loads `bytes` both ways and expects the same model (or the same failure); returns the direct one. */
async function expectSame(name: string, bytes: Uint8Array, batchRows?: number, options = {}): Promise<DirectOutcome> {
  const a = await direct(() => memorySource(name, bytes), options);
  const b = await taped(() => memorySource(name, bytes), options, batchRows);
  if ('notTaped' in b) {
    expect('model' in a ? TAPE_FORMATS.has(a.model.capture.format) : false, `${name}: not taped (${b.notTaped})`).toBe(false);
    return a;
  }
  expectSameOutcome(name, a, b);
  return a;
}

const generated = generatedCapture;

describe('TapeBuilder', () => {
  it('overrides every public method of ModelBuilder (a new one must be recorded, not run on the shadow only)', () => {
    const own = (proto: object) => Object.getOwnPropertyNames(proto).filter((n) => n !== 'constructor');
    const missing = own(ModelBuilder.prototype).filter((n) => !Object.prototype.hasOwnProperty.call(TapeBuilder.prototype, n));
    expect(missing).toEqual([]);
  });
});

describe('tape replay builds the model the direct load builds', () => {
  it.each(sharedFixtureFiles((name) => !/\.(md|py)$/.test(name)).map((p) => [p.slice(SHARED_FIXTURES.length)]))('fixture %s', async (relative) => {
    const bytes = new Uint8Array(readFileSync(join(SHARED_FIXTURES, relative)));
    await expectSame(relative.split('/').pop()!, bytes);
  }, 120_000);

  const shapes: WriterOptions[] = [
    { events: 3000, seed: 1 },
    { events: 2000, seed: 2, threads: 5, maxDepth: 14, markShare: 0.3, startEndShare: 0.3 },
    { events: 2000, seed: 3, pushPop: 'complete', names: 3000 },
  ];
  const cases = ['nvtxt', 'chrome-json', 'nvtxc'].flatMap((format) => shapes.map((o) => [format, o] as const));
  it.each(cases)('generator %s %o', async (format, options) => {
    const ext = { nvtxt: 'nvtxt', 'chrome-json': 'json', nvtxc: 'nvtxc' }[format]!;
    const bytes = await generated(format, options);
    for (const batchRows of [1, 7, 1000, undefined]) await expectSame(`g.${ext}`, bytes, batchRows);
  });

  it('generator: native with CUDA records', async () => {
    for (const seed of [1, 2]) {
      const { bytes } = nativeCudaCapture({ seed, threads: 3, steps: 3, droppedRecords: 2, earlyKernels: 2 });
      for (const batchRows of [3, undefined]) await expectSame('cuda.nvtxc', bytes, batchRows);
    }
  });

  it('generator: Kineto (PyTorch profiler) trace', async () => {
    const { json } = generateKineto({ steps: 3, opsPerStep: 5, streams: 2, seed: 4 });
    await expectSame('kineto.json', new TextEncoder().encode(json), 5);
  });

  it('a big native capture over several chunks', async () => {
    const bytes = await generated('nvtxc', { events: 600_000, seed: 9, threads: 6 });
    expect(bytes.length).toBeGreaterThan(2 * CHUNK_BYTES);
    await expectSame('big.nvtxc', bytes);
  }, 120_000);

  /** Fuzz cases per format; a longer run: `TAPE_FUZZ_CASES=2000 npx vitest run src/import/tapePipeline.test.ts`. */
  const TAPE_FUZZ_CASES = Number(process.env.TAPE_FUZZ_CASES ?? 60);
  it.each(FUZZ_FORMATS.filter((f) => f === 'native' || f === 'nvtxt' || f === 'chrome'))('fuzz cases of %s', async (format: FuzzFormat) => {
    const seeds = await seedInputs(format, { fixtureBytes: 1 << 20, seedEvents: 400 });
    for (let i = 0; i < TAPE_FUZZ_CASES; i++) {
      const c = await makeCase(format, i, 15, seeds, SCALE);
      await expectSame(c.name, c.bytes, 1 + (i % 5) * 50);
    }
  }, Math.max(120_000, TAPE_FUZZ_CASES * 2_000));
});

describe('a two-sided load', () => {
  it('holds the decode while the build side has batches to replay, and goes on as they come back', async () => {
    const bytes = await generated('nvtxc', { events: 600_000, seed: 7, threads: 4 });
    expect(bytes.length).toBeGreaterThan(2 * CHUNK_BYTES);
    const messages: TapeMessage[] = [];
    const batches = () => messages.filter((m) => m.type === 'batch').length;
    const decode = new TapeDecode((m) => messages.push(m), 1000);
    let finished = false;
    const run = decode.run(memorySource('held.nvtxc', bytes), {}).then(() => (finished = true));
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // Nothing comes back: the decode stops at its next chunk with the batches it has sent.
    await pause(300);
    const stalled = batches();
    await pause(200);
    expect(finished).toBe(false);
    expect(batches()).toBe(stalled);
    expect(stalled).toBeGreaterThan(MAX_BATCHES_IN_FLIGHT);
    // The replay catches up, giving each batch back: the decode goes on to the end, and the model is the direct one.
    const build = new TapeBuild(undefined, { recycle: (b) => decode.recycle(b), stopDecode: () => decode.stop() });
    let next = 0;
    while (!finished || next < messages.length) {
      for (; next < messages.length; next++) build.accept(messages[next]);
      await pause(0);
    }
    await run;
    const result = build.result;
    expect(result && 'model' in result, 'a model').toBe(true);
    expect((result as { model: Model }).model).toEqual(await loadModel(memorySource('held.nvtxc', bytes)));
  }, 120_000);

  it('stops where the one-sided load stops when the model goes over its budget', async () => {
    for (const [format, ext, events] of [['chrome-json', 'json', 200_000], ['nvtxc', 'nvtxc', 300_000], ['nvtxt', 'nvtxt', 100_000]] as const) {
      const bytes = await generated(format, { events, seed: 3 });
      const out = await expectSame(`big.${ext}`, bytes, undefined, { decode: { modelBudgetBytes: 2 * 1048576 } });
      expect('model' in out && out.model.issues.some((i) => i.message.includes('does not fit in memory'))).toBe(true);
    }
  }, 120_000);

  it('is cancelled mid-stream like the one-sided load', async () => {
    const bytes = await generated('nvtxc', { events: 300_000, seed: 5 });
    const run = (load: (source: () => ByteSource, options: object) => Promise<Outcome>) => {
      const abort = new AbortController();
      let chunks = 0;
      return load(() => memorySource('c.nvtxc', bytes), { signal: abort.signal, onProgress: () => ++chunks === 2 && abort.abort() });
    };
    const a = await run(direct);
    expect(a).toEqual({ error: 'load cancelled' });
    expect(await run(taped)).toEqual(a);
  });

  it('keeps what was valid around an error mid-file, as the one-sided load does', async () => {
    const bytes = await generated('chrome-json', { events: 4000, seed: 6 });
    const broken = bytes.slice();
    broken.set(new TextEncoder().encode('{"ph":"X",,,"name"'), bytes.length >> 1);
    const out = await expectSame('broken.json', broken, 64);
    expect('model' in out && out.model.issues.length).toBeGreaterThan(0);
    expect('model' in out && out.model.ranges.startNs.length).toBeGreaterThan(1000);
  });

  it('fails with the one-sided load\'s message when a read fails mid-file', async () => {
    const bytes = await generated('nvtxc', { events: 300_000, seed: 7 });
    const failing = (): ByteSource => ({
      name: 'f.nvtxc',
      size: bytes.length,
      read: async (start, end) => (start >= CHUNK_BYTES ? new Uint8Array(0) : bytes.slice(start, end)),
    });
    const a = await direct(failing);
    expect('error' in a).toBe(true);
    expect(await taped(failing)).toEqual(a);
  });

  it('leaves Nsight SQLite exports to the one-sided load', async () => {
    const bytes = new Uint8Array(readFileSync(join(SHARED_FIXTURES, 'nsys/fuser-report1.sqlite')));
    expect(await taped(() => memorySource('x.sqlite', bytes))).toEqual({ notTaped: 'nsys-sqlite' });
  });
});
