/**
 * The threads the hierarchy panel can show (each push/pop track with ranges, in the track tree's
 * order), and the one it shows before the user picks one.
 */
import { formatCount } from '../../format/numbers.ts';
import { domainLabel, processLabel, threadLabel } from '../../model/trackTree.ts';
import type { Model, Track } from '../../model/types.ts';

export interface ThreadRow {
  captureId: number;
  track: number;
  label: string;
  /** Push/pop ranges on the track. */
  ranges: number;
}

/** Push/pop tracks with ranges, by capture, then process, thread and domain; `hidden` ones left out. */
export function threadRows<C extends { id: number; model: Model }>(captures: readonly C[], hidden: (c: C, track: number) => boolean): ThreadRow[] {
  const out: ThreadRow[] = [];
  for (const c of captures) {
    const m = c.model;
    const pid = (t: Track) => (t.process >= 0 ? m.processes[t.process].pid : -1);
    const tid = (t: Track) => (t.thread >= 0 ? m.threads[t.thread].tid : -1);
    const tracks = m.tracks
      .map((t, track) => ({ t, track }))
      .sort((a, b) => pid(a.t) - pid(b.t) || tid(a.t) - tid(b.t) || a.t.domain - b.t.domain || a.track - b.track);
    tracks.forEach(({ t, track }) => {
      const ranges = t.rangeEnd - t.rangeBegin;
      if (t.kind !== 'pushpop' || ranges === 0 || hidden(c, track)) return;
      const parts = [t.process >= 0 ? processLabel(m, t.process) : '', t.thread >= 0 ? threadLabel(m, t.thread) : t.label].filter(Boolean);
      const domain = t.domain > 0 ? ` · ${domainLabel(m, t.domain)}` : '';
      const prefix = captures.length > 1 ? `${m.capture.displayName} › ` : '';
      out.push({ captureId: c.id, track, label: `${prefix}${parts.join(' › ')}${domain} (${formatCount(ranges)})`, ranges });
    });
  }
  return out;
}

/**
 * The thread shown before one is picked or a range selected: the one with the most ranges (the
 * first of those in the list's order). The first in the list is often a small one: PyTorch traces
 * put their profiler's own spans on negative pids, which come first.
 */
export function busiestThread(rows: readonly ThreadRow[]): ThreadRow | undefined {
  let best: ThreadRow | undefined;
  for (const row of rows) if (!best || row.ranges > best.ranges) best = row;
  return best;
}
