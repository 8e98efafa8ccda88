/**
 * Test helpers for the NVTXT importer: load inline text through the real pipeline and read the
 * model back as plain rows, so tests compare readable values. Used by the co-located tests only.
 */
import { payloadValue } from '../../src/model/payload.ts';
import type { Model } from '../../src/model/types.ts';
import { loadModel, memorySource } from '../../src/import/pipeline.ts';
import type { DecodeOptions } from '../../src/import/importer.ts';

export async function load(text: string | Uint8Array, decode?: DecodeOptions, name = 't.nvtxt'): Promise<Model> {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  return loadModel(memorySource(name, bytes), { decode });
}

export interface RangeRow {
  name: string;
  start: number;
  end: number;
  depth: number;
  kind: string;
  pid: number;
  tid: number;
  color: number;
  /** Category id as the file gave it, 0 for none. */
  category: number;
  payload: bigint | number | string | undefined;
  flags: number;
}

function payloadOf(m: Model, index: number): bigint | number | string | undefined {
  return payloadValue(m, index)?.value;
}

/** All ranges, sorted by start then depth. */
export function rangesOf(m: Model): RangeRow[] {
  const rows: RangeRow[] = [];
  for (const track of m.tracks) {
    for (let r = track.rangeBegin; r < track.rangeEnd; r++) {
      const style = m.ranges.style[r];
      const cat = m.styles.category[style];
      const thread = m.threads[m.ranges.thread[r]];
      rows.push({
        name: m.strings[m.styles.name[style]],
        start: m.ranges.startNs[r],
        end: m.ranges.endNs[r],
        depth: m.ranges.depth[r],
        kind: track.kind,
        pid: m.processes[thread.process].pid,
        tid: thread.tid,
        color: m.styles.color[style],
        category: cat === -1 ? 0 : m.categories[cat].id,
        payload: payloadOf(m, m.ranges.payload[r]),
        flags: m.ranges.flags[r],
      });
    }
  }
  return rows.sort((a, b) => a.start - b.start || a.depth - b.depth);
}

export interface MarkRow {
  name: string;
  time: number;
  pid: number;
  tid: number;
  color: number;
  category: number;
  payload: bigint | number | string | undefined;
}

export function marksOf(m: Model): MarkRow[] {
  const rows: MarkRow[] = [];
  for (let i = 0; i < m.marks.timeNs.length; i++) {
    const style = m.marks.style[i];
    const cat = m.styles.category[style];
    const thread = m.threads[m.marks.thread[i]];
    rows.push({
      name: m.strings[m.styles.name[style]],
      time: m.marks.timeNs[i],
      pid: m.processes[thread.process].pid,
      tid: thread.tid,
      color: m.styles.color[style],
      category: cat === -1 ? 0 : m.categories[cat].id,
      payload: payloadOf(m, m.marks.payload[i]),
    });
  }
  return rows.sort((a, b) => a.time - b.time);
}

/** Issues as `severity@line: message`, for compact assertions. */
export function issuesOf(m: Model): string[] {
  return m.issues.map((i) => `${i.severity}@${i.line ?? '-'}: ${i.message}`);
}

/** Issues of one severity. */
export function problems(m: Model, severity: 'error' | 'warning' | 'info'): { line: number | undefined; message: string }[] {
  return m.issues.filter((i) => i.severity === severity).map((i) => ({ line: i.line, message: i.message }));
}
