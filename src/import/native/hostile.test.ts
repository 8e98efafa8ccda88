/**
 * Hostile input (issue 16): the fuzzing reproducers of native captures, and a seeded mutation test
 * (bit flips, cut, repeated and zeroed bytes, duplicated, dropped and swapped chunks). Each input
 * loads within a time bound, or is refused with a load error; the model keeps its invariants
 * (testkit/models/invariants.ts); every issue that names an offset names one inside the file.
 *
 * The CI run is small; `NVTXC_FUZZ_CASES=20000 npx vitest run src/import/native/hostile.test.ts`
 * runs a long one, `NVTXC_FUZZ_REPRODUCERS=1` adds the reproducers as inputs to mutate (the generic
 * harness of every format lives in testkit/fuzz/).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Random } from '../../../testkit/gen/random.ts';
import { writeNative } from '../../../testkit/gen/native.ts';
import { MemorySink } from '../../../testkit/gen/sink.ts';
import { modelViolations as modelInvariantViolations } from '../../../testkit/models/invariants.ts';
import { ISSUES_LISTED_PER_KIND } from '../../model/issueList.ts';
import type { Model } from '../../model/types.ts';
import { LoadFailed } from '../pipeline.ts';
import { CHUNK_HEADER_SIZE, FILE_HEADER_SIZE, MetaOp, Op, SyncOp } from './format.ts';
import { loadBytes } from '../../../testkit/load/nativeCapture.ts';
import { CaptureWriter, MetaRecords, StreamRecords } from '../../../testkit/writers/nvtxcWriter.ts';

const FIXTURES = '../shared/fixtures/fuzz';
const T0 = 1_000_000n;
const N0 = 5_000_000_000n;


/** Loads `bytes` and checks what every input must give: a model that keeps its rules, or a load error. */
async function loadChecked(bytes: Uint8Array, what: string, boundMs: number): Promise<Model | undefined> {
  const started = performance.now();
  let model: Model | undefined;
  try {
    model = await loadBytes(bytes, 1 << 16);
  } catch (e) {
    expect(e, `${what}: ${(e as Error).stack}`).toBeInstanceOf(LoadFailed);
  }
  expect(performance.now() - started, `${what}: load time (ms)`).toBeLessThan(boundMs);
  if (!model) return undefined;
  expect(modelInvariantViolations(model, 5), what).toEqual([]);
  for (const issue of model.issues) {
    if (issue.offset === undefined) continue;
    expect(issue.offset, `${what}: ${issue.message}`).toBeGreaterThanOrEqual(0);
    expect(issue.offset, `${what}: ${issue.message}`).toBeLessThanOrEqual(bytes.length);
  }
  return model;
}

describe('fuzzing reproducers', () => {
  const load = (name: string) => new Uint8Array(readFileSync(`${FIXTURES}/${name}`));

  it('loads the two inputs that hung within a bound, with a valid model', async () => {
    for (const name of ['nvtxc-3575-hang.nvtxc', 'nvtxc-4326-hang.nvtxc']) {
      // The valid capture they came from loads in about 1 s; a hang was > 10 s.
      const model = (await loadChecked(load(name), name, 10_000))!;
      expect(model.ranges.startNs.length, name).toBeGreaterThan(30_000);
      expect(model.issues.length, name).toBeGreaterThan(0);
    }
  });

  it('loads the two inputs that gave invalid models with the damage reported, not in the model', async () => {
    for (const name of ['nvtxc-2008-invalid-model.nvtxc', 'nvtxc-3221-invalid-model.nvtxc']) {
      const model = (await loadChecked(load(name), name, 10_000))!;
      const messages = model.issues.map((i) => `${i.severity}: ${i.message} @${i.offset}`);
      // Pushes nested past the model's 16-bit depth, and times outside their chunk's time.
      expect(messages, name).toContainEqual(expect.stringMatching(/^warning: \d+ push\(es\) nest deeper than 65,535 levels; .* @\d+$/));
      expect(messages, name).toContainEqual(expect.stringMatching(/^warning: \d+ event time\(s\) lie outside the time of the chunk .* @\d+$/));
    }
  });
});

/** A capture with a bit of everything: META (domains, sync objects), three streams of several chunks, start/end across streams, an END. */
function richCapture(): Uint8Array {
  const w = new CaptureWriter().process({ pid: 9, name: 'rich', t0: T0, n0: N0, tickRate: 2_000_000_000 });
  const meta = new MetaRecords()
    .record(MetaOp.DomainCreate, (m) => m.varint(1).str('net'))
    .record(MetaOp.CategoryName, (m) => m.varint(1).varint(7).str('io'))
    .record(MetaOp.SyncCreate, (m) => m.varint(1).varint(1).str('lock'));
  const streams = [1, 2, 3].map((id) => ({ id, rec: new StreamRecords().thread(10 + id, `t${id}`), from: 0 }));
  let tick = 0;
  const seal = (): [bigint, bigint] => [T0 + BigInt(tick), N0 + BigInt(tick / 2)];
  w.meta(seal(), meta);
  for (let part = 0; part < 3; part++) {
    for (const s of streams) {
      for (let i = 0; i < 5; i++) {
        s.rec.push((tick += 10), `p${part}`).ex(Op.PushEx, (tick += 10), 1, { category: 7, color: 0xff112233 });
        s.rec.mark((tick += 10), 'm').pop((tick += 10), 1).pop((tick += 10));
      }
      s.rec.start((tick += 10), 1000 * part + s.id, 'se');
      if (s.id > 1) s.rec.end((tick += 10), 1000 * part + s.id - 1);
      s.rec.sync((tick += 10), SyncOp.AcquireStart, 1).sync((tick += 10), SyncOp.AcquireSuccess, 1).sync((tick += 10), SyncOp.Releasing, 1);
      const rec = s.rec.bytes();
      w.events(s.id, seal(), rec, s.from, rec.length);
      s.from = rec.length;
    }
  }
  return w.end({ pair: seal(), reason: [1, 0] }).bytes();
}

function generatedCapture(): Uint8Array {
  const sink = new MemorySink();
  writeNative(sink, { events: 4000, seed: 11, threads: 3 });
  return sink.toBytes();
}

function chunkStarts(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const starts: number[] = [];
  for (let at = FILE_HEADER_SIZE; at + CHUNK_HEADER_SIZE <= bytes.length; at += CHUNK_HEADER_SIZE + view.getUint32(at, true)) starts.push(at);
  return starts;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

type Mutation = (bytes: Uint8Array, rnd: Random) => Uint8Array;

/** Mutations on whole chunks work on the intact original's layout (they come first). */
const MUTATIONS: Record<string, Mutation> = {
  'flip bits': (b, rnd) => {
    const out = b.slice();
    for (let k = rnd.int(1, 8); k > 0; k--) out[rnd.int(0, out.length - 1)] ^= 1 << rnd.int(0, 7);
    return out;
  },
  cut: (b, rnd) => b.slice(0, rnd.int(0, b.length)),
  'repeat bytes': (b, rnd) => {
    const at = rnd.int(0, b.length - 1);
    const to = Math.min(b.length, at + rnd.int(1, 300));
    return concat(b.subarray(0, to), b.subarray(at, to), b.subarray(to));
  },
  'zero bytes': (b, rnd) => {
    const out = b.slice();
    const at = rnd.int(FILE_HEADER_SIZE, out.length - 1);
    out.fill(0, at, Math.min(out.length, at + rnd.int(1, 5000)));
    return out;
  },
  'huge varint': (b, rnd) => {
    // Bytes with the continuation bit: a varint of up to 10 bytes, or one running into what follows.
    const out = b.slice();
    const at = rnd.int(FILE_HEADER_SIZE, out.length - 1);
    out.fill(0xff, at, Math.min(out.length, at + rnd.int(1, 10)));
    return out;
  },
  'duplicate chunk': (b, rnd) => {
    const starts = [...chunkStarts(b), b.length];
    const k = rnd.int(0, starts.length - 2);
    const to = rnd.pick(starts);
    const chunk = b.subarray(starts[k], starts[k + 1]);
    return concat(b.subarray(0, to), chunk, b.subarray(to));
  },
  'drop chunk': (b, rnd) => {
    const starts = [...chunkStarts(b), b.length];
    const k = rnd.int(0, starts.length - 2);
    return concat(b.subarray(0, starts[k]), b.subarray(starts[k + 1]));
  },
  'swap chunks': (b, rnd) => {
    const starts = [...chunkStarts(b), b.length];
    if (starts.length < 3) return b;
    const k = rnd.int(0, starts.length - 3);
    return concat(b.subarray(0, starts[k]), b.subarray(starts[k + 1], starts[k + 2]), b.subarray(starts[k], starts[k + 1]), b.subarray(starts[k + 2]));
  },
};

describe('seeded mutations of native captures', () => {
  const cases = Number(process.env.NVTXC_FUZZ_CASES ?? 60);
  const bases: [string, Uint8Array][] = [
    ['rich', richCapture()],
    ['generated', generatedCapture()],
  ];
  // Long runs also mutate the reproducers (captures full of extension records), about 1 s a case.
  if (process.env.NVTXC_FUZZ_REPRODUCERS) {
    for (const name of ['nvtxc-2008-invalid-model.nvtxc', 'nvtxc-4326-hang.nvtxc']) bases.push([name, new Uint8Array(readFileSync(`${FIXTURES}/${name}`))]);
  }
  const names = Object.keys(MUTATIONS);

  it(`load within a bound with valid models (${cases} cases per capture)`, async () => {
    for (const [baseName, base] of bases) {
      const validMs = await (async () => {
        const started = performance.now();
        await loadBytes(base);
        return performance.now() - started;
      })();
      for (let seed = 1; seed <= cases; seed++) {
        const rnd = new Random(seed);
        let bytes = base;
        const applied: string[] = [];
        for (let k = rnd.int(1, 3); k > 0; k--) {
          const name = rnd.pick(names);
          applied.push(name);
          bytes = MUTATIONS[name](bytes, rnd);
        }
        await loadChecked(bytes, `${baseName} seed ${seed} (${applied.join(', ')})`, Math.max(3000, 20 * validMs));
      }
    }
  }, 600_000);
});

describe('issue counts', () => {
  it('reports the first issues of a kind one by one, then how many more (the issue list of every format)', async () => {
    const rec = new StreamRecords().thread(1, 'a');
    for (let i = 0; i < 1000; i++) rec.end(10 + i, 500 + i); // ends of ranges that never started
    const w = new CaptureWriter().process({ pid: 9, t0: T0, n0: N0, tickRate: 2_000_000_000 }).exitNormally();
    const model = await loadBytes(w.events(1, [T0 + 5000n, N0 + 2500n], rec.bytes()).bytes());
    const messages = model.issues.map((i) => i.message);
    expect(messages.filter((m) => /^range id \d+ ended but never started/.test(m))).toHaveLength(ISSUES_LISTED_PER_KIND);
    expect(messages.some((m) => m.startsWith(`and ${1000 - ISSUES_LISTED_PER_KIND} more of this kind`))).toBe(true);
  });
});
