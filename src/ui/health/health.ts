/**
 * The instrumentation-health list: what a capture's NVTX calls got wrong, with a place to go for
 * each. Two sources are combined: the ranges' `RangeFlag` bits (still open at the end,
 * overlapping the parent's end) and the load issues the builder and the decoders
 * reported (pops with nothing open, ends of ranges that are not open, starts of ids already open),
 * which carry the file location. An issue about a range that is in the model (never popped, never
 * ended) lends its location to the range's entry instead of making a second one.
 *
 * A start/end range that ends on another thread is not listed: ending on any thread is what the
 * start/end API is for (the selection details say where it ended).
 */
import { flaggedRanges } from '../../model/flagged.ts';
import { trackOfRange } from '../../model/query.ts';
import { threadLabel } from '../../model/trackTree.ts';
import { RangeFlag, type LoadIssue, type LoadIssueKind, type Model } from '../../model/types.ts';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import { locationText } from '../loadReport.ts';

export type HealthKind = LoadIssueKind | 'bad-nesting';

export const HEALTH_KINDS: readonly { kind: HealthKind; label: string; title: string }[] = [
  { kind: 'pop-without-push', label: 'Pop with nothing open', title: 'A pop on a thread whose push/pop stack was empty (the push happened before the capture, or the calls are unbalanced)' },
  { kind: 'never-popped', label: 'Never popped', title: 'A push/pop range still open when the capture ended' },
  { kind: 'never-ended', label: 'Never ended', title: 'A start/end range that was started and never ended' },
  { kind: 'end-without-start', label: 'End without start', title: 'An end of a start/end range that is not open: never started, or ended twice' },
  { kind: 'start-while-open', label: 'Started twice', title: 'A start/end range id started again while still open' },
  { kind: 'bad-nesting', label: 'Overlaps its parent', title: 'A range that starts inside another and ends after it' },
];

export interface HealthEntry {
  kind: HealthKind;
  captureId: number;
  /** The range concerned, or -1 when the problem is an event the model has no range for. */
  range: number;
  /** Time to show (ns on the capture's axis), or NaN when unknown. */
  timeNs: number;
  /** Index into the model's threads, or -1. */
  thread: number;
  /** What and where: name, thread, the other thread... */
  message: string;
  file: string;
  /** "line 12", "byte 4096", or ''. */
  where: string;
}

export interface HealthList {
  entries: HealthEntry[];
  /** Per kind: how many there are (entries past `perKindLimit` are counted, not listed). */
  counts: Record<HealthKind, number>;
  /**
   * Captures left out because only a partial model of them is loaded yet (the start of a big file,
   * shown while the rest decodes): it ends mid-stream, so every range open at its cut would read
   * as never ended. They are checked once whole.
   */
  pending: number;
}

/** Decoders without structured facts: their messages for the same problems. */
const MESSAGE_KINDS: [RegExp, LoadIssueKind][] = [
  [/pop with no open range|pops? on thread .* had no open range/i, 'pop-without-push'],
  [/ended but is not open|ended twice|end .* has no open begin/i, 'end-without-start'],
  [/started again while still open/i, 'start-while-open'],
];

export function issueKind(issue: LoadIssue): LoadIssueKind | undefined {
  if (issue.kind) return issue.kind;
  for (const [pattern, kind] of MESSAGE_KINDS) if (pattern.test(issue.message)) return kind;
  return undefined;
}

function emptyCounts(): Record<HealthKind, number> {
  return Object.fromEntries(HEALTH_KINDS.map((k) => [k.kind, 0])) as Record<HealthKind, number>;
}

function nameOf(model: Model, range: number): string {
  return model.strings[model.styles.name[model.ranges.style[range]]];
}

function threadText(model: Model, thread: number): string {
  return thread >= 0 && thread < model.threads.length ? threadLabel(model, thread) : 'no thread';
}

/** The health entries of all captures, grouped by kind (in HEALTH_KINDS order), then by time. */
export function healthList(captures: readonly Pick<LoadedCapture, 'id' | 'model' | 'partial'>[], perKindLimit = 50_000): HealthList {
  const counts = emptyCounts();
  const entries: HealthEntry[] = [];
  let pending = 0;
  const add = (entry: HealthEntry) => {
    if (counts[entry.kind]++ < perKindLimit) entries.push(entry);
  };
  for (const { id, model, partial } of captures) {
    if (partial) {
      pending++;
      continue;
    }
    const file = model.capture.fileName;
    const { flags, thread, startNs } = model.ranges;
    // Open-at-the-end ranges by (thread, start), for the issues that name them.
    const openAtEnd = new Map<string, HealthEntry>();
    // Flagged ranges are few: walk their index (built in the load worker), not every range.
    const flagged = flaggedRanges(model);
    for (let k = 0; k < flagged.length; k++) {
      const i = flagged[k];
      const f = flags[i];
      const base = { captureId: id, range: i, timeNs: startNs[i], thread: thread[i], file, where: '' };
      if (f & RangeFlag.Unterminated) {
        const track = model.tracks[trackOfRange(model, i)];
        const kind: HealthKind = track?.kind === 'pushpop' ? 'never-popped' : 'never-ended';
        const entry: HealthEntry = { ...base, kind, message: `"${nameOf(model, i)}" on ${threadText(model, thread[i])} is still open at the end of the capture` };
        openAtEnd.set(`${thread[i]}:${startNs[i]}`, entry);
        add(entry);
      }
      if (f & RangeFlag.BadNesting) {
        const p = model.ranges.parent[i];
        add({ ...base, kind: 'bad-nesting', message: `"${nameOf(model, i)}" on ${threadText(model, thread[i])} ends after its parent${p >= 0 ? ` "${nameOf(model, p)}"` : ''}` });
      }
    }
    for (const issue of model.issues) {
      const kind = issueKind(issue);
      if (!kind) continue;
      const where = locationText(issue);
      const timeNs = issue.timeNs ?? NaN;
      const th = issue.thread ?? -1;
      if (kind === 'never-popped' || kind === 'never-ended') {
        const entry = openAtEnd.get(`${th}:${timeNs}`);
        if (entry) {
          entry.where = where;
          entry.file = issue.file;
          continue;
        }
      }
      // The builder's pop message names the decoder's raw time; the Time column has the model's.
      const message = kind === 'pop-without-push' && th >= 0 ? `pop on ${threadText(model, th)} with no range open; ignored` : issue.message;
      add({ kind, captureId: id, range: -1, timeNs, thread: th, message, file: issue.file, where });
    }
  }
  const order = new Map(HEALTH_KINDS.map((k, i) => [k.kind, i]));
  entries.sort(
    (a, b) =>
      order.get(a.kind)! - order.get(b.kind)! ||
      a.captureId - b.captureId ||
      (Number.isNaN(a.timeNs) ? Infinity : a.timeNs) - (Number.isNaN(b.timeNs) ? Infinity : b.timeNs) ||
      a.range - b.range,
  );
  return { entries, counts, pending };
}
