/**
 * Chrome JSON parsed on one side and built on the other (chromeSplit.ts): the two sides joined in
 * one thread through the same messages must build the model the one-thread load builds, issues
 * with their byte offsets and lines included, for every Chrome trace the tests know: fixtures
 * (PyTorch, fuzz reproducers), generated traces of each shape and layout, damage, bad escapes,
 * gzip, events cut by slice boundaries; budget stops, cancels and read errors alike.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { SHARED_FIXTURES } from '../../testkit/fixtures.ts';
import { makeCase, seedInputs } from '../../testkit/fuzz/cases.ts';
import { generateKineto } from '../../testkit/gen/kineto.ts';
import type { WriterOptions } from '../../testkit/gen/main.ts';
import { expectSameOutcome, generatedCapture, outcomeOf, sharedFixtureFiles, type LoadOutcome } from '../../testkit/load/twoWays.ts';
import type { Model } from '../model/types.ts';
import { ChromeSplitBuild, ChromeSplitParse, loadModelThroughChromeSplit, MAX_SLICES_IN_FLIGHT, type SplitMessage } from './chromeSplit.ts';
import type { ByteSource } from './importer.ts';
import { CHUNK_BYTES, loadModel, memorySource } from './pipeline.ts';

type DirectOutcome = LoadOutcome;
type Outcome = DirectOutcome | { notChrome: string };

const direct = (source: () => ByteSource, options = {}): Promise<DirectOutcome> => outcomeOf(() => loadModel(source(), options));

const split = (source: () => ByteSource, options = {}, minSliceBytes?: number): Promise<Outcome> => outcomeOf(() => loadModelThroughChromeSplit(source(), options, minSliceBytes));

/**
 * The bytes read at most `step` at a time, each read a fresh buffer (as Blob reads are): with
 * `minSliceBytes` 0 every read is a slice of its own, so events straddle slice boundaries.
 */
function shortReads(name: string, bytes: Uint8Array, step: number): ByteSource {
  return { name, size: bytes.length, read: async (start, end) => bytes.slice(start, Math.min(end, start + step, bytes.length)) };
}

/** Loads `bytes` both ways and expects the same model (or failure); returns the one-thread outcome. */
async function expectSame(name: string, bytes: Uint8Array, options = {}, step?: number): Promise<DirectOutcome> {
  const source = () => (step === undefined ? memorySource(name, bytes) : shortReads(name, bytes, step));
  const a = await direct(source, options);
  const b = await split(source, options, step === undefined ? undefined : 0);
  if ('notChrome' in b) {
    expect('model' in a && a.model.capture.format === 'chrome-json', `${name}: a Chrome trace said not to be one`).toBe(false);
    return a;
  }
  expectSameOutcome(name, a, b);
  return a;
}

/** Both ways, read whole and in short reads of several sizes (odd ones cut events anywhere). */
async function expectSameEveryWay(name: string, bytes: Uint8Array, options = {}): Promise<DirectOutcome> {
  const a = await expectSame(name, bytes, options);
  for (const step of [97, 4093, 65_537]) if (bytes.length / step < 20_000) await expectSame(name, bytes, options, step);
  return a;
}

const generated = (options: WriterOptions): Promise<Uint8Array> => generatedCapture('chrome-json', options);
const fixtureFiles = () => sharedFixtureFiles((name) => /\.(json|gz|trace)$/.test(name));

const text = (s: string) => new TextEncoder().encode(s);

describe('the split load builds the model the one-thread load builds', () => {
  it.each(fixtureFiles().map((p) => [p.slice(SHARED_FIXTURES.length)]))('fixture %s', async (relative) => {
    const bytes = new Uint8Array(readFileSync(join(SHARED_FIXTURES, relative)));
    await expectSameEveryWay(relative.split('/').pop()!, bytes);
  }, 120_000);

  const shapes: WriterOptions[] = [
    { events: 3000, seed: 1 },
    { events: 2000, seed: 2, threads: 5, maxDepth: 14, markShare: 0.3, startEndShare: 0.3 },
    { events: 2000, seed: 3, pushPop: 'complete', names: 3000 },
    { events: 2000, seed: 4, nestedArgs: true },
    { events: 2000, seed: 5, oneLine: true },
    { events: 2000, seed: 6, nestedArgs: true, oneLine: true },
  ];
  it.each(shapes.map((o) => [o]))('generated %o', async (options) => {
    await expectSameEveryWay('g.json', await generated(options));
  });

  it('indented (one key per line) and gzipped layouts', async () => {
    const bytes = await generated({ events: 1500, seed: 7, nestedArgs: true });
    const indented = text(JSON.stringify(JSON.parse(new TextDecoder().decode(bytes)), null, 2));
    await expectSameEveryWay('indented.json', indented);
    await expectSameEveryWay('g.json.gz', gzipSync(bytes));
    // A damaged gzip stream: what decompressed loads, the problem is reported.
    const gz = gzipSync(indented);
    await expectSameEveryWay('cut.json.gz', gz.subarray(0, gz.length >> 1));
  });

  it('a Kineto (PyTorch profiler) trace', async () => {
    const { json } = generateKineto({ steps: 3, opsPerStep: 5, streams: 2, seed: 4 });
    await expectSameEveryWay('kineto.json', text(json));
  });

  it('a trace over several chunks of the file, whole reads and short ones', async () => {
    const bytes = await generated({ events: 120_000, seed: 9, threads: 6, nestedArgs: true });
    expect(bytes.length).toBeGreaterThan(2 * CHUNK_BYTES);
    await expectSame('big.json', bytes);
    await expectSame('big.json', bytes, {}, 1_000_003);
  }, 120_000);

  it('damage: bad JSON mid-file, bad escapes in kept strings, bad top-level values, a cut file', async () => {
    const bytes = await generated({ events: 4000, seed: 6 });
    const broken = bytes.slice();
    broken.set(text('{"ph":"X",,,"name"'), bytes.length >> 1);
    const out = await expectSameEveryWay('broken.json', broken);
    expect('model' in out && out.model.issues.length).toBeGreaterThan(0);
    // Escapes that do not decode: the one-thread decoder throws part way through the event, and the reader resynchronises.
    const escapes = [
      '{"traceEvents":[',
      '{"ph":"X","name":"a","ts":1,"dur":2,"pid":1,"tid":1},',
      '{"ph":"X","name":"bad \\x name","ts":3,"dur":1,"pid":1,"tid":1},',
      '{"ph":"X","name":"b","cat":"c\\q","ts":4,"dur":1,"pid":1,"tid":1,"args":{"k":[{"a":1},{"b":2}]}},',
      '{"ph":"B","name":"c","ts":5,"pid":"p\\z","tid":1},',
      '{"ph":"i","name":"m\\u00e9","ts":6,"pid":1,"tid":"t\\y","s":"t"},',
      '{"ph":"b","name":"as","cat":"x","id":"i\\k","ts":7,"pid":1,"tid":1},',
      '{"ph":"X","name":"no ts \\x"},',
      '{"ph":"C","name":"ctr\\w","ts":8,"pid":1,"args":{"v":1}},',
      '{"ph":"E","ts":9,"pid":1,"tid":1}',
      '],"otherData":{"a":"\\x"},"metadata":[1,2',
    ].join('\n');
    await expectSameEveryWay('escapes.json', text(escapes));
    await expectSameEveryWay('cut.json', bytes.subarray(0, (bytes.length * 2) / 3));
  });

  /** Fuzz cases; a longer run: `SPLIT_FUZZ_CASES=2000 npx vitest run src/import/chromeSplit.test.ts`. */
  const SPLIT_FUZZ_CASES = Number(process.env.SPLIT_FUZZ_CASES ?? 60);
  it('fuzz cases', async () => {
    const seeds = await seedInputs('chrome', { fixtureBytes: 1 << 20, seedEvents: 400 });
    for (let i = 0; i < SPLIT_FUZZ_CASES; i++) {
      const c = await makeCase('chrome', i, 15, seeds, { maxDepth: 300 });
      await expectSame(c.name, c.bytes);
      await expectSame(c.name, c.bytes, {}, 1 + ((i * 7919) % 5000));
    }
  }, Math.max(120_000, SPLIT_FUZZ_CASES * 4_000));

  it('leaves other formats to the caller', async () => {
    const nvtxt = text('NVTXT 1\n');
    const r = await split(() => memorySource('x.nvtxt', nvtxt));
    expect('notChrome' in r || 'error' in r).toBe(true);
    const sqlite = new Uint8Array(readFileSync(join(SHARED_FIXTURES, 'nsys/fuser-report1.sqlite')));
    expect(await split(() => memorySource('x.sqlite', sqlite))).toEqual({ notChrome: 'nsys-sqlite' });
  });
});

describe('a split load', () => {
  it('holds the parse while slices are out, and goes on as they come back', async () => {
    const bytes = await generated({ events: 60_000, seed: 7, threads: 4 });
    const messages: SplitMessage[] = [];
    const slices = () => messages.filter((m) => m.type === 'split-slice').length;
    const parse = new ChromeSplitParse((m) => messages.push(m), 0);
    let finished = false;
    const run = parse.run(shortReads('held.json', bytes, 100_000), {}).then(() => (finished = true));
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    await pause(300);
    const stalled = slices();
    await pause(200);
    expect(finished).toBe(false);
    expect(slices()).toBe(stalled);
    expect(stalled).toBe(MAX_SLICES_IN_FLIGHT + 1);
    const build = new ChromeSplitBuild(undefined, { recycle: (s) => parse.recycle(s), stopDecode: () => parse.stop() });
    let next = 0;
    while (!finished || next < messages.length) {
      for (; next < messages.length; next++) build.accept(messages[next]);
      await pause(0);
    }
    await run;
    const result = build.result;
    expect(result && 'model' in result, 'a model').toBe(true);
    expect((result as { model: Model }).model).toEqual(await loadModel(shortReads('held.json', bytes, 100_000)));
  }, 60_000);

  it('stops where the one-thread load stops when the model goes over its budget', async () => {
    const bytes = await generated({ events: 200_000, seed: 3 });
    for (const step of [undefined, 300_001]) {
      const out = await expectSame('big.json', bytes, { decode: { modelBudgetBytes: 2 * 1048576 } }, step);
      expect('model' in out && out.model.issues.some((i) => i.message.includes('does not fit in memory'))).toBe(true);
    }
    const gz = gzipSync(bytes);
    await expectSame('big.json.gz', gz, { decode: { modelBudgetBytes: 2 * 1048576 } }, 100_001);
  }, 120_000);

  it('is cancelled mid-stream like the one-thread load', async () => {
    const bytes = await generated({ events: 100_000, seed: 5 });
    const run = (load: (source: () => ByteSource, options: object) => Promise<Outcome>) => {
      const abort = new AbortController();
      let chunks = 0;
      return load(() => shortReads('c.json', bytes, 1_000_000), { signal: abort.signal, onProgress: () => ++chunks === 2 && abort.abort() });
    };
    const a = await run(direct);
    expect(a).toEqual({ error: 'load cancelled' });
    expect(await run(split)).toEqual(a);
  });

  it("fails with the one-thread load's message when a read fails mid-file", async () => {
    const bytes = await generated({ events: 100_000, seed: 7 });
    const failing = (): ByteSource => ({
      name: 'f.json',
      size: bytes.length,
      read: async (start, end) => (start >= CHUNK_BYTES ? new Uint8Array(0) : bytes.slice(start, end)),
    });
    const a = await direct(failing);
    expect('error' in a).toBe(true);
    expect(await split(failing)).toEqual(a);
  });
});
