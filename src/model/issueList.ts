/**
 * The load issues of one file, bounded: a damaged or hostile file can hold millions of problems
 * (one fuzzed capture had 391,000), and a real trace thousands of the same warning (one MTIA trace,
 * 3,453 overlap warnings). Issues are grouped by severity, kind (or the message with its numbers
 * and quoted names blanked) and thread; the first few of each group stay as they are, so they can
 * be found and navigated to, and the rest become one line: "and 3,450 more of this kind (...)".
 * The number of groups is bounded too; past it every further issue only counts.
 */
import type { LoadIssue } from './types.ts';

/** Issues of one group kept as they are. */
export const ISSUES_LISTED_PER_KIND = 10;
/** Groups listed before the rest are only counted. */
export const ISSUE_GROUPS_LISTED = 500;

interface Group {
  /** The group's listed issues, in arrival order. */
  listed: LoadIssue[];
  /** Issues beyond the listed ones. */
  more: number;
  /** Location of the first and last issue not listed. */
  firstMore?: Pick<LoadIssue, 'line' | 'offset' | 'timeNs'>;
  lastMore?: Pick<LoadIssue, 'line' | 'offset'>;
}

/** The message with what varies between repeats of one problem blanked: numbers and quoted text. */
export function issueShape(message: string): string {
  return message.replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/-?\d[\d.,_]*(?:e[-+]?\d+)?/gi, '#');
}

function placeText(issue: Pick<LoadIssue, 'line' | 'offset'> | undefined): string | undefined {
  if (!issue) return undefined;
  if (issue.line !== undefined) return `line ${issue.line.toLocaleString('en-US')}`;
  if (issue.offset !== undefined) return `byte ${issue.offset.toLocaleString('en-US')}`;
  return undefined;
}

/** Problems by severity, a summary line ("and 3,450 more of this kind") counting for all it stands for. */
export function countIssues(issues: readonly Pick<LoadIssue, 'severity' | 'more'>[]): Record<LoadIssue['severity'], number> {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const issue of issues) counts[issue.severity] += issue.more ?? 1;
  return counts;
}

export class IssueList {
  private readonly groups = new Map<string, Group>();
  /** Groups in order of their first issue. */
  private readonly order: Group[] = [];
  /** Listed issues in arrival order, with their group. */
  private readonly listed: { issue: LoadIssue; group: Group }[] = [];
  private overflow = 0;
  private overflowSeverity: LoadIssue['severity'] = 'info';
  private total = 0;

  constructor(
    private readonly listedPerKind = ISSUES_LISTED_PER_KIND,
    private readonly groupsListed = ISSUE_GROUPS_LISTED,
  ) {}

  /** Every issue added, listed or only counted. */
  get count(): number {
    return this.total;
  }

  add(issue: LoadIssue): void {
    this.total++;
    const key = `${issue.severity}\u0000${issue.kind ?? issueShape(issue.message)}\u0000${issue.thread ?? ''}`;
    let group = this.groups.get(key);
    if (!group) {
      if (this.order.length >= this.groupsListed) {
        this.overflow++;
        if (issue.severity === 'error' || (issue.severity === 'warning' && this.overflowSeverity === 'info')) this.overflowSeverity = issue.severity;
        return;
      }
      group = { listed: [], more: 0 };
      this.groups.set(key, group);
      this.order.push(group);
    }
    if (group.listed.length < this.listedPerKind) {
      group.listed.push(issue);
      this.listed.push({ issue, group });
      return;
    }
    group.more++;
    const where = { line: issue.line, offset: issue.offset, timeNs: issue.timeNs };
    group.firstMore ??= where;
    group.lastMore = where;
  }

  /** Calls `f` on every listed issue (e.g. to move issue times onto the model's axis). */
  forEach(f: (issue: LoadIssue) => void): void {
    for (const { issue } of this.listed) f(issue);
  }

  /** The listed issues in arrival order, each group's last one followed by its "and N more" line. */
  finish(): LoadIssue[] {
    const out: LoadIssue[] = [];
    for (const { issue, group: g } of this.listed) {
      out.push(issue);
      if (g.more === 0 || g.listed[g.listed.length - 1] !== issue) continue;
      const first = g.listed[0];
      const from = placeText(g.firstMore);
      const to = placeText(g.lastMore);
      const span = from === undefined ? '' : to === undefined || to === from ? ` (at ${from})` : ` (${from} to ${to})`;
      out.push({
        severity: first.severity,
        file: first.file,
        line: g.firstMore?.line,
        offset: g.firstMore?.offset,
        thread: first.thread,
        more: g.more,
        message: `and ${g.more.toLocaleString('en-US')} more of this kind${span}: ${issueShape(first.message)}`,
      });
    }
    if (this.overflow > 0) {
      out.push({
        severity: this.overflowSeverity,
        file: out[0]?.file ?? '',
        more: this.overflow,
        message: `and ${this.overflow.toLocaleString('en-US')} more problems of ${this.groupsListed.toLocaleString('en-US')}+ other kinds, not listed`,
      });
    }
    return out;
  }
}
