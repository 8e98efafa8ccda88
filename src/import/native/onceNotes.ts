/** Load issues that are worth saying once per key (an unknown op, an unknown domain id...). */
import type { ModelBuilder } from '../../model/builder.ts';

export class OnceNotes {
  private readonly said = new Set<string>();

  constructor(private readonly b: ModelBuilder) {}

  warnOnce(key: string, message: string, offset?: number, severity: 'error' | 'warning' = 'warning'): void {
    if (this.said.has(key)) return;
    this.said.add(key);
    this.b.report(severity, message, offset === undefined ? undefined : { offset });
  }
}
