/** Nsight Systems exports: string sizes are bounded (issue 16): NVTX texts, StringIds, thread, category and kernel names, JSON payloads. */
import { describe, expect, it } from 'vitest';
import { buildExport, T, type ExportSpec } from '../../../testkit/writers/nsysExport.ts';
import { modelViolations } from '../../../testkit/models/invariants.ts';
import { CUT_MARK, MAX_STRING_CHARS } from '../../model/build/stringCuts.ts';
import { payloadValue } from '../../model/payload.ts';
import { rangeName } from '../../model/query.ts';
import type { Model } from '../../model/types.ts';
import { loadModel, memorySource } from '../pipeline.ts';

const cutNotes = (m: Model) => m.issues.filter((i) => i.message.includes('cut to 64 KiB')).map((i) => i.message);
const load = async (spec: ExportSpec) => loadModel(memorySource('long.sqlite', await buildExport(spec)));

function base(): ExportSpec {
  return { span: [0, 1_000_000], sessionStartUtcNs: 1_700_000_000_000_000_000n, processes: [[10, 'app']], threads: [[10, 11, 'main']], nvtx: [], runtime: [], kernels: [] };
}

describe('Nsight SQLite: string sizes are bounded', () => {
  it('cuts long NVTX texts, registered strings, thread, category and kernel names and JSON payloads; one report per kind, naming table and row', async () => {
    const spec = base();
    spec.strings = ['r'.repeat(80_000)];
    spec.threads = [[10, 11, 't'.repeat(75_000)]];
    spec.nvtx = [
      { start: 100, end: 200, type: T.pushPop, pid: 10, tid: 11, text: 'short' },
      { start: 300, end: 400, type: T.pushPop, pid: 10, tid: 11, text: 'n'.repeat(100_000) },
      { start: 500, end: 600, type: T.pushPop, pid: 10, tid: 11, textId: 0 },
      { start: 700, end: 800, type: T.pushPop, pid: 10, tid: 11, text: 'j', jsonText: JSON.stringify({ a: 'a'.repeat(90_000) }) },
      { start: 900, type: T.category, pid: 10, tid: 11, category: 3, text: 'c'.repeat(70_000) },
    ];
    spec.runtime = [{ start: 1000, end: 1100, pid: 10, tid: 11, correlationId: 1, name: 'cudaLaunchKernel_v7000' }];
    spec.kernels = [{ start: 1200, end: 1300, pid: 10, correlationId: 1, name: 'k'.repeat(66_000) }];
    const m = await load(spec);
    expect(modelViolations(m, 5)).toEqual([]);
    const names = Array.from(m.ranges.startNs, (_, i) => rangeName(m, i));
    expect(names).toContain('short');
    const cut = names.filter((n) => n.length === MAX_STRING_CHARS);
    expect(cut.map((n) => n.slice(0, 3)).sort()).toEqual(['kkk', 'nnn', 'rrr']);
    for (const n of cut) expect(n.endsWith(CUT_MARK)).toBe(true);
    expect(m.threads.find((t) => t.tid === 11)!.name).toHaveLength(MAX_STRING_CHARS);
    expect(m.categories.map((c) => c.name.length)).toContain(MAX_STRING_CHARS);
    const json = names.indexOf('j');
    expect(String(payloadValue(m, m.ranges.payload[json])?.value)).toHaveLength(MAX_STRING_CHARS);
    expect(Math.max(...m.strings.map((s) => s.length))).toBeLessThanOrEqual(MAX_STRING_CHARS);
    const notes = cutNotes(m);
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^1 thread name cut to 64 KiB .*; the first in StringIds id \d+$/),
        expect.stringMatching(/^1 category name cut to 64 KiB .*; the first in NVTX_EVENTS row \d+$/),
        expect.stringMatching(/^1 payload text cut to 64 KiB .*the longest had 90,008\)$/),
      ]),
    );
    // Names (the NVTX text column, the registered string, the kernel name; a name is counted each time it is read): one line.
    const nameNotes = notes.filter((n) => /^\d+ names? cut/.test(n));
    expect(nameNotes).toEqual([expect.stringMatching(/^[3-9] names cut to 64 KiB .*the longest had 100,000\); the first in NVTX_EVENTS, column text$/)]);
    expect(notes).toHaveLength(4);
  });

  it('keeps the model small for an export of one 100 MB NVTX text', async () => {
    const spec = base();
    spec.nvtx = [
      { start: 100, end: 200, type: T.pushPop, pid: 10, tid: 11, text: 'm'.repeat(100 << 20) },
      { start: 300, end: 400, type: T.pushPop, pid: 10, tid: 11, text: 'after' },
    ];
    const m = await load(spec);
    const names = Array.from(m.ranges.startNs, (_, i) => rangeName(m, i));
    expect(names.map((n) => n.length).sort((a, b) => a - b)).toEqual([5, MAX_STRING_CHARS]);
    expect(m.strings.reduce((n, s) => n + s.length, 0)).toBeLessThan(2 * MAX_STRING_CHARS);
    expect(cutNotes(m)).toEqual([expect.stringContaining('1 name cut to 64 KiB (65,536 characters, then "…"; the longest had 104,857,600)')]);
  }, 120_000);
});
