/**
 * "Align B on A at the N-th instance of this row": the shift of the candidate's time zero on the
 * shared axis that puts the start of its N-th instance (by start time) of a comparison row under
 * the baseline's N-th, so that iteration k of one run sits above iteration k of the other.
 * Finding the instances reads a whole group (about a second for 1M instances), so it goes through
 * the statistics service: in its worker for large captures. The shift goes through the store's
 * `setCaptureOffset`, the same placement a drag or the timeline's "align on this range" makes, so
 * it is kept in the link (`o=`) and reset from the capture row's menu.
 */
import { nthByStart, rowDurations, type CompareResult, type CompareRow } from '../../analysis/compare/index.ts';
import type { Model } from '../../model/types.ts';
import type { ViewerStore } from '../../state/viewerStore.ts';
import type { StatsService } from '../stats/statsService.ts';

/**
 * The N-th (1-based) ended instance by start time of one side of a row (a RangeIndex of that
 * side's model), or -1 when it has fewer. On the calling thread: tests and small captures.
 */
export function nthInstance(result: CompareResult, row: CompareRow, side: 'base' | 'candidate', n: number): number {
  const { ranges } = rowDurations(result, row, side);
  return nthByStart((side === 'base' ? result.base : result.candidate).model.ranges.startNs, ranges, n);
}

/** Offset for the candidate so that range `candidateRange` starts where the baseline's `baseRange` does. */
export function offsetFor(base: { model: Model; offsetNs: number }, baseRange: number, candidate: { model: Model }, candidateRange: number): number {
  return base.offsetNs + base.model.ranges.startNs[baseRange] - candidate.model.ranges.startNs[candidateRange];
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
  return { offsetNs: offsetFor(base, a, candidate, b), baseRange: a, candidateRange: b };
}

/**
 * Both sides' N-th instances of a row through the statistics service (in its worker for large
 * captures): RangeIndex values, -1 for a side with fewer; null when a newer request replaced it.
 */
export async function findNthInstances(
  service: StatsService,
  result: CompareResult,
  row: CompareRow,
  n: number,
  ids: { base: number; candidate: number },
): Promise<{ baseRange: number; candidateRange: number } | null> {
  const side = (fig: CompareRow['base'], id: number, { model, options }: CompareResult['base'], slot: string) =>
    fig ? service.nth({ id, model }, options, fig.key, n, slot) : Promise.resolve({ range: -1 });
  const [a, b] = await Promise.all([side(row.base, ids.base, result.base, 'align-a'), side(row.candidate, ids.candidate, result.candidate, 'align-b')]);
  return a && b ? { baseRange: a.range, candidateRange: b.range } : null;
}

/** Moves a capture's time zero on the shared axis: a placement by hand, like a drag. */
export function applyOffset(store: ViewerStore, captureId: number, offsetNs: number): void {
  store.getState().setCaptureOffset(captureId, offsetNs);
}
