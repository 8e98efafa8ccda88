/**
 * Marks per name (or thread, category...) in a scope. A mark is in the scope when its time lies
 * inside one of the spans (ends included). With a track subset, a mark counts when its thread's
 * marks row or a category row showing it is selected (once, even if both are).
 */
import { lowerBound, upperBound } from '../model/query.ts';
import type { Model } from '../model/types.ts';
import { Grouper, type GroupBy, type GroupInfo } from './groups.ts';
import { ResolvedScope, type ScopeOptions } from './scope.ts';

export interface MarkStatsOptions extends Omit<ScopeOptions, 'mode' | 'kinds'> {
  /** Default 'name'; 'parent' puts every mark in one group. */
  groupBy?: GroupBy;
}

export interface MarkStatsRow extends GroupInfo {
  count: number;
  /** First and last mark time of the group in the scope. */
  firstNs: number;
  lastNs: number;
  /** A mark of the group (MarkIndex): the first one in time. */
  firstMark: number;
}

export interface MarkStatsResult {
  groupBy: GroupBy;
  /** By count descending, then label. */
  rows: MarkStatsRow[];
  markCount: number;
}

export function markStats(model: Model, options: MarkStatsOptions = {}): MarkStatsResult {
  const groupBy = options.groupBy ?? 'name';
  const scope = new ResolvedScope(model, options, ['marks', 'category']);
  const grouper = new Grouper(model, groupBy);
  const rows: MarkStatsRow[] = [];
  const { timeNs, style, thread } = model.marks;
  let markCount = 0;

  const visit = (i: number): void => {
    if (!scope.shown(style[i], thread[i])) return;
    const t = timeNs[i];
    if (!scope.containsInstant(t)) return;
    const g = grouper.markGroup(i);
    while (rows.length < grouper.size) {
      const info = grouper.groups[rows.length];
      // Fields named one by one: V8 builds spread objects far slower (tables of 100k names).
      rows.push({ key: info.key, label: info.label, name: info.name, domain: info.domain, count: 0, firstNs: Infinity, lastNs: -Infinity, firstMark: -1 });
    }
    const row = rows[g];
    row.count++;
    if (t < row.firstNs) {
      row.firstNs = t;
      row.firstMark = i;
    }
    if (t > row.lastNs) row.lastNs = t;
    markCount++;
  };

  const lo = scope.whole ? -Infinity : scope.minNs;
  const hi = scope.whole ? Infinity : scope.maxNs;
  // Threads whose marks row is in scope: their marks are not counted again from category rows.
  const threadRowsSelected = new Set<number>();
  for (const track of scope.tracks) if (track.kind === 'marks') threadRowsSelected.add(track.thread);
  for (const track of scope.tracks) {
    if (track.kind === 'marks') {
      const a = lowerBound(timeNs, lo, track.markBegin, track.markEnd);
      const b = upperBound(timeNs, hi, a, track.markEnd);
      for (let i = a; i < b; i++) visit(i);
    } else if (track.markRefEnd > track.markRefBegin) {
      for (let k = track.markRefBegin; k < track.markRefEnd; k++) {
        const i = model.markRefs[k];
        if (!threadRowsSelected.has(thread[i])) visit(i);
      }
    }
  }
  // A mark referenced from two selected category rows of one thread would count twice; category
  // rows of one process are per category, and a mark has one category, so that cannot happen.
  const out = rows.filter((r) => r.count > 0);
  out.sort((a, b) => b.count - a.count || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  return { groupBy, rows: out, markCount };
}
