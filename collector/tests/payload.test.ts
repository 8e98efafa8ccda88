/**
 * The payload and counters extensions end to end: C programs register schemas for real C structs
 * (laid out by gcc), counters and time domains, make payload events, counter samples and deferred
 * event batches, and print as JSON what they passed (collector/tests/json.h). Each runs under
 * nvtx-capture; the capture is decoded by the viewer's pipeline and every decoded value is compared
 * with what the program printed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileSource } from '../../src/import/nodeSource.ts';
import { loadModel } from '../../src/import/pipeline.ts';
import type { Model, Track } from '../../src/model/types.ts';
import { payloadJson } from '../../src/payload/payloadText.ts';
import { decodeModelPayload } from '../../src/model/extPayloadReader.ts';
import { main } from '../../src/cli/main.ts';

/** `nvtxview events --json` of a capture, parsed. */
async function eventsJson(path: string): Promise<Record<string, unknown>[]> {
  let out = '';
  const io = { stdout: { write: (t: string) => void (out += t) }, stderr: { write: () => undefined } };
  expect(await main(['events', '--json', path], io)).toBe(0);
  return JSON.parse(out) as Record<string, unknown>[];
}

const collector = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const build = join(collector, 'build');
let work = '';

interface Line {
  type: string;
  pid: number;
  tid: number;
  name: string;
  [key: string]: unknown;
}

async function capture(program: string, args: string[] = []): Promise<{ lines: Line[]; model: Model; status: number | null; path: string }> {
  const path = join(work, `${program}.nvtxc`);
  const run = spawnSync(join(build, 'nvtx-capture'), ['-q', '-o', path, '--', join(build, 'tests', program), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  const lines = run.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line);
  const source = await fileSource(path);
  try {
    return { lines, model: await loadModel(source), status: run.status, path };
  } finally {
    await source.close();
  }
}

/** The payloads of an event as the viewer prints them, one object per payload (referenced blobs left out). */
function eventPayloads(model: Model, payload: number): { begin: unknown[]; end: unknown[] } {
  const p = decodeModelPayload(model, payload);
  if (!p) return { begin: [], end: [] };
  const json = (list: typeof p.decodedBegin) => list.filter((x) => x.kind !== 'referenced').map((x) => payloadJson(x));
  return { begin: json(p.decodedBegin), end: json(p.decodedEnd) };
}

const nameOf = (model: Model, style: number) => model.strings[model.styles.name[style]];
const categoryOf = (model: Model, style: number) => {
  const c = model.styles.category[style];
  return c >= 0 ? model.categories[c].id : 0;
};
const rowOf = (t: Track) => [...t.path, t.label].join(' > ');

beforeAll(() => {
  const made = spawnSync('make', ['-s', '-C', collector, 'tests'], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`make -C collector tests failed:\n${made.stdout}\n${made.stderr}`);
  work = mkdtempSync(join(tmpdir(), 'nvtxcapture-payload-'));
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('payload schemas of real C structs', () => {
  let lines: Line[];
  let model: Model;
  let path: string;

  beforeAll(async () => {
    ({ lines, model, path } = await capture('payload_schemas'));
  });

  it('follows the registration rules: static ids, generated ids, refusals', () => {
    const checks = lines.filter((l) => l.type === 'check');
    expect(checks.length).toBeGreaterThan(10);
    for (const c of checks) expect(c.ok, c.name).toBe(true);
  });

  it('decodes the capture cleanly, with every event call', () => {
    // The program's nine deliberately invalid registrations are noted by the collector, once, with their count.
    expect(model.issues.map((i) => i.message)).toEqual([
      expect.stringMatching(/^the collector noted bad input from the program: a payload schema or enum registration was refused .*\(9 times\)$/),
    ]);
    expect(model.capture.properties.events).toBe(String(lines.find((l) => l.type === 'events')!.count));
  });

  it('decodes every value of every payload as the program passed it, names events by their message entries', () => {
    const expected = lines.filter((l) => l.type === 'payload');
    expect(expected.length).toBe(9);
    for (const line of expected) {
      let style: number;
      let payload: number;
      let tid: number;
      if (line.layout === 'mark') {
        const i = Array.from(model.marks.style).findIndex((s) => nameOf(model, s) === line.name);
        expect(i, `mark "${line.name}"`).toBeGreaterThanOrEqual(0);
        style = model.marks.style[i];
        payload = model.marks.payload[i];
        tid = model.threads[model.marks.thread[i]].tid;
      } else {
        const i = Array.from(model.ranges.style).findIndex((s) => nameOf(model, s) === line.name);
        expect(i, `range "${line.name}"`).toBeGreaterThanOrEqual(0);
        style = model.ranges.style[i];
        payload = model.ranges.payload[i];
        tid = model.threads[model.ranges.thread[i]].tid;
        const track = model.tracks.find((t) => i >= t.rangeBegin && i < t.rangeEnd)!;
        expect(track.kind).toBe(line.layout === 'pushpop' ? 'pushpop' : 'category');
      }
      expect(tid).toBe(line.tid);
      if (line.color !== undefined) expect(model.styles.color[style], `color of "${line.name}"`).toBe(line.color);
      if (line.category !== undefined) expect(categoryOf(model, style), `category of "${line.name}"`).toBe(line.category);
      const decoded = eventPayloads(model, payload);
      expect(decoded.begin, `payloads of "${line.name}"`).toEqual(line.payloads);
      expect(decoded.end, `end payloads of "${line.name}"`).toEqual(line.end ?? []);
    }
  });

  it('keeps the program type table and the registered strings with their handles', () => {
    const registry = model.payloadRegistry!;
    expect(registry.typeInfo?.[0]).toEqual({ size: 28, align: 4 });
    expect(registry.typeInfo?.[21]).toEqual({ size: 16, align: 16 }); // long double
    expect(registry.strings?.some((s) => s.text === 'registered text' && s.handle > 0)).toBe(true);
    expect(registry.schemas.find((s) => s.name === 'outer')?.entries[1].description).toBe('a nested struct');
  });

  it('prints the decoded fields in nvtxview events --json', async () => {
    const events = await eventsJson(path);
    const line = lines.find((l) => l.type === 'payload' && l.name === 'deep copies')!;
    const event = events.find((e) => e.name === 'deep copies')!;
    expect(event.kind).toBe('mark');
    // All payloads' fields in one object (later duplicates renamed), as the program passed them.
    const fields = Object.assign({}, ...(line.payloads as object[]));
    expect(event.payload).toEqual(fields);
    // Pop payloads under "@end".
    const renamed = events.find((e) => e.name === 'renamed at pop')!;
    const renamedLine = lines.find((l) => l.type === 'payload' && l.name === 'renamed at pop')!;
    expect((renamed.payload as Record<string, unknown>)['@end']).toEqual((renamedLine.end as unknown[])[0]);
  });

  it('shows the hidden entries as hidden', () => {
    const i = Array.from(model.marks.style).findIndex((s) => nameOf(model, s) === 'dynamic');
    const decoded = decodeModelPayload(model, model.marks.payload[i])!;
    const secret = decoded.decodedBegin[0].fields.find((f) => f.name === 'secret')!;
    expect(secret.hidden).toBe(true);
  });
});

describe('deferred events in custom time domains', () => {
  let lines: Line[];
  let model: Model;

  beforeAll(async () => {
    ({ lines, model } = await capture('deferred_batch'));
  });

  it('reports the events of the domain no sync point relates to the capture, and nothing else', () => {
    const unplaced = lines.find((l) => l.type === 'unplaced')!;
    expect(model.issues).toHaveLength(1);
    expect(model.issues[0].message).toMatch(new RegExp(`^${unplaced.count} deferred events with timestamps in time domain \\d+ are not shown: no sync point`));
    expect(model.capture.properties.events).toBe(String(lines.find((l) => l.type === 'events')!.count));
  });

  it('places each event at the time its domain maps to, on the row of its scope or thread, sorted', () => {
    const expected = lines.filter((l) => l.type === 'deferred');
    expect(expected.length).toBe(11);
    const origin = BigInt(model.capture.originNs);
    const abs = (t: number) => origin + BigInt(Math.round(t));
    const near = (t: number, ns: number, what: string) => {
      const error = Number(abs(t) - BigInt(ns));
      expect(Math.abs(error), `${what} off by ${error} ns`).toBeLessThan(200_000);
    };
    for (const line of expected) {
      let track: Track | undefined;
      if (line.kind === 'range') {
        const i = Array.from(model.ranges.style).findIndex((s) => nameOf(model, s) === line.name);
        expect(i, line.name).toBeGreaterThanOrEqual(0);
        track = model.tracks.find((t) => i >= t.rangeBegin && i < t.rangeEnd);
        near(model.ranges.startNs[i], line.start as number, `${line.name} start`);
        near(model.ranges.endNs[i], line.end as number, `${line.name} end`);
      } else {
        const i = Array.from(model.marks.style).findIndex((s) => nameOf(model, s) === line.name);
        expect(i, line.name).toBeGreaterThanOrEqual(0);
        track = model.tracks.find((t) => i >= t.markBegin && i < t.markEnd);
        near(model.marks.timeNs[i], line.start as number, line.name);
      }
      expect(rowOf(track!), line.name).toBe(line.row);
      expect(track!.thread === -1 ? -1 : model.threads[track!.thread].tid, line.name).toBe(line.tid);
    }
    // The marks' names come from offsets into the batch's flex data, in the panel too.
    const flexMark = Array.from(model.marks.style).findIndex((s) => nameOf(model, s) === 'flex mark A');
    const fields = eventPayloads(model, model.marks.payload[flexMark]).begin[0] as Record<string, unknown>;
    expect(fields.name).toBe('flex mark A');
    // Far into 8 KiB of flex data (stored once per batch, not per event).
    const far = Array.from(model.marks.style).findIndex((s) => nameOf(model, s) === 'flex mark B');
    expect((eventPayloads(model, model.marks.payload[far]).begin[0] as Record<string, unknown>).name).toBe('flex mark B');
    // The unsorted batch comes out in time order on its row.
    const kernels = model.tracks.find((t) => rowOf(t) === 'GPU 0 > stream 1 > Ranges')!;
    const names = [];
    for (let i = kernels.rangeBegin; i < kernels.rangeEnd; i++) names.push(nameOf(model, model.ranges.style[i]));
    expect(names).toEqual(['kernel 0', 'kernel 1', 'kernel 2', 'kernel 3', 'kernel 4']);
  });
});

describe('counters', () => {
  let lines: Line[];
  let model: Model;
  let path: string;

  beforeAll(async () => {
    ({ lines, model, path } = await capture('counters_kinds'));
  });

  it('keeps a batch larger than the thread buffer whole, and the samples after it', () => {
    const line = lines.find((l) => l.type === 'bigbatch')!;
    const track = model.tracks.find((t) => t.label === 'big batch')!;
    const values = model.counters.value.subarray(track.counterBegin, track.counterEnd);
    expect(values.length).toBe(line.count);
    expect(values.reduce((a, b) => a + b, 0)).toBe(line.sum);
    expect([values[0], values[values.length - 1]]).toEqual([line.first, line.last]);
  });

  it('prints every counter sample under its counter in nvtxview events --json', async () => {
    const events = (await eventsJson(path)).filter((e) => e.kind === 'counter');
    const depth = events.filter((e) => e.name === 'queue depth');
    const line = lines.find((l) => l.type === 'counter' && l.row === 'Counters > queue depth')!;
    // A sample without a value: value null and the reason.
    expect(depth.map((e) => e.value)).toEqual((line.values as (number | string)[]).map((v) => (v === 'NaN' ? null : v)));
    expect(depth.filter((e) => e.noValue === 'unavailable')).toHaveLength(1);
    expect(depth[0]).toMatchObject({ unit: 'items', counter: 'Counters > queue depth', durationNs: 0, pid: line.pid });
    // Delta samples carry their running total; the derived row is not printed as events of its own.
    const sent = events.filter((e) => e.name === 'bytes sent');
    const total = lines.find((l) => l.type === 'counter' && l.row === 'Counters > bytes sent (running total)')!;
    const known = (total.values as (number | string)[]).map((v, k, all) => (v === 'NaN' ? all[k - 1] : v));
    expect(sent.map((e) => [e.valueType, e.runningTotal])).toEqual(known.map((v) => ['delta', v]));
    const derived = model.tracks.filter((t) => t.counter?.derived !== undefined);
    expect(derived.map((t) => t.label)).toEqual(['bytes sent (running total)']);
    const derivedSamples = derived.reduce((n, t) => n + t.counterEnd - t.counterBegin, 0);
    expect(events.length).toBe(model.counters.value.length - derivedSamples);
  });

  it('follows the registration rules of counters, scopes and time domains', () => {
    const checks = lines.filter((l) => l.type === 'check');
    expect(checks.length).toBeGreaterThanOrEqual(10);
    for (const c of checks) expect(c.ok, c.name).toBe(true);
  });

  it('reports the unavailable samples and nothing else', () => {
    expect(model.issues.map((i) => i.severity)).toEqual(['info']);
    expect(model.issues[0].message).toMatch(/2 counter sample\(s\) were marked unavailable/);
    expect(model.capture.properties.events).toBe(String(lines.find((l) => l.type === 'events')!.count));
  });

  it('has a row per counter (per thread for thread-scoped groups) with units, scaled values, limits, interpolation and times', () => {
    const expected = lines.filter((l) => l.type === 'counter');
    expect(expected.length).toBe(11);
    const origin = BigInt(model.capture.originNs);
    const rows = model.tracks.filter((t) => t.kind === 'counter' && t.label !== 'big batch');
    expect(rows.length).toBe(expected.length);
    for (const line of expected) {
      const track = rows.find((t) => rowOf(t) === line.row && (line.tid === -1 ? t.thread === -1 : model.threads[t.thread]?.tid === line.tid));
      expect(track, `counter row ${line.row} (tid ${line.tid})`).toBeDefined();
      const t = track!;
      expect(t.unit ?? null).toBe(line.unit);
      expect(t.counter?.interpolation ?? null).toBe(line.interpolation);
      expect(t.counter?.min ?? null).toBe(line.min);
      expect(t.counter?.max ?? null).toBe(line.max);
      const values = Array.from(model.counters.value.subarray(t.counterBegin, t.counterEnd));
      const want = (line.values as (number | string)[]).map((v) => (v === 'NaN' ? NaN : (v as number)));
      expect(values.length, line.row).toBe(want.length);
      values.forEach((v, k) => {
        if (Number.isNaN(want[k])) expect(v, `${line.row}[${k}] has no value`).toBeNaN();
        else expect(v, `${line.row}[${k}]`).toBeCloseTo(want[k], 9);
      });
      const times = Array.from(model.counters.timeNs.subarray(t.counterBegin, t.counterEnd));
      for (let k = 1; k < times.length; k++) expect(times[k]).toBeGreaterThanOrEqual(times[k - 1]);
      if (line.times) {
        // Batched timestamps (nvtxTimestampGet ticks) land where CLOCK_MONOTONIC_RAW was read next to them.
        (line.times as number[]).forEach((ns, k) => {
          const error = Number(origin + BigInt(Math.round(times[k])) - BigInt(ns));
          expect(Math.abs(error), `${line.row}[${k}] off by ${error} ns`).toBeLessThan(200_000);
        });
      }
    }
  });
});
