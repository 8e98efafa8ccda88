/**
 * Load issues of the native decoder that must not flood the report: said once per key (an unknown
 * op, an unknown domain id...), or every time for problems that repeat (damaged byte ranges, range
 * ids ended twice...), which the builder's issue list (src/model/issueList.ts) groups by kind and
 * bounds, with one closing line per kind ("and 391,000 more of this kind").
 */
import type { ModelBuilder } from '../../model/builder.ts';

export class OnceNotes {
  private readonly said = new Set<string>();

  constructor(private readonly b: ModelBuilder) {}

  warnOnce(key: string, message: string, offset?: number, severity: 'error' | 'warning' = 'warning'): void {
    if (this.said.has(key)) return;
    this.said.add(key);
    this.b.report(severity, message, offset === undefined ? undefined : { offset });
  }

  /**
   * A problem that may repeat many times; `kind` and `what` name its kind for the reader of this
   * code (the issue list groups repeats by the message's shape and bounds them for every format).
   */
  limited(_kind: string, _what: string, severity: 'error' | 'warning', message: string, offset?: number): void {
    this.b.report(severity, message, offset === undefined ? undefined : { offset });
  }
}
