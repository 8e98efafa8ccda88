/**
 * Labels of the CUDA rows in a model, shared by the nsys importer (which makes the rows) and the
 * CUDA statistics (which find them again): one definition, so the two cannot drift apart. Part of
 * the model so that both layers may import it.
 */
import type { Model, ResourceInfo, Track } from './types.ts';

/** Group label above the GPU rows of a process: Process > CUDA > GPU n > streams. */
export const CUDA_GROUP = 'CUDA';

/** Per-device row of CUDA synchronization records: host waits, linked to their API call, not GPU work. */
export const SYNC_ROW_LABEL = 'Synchronization';

/** Per-thread row of NVTX ranges projected onto the GPU (see src/import/nsys/projection.ts). */
export const PROJECTION_ROW_LABEL = 'NVTX (GPU projection)';

/** `ResourceInfo.kind` / `ObjectRef.kind` of CUDA objects, as the native decoder names them too. */
export const CUDA_DEVICE = 'CUDA device';
export const CUDA_CONTEXT = 'CUDA context';
export const CUDA_STREAM = 'CUDA stream';

/**
 * CUPTI correlation ids are unique per process only; the model's id of a CUDA API call and its GPU
 * work is (process index) * CUDA_CORRELATION_SPAN + (CUPTI id).
 */
export const CUDA_CORRELATION_SPAN = 2 ** 32;

/** The CUPTI correlation id of a model correlation id made by the nsys importer. */
export function cuptiCorrelationId(modelId: number): number {
  return modelId % CUDA_CORRELATION_SPAN;
}

/** One object a row shows the work of, with the name the program gave it (or undefined). */
export interface RowObject {
  kind: string;
  handle: string;
  name: string | undefined;
}

/**
 * The objects of a row (`Track.objects`) with their names from `Model.resources`: a name given in the
 * row's own process wins over one given without a process (nsys device names are system-wide).
 */
export function rowObjects(model: Model, track: Track): RowObject[] {
  if (!track.objects) return [];
  return track.objects.map((o) => ({ kind: o.kind, handle: o.handle, name: resourceName(model, o.kind, o.handle, track.process) }));
}

/** The name the program gave an object, looked up in its process first, then among process-less names. */
export function resourceName(model: Model, kind: string, handle: string, process: number): string | undefined {
  const names = resourceIndex(model);
  return names.get(`${process}\u0000${kind}\u0000${handle}`) ?? names.get(`-1\u0000${kind}\u0000${handle}`);
}

/** The named objects of a process (`Model.resources` rows), in the order the capture named them. */
export function resourcesOfProcess(model: Model, process: number): ResourceInfo[] {
  return (model.resources ?? []).filter((r) => r.process === process);
}

const indexes = new WeakMap<ResourceInfo[], Map<string, string>>();

/** (process, kind, handle) -> name; a later name of the same object wins, as in the program. */
function resourceIndex(model: Model): Map<string, string> {
  const list = model.resources ?? [];
  let index = indexes.get(list);
  if (!index) {
    index = new Map();
    for (const r of list) index.set(`${r.process < 0 ? -1 : r.process}\u0000${r.kind}\u0000${r.handle}`, r.name);
    indexes.set(list, index);
  }
  return index;
}

/** "13 · rt-compute-stream", or "13" when unnamed (the kind is said beside it). */
export function rowObjectText(o: RowObject): string {
  return o.name ? `${o.handle} · ${o.name}` : o.handle;
}

/** The objects of a row as one line of text ("CUDA device 0 · main GPU; CUDA stream 7"), or '' for none. */
export function rowObjectsLine(model: Model, track: Track): string {
  return rowObjects(model, track)
    .map((o) => `${o.kind} ${rowObjectText(o)}`)
    .join('; ');
}
