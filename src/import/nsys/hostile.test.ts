/**
 * Hostile Nsight Systems exports: the fuzzing reproducers (../shared/fixtures/fuzz/sqlite-*), REAL
 * timestamps that are infinite or absurd, and a seeded run of crafted, SQL-mutated and byte-mutated
 * exports. Each must either load a model that keeps the model's rules (testkit/models/invariants.ts),
 * with statistics that finish, or fail with a message naming the file; never hang or throw anything
 * else. `NSYS_FUZZ_CASES` sets the number of seeded cases (a short run by default).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Random } from '../../../testkit/gen/random.ts';
import { fileStats } from '../../cli/stats.ts';
import { modelViolations as modelProblems } from '../../../testkit/models/invariants.ts';
import type { Model } from '../../model/types.ts';
import { loadModel, memorySource } from '../pipeline.ts';
import { buildExport, T, type ExportSpec } from '../../../testkit/writers/nsysExport.ts';
import { openDatabase, type Database } from './sqlite.ts';

const FUZZ = '../shared/fixtures/fuzz/';
const REAL_2025_3 = '../shared/fixtures/nsys/cnn-h100-nsys2025.3.sqlite';
const CASES = Number(process.env.NSYS_FUZZ_CASES ?? 60);
/** A generous bound for one small case: the valid files decode in well under a second. */
const CASE_LIMIT_MS = 10_000;

type Outcome = { model: Model; error?: undefined } | { model?: undefined; error: Error };

async function attempt(name: string, bytes: Uint8Array): Promise<Outcome> {
  try {
    const model = await loadModel(memorySource(name, bytes));
    // The CLI's statistics run over the whole model, as `nvtxview stats` would.
    fileStats(name, model, { groupBy: 'name', mode: 'clip' });
    return { model };
  } catch (e) {
    return { error: e as Error };
  }
}

/** A model that keeps its rules, or a load error that names the file: nothing else. */
function expectSound(name: string, outcome: Outcome): void {
  if (outcome.error) {
    expect(outcome.error.message, `${name}: ${outcome.error.stack}`).toMatch(new RegExp(`^${name.replace(/\./g, '\\.')}: `));
    expect(outcome.error).not.toBeInstanceOf(RangeError);
    return;
  }
  expect(modelProblems(outcome.model), name).toEqual([]);
}

describe('fuzzing reproducers', () => {
  for (const file of ['sqlite-crafted-181-internal.sqlite', 'sqlite-crafted-200-internal.sqlite']) {
    it(`${file} loads what is valid and names each row it skips`, async () => {
      const outcome = await attempt(file, new Uint8Array(readFileSync(FUZZ + file)));
      expectSound(file, outcome);
      const skipped = outcome.model!.issues.filter((i) => /row is skipped/.test(i.message));
      expect(skipped.length).toBeGreaterThan(0);
      for (const issue of skipped) expect(issue.message).toMatch(/^table CUPTI_ACTIVITY_KIND_\w+ row \d+: (start|end) |^table NVTX_EVENTS row \d+: /);
    });
  }
});

/** 300 kernels, API calls and NVTX ranges in one process; times in a 3 ms session. */
function threeHundred(): ExportSpec {
  const spec: ExportSpec = {
    span: [0, 3_000_000],
    sessionStartUtcNs: 1_700_000_000_000_000_000n,
    processes: [[10, 'app']],
    threads: [[10, 11, 'main']],
    nvtx: [],
    runtime: [],
    kernels: [],
  };
  for (let i = 0; i < 100; i++) {
    const t = 1000 + i * 10_000;
    spec.nvtx!.push({ start: t, end: t + 5000, type: T.pushPop, pid: 10, tid: 11, text: `step ${i}` });
    spec.runtime!.push({ start: t + 100, end: t + 200, pid: 10, tid: 11, correlationId: i + 1, name: 'cudaLaunchKernel_v7000' });
    spec.kernels!.push({ start: t + 300, end: t + 900, pid: 10, correlationId: i + 1, name: `k${i}` });
  }
  return spec;
}

/** Event times of a model by name (ranges), absolute: the capture origin plus the model time. */
function absoluteTimes(m: Model): Map<string, string> {
  const origin = BigInt(m.capture.originNs);
  const out = new Map<string, string>();
  for (let r = 0; r < m.ranges.startNs.length; r++) {
    const name = m.strings[m.styles.name[m.ranges.style[r]]];
    const track = m.tracks.find((t) => r >= t.rangeBegin && r < t.rangeEnd)!;
    out.set(`${track.kind}:${track.label}:${name}`, `${origin + BigInt(m.ranges.startNs[r])}..${origin + BigInt(m.ranges.endNs[r])}`);
  }
  return out;
}

describe('REAL timestamps', async () => {
  const clean = await buildExport(threeHundred());
  const reference = absoluteTimes((await attempt('clean.sqlite', clean)).model!);

  const hostile: Array<[string, string]> = [
    ['+inf', '9e999'],
    ['-inf', '-9e999'],
    ['1e308', '1e308'],
    ['-1e308', '-1e308'],
    ['INT64_MIN', '-9223372036854775808'],
    ['INT64_MAX', '9223372036854775807'],
    ['text', "'soon'"],
  ];
  const tables: Array<[string, string]> = [
    ['NVTX_EVENTS', 'start'],
    ['NVTX_EVENTS', '"end"'],
    ['CUPTI_ACTIVITY_KIND_KERNEL', 'start'],
    ['CUPTI_ACTIVITY_KIND_RUNTIME', '"end"'],
  ];
  for (const [label, value] of hostile) {
    it(`${label} in a start or end is a load issue naming table and row; nothing else moves`, async () => {
      for (const [table, column] of tables) {
        const bytes = await mutate(clean, (db) => db.run(`UPDATE ${table} SET ${column} = ${value} WHERE rowid = 42`));
        const outcome = await attempt('hostile.sqlite', bytes);
        expectSound('hostile.sqlite', outcome);
        const m = outcome.model!;
        const issue = m.issues.find((i) => i.message.startsWith(`table ${table} row 42: ${column.replace(/"/g, '')} `));
        expect(issue, `${table}.${column} = ${label}: ${m.issues.map((i) => i.message).join('\n')}`).toMatchObject({ severity: 'error' });
        const times = absoluteTimes(m);
        // Every event but the skipped row (and, for the kernel or NVTX range, its projection) keeps its absolute time.
        expect(times.size).toBeGreaterThanOrEqual(reference.size - 2);
        for (const [key, time] of times) expect(time, key).toBe(reference.get(key));
      }
    });
  }

  it('an absurd session span (ANALYSIS_DETAILS) does not stretch the capture', async () => {
    const bytes = await mutate(clean, (db) => db.run('UPDATE ANALYSIS_DETAILS SET startTime = -1e308, stopTime = 9e999'));
    const outcome = await attempt('span.sqlite', bytes);
    expectSound('span.sqlite', outcome);
    expect(outcome.model!.durationNs).toBeLessThan(10_000_000);
  });
});

async function mutate(bytes: Uint8Array, change: (db: Database) => void): Promise<Uint8Array> {
  const db = await openDatabase(bytes);
  try {
    change(db);
    return db.export();
  } finally {
    db.close();
  }
}

/** Values a hostile or damaged export may hold in any cell. */
const HOSTILE_VALUES = [
  '9e999',
  '-9e999',
  '1e308',
  '-1e308',
  '-9223372036854775808',
  '9223372036854775807',
  '9007199254740993',
  '0.5',
  '-1',
  '0',
  'NULL',
  "'text'",
  "X'00ff'",
  "'\"><img src=x onerror=alert(1)>'",
  '4294967295',
];

/** One SQL mutation of a random table: a hostile cell value, rows deleted or repeated, a table dropped. */
function sqlMutation(rnd: Random, db: Database): string {
  const tables = db.exec("SELECT name FROM sqlite_master WHERE type = 'table'")[0].values.map((v) => String(v[0]));
  const table = rnd.pick(tables);
  const columns = db.exec(`PRAGMA table_info("${table}")`)[0]?.values.map((v) => String(v[1])) ?? [];
  const count = Number(db.exec(`SELECT count(*) FROM "${table}"`)[0].values[0][0]);
  const choice = rnd.int(0, 9);
  if (choice <= 5 && columns.length > 0 && count > 0) {
    const column = rnd.pick(columns);
    const value = rnd.pick(HOSTILE_VALUES);
    const where = rnd.chance(0.2) ? '' : ` WHERE rowid IN (SELECT rowid FROM "${table}" ORDER BY random() LIMIT ${rnd.int(1, 5)})`;
    return `UPDATE "${table}" SET "${column}" = ${value}${where}`;
  }
  if (choice === 6 && count > 0) return `DELETE FROM "${table}" WHERE rowid % ${rnd.int(2, 5)} = 0`;
  if (choice === 7 && count > 0) return `INSERT INTO "${table}" SELECT * FROM "${table}" LIMIT ${rnd.int(1, 50)}`;
  if (choice === 8) return `DROP TABLE "${table}"`;
  return `UPDATE "${table}" SET rowid = -rowid`;
}

/** Byte damage past the first page: flipped bytes, or the file cut short. */
function byteMutation(rnd: Random, bytes: Uint8Array): Uint8Array {
  const out = bytes.slice();
  if (rnd.chance(0.3)) return out.subarray(0, rnd.int(100, out.length - 1));
  const flips = rnd.int(1, 16);
  for (let k = 0; k < flips; k++) out[rnd.int(100, out.length - 1)] ^= 1 << rnd.int(0, 7);
  return out;
}

describe('seeded hostile exports', async () => {
  const seeds: Array<[string, Uint8Array]> = [
    ['generated', await buildExport(threeHundred())],
    ['real 2025.3', new Uint8Array(readFileSync(REAL_2025_3))],
  ];

  it(`${CASES} SQL-mutated and byte-mutated exports load soundly or fail with the file's name, each within ${CASE_LIMIT_MS / 1000} s`, async () => {
    const rnd = new Random(20261124);
    for (let n = 0; n < CASES; n++) {
      const [seedName, seed] = seeds[n % seeds.length];
      const name = `case-${n}.sqlite`;
      let bytes: Uint8Array;
      let what: string;
      if (rnd.chance(0.6)) {
        const statements: string[] = [];
        bytes = await mutate(seed, (db) => {
          for (let k = rnd.int(1, 4); k > 0; k--) {
            const sql = sqlMutation(rnd, db);
            statements.push(sql);
            try {
              db.run(sql);
            } catch {
              // A mutation SQLite refuses (a constraint) leaves the file as it was.
            }
          }
        });
        what = `${seedName} + ${statements.join('; ')}`;
      } else {
        bytes = byteMutation(rnd, seed);
        what = `${seedName}, bytes damaged`;
      }
      const started = performance.now();
      const outcome = await attempt(name, bytes);
      const ms = performance.now() - started;
      expect(ms, `${name} (${what}) took ${ms.toFixed(0)} ms`).toBeLessThan(CASE_LIMIT_MS);
      expectSound(name, outcome);
    }
  }, 600_000);
});
