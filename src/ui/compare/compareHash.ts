/**
 * The comparison in the URL hash (pure): `cmp=<a>_<b>_<group-by>` with the baseline's and the
 * candidate's positions in the hash's capture list, and `cmprow=<row key>` for the open row.
 */
import { GROUP_BY_VALUES, type GroupBy } from '../../analysis/groups.ts';
import type { CompareView } from '../../state/compareView.ts';
import type { LoadedCapture } from '../../state/viewerStore.ts';

export function encodeCompareHash(view: CompareView | null, captures: readonly LoadedCapture[]): { compare?: string; compareRow?: string } {
  if (!view) return {};
  const a = captures.findIndex((c) => c.id === view.base);
  const b = captures.findIndex((c) => c.id === view.candidate);
  if (a < 0 || b < 0) return {};
  return { compare: `${a}_${b}_${view.groupBy}`, ...(view.row !== null ? { compareRow: view.row } : {}) };
}

/**
 * The comparison a hash names, given the loaded capture matched to each position of the hash's
 * capture list; a problem text when it cannot be applied.
 */
export function resolveCompareHash(
  text: string | undefined,
  row: string | undefined,
  matched: readonly (LoadedCapture | undefined)[],
): { view: CompareView | null; problem?: string } {
  if (text === undefined) return { view: null };
  const m = /^(\d{1,4})_(\d{1,4})_([a-z]+)$/.exec(text);
  if (!m || !GROUP_BY_VALUES.includes(m[3] as GroupBy)) return { view: null, problem: `ignored the comparison "${text}"` };
  const base = matched[Number(m[1])];
  const candidate = matched[Number(m[2])];
  if (!base || !candidate) return { view: null, problem: 'the compared captures are not both loaded' };
  return { view: { base: base.id, candidate: candidate.id, groupBy: m[3] as GroupBy, row: row ?? null } };
}
