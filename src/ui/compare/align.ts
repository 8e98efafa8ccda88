/**
 * "Align B on A at the N-th instance of this row": the shift of the candidate's time zero on the
 * shared axis that puts the start of its N-th instance (by start time) of a comparison row under
 * the baseline's N-th, so that iteration k of one run sits above iteration k of the other.
 * The shift goes through the store's `setCaptureOffset`, the same placement a drag or the
 * timeline's "align on this range" makes, so it is kept in the link (`o=`) and reset from the
 * capture row's menu.
 */
import { rowDurations, type CompareResult, type CompareRow } from '../../analysis/compare/index.ts';
import type { Model } from '../../model/types.ts';
import type { ViewerStore } from '../../state/viewerStore.ts';

/**
 * The N-th (1-based) ended instance by start time of one side of a row (a RangeIndex of that
 * side's model), or -1 when it has fewer.
 */
export function nthInstance(result: CompareResult, row: CompareRow, side: 'base' | 'candidate', n: number): number {
  const { ranges } = rowDurations(result, row, side);
  if (n < 1 || n > ranges.length) return -1;
  const startNs = (side === 'base' ? result.base : result.candidate).model.ranges.startNs;
  const order = ranges.slice();
  order.sort((a, b) => startNs[a] - startNs[b] || a - b);
  return order[n - 1];
}

/** Offset for the candidate so its N-th instance starts where the baseline's does; null when a side has fewer. */
export function alignmentOffset(
  result: CompareResult,
  row: CompareRow,
  n: number,
  base: { model: Model; offsetNs: number },
  candidate: { model: Model },
): { offsetNs: number; baseRange: number; candidateRange: number } | null {
  const a = nthInstance(result, row, 'base', n);
  const b = nthInstance(result, row, 'candidate', n);
  if (a < 0 || b < 0) return null;
  return { offsetNs: base.offsetNs + base.model.ranges.startNs[a] - candidate.model.ranges.startNs[b], baseRange: a, candidateRange: b };
}

/** Moves a capture's time zero on the shared axis: a placement by hand, like a drag. */
export function applyOffset(store: ViewerStore, captureId: number, offsetNs: number): void {
  store.getState().setCaptureOffset(captureId, offsetNs);
}
