import { describe, expect, it } from 'vitest';
import { markStats } from '../../src/analysis/markStats.ts';
import { rangeStats } from '../../src/analysis/rangeStats.ts';
import { loadModel, memorySource } from '../../src/import/pipeline.ts';
import { generateEvents, makeHeader } from './events.ts';
import { buildGeneratedModel } from './model.ts';
import { writeNvtxt } from './nvtxt.ts';
import { StringSink } from './sink.ts';

function nvtxt(events: number, seed: number): { text: string; count: number } {
  const sink = new StringSink();
  const count = writeNvtxt(sink, { events, seed, threads: 6 });
  return { text: sink.toString(), count };
}

describe('capture generators', () => {
  it('are deterministic for a seed and write the requested number of events', () => {
    const a = nvtxt(2000, 5);
    expect(a.count).toBe(2000);
    expect(nvtxt(2000, 5).text).toBe(a.text);
    expect(nvtxt(2000, 6).text).not.toBe(a.text);
    const header = makeHeader({ events: 500, seed: 2 });
    let ranges = 0;
    let pops = 0;
    for (const e of generateEvents(header, { events: 500, seed: 2 })) {
      if (e.kind === 'push' || e.kind === 'mark' || e.kind === 'startEnd') ranges++;
      if (e.kind === 'pop') pops++;
    }
    expect(ranges).toBe(500);
    // Every push is popped.
    expect(pops).toBe([...generateEvents(header, { events: 500, seed: 2 })].filter((e) => e.kind === 'push').length);
  });

  it('write NVTXT that decodes without problems into the same capture as the direct model feed', async () => {
    const { text } = nvtxt(5000, 3);
    const decoded = await loadModel(memorySource('gen.nvtxt', new TextEncoder().encode(text)));
    expect(decoded.issues).toEqual([]);
    expect(decoded.capture.format).toBe('nvtxt');
    const direct = buildGeneratedModel({ events: 5000, seed: 3, threads: 6 });
    expect(decoded.ranges.startNs.length).toBe(direct.ranges.startNs.length);
    expect(decoded.marks.timeNs.length).toBe(direct.marks.timeNs.length);
    expect(decoded.threads.map((t) => [t.tid, t.name])).toEqual(direct.threads.map((t) => [t.tid, t.name]));
    const columns = (m: typeof direct) =>
      rangeStats(m)
        .rows.map((r) => [r.style, r.label, r.count, r.totalNs, r.selfNs, r.minNs, r.maxNs, r.medianNs].join(' '))
        .sort();
    expect(columns(decoded)).toEqual(columns(direct));
    expect(markStats(decoded).rows.map((r) => [r.label, r.count])).toEqual(markStats(direct).rows.map((r) => [r.label, r.count]));
    // Colors survive every NVTXT spelling (names, decimal, hex integers, hex strings).
    const colorOf = (m: typeof direct, name: string) => {
      for (let s = 0; s < m.styles.name.length; s++) if (m.strings[m.styles.name[s]] === name && m.styles.category[s] < 0) return m.styles.color[s];
      return undefined;
    };
    for (const name of ['load_batch', 'decode_batch', 'forward_batch', 'launch_tile', 'copy_buffer']) {
      expect(colorOf(decoded, name), name).toBe(colorOf(direct, name));
    }
  });
});
