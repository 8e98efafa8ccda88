/**
 * A real Nsight Systems 2025.3 export cut short: either what survives is loaded with a message that
 * says where the file ends, or the load fails saying that nothing could be read and why, never
 * promising what it does not show.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadModel, memorySource } from '../pipeline.ts';

const REAL_2025_3 = '../shared/fixtures/nsys/cnn-h100-nsys2025.3.sqlite';

describe('a truncated real export', () => {
  const full = new Uint8Array(readFileSync(REAL_2025_3));

  it('fails with a message that says the table list is lost when it is', async () => {
    const cut = full.slice(0, Math.floor(full.length * 0.1));
    const error = await loadModel(memorySource('cut.sqlite', cut)).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/^cut\.sqlite: the file is truncated: .* but it has 62259 \(the data ends at byte offset 62259, 9% of the file\); the list of its tables lies in the missing part/);
    expect(error?.message).not.toMatch(/is shown/);
  });

  it('loads what survives, with NVTX types known even when the enum table is lost', async () => {
    const cut = full.slice(0, Math.floor(full.length * 0.7));
    const m = await loadModel(memorySource('cut.sqlite', cut));
    expect(m.issues[0].message).toMatch(/truncated: .*; what can still be read is shown$/);
    expect(m.issues.some((i) => /ENUM_NSYS_EVENT_TYPE: could not read/.test(i.message))).toBe(true);
    expect(m.issues.some((i) => /not an NVTX event type/.test(i.message))).toBe(false);
    // All 24 NVTX ranges (and their projections) and the 5 marks survive at 70%.
    expect(m.tracks.filter((t) => t.kind === 'pushpop').reduce((n, t) => n + t.rangeEnd - t.rangeBegin, 0)).toBe(24);
    expect(m.marks.timeNs.length).toBe(5);
  });
});
