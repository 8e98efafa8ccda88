/**
 * Open push/pop ranges per thread and domain, counted as records are read (PUSH/POP records and
 * payload events alike). It bounds nesting (the model's depth column is 16 bits: deeper pushes and
 * their pops are dropped and reported) and tells what is still open when a stream has a gap.
 */
import type { ModelBuilder } from '../../model/builder.ts';

/** Deepest push/pop nesting kept per thread and domain. */
export const MAX_PUSH_DEPTH = 65_535;

export class PushNesting {
  /** [builder thread][builder domain] -> open pushes. */
  private readonly open: number[][] = [];
  /** [builder thread][builder domain] -> dropped pushes still waiting for their pops. */
  private readonly dropped: number[][] = [];
  private tooDeep = 0;
  private firstTooDeep = -1;

  /** Counts a push; false when it nests deeper than MAX_PUSH_DEPTH, so it (and later its pop) is dropped. */
  push(thread: number, domain: number, offset: number): boolean {
    const open = (this.open[thread] ??= []);
    const n = open[domain] ?? 0;
    if (n < MAX_PUSH_DEPTH) {
      open[domain] = n + 1;
      return true;
    }
    const dropped = (this.dropped[thread] ??= []);
    dropped[domain] = (dropped[domain] ?? 0) + 1;
    if (this.tooDeep++ === 0) this.firstTooDeep = offset;
    return false;
  }

  /** Counts a pop; false when it closes a dropped push. */
  pop(thread: number, domain: number): boolean {
    // Nearly always nothing was dropped: test the length first, as reading past an array's end is slow in V8.
    const dropped = thread < this.dropped.length ? this.dropped[thread] : undefined;
    if (dropped !== undefined && domain < dropped.length && dropped[domain] > 0) {
      dropped[domain]--;
      return false;
    }
    const open = this.open[thread];
    if (open !== undefined && open[domain] > 0) open[domain]--;
    return true;
  }

  /**
   * The open pushes of the thread's default domain, for a loop that counts its pushes and pops
   * itself (`setDefaultOpen` after); -1 while pushes dropped for their depth wait for their pops
   * there (each pop must then go through `pop`).
   */
  defaultOpen(thread: number): number {
    const dropped = thread < this.dropped.length ? this.dropped[thread] : undefined;
    if (dropped !== undefined && dropped.length > 0 && dropped[0] > 0) return -1;
    const open = thread < this.open.length ? this.open[thread] : undefined;
    return open !== undefined && open.length > 0 ? (open[0] ?? 0) : 0;
  }

  setDefaultOpen(thread: number, n: number): void {
    (this.open[thread] ??= [])[0] = n;
  }

  /** The open pushes of a thread per domain, forgotten: the caller closes them (a gap in its stream). */
  takeOpen(thread: number): number[] {
    const open = this.open[thread] ?? [];
    this.open[thread] = [];
    this.dropped[thread] = [];
    return open;
  }

  report(b: ModelBuilder): void {
    if (this.tooDeep > 0) {
      b.report(
        'warning',
        `${this.tooDeep} push(es) nest deeper than ${MAX_PUSH_DEPTH.toLocaleString('en-US')} levels; they and their pops are dropped`,
        { offset: this.firstTooDeep },
      );
    }
  }
}
