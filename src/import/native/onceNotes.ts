/**
 * Load issues of the native decoder that must not flood the report: said once per key (an unknown
 * op, an unknown domain id...), or one by one up to a limit per kind and then counted, with one
 * closing line ("and 391,000 more of this kind").
 */
import type { ModelBuilder } from '../../model/builder.ts';

/** Issues of one kind reported one by one before the rest are only counted. */
export const ISSUES_PER_KIND = 20;

export class OnceNotes {
  private readonly said = new Set<string>();
  private readonly perKind = new Map<string, { count: number; severity: 'error' | 'warning'; what: string }>();

  constructor(private readonly b: ModelBuilder) {}

  warnOnce(key: string, message: string, offset?: number, severity: 'error' | 'warning' = 'warning'): void {
    if (this.said.has(key)) return;
    this.said.add(key);
    this.b.report(severity, message, offset === undefined ? undefined : { offset });
  }

  /** Reports the first ISSUES_PER_KIND issues of `kind` (`what` names it in the summary), then counts. */
  limited(kind: string, what: string, severity: 'error' | 'warning', message: string, offset?: number): void {
    let seen = this.perKind.get(kind);
    if (!seen) this.perKind.set(kind, (seen = { count: 0, severity, what }));
    if (seen.count++ < ISSUES_PER_KIND) this.b.report(severity, message, offset === undefined ? undefined : { offset });
  }

  /** One line per kind that went past the limit. */
  finish(): void {
    for (const { count, severity, what } of this.perKind.values()) {
      if (count <= ISSUES_PER_KIND) continue;
      this.b.report(severity, `and ${(count - ISSUES_PER_KIND).toLocaleString('en-US')} more of this kind: ${what}`);
    }
  }
}
