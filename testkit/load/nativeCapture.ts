/** Test helpers: a model's ranges and marks as plain rows, and loading bytes through the real pipeline. */
import { payloadValue } from '../../src/model/payload.ts';
import type { Model } from '../../src/model/types.ts';
import { loadModel } from '../../src/import/pipeline.ts';
import type { ByteSource } from '../../src/import/importer.ts';

export interface RangeRow {
  name: string;
  start: number;
  end: number;
  depth: number;
  /** OS thread id of the thread that opened the range (-1 if none). */
  tid: number;
  /** Domain name ('' = default). */
  domain: string;
  kind: string;
  /** Track label path: [...path, label]. */
  row: string;
  category: number;
  color: number;
  payload: number | bigint | string | undefined;
  /** `PayloadType` code, or undefined without payload. */
  payloadType: number | undefined;
  parent: string | undefined;
  flags: number;
}

export interface MarkRow {
  name: string;
  time: number;
  tid: number;
  domain: string;
  category: number;
  color: number;
  payload: number | bigint | string | undefined;
  payloadType: number | undefined;
}

export function rangeRows(model: Model): RangeRow[] {
  const out: RangeRow[] = [];
  for (const track of model.tracks) {
    for (let i = track.rangeBegin; i < track.rangeEnd; i++) {
      const style = model.ranges.style[i];
      const thread = model.ranges.thread[i];
      const cat = model.styles.category[style];
      const parent = model.ranges.parent[i];
      out.push({
        name: model.strings[model.styles.name[style]],
        start: model.ranges.startNs[i],
        end: model.ranges.endNs[i],
        depth: model.ranges.depth[i],
        tid: thread >= 0 ? model.threads[thread].tid : -1,
        domain: model.domains[model.styles.domain[style]].name,
        kind: track.kind,
        row: [...track.path, track.label].join(' > '),
        category: cat >= 0 ? model.categories[cat].id : 0,
        color: model.styles.color[style],
        payload: payloadValue(model, model.ranges.payload[i])?.value,
        payloadType: payloadValue(model, model.ranges.payload[i])?.type,
        parent: parent >= 0 ? model.strings[model.styles.name[model.ranges.style[parent]]] : undefined,
        flags: model.ranges.flags[i],
      });
    }
  }
  return out;
}

export function markRows(model: Model): MarkRow[] {
  const out: MarkRow[] = [];
  for (let i = 0; i < model.marks.timeNs.length; i++) {
    const style = model.marks.style[i];
    const thread = model.marks.thread[i];
    const cat = model.styles.category[style];
    out.push({
      name: model.strings[model.styles.name[style]],
      time: model.marks.timeNs[i],
      tid: thread >= 0 ? model.threads[thread].tid : -1,
      domain: model.domains[model.styles.domain[style]].name,
      category: cat >= 0 ? model.categories[cat].id : 0,
      color: model.styles.color[style],
      payload: payloadValue(model, model.marks.payload[i])?.value,
      payloadType: payloadValue(model, model.marks.payload[i])?.type,
    });
  }
  return out;
}

/** A source that hands out at most `slice` bytes per read, to exercise chunks straddling reads. */
export function slicedSource(name: string, bytes: Uint8Array, slice: number): ByteSource {
  return {
    name,
    size: bytes.length,
    read: async (start, end) => bytes.slice(start, Math.min(end, start + slice, bytes.length)),
  };
}

export function loadBytes(bytes: Uint8Array, slice = 1 << 22): Promise<Model> {
  return loadModel(slicedSource('test.nvtxc', bytes, slice));
}
