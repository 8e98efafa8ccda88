/**
 * The rules every model the builder hands out must keep, written once as a checker: the renderer,
 * the statistics and the panels binary-search levels and index tables on the strength of them.
 * Used by the model's own tests and by the fuzz harness (testkit/fuzz/), which runs it on every
 * model a mutated file produces. Pure and allocation-light: O(model size).
 */
import { RangeFlag, type Model } from './types.ts';

/** Kinds of track whose ranges nest (a parent in the level above); the others are packed lanes. */
const stacked = (kind: string) => kind === 'pushpop' || kind === 'api';

/**
 * Every rule `model` breaks, as readable sentences naming the track, level and index; empty when
 * the model is sound. Stops after `limit` findings: one broken column usually breaks every row.
 */
export function modelViolations(model: Model, limit = 20): string[] {
  const out: string[] = [];
  const fail = (message: string): boolean => {
    out.push(message);
    return out.length >= limit;
  };
  const r = model.ranges;
  const n = r.startNs.length;
  const styleCount = model.styles.name.length;
  const payloadCount = model.payloads.type.length;
  const threadCount = model.threads.length;

  if (!Number.isFinite(model.durationNs) || model.durationNs < 0) {
    if (fail(`durationNs is ${model.durationNs}`)) return out;
  }
  for (const column of ['endNs', 'style', 'depth', 'parent', 'thread', 'payload', 'flags'] as const) {
    if (r[column].length !== n && fail(`ranges.${column} has ${r[column].length} rows, startNs ${n}`)) return out;
  }
  for (let s = 0; s < styleCount; s++) {
    if (model.styles.name[s] >= model.strings.length && fail(`style ${s} names string ${model.styles.name[s]} of ${model.strings.length}`)) return out;
  }

  // Per range: finite times inside the capture, indices into the tables that exist.
  for (let i = 0; i < n; i++) {
    const s = r.startNs[i];
    const e = r.endNs[i];
    if (!Number.isFinite(s) || !Number.isFinite(e)) {
      if (fail(`range ${i}: non-finite time [${s}, ${e}]`)) return out;
      continue;
    }
    if (e < s && fail(`range ${i}: ends (${e}) before it starts (${s})`)) return out;
    if (s < 0 && fail(`range ${i}: starts before the capture (${s})`)) return out;
    if (e > model.durationNs && fail(`range ${i}: ends (${e}) after the capture (${model.durationNs})`)) return out;
    if (r.style[i] >= styleCount && fail(`range ${i}: style ${r.style[i]} of ${styleCount}`)) return out;
    if ((r.thread[i] < -1 || r.thread[i] >= threadCount) && fail(`range ${i}: thread ${r.thread[i]} of ${threadCount}`)) return out;
    if ((r.payload[i] < -1 || r.payload[i] >= payloadCount) && fail(`range ${i}: payload ${r.payload[i]} of ${payloadCount}`)) return out;
  }

  // Tracks own consecutive slices of the range table, level by level; within a level ranges are
  // sorted and do not overlap; a nested range sits inside a parent one level up.
  let next = 0;
  for (let t = 0; t < model.tracks.length; t++) {
    const track = model.tracks[t];
    const where = `track ${t} (${track.kind} "${track.label}")`;
    if (track.rangeEnd > track.rangeBegin) {
      if (track.rangeBegin !== next && fail(`${where}: ranges begin at ${track.rangeBegin}, expected ${next}`)) return out;
      next = track.rangeEnd;
    }
    const lb = track.levelBegin;
    if (lb[0] !== track.rangeBegin || lb[lb.length - 1] !== track.rangeEnd) {
      if (fail(`${where}: levels [${lb[0]}, ${lb[lb.length - 1]}) do not cover ranges [${track.rangeBegin}, ${track.rangeEnd})`)) return out;
      continue;
    }
    if (track.rangeEnd > n && fail(`${where}: ranges end at ${track.rangeEnd} of ${n}`)) return out;
    for (let d = 0; d + 1 < lb.length; d++) {
      const a = lb[d];
      const b = Math.min(lb[d + 1], n);
      if (b <= a && fail(`${where}: level ${d} is empty or reversed [${a}, ${lb[d + 1]})`)) return out;
      for (let i = a; i < b; i++) {
        if (r.depth[i] !== d && fail(`${where}: range ${i} in level ${d} has depth ${r.depth[i]}`)) return out;
        if (i > a && r.endNs[i - 1] > r.startNs[i]) {
          if (fail(`${where} level ${d}: range ${i - 1} [${r.startNs[i - 1]}, ${r.endNs[i - 1]}] overlaps or follows range ${i} starting ${r.startNs[i]}`)) return out;
        }
        const p = r.parent[i];
        if (!stacked(track.kind)) {
          if (p !== -1 && fail(`${where}: lane range ${i} has parent ${p}`)) return out;
          continue;
        }
        if ((p === -1) !== (d === 0) && fail(`${where}: range ${i} at depth ${d} has parent ${p}`)) return out;
        if (p < 0) continue;
        if ((p < lb[d - 1] || p >= lb[d]) && fail(`${where}: range ${i} at depth ${d} has parent ${p} outside level ${d - 1}`)) return out;
        if (r.startNs[p] > r.startNs[i] && fail(`${where}: range ${i} starts before its parent ${p}`)) return out;
        if (!(r.flags[i] & RangeFlag.BadNesting) && r.endNs[i] > r.endNs[p]) {
          if (fail(`${where}: range ${i} ends after its parent ${p} and is not flagged BadNesting`)) return out;
        }
      }
    }
    for (let k = track.markBegin; k < track.markEnd; k++) {
      const time = model.marks.timeNs[k];
      if (!Number.isFinite(time) && fail(`${where}: mark ${k} at ${time}`)) return out;
      if (k > track.markBegin && model.marks.timeNs[k - 1] > time && fail(`${where}: marks ${k - 1}, ${k} out of order`)) return out;
    }
    for (let k = track.markRefBegin; k < track.markRefEnd; k++) {
      const mark = model.markRefs[k];
      if (mark >= model.marks.timeNs.length) {
        if (fail(`${where}: mark reference ${k} to mark ${mark} of ${model.marks.timeNs.length}`)) return out;
        continue;
      }
      if (k > track.markRefBegin && model.marks.timeNs[model.markRefs[k - 1]] > model.marks.timeNs[mark]) {
        if (fail(`${where}: mark references ${k - 1}, ${k} out of order`)) return out;
      }
    }
    for (let k = track.counterBegin; k < track.counterEnd; k++) {
      const time = model.counters.timeNs[k];
      if (!Number.isFinite(time) && fail(`${where}: counter sample ${k} at ${time}`)) return out;
      if (k > track.counterBegin && model.counters.timeNs[k - 1] > time && fail(`${where}: counter samples ${k - 1}, ${k} out of order`)) return out;
    }
  }
  if (next !== n && n > 0 && fail(`tracks cover ranges [0, ${next}) of ${n}`)) return out;

  for (let k = 0; k < model.marks.timeNs.length; k++) {
    const time = model.marks.timeNs[k];
    if ((time < 0 || time > model.durationNs) && fail(`mark ${k} at ${time} is outside the capture [0, ${model.durationNs}]`)) return out;
    if (model.marks.style[k] >= styleCount && fail(`mark ${k}: style ${model.marks.style[k]} of ${styleCount}`)) return out;
  }
  const cross = model.crossThreadEnds;
  for (let k = 0; k < cross.range.length; k++) {
    if ((cross.range[k] < 0 || cross.range[k] >= n) && fail(`cross-thread end ${k}: range ${cross.range[k]} of ${n}`)) return out;
    if ((cross.thread[k] < 0 || cross.thread[k] >= threadCount) && fail(`cross-thread end ${k}: thread ${cross.thread[k]}`)) return out;
  }
  for (const issue of model.issues) {
    if (issue.timeNs !== undefined && !Number.isFinite(issue.timeNs) && fail(`issue "${issue.message}" has time ${issue.timeNs}`)) return out;
  }
  return out;
}
