/**
 * What the parse side of a two-worker Chrome load (src/import/chromeSplit.ts) hands the build side
 * for one slice of the file: the slice's bytes and, in file order, a compact columnar record of
 * every event's `EventFields` (spans into those bytes, numbers, flags) and of the other things the
 * decoder is told (top-level values, the reader's reports, chunk boundaries). Two typed arrays, no
 * object per event: `ints` holds tags, flags and byte positions, `nums` the values that need a
 * double (timestamps' whole µs, integer ids, file offsets).
 *
 * Event layout in `ints`: head (tag and flags), span kinds, position, ph | instant scope << 8, then
 * only what is present: the ph span, ts ns, dur ns, each span's start, end (and the hash of a
 * plain `name`/`cat`; no span for a `pid`/`tid` that is a plain integer), the `args` span, the
 * `id2` span. `nums`: ts µs, dur µs, each number span's `int`.
 */
import type { IssueLocation } from './documentReader.ts';
import { EventFields, FieldKind, type SpanField } from './eventFields.ts';

/** An event at `pos` in the current view. */
export const TAG_EVENT = 0;
/** The events that follow are in view `ints[+1]` (file offset of its byte 0 in `nums`). */
export const TAG_VIEW = 1;
/** A chunk of the content starts: `nums` reached (content bytes before it), its length; `ints` gzip problems known. */
export const TAG_CHUNK = 2;
/** A document-level call, `calls[ints[+1]]`. */
export const TAG_CALL = 3;
const TAG_MASK = 3;

// Event head flags (above the tag).
const HAS_TS_SHIFT = 2;
const HAS_DUR_SHIFT = 4;
const FLOW_IN = 1 << 6;
const FLOW_OUT = 1 << 7;
const ARGS_EMPTY = 1 << 8;
const HAS_ARGS = 1 << 9;
const HAS_ID2 = 1 << 10;
const HAS_PH = 1 << 11;
/** The one-worker decoder's dispatch throws a JsonSyntaxError for this event (the parse side found out). */
const DISPATCH_THROWS = 1 << 12;

/** A call of the document reader on its sink, other than an event. */
export type DocumentCall =
  | { kind: 'top'; key: string; json: string | undefined; bytes: number; where: IssueLocation }
  | { kind: 'report'; severity: 'error' | 'warning' | 'info'; message: string; where: IssueLocation | undefined };

// `pid` and `tid` (spans 2 and 3) given as plain integers go without their span ("value only"):
// the decoder reads only their value then (chrome.ts `pidOf`, `tidOf`). The kind's escape bit,
// never set for a number, marks them.

/** The span fields of `f` in record order, kept while the same (reused) `EventFields` comes. */
class SpanList {
  private f: EventFields | undefined;
  private spans: SpanField[] = [];

  of(f: EventFields): SpanField[] {
    if (f !== this.f) {
      this.f = f;
      this.spans = [f.name, f.cat, f.pid, f.tid, f.id, f.scope, f.cname, f.bindId];
    }
    return this.spans;
  }
}

/** Appends items to growable `ints` / `nums` (reused between slices). */
export class EventRecordWriter {
  ints: Int32Array;
  nums: Float64Array;
  intCount = 0;
  numCount = 0;
  private readonly spanList = new SpanList();

  constructor(ints = new Int32Array(1 << 16), nums = new Float64Array(1 << 14)) {
    this.ints = ints;
    this.nums = nums;
  }

  /** Starts again on the given arrays (a recycled slice's). */
  reset(ints: Int32Array, nums: Float64Array): void {
    this.ints = ints;
    this.nums = nums;
    this.intCount = 0;
    this.numCount = 0;
  }

  private room(ints: number, nums: number): void {
    if (this.intCount + ints > this.ints.length) {
      const grown = new Int32Array(Math.max(this.ints.length * 2, this.intCount + ints));
      grown.set(this.ints.subarray(0, this.intCount));
      this.ints = grown;
    }
    if (this.numCount + nums > this.nums.length) {
      const grown = new Float64Array(Math.max(this.nums.length * 2, this.numCount + nums));
      grown.set(this.nums.subarray(0, this.numCount));
      this.nums = grown;
    }
  }

  view(index: number, base: number): void {
    this.room(2, 1);
    this.ints[this.intCount++] = TAG_VIEW;
    this.ints[this.intCount++] = index;
    this.nums[this.numCount++] = base;
  }

  chunk(reached: number, length: number, gzipProblems: number): void {
    this.room(2, 2);
    this.ints[this.intCount++] = TAG_CHUNK;
    this.ints[this.intCount++] = gzipProblems;
    this.nums[this.numCount++] = reached;
    this.nums[this.numCount++] = length;
  }

  call(index: number): void {
    this.room(2, 0);
    this.ints[this.intCount++] = TAG_CALL;
    this.ints[this.intCount++] = index;
  }

  /** Where the last event's head is (`markThrows`). */
  private lastHead = 0;

  /** The event just parsed into `f`, at `pos` of the current view; returns whether any of its strings holds an escape. */
  event(f: EventFields, pos: number, dispatchThrows: boolean): boolean {
    // At most: 4 + 2 + 2 + 8 spans × 3 + 2 + 2 ints; 2 + 8 nums.
    this.room(36, 10);
    const ints = this.ints;
    const nums = this.nums;
    let i = this.intCount;
    let n = this.numCount;
    const headAt = i;
    this.lastHead = headAt;
    const spans = this.spanList.of(f);
    let escaped = false;
    ints[i + 2] = pos;
    ints[i + 3] = f.ph | (f.instantScope << 8);
    i += 4;
    let head = TAG_EVENT | (f.hasTs << HAS_TS_SHIFT) | (f.hasDur << HAS_DUR_SHIFT);
    if (f.flowIn) head |= FLOW_IN;
    if (f.flowOut) head |= FLOW_OUT;
    if (f.argsEmpty) head |= ARGS_EMPTY;
    if (dispatchThrows) head |= DISPATCH_THROWS;
    if (f.phStart >= 0) {
      head |= HAS_PH;
      ints[i++] = f.phStart;
      ints[i++] = f.phEnd;
    }
    if (f.hasTs === FieldKind.Number) {
      nums[n++] = f.ts.us;
      ints[i++] = f.ts.ns;
    }
    if (f.hasDur === FieldKind.Number) {
      nums[n++] = f.dur.us;
      ints[i++] = f.dur.ns;
    }
    // One pass over the spans: their values, and their kinds for the second int.
    let kinds = 0;
    for (let k = 0; k < 8; k++) {
      const s = spans[k];
      const kind = s.kind;
      if (kind === FieldKind.Absent) continue;
      if (kind === FieldKind.Number) {
        if ((k === 2 || k === 3) && !Number.isNaN(s.int)) {
          // Value only (above).
          kinds |= (kind | 4) << (3 * k);
          nums[n++] = s.int;
          continue;
        }
        nums[n++] = s.int;
      }
      if (s.escaped) {
        escaped = true;
        kinds |= (kind | 4) << (3 * k);
      } else kinds |= kind << (3 * k);
      ints[i++] = s.start;
      ints[i++] = s.end;
      if (k < 2 && kind === FieldKind.String && !s.escaped) ints[i++] = s.hash;
    }
    ints[headAt + 1] = kinds;
    if (f.argsStart >= 0) {
      head |= HAS_ARGS;
      ints[i++] = f.argsStart;
      ints[i++] = f.argsEnd;
    }
    if (f.id2Start >= 0) {
      head |= HAS_ID2;
      ints[i++] = f.id2Start;
      ints[i++] = f.id2End;
    }
    ints[headAt] = head;
    this.intCount = i;
    this.numCount = n;
    return escaped;
  }

  /** The last event makes the decoder throw (found after it was written). */
  markThrows(): void {
    this.ints[this.lastHead] |= DISPATCH_THROWS;
  }
}

/** Reads a slice's record back, item by item. */
export class EventRecordReader {
  /** Next item in `ints` / `nums`. */
  i = 0;
  n = 0;
  private readonly spanList = new SpanList();

  constructor(
    readonly ints: Int32Array,
    readonly intCount: number,
    readonly nums: Float64Array,
  ) {}

  get done(): boolean {
    return this.i >= this.intCount;
  }

  /** The next item's tag (the item is then read with the matching method). */
  tag(): number {
    return this.ints[this.i] & TAG_MASK;
  }

  /** A TAG_VIEW, TAG_CALL item: its index; TAG_VIEW's base is `nums`' next value (`num()`). */
  index(): number {
    const v = this.ints[this.i + 1];
    this.i += 2;
    return v;
  }

  num(): number {
    return this.nums[this.n++];
  }

  /**
   * A TAG_EVENT item into `f` as the parser left it (fields absent here are reset, as a parse
   * resets them); returns its position in the view, and sets `dispatchThrows`.
   */
  event(f: EventFields): number {
    const ints = this.ints;
    const nums = this.nums;
    let i = this.i;
    let n = this.n;
    const head = ints[i];
    const kinds = ints[i + 1];
    const pos = ints[i + 2];
    const phScope = ints[i + 3];
    i += 4;
    // Every field is set (no `reset` first): what a parse leaves in an absent field is set here too.
    f.start = pos;
    f.ph = phScope & 0xff;
    f.instantScope = phScope >>> 8;
    f.flowIn = (head & FLOW_IN) !== 0;
    f.flowOut = (head & FLOW_OUT) !== 0;
    f.argsEmpty = (head & ARGS_EMPTY) !== 0;
    f.lineBreaks = -1;
    this.dispatchThrows = (head & DISPATCH_THROWS) !== 0;
    if (head & HAS_PH) {
      f.phStart = ints[i++];
      f.phEnd = ints[i++];
    } else f.phStart = f.phEnd = -1;
    f.hasTs = ((head >>> HAS_TS_SHIFT) & 3) as typeof f.hasTs;
    if (f.hasTs === FieldKind.Number) {
      f.ts.us = nums[n++];
      f.ts.ns = ints[i++];
    }
    f.hasDur = ((head >>> HAS_DUR_SHIFT) & 3) as typeof f.hasDur;
    if (f.hasDur === FieldKind.Number) {
      f.dur.us = nums[n++];
      f.dur.ns = ints[i++];
    }
    const spans = this.spanList.of(f);
    for (let k = 0; k < 8; k++) {
      const bits = (kinds >>> (3 * k)) & 7;
      const kind = (bits & 3) as SpanField['kind'];
      const s = spans[k];
      s.kind = kind;
      s.hash = 0;
      s.int = NaN;
      if ((k === 2 || k === 3) && kind === FieldKind.Number && (bits & 4) !== 0) {
        // A pid or tid given as a plain integer: its value is all the decoder reads.
        s.escaped = false;
        s.int = nums[n++];
        continue;
      }
      s.escaped = (bits & 4) !== 0;
      if (kind === FieldKind.Absent) continue;
      s.start = ints[i++];
      s.end = ints[i++];
      if (k < 2 && kind === FieldKind.String && !s.escaped) s.hash = ints[i++];
      else if (kind === FieldKind.Number) s.int = nums[n++];
    }
    if (head & HAS_ARGS) {
      f.argsStart = ints[i++];
      f.argsEnd = ints[i++];
    } else f.argsStart = f.argsEnd = -1;
    if (head & HAS_ID2) {
      f.id2Start = ints[i++];
      f.id2End = ints[i++];
    } else f.id2Start = f.id2End = -1;
    this.i = i;
    this.n = n;
    return pos;
  }

  /** Set by `event`. */
  dispatchThrows = false;

  /** A TAG_CHUNK item: content bytes before the chunk, its length, gzip problems known then. */
  chunk(out: { reached: number; length: number; gzipProblems: number }): void {
    out.gzipProblems = this.ints[this.i + 1];
    this.i += 2;
    out.reached = this.nums[this.n++];
    out.length = this.nums[this.n++];
  }
}
