/** What the comparison panel (src/ui/compare/) shows; part of the viewer store and the URL hash. */
import type { GroupBy } from '../analysis/groups.ts';

export interface CompareView {
  /** Capture ids of the baseline (A) and the candidate (B). */
  base: number;
  candidate: number;
  groupBy: GroupBy;
  /** Key of the row whose details are open (`CompareRow.key`), or null. */
  row: string | null;
}
