/**
 * Writing a row's laid-out ranges into the model's range columns at finish: rows with a layout
 * order (`placeRows`) and rows resolved on arrival, by each range's place (`placeOnlineRow`).
 * Both read the row in arrival order and write each range to its place (one write stream per
 * level or lane, each sequential) rather than gathering the row in layout order: the layout order
 * jumps across the row (a lane or level at a time), and a gather reads a cache line of each of
 * six columns per range.
 */
import { RangeFlag, type Model } from '../types.ts';
import type { Layout, OnlineLayout } from './rowLayout.ts';
import type { OnlineStack, RowEvents } from './rows.ts';

/**
 * Writes a row's ranges into the model's columns at [at, at + n) in layout order, times rebased by
 * `zero`, and each range's model index into `newIndex` (which holds -1 for the ranges the layout
 * dropped, 0 otherwise). The model indexes come first, so a range's parent is known whatever the
 * order the row is read in. The model indexes of the ranges given a flag are added to `flagged`
 * (in no order), so that the model's list of them needs no pass over every range's flags.
 */
export function placeRows(laid: Layout, ev: RowEvents, newIndex: Int32Array, at: number, zero: number, ranges: Model['ranges'], flagged: number[]): void {
  const order = laid.order;
  const n = order.length;
  for (let k = 0; k < n; k++) newIndex[order[k]] = at + k;
  const count = ev.start.length;
  const start = ev.start.view();
  const end = ev.end.view();
  const style = ev.style.view();
  const payload = ev.payload.view();
  const thread = ev.thread.view();
  const flags = ev.flags.view();
  const { parent, depth, extraFlags } = laid;
  const { startNs: startOut, endNs: endOut, style: styleOut, payload: payloadOut, thread: threadOut, parent: parentOut, depth: depthOut, flags: flagsOut } = ranges;
  for (let i = 0; i < count; i++) {
    const out = newIndex[i];
    if (out < 0) continue;
    startOut[out] = start[i] - zero;
    endOut[out] = end[i] - zero;
    styleOut[out] = style[i];
    payloadOut[out] = payload[i];
    threadOut[out] = thread[i];
    const p = parent[i];
    parentOut[out] = p === -1 ? -1 : newIndex[p];
    depthOut[out] = depth[i];
    const flag = flags[i] | extraFlags[i];
    flagsOut[out] = flag;
    if (flag !== 0) flagged.push(out);
  }
}

/**
 * Writes the ranges of a row resolved on arrival into the model's columns at `at`, in push order
 * to their places (sequential reads; one write stream per level), times rebased by `zero`; the
 * ranges the layout dropped (deeper than its levels) are skipped. The flagged ones (left open) are
 * added to `flagged`.
 */
export function placeOnlineRow(laid: OnlineLayout, on: OnlineStack, thread: number, at: number, zero: number, ranges: Model['ranges'], flagged: number[]): void {
  const { start, end, style, payload, depth, parentRank } = on;
  const n = on.count;
  const levels = laid.levelCounts.length;
  // Per level: its first model index, and the next one to write.
  const first = new Int32Array(levels);
  const next = new Int32Array(levels);
  let acc = at;
  for (let d = 0; d < levels; d++) {
    first[d] = next[d] = acc;
    acc += laid.levelCounts[d];
  }
  const { startNs: startOut, endNs: endOut, style: styleOut, payload: payloadOut, parent: parentOut, depth: depthOut, flags: flagsOut } = ranges;
  for (let i = 0; i < n; i++) {
    const d = depth[i];
    if (d >= levels) continue;
    const out = next[d]++;
    startOut[out] = start[i] - zero;
    endOut[out] = end[i] - zero;
    styleOut[out] = style[i];
    payloadOut[out] = payload[i];
    parentOut[out] = d === 0 ? -1 : first[d - 1] + parentRank[i];
    depthOut[out] = d;
  }
  ranges.thread.fill(thread, at, at + laid.placed);
  // Fresh columns: every other flag is already 0. The ranges left open lie at depths 0, 1, ...
  // (outermost first), each the last pushed at its depth.
  const unterminated = Math.min(on.unterminated?.length ?? 0, levels);
  for (let d = 0; d < unterminated; d++) {
    const out = first[d] + laid.levelCounts[d] - 1;
    flagsOut[out] = RangeFlag.Unterminated;
    flagged.push(out);
  }
}
