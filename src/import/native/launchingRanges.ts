/**
 * The push/pop ranges of each thread that contain a CUDA API call, for the NVTX GPU projection
 * (src/import/cuda/projection.ts). A thread's records come in its own order, and a CUDA_API record
 * is written when the call returns, so the ranges open when it is read are the ones around the
 * call: each open range is flagged (the innermost of each domain; a flag passes to the enclosing
 * range when the inner one is popped), and flagged ranges are handed on when they close. Ranges
 * with no call inside are forgotten at their pop, so a capture without CUDA keeps nothing.
 */

/** One thread's open ranges of one domain, innermost last. */
class OpenStack {
  readonly start: number[] = [];
  readonly name: number[] = [];
  /** ARGB, NaN when none. */
  readonly color: number[] = [];
  readonly called: boolean[] = [];
}

export interface ClosedLaunchingRange {
  thread: number;
  domain: number;
  startNs: number;
  endNs: number;
  nameId: number;
  color: number | undefined;
}

export class LaunchingRanges {
  /** [builder thread][builder domain] */
  private readonly open: (OpenStack | undefined)[][] = [];

  constructor(private readonly onClosed: (range: ClosedLaunchingRange) => void) {}

  push(thread: number, domain: number, startNs: number, nameId: number, color: number | undefined): void {
    const byDomain = (this.open[thread] ??= []);
    const s = (byDomain[domain] ??= new OpenStack());
    s.start.push(startNs);
    s.name.push(nameId);
    s.color.push(color ?? NaN);
    s.called.push(false);
  }

  pop(thread: number, domain: number, endNs: number): void {
    const s = this.open[thread]?.[domain];
    if (s === undefined || s.start.length === 0) return;
    const startNs = s.start.pop()!;
    const nameId = s.name.pop()!;
    const color = s.color.pop()!;
    if (!s.called.pop()) return;
    const outer = s.called.length - 1;
    if (outer >= 0) s.called[outer] = true;
    this.onClosed({ thread, domain, startNs, endNs, nameId, color: Number.isNaN(color) ? undefined : color });
  }

  /** A CUDA API call was made on `thread`: every range open there contains it. */
  call(thread: number): void {
    const byDomain = this.open[thread];
    if (byDomain === undefined) return;
    for (const s of byDomain) {
      if (s !== undefined && s.called.length > 0) s.called[s.called.length - 1] = true;
    }
  }

  /** The thread's stream lost bytes: its open ranges end there unseen (their pops are lost), so none is projected. */
  forget(thread: number): void {
    this.open[thread] = [];
  }
}
