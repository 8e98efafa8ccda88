/**
 * The rules every model must keep whatever its input (renderer, statistics and binary searches rely
 * on them), as a list of broken ones: empty for a sound model. For fuzz and regression tests of the
 * decoders; cost is linear in the model.
 */
import type { Model } from './types.ts';

/** Problems listed before the rest are counted. */
const LISTED = 20;

export function modelProblems(model: Model): string[] {
  const out: string[] = [];
  let more = 0;
  const fail = (message: string) => {
    if (out.length < LISTED) out.push(message);
    else more++;
  };
  const r = model.ranges;
  const n = r.startNs.length;
  const styles = model.styles.name.length;
  const inBounds = (i: number, length: number) => Number.isInteger(i) && i >= 0 && i < length;
  if (!Number.isFinite(model.durationNs) || model.durationNs < 0) fail(`durationNs is ${model.durationNs}`);
  if (!/^-?\d+$/.test(model.capture.originNs)) fail(`originNs is ${model.capture.originNs}`);
  for (let i = 0; i < n; i++) {
    const s = r.startNs[i];
    const e = r.endNs[i];
    if (!Number.isFinite(s) || !Number.isFinite(e)) fail(`range ${i}: time ${s}..${e} is not finite`);
    else if (s < 0 || e < s || e > model.durationNs) fail(`range ${i}: ${s}..${e} is not inside 0..${model.durationNs} with start <= end`);
    if (!inBounds(r.style[i], styles)) fail(`range ${i}: style ${r.style[i]} out of bounds`);
    if (r.thread[i] !== -1 && !inBounds(r.thread[i], model.threads.length)) fail(`range ${i}: thread ${r.thread[i]} out of bounds`);
    if (r.payload[i] !== -1 && !inBounds(r.payload[i], model.payloads.type.length)) fail(`range ${i}: payload ${r.payload[i]} out of bounds`);
    if (r.parent[i] !== -1 && !inBounds(r.parent[i], n)) fail(`range ${i}: parent ${r.parent[i]} out of bounds`);
  }
  for (let k = 0; k < styles; k++) {
    if (!inBounds(model.styles.name[k], model.strings.length)) fail(`style ${k}: name ${model.styles.name[k]} out of bounds`);
    if (!inBounds(model.styles.domain[k], Math.max(1, model.domains.length))) fail(`style ${k}: domain out of bounds`);
    const c = model.styles.category[k];
    if (c !== -1 && !inBounds(c, model.categories.length)) fail(`style ${k}: category ${c} out of bounds`);
  }
  const m = model.marks;
  for (let k = 0; k < m.timeNs.length; k++) {
    const t = m.timeNs[k];
    if (!Number.isFinite(t) || t < 0 || t > model.durationNs) fail(`mark ${k}: time ${t} not inside 0..${model.durationNs}`);
    if (!inBounds(m.style[k], styles)) fail(`mark ${k}: style out of bounds`);
    if (m.thread[k] !== -1 && !inBounds(m.thread[k], model.threads.length)) fail(`mark ${k}: thread out of bounds`);
  }
  for (let k = 0; k < model.counters.timeNs.length; k++) {
    const t = model.counters.timeNs[k];
    if (!Number.isFinite(t) || t < 0 || t > model.durationNs) fail(`counter sample ${k}: time ${t} not inside 0..${model.durationNs}`);
  }
  for (const t of model.threads) if (!inBounds(t.process, model.processes.length)) fail(`thread ${t.tid}: process out of bounds`);

  let next = 0;
  model.tracks.forEach((track, t) => {
    const where = `track ${t} (${track.kind} ${JSON.stringify(track.label)})`;
    if (track.process !== -1 && !inBounds(track.process, model.processes.length)) fail(`${where}: process out of bounds`);
    if (track.thread !== -1 && !inBounds(track.thread, model.threads.length)) fail(`${where}: thread out of bounds`);
    if (track.rangeEnd > track.rangeBegin) {
      if (track.rangeBegin !== next) fail(`${where}: ranges start at ${track.rangeBegin}, expected ${next}`);
      next = track.rangeEnd;
    }
    const levels = track.levelBegin;
    if (levels[0] !== track.rangeBegin || levels[levels.length - 1] !== track.rangeEnd) fail(`${where}: levels do not cover its ranges`);
    for (let d = 0; d + 1 < levels.length; d++) {
      for (let i = levels[d]; i < levels[d + 1] && i < n; i++) {
        if (r.depth[i] !== d) fail(`${where}: range ${i} has depth ${r.depth[i]} in level ${d}`);
        if (i > levels[d] && (r.startNs[i - 1] > r.startNs[i] || r.endNs[i - 1] > r.startNs[i])) {
          fail(`${where} level ${d}: range ${i} (${r.startNs[i]}..${r.endNs[i]}) overlaps or precedes range ${i - 1} (${r.startNs[i - 1]}..${r.endNs[i - 1]})`);
        }
      }
    }
    for (let k = track.markBegin + 1; k < track.markEnd; k++) if (m.timeNs[k - 1] > m.timeNs[k]) fail(`${where}: marks not sorted at ${k}`);
    for (let k = track.counterBegin + 1; k < track.counterEnd; k++) {
      if (model.counters.timeNs[k - 1] > model.counters.timeNs[k]) fail(`${where}: counter samples not sorted at ${k}`);
    }
  });
  if (next !== n) fail(`tracks cover ${next} of ${n} ranges`);
  if (more > 0) out.push(`and ${more} more`);
  return out;
}
