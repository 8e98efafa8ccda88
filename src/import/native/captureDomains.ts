/** The capture's NVTX domain ids and their builder domains (created by META records, or placeholders). */
import type { ModelBuilder } from '../../model/builder.ts';
import type { OnceNotes } from './onceNotes.ts';

export class CaptureDomains {
  private readonly index = new Map<number, number>();
  private readonly names = new Map<number, string>();
  /** Set once bytes were skipped as damaged: unknown ids may have been defined there. */
  damaged = false;
  pid = 0;

  constructor(
    private readonly b: ModelBuilder,
    private readonly notes: OnceNotes,
  ) {}

  create(id: number, name: string): void {
    this.names.set(id, name);
    this.index.set(id, this.b.domain(this.pid, name));
  }

  /** Builder domain index of a capture domain id (0: the default domain); unknown ids get a placeholder. */
  indexOf(id: number, offset: number): number {
    if (id === 0) return 0;
    let d = this.index.get(id);
    if (d === undefined) {
      const why = this.damaged ? ' (its creation may be in the damaged bytes)' : '';
      this.notes.warnOnce(`domain:${id}`, `domain ${id} is used but was never created in this capture${why}`, offset);
      d = this.b.domain(this.pid, `domain ${id}`);
      this.index.set(id, d);
      this.names.set(id, `domain ${id}`);
    }
    return d;
  }

  nameOf(id: number): string {
    return id === 0 ? '' : (this.names.get(id) ?? `domain ${id}`);
  }
}
