/**
 * The V8 sampling profile of one thread inside a DevTools performance trace (its `Profile` and
 * `ProfileChunk` events), as timed samples: for the load and frame profiles of the built app.
 */

export interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
}

/** An event of a DevTools performance trace (complete events: `dur`, and `tdur`, the thread's CPU time, µs). */
export interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time of the event, µs: below `dur` when the thread waited or was descheduled. */
  tdur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: Record<string, unknown> & { name?: string; data?: Record<string, unknown> & { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[]; startTime?: number } };
}

/** Samples of thread (pid, tid)'s profile: [timestamp µs, node id], and the nodes by id (both empty without a profile). */
export function profileSamples(events: readonly TraceEvent[], pid: number, tid: number): { nodes: Map<number, ProfileNode>; samples: [number, number][] } {
  const nodes = new Map<number, ProfileNode>();
  const samples: [number, number][] = [];
  const profile = events.find((e) => e.name === 'Profile' && e.pid === pid && e.tid === tid);
  if (!profile) return { nodes, samples };
  let t = profile.args?.data?.startTime ?? profile.ts;
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || e.id !== profile.id || e.pid !== pid) continue;
    const data = e.args?.data;
    for (const n of data?.cpuProfile?.nodes ?? []) nodes.set(n.id, n);
    const ids = data?.cpuProfile?.samples ?? [];
    const deltas = data?.timeDeltas ?? [];
    for (let i = 0; i < ids.length; i++) {
      t += deltas[i] ?? 0;
      samples.push([t, ids[i]]);
    }
  }
  return { nodes, samples };
}

/** A profile node as "function file:line" (line 1-based), for the self-time lists. */
export function frameName(n: ProfileNode): string {
  const f = n.callFrame;
  const file = f.url ? f.url.slice(f.url.lastIndexOf('/') + 1) : '';
  return `${f.functionName || '(anonymous)'}${file ? ` ${file}:${f.lineNumber + 1}` : ''}`;
}
