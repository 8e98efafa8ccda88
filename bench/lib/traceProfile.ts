/**
 * The V8 sampling profile of one thread inside a DevTools performance trace (its `Profile` and
 * `ProfileChunk` events), as timed samples: for the load and frame profiles of the built app.
 */

export interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
}

/** The fields of a trace event that the profile is read from. */
export interface ProfileTraceEvent {
  name: string;
  ts: number;
  pid: number;
  tid: number;
  id?: string;
  args?: { data?: { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[]; startTime?: unknown } };
}

/** Samples of thread (pid, tid)'s profile: [timestamp µs, node id], and the nodes by id (both empty without a profile). */
export function profileSamples(events: readonly ProfileTraceEvent[], pid: number, tid: number): { nodes: Map<number, ProfileNode>; samples: [number, number][] } {
  const nodes = new Map<number, ProfileNode>();
  const samples: [number, number][] = [];
  const profile = events.find((e) => e.name === 'Profile' && e.pid === pid && e.tid === tid);
  if (!profile) return { nodes, samples };
  let t = (profile.args?.data?.startTime as number | undefined) ?? profile.ts;
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
