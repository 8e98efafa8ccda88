/**
 * Hostile Chrome JSON (issue 16): the fuzzing reproducers in ../shared/fixtures/fuzz/, extreme and
 * non-finite numbers, deep nesting. Each must load what is valid, say what is not at its byte
 * offset, and give a model that keeps the model's rules.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelViolations } from '../../../testkit/models/invariants.ts';
import { rangeName } from '../../model/query.ts';
import type { Model } from '../../model/types.ts';
import { loadModel, memorySource } from '../pipeline.ts';

const FUZZ_DIR = '../shared/fixtures/fuzz';

const load = (text: string, name = 'hostile.json') => loadModel(memorySource(name, new TextEncoder().encode(text)));

function rangesOf(m: Model): [string, number, number][] {
  return Array.from(m.ranges.startNs, (s, i) => [rangeName(m, i), s, m.ranges.endNs[i]] as [string, number, number]).sort((a, b) => a[1] - b[1]);
}

describe('Chrome fuzzing reproducers', () => {
  const files = readdirSync(FUZZ_DIR).filter((f) => f.startsWith('chrome-'));

  it('are all there', () => {
    expect(files.length).toBeGreaterThanOrEqual(6);
  });

  for (const file of files) {
    it(`${file} loads what is valid into a sound model`, async () => {
      const bytes = new Uint8Array(readFileSync(join(FUZZ_DIR, file)));
      const m = await loadModel(memorySource(file, bytes));
      expect(modelViolations(m)).toEqual([]);
      expect(m.ranges.startNs.length).toBeGreaterThan(0);
      // Every problem is placed in the file (summaries of the ones not listed excepted).
      for (const issue of m.issues) if (issue.severity !== 'info' && !/not listed/.test(issue.message)) expect(issue.offset ?? issue.line, issue.message).toBeDefined();
    });
  }

  it('say why: timestamps out of range, nesting too deep', async () => {
    const read = async (file: string) => (await loadModel(memorySource(file, new Uint8Array(readFileSync(join(FUZZ_DIR, file)))))).issues.map((i) => i.message);
    expect((await read('chrome-3557-invalid-model.json')).join('\n')).toMatch(/"ts" 1e\+308 µs, out of range/);
    expect((await read('chrome-2808-internal.json')).join('\n')).toMatch(/top-level "otherData" nests \d+ levels deep/);
  });
});

describe('Chrome numbers out of range', () => {
  const trace = (ts: string, dur = '1') =>
    `{"traceEvents":[\n{"ph":"X","name":"ok","pid":1,"tid":1,"ts":10,"dur":5},\n{"ph":"X","name":"bad","pid":1,"tid":1,"ts":${ts},"dur":${dur}},\n{"ph":"X","name":"ok2","pid":1,"tid":1,"ts":20,"dur":5}]}`;

  for (const ts of ['-1e308', '1e308', '1e309', '-1e309', '9007199254740993', `1${'0'.repeat(400)}`, '"1e999"']) {
    it(`ts ${ts.slice(0, 20)} is a load issue at its byte offset, never a model value`, async () => {
      const text = trace(ts);
      const m = await load(text);
      expect(modelViolations(m)).toEqual([]);
      expect(rangesOf(m)).toEqual([
        ['ok', 0, 5000],
        ['ok2', 10000, 15000],
      ]);
      const issue = m.issues.find((i) => /"ts" .* out of range/.test(i.message));
      expect(issue, JSON.stringify(m.issues)).toBeDefined();
      expect(issue!.offset).toBe(text.indexOf('{"ph":"X","name":"bad"'));
      expect(m.capture.originNs).toBe('10000');
    });
  }

  it('as the first timestamp too (the origin comes from a valid one)', async () => {
    const m = await load(`[{"ph":"X","name":"bad","pid":1,"tid":1,"ts":-1e308,"dur":1},{"ph":"X","name":"ok","pid":1,"tid":1,"ts":3,"dur":1}]`);
    expect(rangesOf(m)).toEqual([['ok', 0, 1000]]);
    expect(m.capture.originNs).toBe('3000');
  });

  it('a dur out of range draws the event with zero length and says so', async () => {
    for (const dur of ['1e308', '1e309', '-1e308', '9007199254741']) {
      const m = await load(trace('12', dur));
      expect(modelViolations(m), dur).toEqual([]);
      expect(rangesOf(m).find(([n]) => n === 'bad'), dur).toEqual(['bad', 2000, 2000]);
      expect(m.issues.some((i) => /"dur" .* out of range/.test(i.message)), dur).toBe(true);
    }
  });

  it('a negative dur names its event and draws it with zero length', async () => {
    const m = await load(trace('12', '-3.5'));
    expect(rangesOf(m).find(([n]) => n === 'bad')).toEqual(['bad', 2000, 2000]);
    expect(m.issues.map((i) => i.message)).toContain('complete event "bad" has a negative "dur" (-3.5 µs); drawn with zero length');
  });

  it('a counter value that is not finite is skipped with a message', async () => {
    const m = await load(`[{"ph":"C","name":"c","pid":1,"ts":1,"args":{"v":1e309}},{"ph":"C","name":"c","pid":1,"ts":2,"args":{"v":"-Infinity"}},{"ph":"C","name":"c","pid":1,"ts":3,"args":{"v":2}}]`);
    expect(Array.from(m.counters.value)).toEqual([2]);
    expect(m.issues.filter((i) => /not a finite number/.test(i.message)).length).toBeGreaterThan(0);
    expect(modelViolations(m)).toEqual([]);
  });
});

describe('Chrome deep nesting', () => {
  it('a deep top-level value is shown as text, never recursed into', async () => {
    for (const depth of [100, 6_000, 200_000]) {
      const text = `{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1}],"otherData":${'['.repeat(depth)}${']'.repeat(depth)},"metadata":{"a":${'{"b":'.repeat(depth)}1${'}'.repeat(depth)}}}`;
      const m = await load(text);
      expect(m.ranges.startNs.length).toBe(1);
      expect(m.issues.map((i) => i.message)).toEqual([
        `top-level "otherData" nests ${depth} levels deep (more than 64); shown as text`,
        `top-level "metadata" nests ${depth + 1} levels deep (more than 64); shown as text`,
      ]);
      expect(m.capture.properties.otherData.length).toBeLessThanOrEqual(2001);
    }
  });

  it('deep args skip their event with a message and keep the rest', async () => {
    const deep = `${'{"a":'.repeat(6_000)}1${'}'.repeat(6_000)}`;
    const text = `[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},{"ph":"X","name":"deep","pid":1,"tid":1,"ts":2,"dur":1,"args":${deep}},{"ph":"X","name":"b","pid":1,"tid":1,"ts":3,"dur":1}]`;
    const m = await load(text);
    expect(rangesOf(m).map(([n]) => n)).toEqual(['a', 'b']);
    expect(m.issues.some((i) => /nesting deeper than 512 levels/.test(i.message))).toBe(true);
  });
});

describe('Chrome timestamps half a nanosecond apart', () => {
  it('round half to even, as the text says exactly', async () => {
    // .0005 µs = 0.5 ns: to even (0); .0015 = 1.5 ns: to 2; .0025 = 2.5 ns: to 2; more digits decide.
    const text = JSON.stringify([
      { ph: 'X', name: 'o', pid: 1, tid: 1, ts: 100, dur: 0 },
      ...[['a', '0.0005'], ['b', '0.0015'], ['c', '0.0025'], ['d', '0.00250001'], ['e', '0.0024999'], ['f', '2.5e-3'], ['g', '-0.0025']].map(([name, dur]) => ({ ph: 'X', name, pid: 1, tid: 2, ts: 200, dur: `@${dur}@` })),
    ]).replace(/"@([^@]*)@"/g, '$1');
    const m = await load(text);
    const len = Object.fromEntries(rangesOf(m).map(([n, s, e]) => [n, e - s]));
    expect(len).toMatchObject({ a: 0, b: 2, c: 2, d: 3, e: 2, f: 2 });
    // Timestamps the same way, on both decode paths (fast and general: the nested args).
    const ts = await load('[{"ph":"i","name":"x","pid":1,"tid":1,"ts":1.0000},{"ph":"i","name":"y","pid":1,"tid":1,"ts":1.0035},{"ph":"i","name":"z","pid":1,"tid":1,"ts":1.0045,"args":{"n":{"m":[1]}}}]');
    expect(Array.from(ts.marks.timeNs)).toEqual([0, 4, 4]);
  });
});
