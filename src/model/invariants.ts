/**
 * The rules every model obeys whatever its input (renderer, statistics and binary searches rely
 * on them): finite times inside [0, durationNs], start <= end, indices in bounds, tracks owning
 * consecutive slices of the range table, and each level of a track sorted and non-overlapping,
 * with parents on the level above. Used by the invariants test and the fuzz tests of decoders.
 */
import { RangeFlag, type Model } from './types.ts';

const stacked = (kind: string) => kind === 'pushpop' || kind === 'api';

/** Every broken rule, as a sentence naming the range, mark or track; at most `limit` of them. */
export function modelInvariantViolations(m: Model, limit = 20): string[] {
  const out: string[] = [];
  const fail = (message: string): boolean => {
    out.push(message);
    return out.length >= limit;
  };
  const r = m.ranges;
  const n = r.startNs.length;
  if (!Number.isFinite(m.durationNs) || m.durationNs < 0) fail(`durationNs is ${m.durationNs}`);
  for (let i = 0; i < n && out.length < limit; i++) {
    const s = r.startNs[i];
    const e = r.endNs[i];
    if (!Number.isFinite(s) || !Number.isFinite(e)) fail(`range ${i}: non-finite time [${s}, ${e}]`);
    else if (e < s) fail(`range ${i}: ends (${e}) before it starts (${s})`);
    else if (s < 0 || e > m.durationNs) fail(`range ${i}: [${s}, ${e}] outside [0, ${m.durationNs}]`);
    if (r.style[i] >= m.styles.name.length) fail(`range ${i}: style ${r.style[i]} out of bounds`);
    if (r.thread[i] < -1 || r.thread[i] >= m.threads.length) fail(`range ${i}: thread ${r.thread[i]} out of bounds`);
    if (r.parent[i] < -1 || r.parent[i] >= n) fail(`range ${i}: parent ${r.parent[i]} out of bounds`);
  }
  for (let k = 0; k < m.marks.timeNs.length && out.length < limit; k++) {
    const t = m.marks.timeNs[k];
    if (!Number.isFinite(t) || t < 0 || t > m.durationNs) fail(`mark ${k}: time ${t} outside [0, ${m.durationNs}]`);
    if (m.marks.style[k] >= m.styles.name.length) fail(`mark ${k}: style out of bounds`);
  }
  for (let k = 0; k < m.counters.timeNs.length && out.length < limit; k++) {
    if (!Number.isFinite(m.counters.timeNs[k])) fail(`counter sample ${k}: time ${m.counters.timeNs[k]}`);
  }
  for (let s = 0; s < m.styles.name.length && out.length < limit; s++) {
    if (m.styles.name[s] >= m.strings.length) fail(`style ${s}: name ${m.styles.name[s]} out of bounds`);
  }
  let next = 0;
  for (let t = 0; t < m.tracks.length && out.length < limit; t++) {
    const track = m.tracks[t];
    const where = `track ${t} (${track.kind} ${track.label})`;
    if (track.rangeEnd > track.rangeBegin) {
      if (track.rangeBegin !== next && fail(`${where}: ranges begin at ${track.rangeBegin}, not ${next}`)) break;
      next = track.rangeEnd;
    }
    const levels = track.levelBegin;
    if (levels[0] !== track.rangeBegin || levels[levels.length - 1] !== track.rangeEnd) {
      if (fail(`${where}: levels do not cover its ranges`)) break;
      continue;
    }
    for (let d = 0; d + 1 < levels.length && out.length < limit; d++) {
      const a = levels[d];
      const b = levels[d + 1];
      if (b <= a) fail(`${where}: level ${d} is empty`);
      for (let i = a; i < b && out.length < limit; i++) {
        if (r.depth[i] !== d) fail(`${where}: range ${i} has depth ${r.depth[i]} on level ${d}`);
        if (i > a && r.endNs[i - 1] > r.startNs[i]) fail(`${where}: ranges ${i - 1} and ${i} overlap on level ${d}`);
        const p = r.parent[i];
        if (!stacked(track.kind)) {
          if (p !== -1) fail(`${where}: range ${i} of a ${track.kind} track has a parent`);
          continue;
        }
        // Top-level ranges have no parent; below the top, push/pop rows always have one (rows packed
        // in lanes, e.g. sync objects on an 'api' row, have none).
        if (d === 0 && p !== -1) fail(`${where}: range ${i} on level 0 has parent ${p}`);
        else if (d > 0 && p === -1 && track.kind === 'pushpop') fail(`${where}: range ${i} on level ${d} has no parent`);
        if (p >= 0) {
          if (p < levels[d - 1] || p >= levels[d]) fail(`${where}: parent ${p} of range ${i} is not on the level above`);
          else if (r.startNs[p] > r.startNs[i]) fail(`${where}: range ${i} starts before its parent ${p}`);
          else if (!(r.flags[i] & RangeFlag.BadNesting) && r.endNs[i] > r.endNs[p]) fail(`${where}: range ${i} ends after its parent ${p}`);
        }
      }
    }
    for (let k = track.markBegin + 1; k < track.markEnd; k++) {
      if (m.marks.timeNs[k - 1] > m.marks.timeNs[k] && fail(`${where}: marks ${k - 1} and ${k} out of order`)) break;
    }
    for (let k = track.markRefBegin + 1; k < track.markRefEnd; k++) {
      const x = m.markRefs[k - 1];
      const y = m.markRefs[k];
      if ((x >= m.marks.timeNs.length || y >= m.marks.timeNs.length || m.marks.timeNs[x] > m.marks.timeNs[y]) && fail(`${where}: mark refs ${k - 1}, ${k} out of order or bounds`)) break;
    }
  }
  if (out.length < limit && next !== n) fail(`tracks own ${next} of ${n} ranges`);
  return out;
}
