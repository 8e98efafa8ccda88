/**
 * A builder-call tape: the calls a decoder makes on its `ModelBuilder`, in order, as typed-array
 * columns (one row per call) that can be posted to another worker without copying. Per-event
 * calls fill the columns; rare calls and rare arguments (payload objects, renames, string keys,
 * row options, reports) go to a side list of plain values (structured clone). JSON payload bytes
 * go to a byte arena, so a Chrome event with `args` costs no object.
 */

/** What one row of the tape is. */
export const Op = {
  Push: 1,
  Pop: 2,
  Range: 3,
  StartEnd: 4,
  RangeStart: 5,
  RangeEnd: 6,
  Mark: 7,
  RowMark: 8,
  Counter: 9,
  RowRange: 10,
  Flow: 11,
  /** Any other builder method: `side[i0]` is a `TapeCall`. */
  Call: 12,
  /** The pipeline's memory-budget check before a chunk: `f0` content bytes handed to the decoder so far. */
  Budget: 13,
  /** Load progress: `f0` bytes done of `f1`. */
  Progress: 14,
  /** The decoder returned (or was stopped): what follows is the pipeline's own reports. */
  DecodeEnd: 15,
  /** How far into the file the decode is (`ModelBuilder.inputRead`, sizes the columns): `f0` bytes. */
  InputRead: 16,
} as const;

/** Which optional fields of a row are set. */
export const Has = {
  Attrs: 1 << 0,
  NameId: 1 << 1,
  Style: 1 << 2,
  Color: 1 << 3,
  Category: 1 << 4,
  Domain: 1 << 5,
  /** The attrs' name string: `side[sideRef]`. */
  Name: 1 << 6,
  Line: 1 << 7,
  Offset: 1 << 8,
  /** A payload of number type (`payloadType`, value `f2`... see `PayloadSlot`). */
  PayloadNumber: 1 << 9,
  /** A JSON payload given as bytes: `arena[pStart, pEnd)`. */
  PayloadJsonBytes: 1 << 10,
  /** Any other payload (string, bigint, Ext): `side[sideRef]` holds `{ payload }`. */
  PayloadSide: 1 << 11,
  /** `i1` is set (end thread of startEnd, thread of rowRange). */
  I1: 1 << 12,
  /** `f2` is set (rowRange correlation). */
  F2: 1 << 13,
  /** A `where` object was given (even empty). */
  Where: 1 << 14,
  /** `side[sideRef]` holds extras of pop/rangeEnd: `{ payload?, rename?, key? }`. */
  Extras: 1 << 15,
} as const;

/** A builder method other than the per-event ones, with its arguments and what the tape side got. */
export interface TapeCall {
  method: string;
  args: unknown[];
  /** What the call returned on the tape side (a handle the decoder holds), if anything. */
  result?: unknown;
}

/** Extras of one row kept in the side list. */
export interface RowExtras {
  name?: string;
  payload?: unknown;
  rename?: unknown;
  key?: string | number;
}

/** One batch of tape rows: columns of at least `count` rows (only the first `count` are meaningful). */
export interface TapeBatch {
  count: number;
  op: Uint8Array;
  has: Uint32Array;
  /** thread, or row for row ops, or the side-list index of a call. */
  i0: Int32Array;
  /** second thread (startEnd end thread, flow target, rowRange thread) or pop's domain. */
  i1: Int32Array;
  /** time (start). */
  f0: Float64Array;
  /** end time, counter value, flow target time. */
  f1: Float64Array;
  /** numeric range key, rowRange correlation, number payload value. */
  f2: Float64Array;
  nameId: Int32Array;
  style: Int32Array;
  color: Uint32Array;
  category: Float64Array;
  domain: Int32Array;
  line: Float64Array;
  offset: Float64Array;
  payloadType: Uint8Array;
  /** Number payload value, or the arena start of JSON bytes. */
  payloadValue: Float64Array;
  /** Arena end of JSON bytes. */
  payloadEnd: Float64Array;
  /** Index into `side`, or -1. */
  sideRef: Int32Array;
  side: unknown[];
  arena: Uint8Array;
}

/** The buffers of a batch, for a postMessage transfer list. */
export function batchTransferables(b: TapeBatch): ArrayBuffer[] {
  return [
    b.op, b.has, b.i0, b.i1, b.f0, b.f1, b.f2, b.nameId, b.style, b.color, b.category, b.domain,
    b.line, b.offset, b.payloadType, b.payloadValue, b.payloadEnd, b.sideRef, b.arena,
  ].map((a) => a.buffer as ArrayBuffer);
}

/** An empty batch with room for `rows` rows. */
export function newBatch(rows: number): TapeBatch {
  return {
    count: 0,
    op: new Uint8Array(rows),
    has: new Uint32Array(rows),
    i0: new Int32Array(rows),
    i1: new Int32Array(rows),
    f0: new Float64Array(rows),
    f1: new Float64Array(rows),
    f2: new Float64Array(rows),
    nameId: new Int32Array(rows),
    style: new Int32Array(rows),
    color: new Uint32Array(rows),
    category: new Float64Array(rows),
    domain: new Int32Array(rows),
    line: new Float64Array(rows),
    offset: new Float64Array(rows),
    payloadType: new Uint8Array(rows),
    payloadValue: new Float64Array(rows),
    payloadEnd: new Float64Array(rows),
    sideRef: new Int32Array(rows),
    side: [],
    arena: new Uint8Array(0),
  };
}
