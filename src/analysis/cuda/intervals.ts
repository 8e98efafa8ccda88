/** Interval arithmetic for GPU statistics: how long work was in flight, and how long it overlapped. */

export interface Coverage {
  /** Time during which at least one interval was open (the union's length). */
  busyNs: number;
  /** Time during which two or more intervals were open at once. */
  overlapNs: number;
}

/**
 * Coverage of half-open intervals [start[i], end[i]): an interval ending at t and one starting at t
 * do not overlap. Zero-length intervals cover nothing.
 */
export function coverage(start: ArrayLike<number>, end: ArrayLike<number>): Coverage {
  const n = start.length;
  if (n === 0) return { busyNs: 0, overlapNs: 0 };
  // Endpoints as (time, +1/-1), ends before starts at equal times.
  const times = new Float64Array(2 * n);
  const deltas = new Int8Array(2 * n);
  for (let i = 0; i < n; i++) {
    times[2 * i] = start[i];
    deltas[2 * i] = 1;
    times[2 * i + 1] = Math.max(start[i], end[i]);
    deltas[2 * i + 1] = -1;
  }
  const order = Uint32Array.from({ length: 2 * n }, (_, k) => k).sort(
    (a, b) => times[a] - times[b] || deltas[a] - deltas[b],
  );
  let open = 0;
  let busyNs = 0;
  let overlapNs = 0;
  let last = times[order[0]];
  for (const k of order) {
    const t = times[k];
    if (open >= 1) busyNs += t - last;
    if (open >= 2) overlapNs += t - last;
    open += deltas[k];
    last = t;
  }
  return { busyNs, overlapNs };
}
