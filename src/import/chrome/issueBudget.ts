/**
 * Keeps a damaged or unusual file from burying the load report: each kind of problem is listed
 * for its first few occurrences, then counted; expected-but-unsupported content (flow events,
 * samples...) is summarised as one line per kind.
 */
import type { ModelBuilder } from '../../model/builder.ts';
import type { LoadIssue } from '../../model/types.ts';

type Severity = LoadIssue['severity'];

interface Tally {
  severity: Severity;
  message: string;
  count: number;
  firstOffset: number;
}

export class IssueBudget {
  private readonly counts = new Map<string, { severity: Severity; count: number }>();
  private readonly tallies = new Map<string, Tally>();

  constructor(
    private readonly builder: ModelBuilder,
    private readonly listedPerKind = 10,
  ) {}

  /** Reports the first `listedPerKind` problems of `kind` one by one, then only counts them. */
  report(kind: string, severity: Severity, message: string, offset?: number): void {
    let c = this.counts.get(kind);
    if (!c) this.counts.set(kind, (c = { severity, count: 0 }));
    c.count++;
    if (c.count <= this.listedPerKind) this.builder.report(severity, message, offset === undefined ? undefined : { offset });
  }

  /** Whether the next `report` of `kind` is listed (a message costly to build is then worth building). */
  willList(kind: string): boolean {
    return (this.counts.get(kind)?.count ?? 0) < this.listedPerKind;
  }

  /** Counts occurrences of `kind`; one line per kind at `flush()`: "<count> <message> (first at byte N)". */
  tally(kind: string, severity: Severity, message: string, offset: number): void {
    const t = this.tallies.get(kind);
    if (t) t.count++;
    else this.tallies.set(kind, { severity, message, count: 1, firstOffset: offset });
  }

  flush(): void {
    for (const [kind, c] of this.counts) {
      if (c.count > this.listedPerKind) {
        this.builder.report(c.severity, `${c.count - this.listedPerKind} more of "${kind}" not listed (${c.count} in all)`);
      }
    }
    for (const t of this.tallies.values()) {
      this.builder.report(t.severity, `${t.count} ${t.message} (first at byte ${t.firstOffset})`, { offset: t.firstOffset });
    }
    this.counts.clear();
    this.tallies.clear();
  }
}
