/**
 * Names the program gave its objects (`Model.resources`: CUDA and OpenCL objects, NVTX resources)
 * looked up where the objects appear: the objects of a row (`Track.objects`), threads named as
 * OS-thread resources, and the objects no row shows.
 */
import type { Model, ResourceInfo, Track } from './types.ts';

/** `ResourceInfo.kind` of an OS thread resource (NVTX_RESOURCE_TYPE_GENERIC_THREAD_NATIVE), whose handle is the tid. */
export const OS_THREAD = 'OS thread';

/** A thread's own name, else the name the program gave it as an OS-thread resource, else ''. */
export function threadName(model: Model, thread: number): string {
  const t = model.threads[thread];
  return t.name || (resourceName(model, OS_THREAD, String(t.tid), t.process) ?? '');
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

/**
 * Objects a process named that no row of the model shows (a native capture records the names of
 * CUDA and OpenCL objects and NVTX resources, but not their work): the last name of each, in the
 * order the capture first named them.
 */
export function unplacedResources(model: Model, process: number): ResourceInfo[] {
  if (!model.resources || process < 0) return [];
  const onRows = new Set<string>();
  for (const t of model.tracks) if (t.process === process) for (const o of t.objects ?? []) onRows.add(`${o.kind}\u0000${o.handle}`);
  // Threads named as OS-thread resources show the name in their label.
  for (const t of model.threads) if (t.process === process && !t.name) onRows.add(`${OS_THREAD}\u0000${t.tid}`);
  const latest = new Map<string, ResourceInfo>();
  for (const r of model.resources) {
    const key = `${r.kind}\u0000${r.handle}`;
    if (r.process !== process || onRows.has(key)) continue;
    latest.delete(key);
    latest.set(key, r);
  }
  return [...latest.values()];
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
