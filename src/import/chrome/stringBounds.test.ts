/** Chrome JSON: string sizes are bounded (issue 16): names, categories, args, thread and process names. */
import { describe, expect, it } from 'vitest';
import { CUT_MARK, MAX_STRING_CHARS } from '../../model/build/stringCuts.ts';
import { payloadValue } from '../../model/payload.ts';
import { rangeName } from '../../model/query.ts';
import type { Model } from '../../model/types.ts';
import { modelViolations } from '../../../testkit/models/invariants.ts';
import { loadModel, memorySource } from '../pipeline.ts';

const load = (text: string) => loadModel(memorySource('long.json', new TextEncoder().encode(text)));
const cutNotes = (m: Model) => m.issues.filter((i) => i.message.includes('cut to 64 KiB')).map((i) => ({ offset: i.offset, message: i.message }));

describe('Chrome JSON: string sizes are bounded', () => {
  it('cuts long names, categories, args and thread names; one report per kind with its count and first byte', async () => {
    const longName = 'n'.repeat(100_000);
    const events = [
      { ph: 'X', name: 'short', cat: 'c', ts: 1, dur: 1, pid: 1, tid: 1 },
      { ph: 'X', name: longName, cat: 'k'.repeat(70_000), ts: 3, dur: 1, pid: 1, tid: 1 },
      { ph: 'X', name: longName + 'b', ts: 5, dur: 1, pid: 1, tid: 1, args: { text: 'a'.repeat(80_000) } },
      { ph: 'i', name: `esc\\"${'e'.repeat(90_000)}`, ts: 7, pid: 1, tid: 1, s: 't' },
      { ph: 'M', name: 'thread_name', pid: 1, tid: 1, args: { name: 't'.repeat(75_000) } },
    ];
    const text = JSON.stringify(events);
    const m = await load(text);
    expect(modelViolations(m, 5)).toEqual([]);
    const names = Array.from(m.ranges.startNs, (_, i) => rangeName(m, i));
    expect(names.map((n) => n.length)).toEqual([5, MAX_STRING_CHARS, MAX_STRING_CHARS]);
    expect(names[1].endsWith(CUT_MARK) && names[1].startsWith('nnn')).toBe(true);
    // Two names that differ only past the bound stay two events with the same (cut) name.
    expect(names[2]).toBe(names[1]);
    expect(m.categories.map((c) => c.name.length)).toContain(MAX_STRING_CHARS);
    expect(m.threads[0].name).toHaveLength(MAX_STRING_CHARS);
    // A JSON text over the bound would not parse once cut: it is kept as cut text.
    const args = payloadValue(m, m.ranges.payload[2]);
    expect(args?.value).toEqual(expect.stringMatching(/^\{"text":"aaa/));
    expect(String(args?.value)).toHaveLength(MAX_STRING_CHARS);
    expect(Math.max(...m.strings.map((s) => s.length))).toBeLessThanOrEqual(MAX_STRING_CHARS);
    const notes = cutNotes(m);
    // Each at its event object's `{`.
    const second = text.indexOf('{"ph":"X","name":"nnn');
    const third = text.indexOf('{"ph":"X"', second + 1);
    expect(notes).toEqual(
      expect.arrayContaining([
        { offset: second, message: `3 names cut to 64 KiB (65,536 characters, then "…"; the longest had 100,001); the first at byte ${second}` },
        { offset: second, message: expect.stringContaining('1 category name cut') },
        { offset: third, message: expect.stringContaining('1 payload text cut to 64 KiB (65,536 characters, then "…"; the longest had 80,011)') },
        { offset: text.indexOf('{"ph":"M"'), message: expect.stringContaining('1 thread name cut') },
      ]),
    );
    expect(notes).toHaveLength(4);
  });

  it('cuts a long counter name (the counter row label) and a long args key (its series)', async () => {
    const m = await load(JSON.stringify([{ ph: 'C', name: 'q'.repeat(70_000), ts: 1, pid: 1, tid: 1, args: { ['k'.repeat(70_000)]: 3 } }]));
    expect(modelViolations(m, 5)).toEqual([]);
    const counters = m.tracks.filter((t) => t.kind === 'counter');
    expect(counters.length).toBeGreaterThan(0);
    for (const t of counters) for (const text of [t.label, ...t.path]) expect(text.length).toBeLessThanOrEqual(MAX_STRING_CHARS);
    expect(cutNotes(m).length).toBeGreaterThan(0);
  });

  it('keeps the model small for a file of one 100 MB name', async () => {
    const text = `[{"ph":"X","name":"${'m'.repeat(100 << 20)}","ts":1,"dur":2,"pid":1,"tid":1},{"ph":"X","name":"after","ts":4,"dur":1,"pid":1,"tid":1}]`;
    const m = await load(text);
    const names = Array.from(m.ranges.startNs, (_, i) => rangeName(m, i));
    expect(names.map((n) => n.length)).toEqual([MAX_STRING_CHARS, 5]);
    expect(m.strings.reduce((n, s) => n + s.length, 0)).toBeLessThan(2 * MAX_STRING_CHARS);
    expect(cutNotes(m)).toEqual([{ offset: 1, message: expect.stringContaining('1 name cut to 64 KiB (65,536 characters, then "…"; the longest had 104,857,600); the first at byte 1') }]);
  }, 60_000);
});
