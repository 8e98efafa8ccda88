/**
 * The model's own rules, which drawing, binary searches and statistics rely on, as one check that
 * lists what is broken (empty when the model is sound). Fuzz tests run it on every model a decoder
 * returns: finite times inside [0, durationNs], start <= end, indices in bounds, each level of a
 * track sorted by start and non-overlapping, parents one level up and around their children.
 */
import { RangeFlag, type Model } from './types.ts';

/** At most this many violations are listed (a broken model usually breaks a rule many times). */
const MAX_VIOLATIONS = 20;

const stacked = (kind: string) => kind === 'pushpop' || kind === 'api';

export function modelInvariantViolations(m: Model): string[] {
  const out: string[] = [];
  const fail = (message: string): boolean => {
    out.push(message);
    return out.length >= MAX_VIOLATIONS;
  };
  const r = m.ranges;
  const n = r.startNs.length;
  const styles = m.styles.name.length;
  const payloads = m.payloads.type.length;
  if (!Number.isFinite(m.durationNs) || m.durationNs < 0) fail(`durationNs is ${m.durationNs}`);
  for (let i = 0; i < n; i++) {
    const s = r.startNs[i];
    const e = r.endNs[i];
    if (!Number.isFinite(s) || !Number.isFinite(e)) {
      if (fail(`range ${i}: non-finite time [${s}, ${e}]`)) return out;
    } else if (e < s) {
      if (fail(`range ${i}: ends at ${e} before it starts at ${s}`)) return out;
    } else if (s < 0 || e > m.durationNs) {
      if (fail(`range ${i}: [${s}, ${e}] outside the capture [0, ${m.durationNs}]`)) return out;
    }
    if (r.style[i] >= styles && fail(`range ${i}: style ${r.style[i]} out of bounds`)) return out;
    if (r.thread[i] < -1 || r.thread[i] >= m.threads.length) if (fail(`range ${i}: thread ${r.thread[i]} out of bounds`)) return out;
    if (r.payload[i] < -1 || r.payload[i] >= payloads) if (fail(`range ${i}: payload ${r.payload[i]} out of bounds`)) return out;
  }
  let next = 0;
  for (let t = 0; t < m.tracks.length; t++) {
    const track = m.tracks[t];
    const where = `track ${t} (${track.kind} "${track.label}")`;
    if (track.rangeEnd > track.rangeBegin) {
      if (track.rangeBegin !== next && fail(`${where}: ranges start at ${track.rangeBegin}, not ${next}`)) return out;
      next = track.rangeEnd;
    }
    const levels = track.levelBegin;
    if (levels[0] !== track.rangeBegin || levels[levels.length - 1] !== track.rangeEnd) {
      if (fail(`${where}: levels do not cover its ranges`)) return out;
      continue;
    }
    for (let d = 0; d + 1 < levels.length; d++) {
      const a = levels[d];
      const b = levels[d + 1];
      if (b <= a) {
        if (fail(`${where}: level ${d} is empty`)) return out;
        continue;
      }
      for (let i = a; i < b; i++) {
        const at = `${where} level ${d} range ${i}`;
        if (r.depth[i] !== d && fail(`${at}: depth ${r.depth[i]}`)) return out;
        // Within a level ranges are sorted and do not overlap.
        if (i > a && !(r.endNs[i - 1] <= r.startNs[i])) {
          if (fail(`${at}: starts at ${r.startNs[i]} before the previous one ends at ${r.endNs[i - 1]}`)) return out;
        }
        const p = r.parent[i];
        if (!stacked(track.kind)) {
          if (p !== -1 && fail(`${at}: has parent ${p} in a lane track`)) return out;
          continue;
        }
        if ((p === -1) !== (d === 0)) {
          if (fail(`${at}: parent ${p} at depth ${d}`)) return out;
        } else if (p >= 0) {
          if (p < levels[d - 1] || p >= levels[d]) {
            if (fail(`${at}: parent ${p} not in the level above`)) return out;
          } else if (r.startNs[p] > r.startNs[i]) {
            if (fail(`${at}: starts before its parent ${p}`)) return out;
          } else if (!(r.flags[i] & RangeFlag.BadNesting) && r.endNs[i] > r.endNs[p]) {
            if (fail(`${at}: ends after its parent ${p} without the bad-nesting flag`)) return out;
          }
        }
      }
    }
    for (let k = track.markBegin; k < track.markEnd; k++) {
      const tNs = m.marks.timeNs[k];
      if (!Number.isFinite(tNs) || tNs < 0 || tNs > m.durationNs) {
        if (fail(`${where}: mark ${k} at ${tNs}`)) return out;
      } else if (k > track.markBegin && m.marks.timeNs[k - 1] > tNs) {
        if (fail(`${where}: marks not sorted at ${k}`)) return out;
      }
    }
    for (let k = track.markRefBegin + 1; k < track.markRefEnd; k++) {
      if (m.marks.timeNs[m.markRefs[k - 1]] > m.marks.timeNs[m.markRefs[k]] && fail(`${where}: mark references not sorted at ${k}`)) return out;
    }
    for (let k = track.counterBegin; k < track.counterEnd; k++) {
      const tNs = m.counters.timeNs[k];
      if (!Number.isFinite(tNs) || (k > track.counterBegin && m.counters.timeNs[k - 1] > tNs)) {
        if (fail(`${where}: counter sample ${k} at ${tNs} (not finite or not sorted)`)) return out;
      }
      const v = m.counters.value[k];
      if (!Number.isNaN(v) && !Number.isFinite(v) && fail(`${where}: counter sample ${k} has value ${v}`)) return out;
    }
  }
  if (next !== n) fail(`tracks hold ranges up to ${next} of ${n}`);
  return out;
}
