/** Everything the side panel shows about one range. */
import { formatPayload, payloadJson } from '../model/payload.ts';
import { childrenOf, trackOfRange } from '../model/query.ts';
import { categoryLabel, processLabel, threadLabel } from '../model/trackTree.ts';
import { RangeFlag, type Model } from '../model/types.ts';
import { kindClass, qualifiedName, STYLE_OF_CLASS, type RangeStyle } from './groups.ts';

export interface ThreadRef {
  /** Index into `Model.threads`. */
  index: number;
  tid: number;
  /** Thread label as the track tree shows it, e.g. "main (10)". */
  label: string;
}

export interface ChildBreakdownRow {
  /** `domain:name` of the children in this row. */
  label: string;
  /** Children of this name that ended; Total, Self and the share describe these. */
  count: number;
  /** Children of this name still open at the end of the capture: in no figure. */
  unended: number;
  totalNs: number;
  /** Sum of the children's self times (their duration minus their own children). */
  selfNs: number;
  /** totalNs as a percentage of the parent's duration. */
  percent: number;
}

export interface RangeDetails {
  range: number;
  /** Index into `Model.tracks`. */
  track: number;
  style: RangeStyle;
  name: string;
  /** `domain:name`, default domain without prefix. */
  label: string;
  domain: string;
  /** Category label ("Name (id)"), or null for none. */
  category: { index: number; id: number; name: string; label: string } | null;
  thread: ThreadRef | null;
  /** For start/end ranges that ended on another thread. */
  endThread: ThreadRef | null;
  process: { index: number; pid: number; label: string } | null;
  startNs: number;
  endNs: number;
  durationNs: number;
  /** Duration minus the time covered by its direct children. */
  selfNs: number;
  depth: number;
  /** Enclosing ranges, outermost first. */
  parentChain: { range: number; label: string }[];
  childCount: number;
  /** Direct children grouped by name, by total time descending. */
  children: ChildBreakdownRow[];
  /** ARGB from the capture; 0 = none given. */
  color: number;
  /** Payload as display text ('' for none) and as a JSON-ready value (null for none). */
  payloadText: string;
  payload: unknown;
  unterminated: boolean;
  crossThread: boolean;
  badNesting: boolean;
}

function threadRef(model: Model, thread: number): ThreadRef | null {
  if (thread < 0 || thread >= model.threads.length) return null;
  return { index: thread, tid: model.threads[thread].tid, label: threadLabel(model, thread) };
}

/** Covered time of a range's direct children (clamped to the range's end for bad nesting). */
function childCover(model: Model, range: number, children: readonly number[]): number {
  const end = model.ranges.endNs[range];
  let covered = 0;
  for (const c of children) covered += Math.max(0, Math.min(model.ranges.endNs[c], end) - model.ranges.startNs[c]);
  return covered;
}

export function rangeDetails(model: Model, range: number): RangeDetails {
  const r = model.ranges;
  const trackIndex = trackOfRange(model, range);
  const track = model.tracks[trackIndex];
  const style = r.style[range];
  const categoryIndex = model.styles.category[style];
  const thread = r.thread[range];
  const process = thread >= 0 ? model.threads[thread].process : track?.process ?? -1;
  const duration = r.endNs[range] - r.startNs[range];
  const children = childrenOf(model, range);

  const breakdown = new Map<string, ChildBreakdownRow>();
  for (const c of children) {
    const label = qualifiedName(model, r.style[c]);
    let row = breakdown.get(label);
    if (!row) breakdown.set(label, (row = { label, count: 0, unended: 0, totalNs: 0, selfNs: 0, percent: 0 }));
    if (r.flags[c] & RangeFlag.Unterminated) {
      // Its end is only where the capture stopped: counted, not timed.
      row.unended++;
      continue;
    }
    const d = Math.min(r.endNs[c], r.endNs[range]) - r.startNs[c];
    row.count++;
    row.totalNs += d;
    row.selfNs += r.endNs[c] - r.startNs[c] - childCover(model, c, childrenOf(model, c));
  }
  const rows = [...breakdown.values()];
  for (const row of rows) row.percent = duration > 0 ? (100 * row.totalNs) / duration : 0;
  rows.sort((a, b) => b.totalNs - a.totalNs || (a.label < b.label ? -1 : 1));

  const chain: RangeDetails['parentChain'] = [];
  for (let p = r.parent[range]; p >= 0; p = r.parent[p]) chain.unshift({ range: p, label: qualifiedName(model, r.style[p]) });

  let endThread: ThreadRef | null = null;
  if (r.flags[range] & RangeFlag.CrossThread) {
    const cross = model.crossThreadEnds;
    for (let k = 0; k < cross.range.length; k++) if (cross.range[k] === range) endThread = threadRef(model, cross.thread[k]);
  }

  return {
    range,
    track: trackIndex,
    style: STYLE_OF_CLASS[kindClass(track?.kind ?? 'pushpop')],
    name: model.strings[model.styles.name[style]],
    label: qualifiedName(model, style),
    domain: model.domains[model.styles.domain[style]]?.name ?? '',
    category:
      categoryIndex < 0
        ? null
        : {
            index: categoryIndex,
            id: model.categories[categoryIndex].id,
            name: model.categories[categoryIndex].name,
            label: categoryLabel(model, categoryIndex),
          },
    thread: threadRef(model, thread),
    endThread,
    process: process >= 0 ? { index: process, pid: model.processes[process].pid, label: processLabel(model, process) } : null,
    startNs: r.startNs[range],
    endNs: r.endNs[range],
    durationNs: duration,
    selfNs: duration - childCover(model, range, children),
    depth: r.depth[range],
    parentChain: chain,
    childCount: children.length,
    children: rows,
    color: model.styles.color[style],
    payloadText: formatPayload(model, r.payload[range]),
    payload: payloadJson(model, r.payload[range]),
    unterminated: (r.flags[range] & RangeFlag.Unterminated) !== 0,
    crossThread: (r.flags[range] & RangeFlag.CrossThread) !== 0,
    badNesting: (r.flags[range] & RangeFlag.BadNesting) !== 0,
  };
}
