/** Rows of the load report: every issue of every capture plus files that failed as a whole. */
import type { LoadIssue } from '../model/types.ts';
import type { FailedLoad, LoadedCapture } from '../state/viewerStore.ts';

export type Severity = LoadIssue['severity'];

export interface ReportRow {
  severity: Severity;
  file: string;
  /** "line 12", "byte 4096", or '' when the problem concerns the whole file. */
  where: string;
  message: string;
  /** Problems the row stands for: more than 1 on an "and N more of this kind" line. */
  count?: number;
}

export type IssueCounts = Record<Severity, number>;

export type SeverityFilter = Severity | 'all';

export function locationText(issue: Pick<LoadIssue, 'line' | 'offset'>): string {
  if (issue.line !== undefined) return `line ${issue.line}`;
  if (issue.offset !== undefined) return `byte ${issue.offset}`;
  return '';
}

/** Failures first (nothing of those files loaded), then each capture's issues in file order. */
export function reportRows(captures: readonly LoadedCapture[], failed: readonly FailedLoad[]): ReportRow[] {
  const rows: ReportRow[] = failed.map((f) => ({
    severity: 'error',
    file: f.name,
    where: '',
    message: f.message,
  }));
  for (const c of captures) {
    for (const issue of c.model.issues) {
      rows.push({ severity: issue.severity, file: issue.file, where: locationText(issue), message: issue.message, count: issue.more });
    }
  }
  return rows;
}

export function countBySeverity(rows: readonly ReportRow[]): IssueCounts {
  const counts: IssueCounts = { error: 0, warning: 0, info: 0 };
  for (const r of rows) counts[r.severity] += r.count ?? 1;
  return counts;
}

export function filterRows(rows: readonly ReportRow[], filter: SeverityFilter): readonly ReportRow[] {
  return filter === 'all' ? rows : rows.filter((r) => r.severity === filter);
}
