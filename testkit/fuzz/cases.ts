/**
 * The fuzz cases of each format: seed inputs (generated captures, and in long runs the real
 * fixtures and earlier reproducers in ../shared/fixtures/) and, per case number, the mutation of
 * one of them. Case `i` of a format under run seed `s` is always the same bytes, so a failure is
 * found again from its (format, seed, case) alone.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeChromeJson } from '../gen/chromeJson.ts';
import { writeNative } from '../gen/native.ts';
import { nativeCudaCapture } from '../gen/nativeCuda.ts';
import { writeNsys } from '../gen/nsys.ts';
import { writeNvtxt } from '../gen/nvtxt.ts';
import { Random } from '../gen/random.ts';
import type { GenOptions } from '../gen/events.ts';
import { MemorySink, type Sink } from '../gen/sink.ts';
import {
  byteMutators,
  chromeDeepJson,
  chromePhases,
  chromeTimes,
  mutate,
  nvtxtDeepPushes,
  nvtxtUnmatched,
  textMutators,
  type MutationScale,
  type Mutator,
} from './mutate.ts';
import { craftDatabase, sqlMutate } from './sqlMutate.ts';

/** The fuzzed input kinds: one per decoder, Nsight twice (bytes and SQL). */
export const FUZZ_FORMATS = ['native', 'nvtxt', 'chrome', 'nsys', 'nsys-sql'] as const;
export type FuzzFormat = (typeof FUZZ_FORMATS)[number];

/** File name ending of each kind's cases (the importers sniff bytes; the ending is a hint). */
export const EXTENSION: Record<FuzzFormat, string> = { native: 'nvtxc', nvtxt: 'nvtxt', chrome: 'json', nsys: 'sqlite', 'nsys-sql': 'sqlite' };

export interface SeedInput {
  name: string;
  bytes: Uint8Array;
}

export interface FuzzCase {
  format: FuzzFormat;
  index: number;
  /** The seed input it was made from. */
  from: string;
  name: string;
  bytes: Uint8Array;
}

const WRITERS: Record<FuzzFormat, (sink: Sink, options: GenOptions) => unknown> = {
  native: writeNative,
  nvtxt: writeNvtxt,
  chrome: writeChromeJson,
  nsys: writeNsys,
  'nsys-sql': writeNsys,
};

/** Small generated captures: several shapes, so that mutations meet every kind of event. */
const GENERATED: GenOptions[] = [
  { events: 150, seed: 1, threads: 1 },
  { events: 400, seed: 2, threads: 3, maxDepth: 12 },
  { events: 800, seed: 3, threads: 8, markShare: 0.3, startEndShare: 0.3 },
];

/** The shared fixtures, by the path every test uses: relative to the repository root (the working directory). */
export const SHARED_FIXTURES = resolve('../shared/fixtures/');

/** Real files per kind in ../shared/fixtures/ (the CI run takes only those under `maxBytes`). */
function fixtureInputs(format: FuzzFormat, maxBytes: number): SeedInput[] {
  const wanted: Record<FuzzFormat, (name: string) => boolean> = {
    native: (n) => n.endsWith('.nvtxc'),
    nvtxt: (n) => n.endsWith('.nvtxt'),
    chrome: (n) => n.endsWith('.json'),
    nsys: (n) => n.endsWith('.sqlite'),
    'nsys-sql': (n) => n.endsWith('.sqlite') && !n.includes('crafted'),
  };
  const out: SeedInput[] = [];
  for (const dir of ['nsys', 'pytorch', 'fuzz']) {
    const path = join(SHARED_FIXTURES, dir);
    if (!existsSync(path)) continue;
    for (const name of readdirSync(path).sort()) {
      if (!wanted[format](name)) continue;
      const bytes = readFileSync(join(path, name));
      if (bytes.length <= maxBytes) out.push({ name: `${dir}/${name}`, bytes: new Uint8Array(bytes) });
    }
  }
  return out;
}

/** The inputs cases of `format` are mutated from (`seedEvents`: at most that many events per generated capture). */
export async function seedInputs(format: FuzzFormat, options: { fixtureBytes: number; seedEvents?: number }): Promise<SeedInput[]> {
  const out: SeedInput[] = [];
  for (const gen of GENERATED) {
    const sink = new MemorySink();
    // Long runs may take smaller captures of the same shapes: each case costs about its size.
    await WRITERS[format](sink, options.seedEvents === undefined ? gen : { ...gen, events: Math.min(gen.events, options.seedEvents) });
    out.push({ name: `generated-${gen.seed}.${EXTENSION[format]}`, bytes: sink.toBytes() });
  }
  out.push(...fixtureInputs(format, options.fixtureBytes));
  // Format 1.3: API calls, activity chunks, clock pairs and CUDA metadata meet the mutations too.
  if (format === 'native') out.push({ name: 'generated-cuda.nvtxc', bytes: nativeCudaCapture({ seed: 1, threads: 2, steps: 2, droppedRecords: 3 }).bytes });
  return out;
}

const MUTATORS: Record<Exclude<FuzzFormat, 'nsys-sql'>, readonly Mutator[]> = {
  native: byteMutators,
  nvtxt: [...byteMutators, ...textMutators, ...textMutators, nvtxtDeepPushes, nvtxtDeepPushes, nvtxtUnmatched],
  chrome: [...byteMutators, ...textMutators, ...textMutators, chromeDeepJson, chromePhases, chromeTimes, chromeTimes],
  nsys: byteMutators,
};

/** A 32-bit hash of the case coordinates: the case's own random stream. */
function caseSeed(runSeed: number, format: FuzzFormat, index: number): number {
  let h = 0x811c9dc5 ^ runSeed;
  for (const c of `${format}:${index}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  return h >>> 0;
}

/** Case `index` of `format` under `runSeed`. */
export async function makeCase(format: FuzzFormat, index: number, runSeed: number, seeds: readonly SeedInput[], scale: MutationScale): Promise<FuzzCase> {
  const rnd = new Random(caseSeed(runSeed, format, index));
  const ext = EXTENSION[format];
  const name = `${format}-s${runSeed}-${index}.${ext}`;
  if (format === 'nsys-sql' && rnd.chance(0.2)) return { format, index, from: 'crafted', name, bytes: await craftDatabase(rnd) };
  const seed = rnd.pick(seeds);
  const bytes = format === 'nsys-sql' ? await sqlMutate(seed.bytes, rnd) : mutate(seed.bytes, MUTATORS[format], rnd, scale);
  return { format, index, from: seed.name, name, bytes };
}
