/**
 * The push/pop ranges of each thread that contain a CUDA API call, for the NVTX GPU projection
 * (src/import/cuda/projection.ts). A thread's records come in its own order, and a CUDA_API record
 * is written when the call returns, so the ranges open when it is read are the ones around the
 * call: each open range is flagged (the innermost of each domain; a flag passes to the enclosing
 * range when the inner one is popped), and flagged ranges are handed on when they close. Ranges
 * with no call inside are forgotten at their pop, so a capture without CUDA keeps nothing.
 * Start/end ranges that start and end on one thread (the projection's rule) do not nest: each
 * remembers how many calls its thread had made when it started, and has calls inside when the
 * count moved by its end. Only open ones are kept (slots are reused).
 */

import { RangeIdTable } from '../../model/rangeIdTable.ts';

/**
 * One thread's open ranges of one domain, innermost last: start, name, color (NaN: none) and
 * "a call was made inside" per range, in one typed array (this is on the path of every push and pop).
 */
export class OpenStack {
  data = new Float64Array(4 * 16);
  depth = 0;

  /** A range pushed at `startNs` (`color` NaN: none). */
  push(startNs: number, nameId: number, color: number): void {
    let d = this.data;
    const at = 4 * this.depth;
    if (at + 4 > d.length) {
      const bigger = new Float64Array(d.length * 2);
      bigger.set(d);
      this.data = d = bigger;
    }
    d[at] = startNs;
    d[at + 1] = nameId;
    d[at + 2] = color;
    d[at + 3] = 0;
    this.depth++;
  }

  /** Pops the innermost range: its place in `data` when a call was made inside it, else -1 (also with nothing open). */
  pop(): number {
    if (this.depth === 0) return -1;
    const at = 4 * --this.depth;
    return this.data[at + 3] === 0 ? -1 : at;
  }
}

export interface ClosedLaunchingRange {
  thread: number;
  domain: number;
  startNs: number;
  endNs: number;
  nameId: number;
  color: number | undefined;
}

/** Columns of an open start/end range's slot. */
const SLOT = { start: 0, name: 1, color: 2, domain: 3, thread: 4, calls: 5, size: 6 } as const;

export class LaunchingRanges {
  /** [builder thread][builder domain] */
  private readonly open: (OpenStack | undefined)[][] = [];
  /** CUDA calls made so far per builder thread (read through callsOn: most threads never make one). */
  private readonly calls: number[] = [];
  /** Open start/end ranges: range id -> slot. */
  private readonly startEnd = new RangeIdTable();
  private slots = new Float64Array(SLOT.size * 64);
  private readonly freeSlots: number[] = [];
  private usedSlots = 0;

  constructor(private readonly onClosed: (range: ClosedLaunchingRange) => void) {}

  push(thread: number, domain: number, startNs: number, nameId: number, color: number | undefined): void {
    this.stackOf(thread, domain).push(startNs, nameId, color ?? NaN);
  }

  pop(thread: number, domain: number, endNs: number): void {
    const s = this.open[thread]?.[domain];
    if (s === undefined) return;
    const at = s.pop();
    if (at >= 0) this.closed(thread, domain, s, at, endNs);
  }

  /**
   * The open ranges of a thread's domain, for a decoder loop that pushes and pops them itself
   * (`OpenStack.push`, and `closed` when `OpenStack.pop` says a call was made inside). Valid until
   * `forget(thread)`.
   */
  stackOf(thread: number, domain: number): OpenStack {
    const byDomain = (this.open[thread] ??= []);
    return (byDomain[domain] ??= new OpenStack());
  }

  /** The range at `at` of `s`, just popped, had a call inside: its parent has one too, and it is handed on. */
  closed(thread: number, domain: number, s: OpenStack, at: number, endNs: number): void {
    const d = s.data;
    if (s.depth > 0) d[at - 1] = 1;
    const color = d[at + 2];
    this.onClosed({ thread, domain, startNs: d[at], endNs, nameId: d[at + 1], color: Number.isNaN(color) ? undefined : color });
  }

  /** A start/end range `id` started on `thread`. */
  start(id: number, thread: number, startNs: number, nameId: number, color: number | undefined, domain: number): void {
    let slot = this.freeSlots.pop();
    if (slot === undefined) {
      slot = this.usedSlots++;
      if (SLOT.size * this.usedSlots > this.slots.length) {
        const bigger = new Float64Array(this.slots.length * 2);
        bigger.set(this.slots);
        this.slots = bigger;
      }
    }
    const at = SLOT.size * slot;
    const d = this.slots;
    d[at + SLOT.start] = startNs;
    d[at + SLOT.name] = nameId;
    d[at + SLOT.color] = color ?? NaN;
    d[at + SLOT.domain] = domain;
    d[at + SLOT.thread] = thread;
    d[at + SLOT.calls] = this.callsOn(thread);
    this.startEnd.set(id, slot);
  }

  /** Start/end range `id` ended on `thread` (an end whose start was not seen yet is left to the pairing). */
  end(id: number, thread: number, endNs: number): void {
    const slot = this.startEnd.delete(id);
    if (slot < 0) return;
    this.freeSlots.push(slot);
    const at = SLOT.size * slot;
    const d = this.slots;
    if (d[at + SLOT.thread] !== thread || this.callsOn(thread) === d[at + SLOT.calls]) return;
    const color = d[at + SLOT.color];
    this.onClosed({ thread, domain: d[at + SLOT.domain], startNs: d[at + SLOT.start], endNs, nameId: d[at + SLOT.name], color: Number.isNaN(color) ? undefined : color });
  }

  /** Reading past the end of an array is a slow path in V8 (a capture without CUDA has no counts at all). */
  private callsOn(thread: number): number {
    return thread < this.calls.length ? (this.calls[thread] ?? 0) : 0;
  }

  /** A CUDA API call was made on `thread`: every range open there contains it. */
  call(thread: number): void {
    this.calls[thread] = this.callsOn(thread) + 1;
    const byDomain = this.open[thread];
    if (byDomain === undefined) return;
    for (const s of byDomain) {
      if (s !== undefined && s.depth > 0) s.data[4 * s.depth - 1] = 1;
    }
  }

  /** The thread's stream lost bytes: its open ranges end there unseen (their pops are lost), so none is projected. */
  forget(thread: number): void {
    this.open[thread] = [];
  }
}
