/**
 * The columnar capture model: what every decoder produces (through `ModelBuilder`) and what the
 * renderer, the panels, the statistics and the CLI read. Struct-of-arrays on typed arrays, no
 * object per event, so a model crosses the worker boundary as transferable buffers.
 *
 * Times are integer nanoseconds relative to the capture start (`Capture.originNs`), held in
 * Float64Array: exact up to 2^53 ns (about 104 days), far beyond a realistic capture.
 */

import type { PayloadRegistry } from '../payload/schema.ts';

/** Integer nanoseconds relative to the capture start. */
export type Nanoseconds = number;

/** Index into `Model.ranges` (a row of the global range table). */
export type RangeIndex = number & { readonly __brand?: 'RangeIndex' };
/** Index into `Model.marks`. */
export type MarkIndex = number & { readonly __brand?: 'MarkIndex' };
/** Index into `Model.tracks`. */
export type TrackIndex = number & { readonly __brand?: 'TrackIndex' };
/** Index into `Model.strings`. */
export type StringId = number & { readonly __brand?: 'StringId' };
/** Index into `Model.styles`. */
export type StyleIndex = number & { readonly __brand?: 'StyleIndex' };

/** Bits of `RangeColumns.flags`. */
export const RangeFlag = {
  /** Still open at the end of the capture; closed at the capture end by the builder. */
  Unterminated: 1,
  /** A start/end range that ended on another thread than it started on. */
  CrossThread: 2,
  /** Overlaps the end of its parent (complete ranges given with start and end that do not nest). */
  BadNesting: 4,
} as const;

/**
 * All ranges of the capture. Rows are grouped by track (`Track.rangeBegin..rangeEnd`) and, inside
 * a track, sorted by (depth, start): each depth level (stack depth, or lane of a packed row) is a
 * contiguous run whose ranges do not overlap, so start and end are both non-decreasing within it
 * and a time window is two binary searches away (`Track.levelBegin`).
 */
export interface RangeColumns {
  /** Start time (ns from capture start). */
  startNs: Float64Array;
  /** End time (ns from capture start); >= startNs. */
  endNs: Float64Array;
  /** Name, color, category: index into `Model.styles`. */
  style: Uint32Array;
  /** Nesting depth (push/pop and stacked rows) or lane (packed start/end rows); 0 at the top. */
  depth: Uint16Array;
  /** Enclosing range on the same row (global RangeIndex), or -1 at the top / in packed rows. */
  parent: Int32Array;
  /** Index into `Model.threads` of the thread that opened the range, or -1 (GPU rows...). */
  thread: Int32Array;
  /** Index into `Model.payloads`, or -1 when the range carries no payload. */
  payload: Int32Array;
  /** `RangeFlag` bits. */
  flags: Uint8Array;
}

/** All marks (instant events), grouped by their thread's marks track, sorted by time within it. */
export interface MarkColumns {
  timeNs: Float64Array;
  style: Uint32Array;
  /** Index into `Model.threads`, or -1. */
  thread: Int32Array;
  /** Index into `Model.payloads`, or -1. */
  payload: Int32Array;
}

/** Counter samples, grouped by counter track, sorted by time within it. */
export interface CounterColumns {
  timeNs: Float64Array;
  /**
   * NaN: a sample without a value (NVTX `nvtxCounterSampleNoValue` with reason UNAVAILABLE); the
   * counter has no value from it to its next sample (drawn as a gap, left out of statistics).
   */
  value: Float64Array;
}

/**
 * Interned event styles: events sharing name, color and category share a style, which keeps
 * the per-range columns small (one Uint32 instead of three).
 */
export interface StyleColumns {
  /** Index into `Model.strings`. */
  name: Uint32Array;
  /** ARGB color from the capture; 0 means "none given" (the renderer picks a stable palette color). */
  color: Uint32Array;
  /** Index into `Model.categories`, or -1 for no category (category id 0). */
  category: Int32Array;
  /** Index into `Model.domains`. */
  domain: Uint32Array;
}

/** Payload type codes of `PayloadColumns.type`. */
export const PayloadType = {
  /** Unsigned 64-bit integer: exact value in `bits` (BigUint64 view). */
  U64: 1,
  /** Signed 64-bit integer: exact value in `bits` (BigInt64 view). */
  I64: 2,
  /** Double in `bits` (Float64 view). */
  F64: 3,
  U32: 4,
  I32: 5,
  F32: 6,
  /** A string: `bits` holds a StringId as a double. */
  String: 7,
  /**
   * JSON text (Chrome `args`, nsys `jsonText`): `bits` holds a StringId as a double, or, when
   * negative, -(k + 1) for text k of `Model.jsonText` (kept as bytes). Read it with `payloadValue`.
   */
  Json: 8,
  /** Extended payloads (schema-described bytes): `bits` holds the first row of the event's chain in `Model.extPayloads`. */
  Ext: 9,
} as const;
export type PayloadTypeCode = (typeof PayloadType)[keyof typeof PayloadType];

/** `ExtPayloadColumns.role` values. */
export const ExtPayloadRole = {
  /** Given with the mark, push, start or deferred event (the `nvtxPayloadData_t` array, in order). */
  Begin: 0,
  /** Given at pop/end: later specifications of the range's attributes, and more data. */
  End: 1,
  /** Memory the collector deep-copied because a payload entry points to it (schema 0). */
  Memory: 2,
  /**
   * What OFFSET_FROM_BASE entries of the event count from, when not the payload itself: the flex data
   * of an event batch (nvtxEventBatch_t::flexData; schema 0). Pointers may point into it too.
   */
  OffsetBase: 3,
} as const;

/** JSON payload texts as UTF-8 bytes (src/model/jsonText.ts): text k is bytes[start[k], start[k + 1]). */
export interface JsonTextColumns {
  bytes: Uint8Array;
  /** One more entry than texts. */
  start: Float64Array;
}

/**
 * Extended payload blobs (NVTX payload extension), one row per blob. The blobs of one event form a
 * chain through `next`, starting at the row a `PayloadType.Ext` payload names: begin payloads in
 * call order, then deep-copied memory, then pop/end payloads. Decode with `decodeModelPayload`
 * (src/model/extPayloadReader.ts) against `Model.payloadRegistry`.
 */
export interface ExtPayloadColumns {
  /** `nvtxPayloadData_t::schemaId` (registered schema, enum, or predefined type id). */
  schema: Float64Array;
  /** Index into `Model.domains`: schema ids are per domain. */
  domain: Uint32Array;
  /** Start of the blob in `bytes`. */
  offset: Float64Array;
  /** Byte length of the blob. */
  length: Uint32Array;
  /** Address of the blob in the program (for pointers into it); 0 when unknown. */
  address: Float64Array;
  /** `ExtPayloadRole`. */
  role: Uint8Array;
  /** Next row of the same event, or -1. */
  next: Int32Array;
  bytes: Uint8Array;
}

/**
 * Payload values, one row per payload. `bits` is 8 raw bytes per row; read it through
 * `payloadValue()` (src/model/payload.ts), which applies the type.
 */
export interface PayloadColumns {
  type: Uint8Array;
  /** 8 bytes per row, little-endian, interpreted according to `type`. */
  bits: Float64Array;
}

export type TrackKind =
  /** A thread's push/pop stack (per domain). */
  | 'pushpop'
  /** A thread's marks. */
  | 'marks'
  /** A process's start/end ranges and marks of one category, packed into lanes. */
  | 'category'
  /** Counter samples. */
  | 'counter'
  /** Host API calls (e.g. CUDA runtime/driver from an nsys export), stacked per thread. */
  | 'api'
  /** Device work (kernels, memcpy...), packed into lanes. */
  | 'gpu';

export interface Track {
  kind: TrackKind;
  /** Row label in the track tree. */
  label: string;
  /** Index into `Model.processes`, or -1. */
  process: number;
  /** Index into `Model.threads`, or -1 for process-level rows. */
  thread: number;
  /** Index into `Model.domains`, or -1. */
  domain: number;
  /** Index into `Model.categories` for category rows, else -1. */
  category: number;
  /** Group labels between the owning process/thread node and this row in the track tree. */
  path: string[];
  /** Ranges of this row: `Model.ranges` rows [rangeBegin, rangeEnd). */
  rangeBegin: number;
  rangeEnd: number;
  /**
   * Start of each depth level inside the row's ranges, as absolute RangeIndex, plus a final entry
   * equal to rangeEnd: level d is [levelBegin[d], levelBegin[d+1]). Length = levels + 1.
   */
  levelBegin: number[];
  /** Marks of a thread marks row: `Model.marks` rows [markBegin, markEnd). */
  markBegin: number;
  markEnd: number;
  /** Marks shown on a category row: `Model.markRefs` entries [markRefBegin, markRefEnd). */
  markRefBegin: number;
  markRefEnd: number;
  /** Samples of a counter row: `Model.counters` rows [counterBegin, counterEnd). */
  counterBegin: number;
  counterEnd: number;
  /** Counter unit, if any (e.g. "bytes"). */
  unit?: string;
  /** How a counter row is drawn and described (NVTX counter semantics), when the capture says. */
  counter?: CounterTrackInfo;
  /**
   * The program objects whose work the row shows, outermost first (nsys GPU rows: the CUDA device,
   * context and stream). Their names, when the program gave any, are in `Model.resources`; read
   * both through `rowObjects` (src/model/resources.ts).
   */
  objects?: ObjectRef[];
}

/** One program object by kind and identifier, as `ResourceInfo` names it. */
export interface ObjectRef {
  /** `ResourceInfo.kind`, e.g. 'CUDA stream'. */
  kind: string;
  /** `ResourceInfo.handle`: a device, context or stream id in decimal, a handle in hex. */
  handle: string;
}

/** Counter semantics of a counter row (nvToolsExtSemanticsCounters.h), already applied to the values. */
export interface CounterTrackInfo {
  /**
   * How the value runs between samples: 'untilNext' (a step holding until the next sample, the
   * default), 'sinceLast' (a step back to the previous sample), 'linear', or 'point' (samples only).
   */
  interpolation?: 'point' | 'sinceLast' | 'untilNext' | 'linear';
  /** What a value measures: absolute, change since the previous sample, or change since the start. */
  valueType?: 'absolute' | 'delta' | 'deltaSinceStart';
  /** Limits to show (softly: values beyond them still show). */
  min?: number;
  max?: number;
  description?: string;
  /**
   * Set on a row derived from another counter row instead of read from the capture: 'runningTotal'
   * is the sum of the changes of the delta counter row `source` (same process, thread and path),
   * one sample per sample of it, in the same order.
   */
  derived?: 'runningTotal';
  /** Label of the row a derived row comes from. */
  source?: string;
}

/** A node of the track tree shown at the left of the timeline. */
export interface TrackNode {
  label: string;
  /** The row drawn for this node, or -1 for a pure group (e.g. a process). */
  track: number;
  children: TrackNode[];
  /** Tooltip/secondary text, e.g. "pid 1844". */
  detail?: string;
}

export interface ProcessInfo {
  pid: number;
  name: string;
  /** Position in the track tree (Chrome `process_sort_index`): lower first; absent = 0; ties by pid. */
  sortIndex?: number;
}

export interface ThreadInfo {
  tid: number;
  /** Index into `Model.processes`. */
  process: number;
  name: string;
  /** Position among its process's threads (Chrome `thread_sort_index`): lower first; absent = 0; ties by tid. */
  sortIndex?: number;
}

/** A named object of the program: a CUDA or OpenCL object, or a resource named with nvtxDomainResourceCreate. */
export interface ResourceInfo {
  /** What the object is, e.g. 'CUDA stream', 'OpenCL command queue', 'pthread mutex'. */
  kind: string;
  /** The object's identifier as the program gave it: a handle or pointer in hex, a device ordinal in decimal. */
  handle: string;
  name: string;
  /** Index into `Model.processes`, or -1. */
  process: number;
  /** Index into `Model.domains` (0 for the CUDA and OpenCL naming calls, which have no domain). */
  domain: number;
}

export interface DomainInfo {
  /** '' for the default domain. */
  name: string;
  /** Index into `Model.processes`, or -1 when the domain is not tied to one process. */
  process: number;
}

export interface CategoryInfo {
  /** The category id as the capture gives it. */
  id: number;
  /** Name given by NameCategory / nvtxNameCategory, or '' when unnamed. */
  name: string;
  /** Index into `Model.domains`. */
  domain: number;
  /** Index into `Model.categories` of the parent category (AddChildCategory), or -1. */
  parent: number;
}

/**
 * Instrumentation problems a load issue can be (the health list groups and links them):
 * 'pop-without-push' a pop with no open range; 'never-popped' a push never popped;
 * 'end-without-start' an end of a start/end range that is not open (never started, or ended
 * twice); 'start-while-open' a start/end id started again while open; 'never-ended' a start/end
 * range never ended.
 */
export type LoadIssueKind = 'pop-without-push' | 'never-popped' | 'end-without-start' | 'start-while-open' | 'never-ended';

/** A problem found while loading. Valid data around it still loads. */
export interface LoadIssue {
  severity: 'error' | 'warning' | 'info';
  /** File name as the user gave it. */
  file: string;
  /** 1-based line for text formats. */
  line?: number;
  /** Byte offset for binary formats. */
  offset?: number;
  message: string;
  /** What kind of instrumentation problem this is, when it is one. */
  kind?: LoadIssueKind;
  /** Time of the event at fault (ns from the capture start, like the model's times), when known. */
  timeNs?: number;
  /** Index into `Model.threads` of the event's thread, when known. */
  thread?: number;
  /** On a summary line ("and 3,443 more of this kind"): how many problems it stands for (src/model/issueList.ts). */
  more?: number;
}

/** Where a capture came from and how its clock maps to nanoseconds. */
export interface CaptureInfo {
  /** File name as given by the user. */
  fileName: string;
  /** Display name (NVTXT SetFileDisplayName, process name...), else the file name. */
  displayName: string;
  /** Format id from the importer table, e.g. 'nvtxt'. */
  format: string;
  /** Byte size of the input file. */
  byteSize: number;
  /**
   * Absolute time of the model's zero, in ns of `clock`, as a decimal string (exact: may exceed
   * 2^53). Two captures with the same `clock` can be aligned with it.
   */
  originNs: string;
  /** Clock of the timestamps, e.g. 'FileTime', 'CLOCK_MONOTONIC_RAW', 'Qpc@10MHz'. */
  clock: string;
  /** Free-form facts worth showing (command line, tick rates, schema version...). */
  properties: Record<string, string>;
}

/**
 * Links between ranges that share a correlation id (nsys: a CUDA API call and the kernels, copies
 * and sets it launched). Ids are opaque numbers, unique per capture. Read through
 * `correlationIdOf` / `correlatedRanges` in src/model/query.ts.
 */
export interface CorrelationColumns {
  /** Ranges that carry an id, ascending. */
  range: Int32Array;
  /** The id of each entry of `range`. */
  id: Float64Array;
  /** Positions into `range`/`id` ordered by (id, range): the ranges of one id are a contiguous run. */
  byId: Int32Array;
}

/**
 * Flow arrows between points of threads (Chrome flow events `s`/`t`/`f`): each row an arrow from
 * (fromThread, fromNs) to (toThread, toNs). The ranges they join are found when needed
 * (`flowLinks` in src/model/flows.ts): the deepest range of the thread containing the point.
 */
export interface FlowColumns {
  fromThread: Int32Array;
  fromNs: Float64Array;
  toThread: Int32Array;
  toNs: Float64Array;
}

/** Range statistics / timeline input for one loaded file. */
export interface Model {
  capture: CaptureInfo;
  /** Time span of the capture: [0, durationNs]. */
  durationNs: Nanoseconds;
  strings: string[];
  styles: StyleColumns;
  ranges: RangeColumns;
  marks: MarkColumns;
  /** Mark indices shown on category rows (a mark also stays on its thread's marks row). */
  markRefs: Uint32Array;
  counters: CounterColumns;
  payloads: PayloadColumns;
  /** Sparse: start/end ranges that ended on another thread: range index -> end thread index. */
  crossThreadEnds: { range: Int32Array; thread: Int32Array };
  /** Sparse, optional: ranges linked by a correlation id (e.g. a CUDA API call and its GPU work). */
  correlation?: CorrelationColumns;
  /** Sparse, optional: flow arrows between thread points (Chrome flow events). */
  flows?: FlowColumns;
  /**
   * Level-of-detail summaries of `ranges` for drawing zoomed-out views (src/model/lod.ts); built by
   * `ModelBuilder.finish`. Valid only while `rangeLod.startNs === ranges.startNs`.
   */
  rangeLod?: RangeLod;
  /**
   * Ranges with `RangeFlag` bits set (src/model/flagged.ts); built by `ModelBuilder.finish`. Valid
   * only while `flaggedRanges.flags === ranges.flags`; read through `flaggedRanges(model)`.
   */
  flaggedRanges?: FlaggedRanges;
  /** Extended payload blobs, when the capture has any (`PayloadType.Ext` rows point here). */
  extPayloads?: ExtPayloadColumns;
  /** JSON payload texts kept as bytes, when a decoder gave any (`PayloadType.Json` rows with negative `bits`). */
  jsonText?: JsonTextColumns;
  /** Schemas, enums, registered strings and scopes the capture registered, for decoding `extPayloads`. */
  payloadRegistry?: PayloadRegistry;
  /** Names the program gave to its objects (CUDA/OpenCL naming calls, NVTX resources), when there are any. */
  resources?: ResourceInfo[];
  processes: ProcessInfo[];
  threads: ThreadInfo[];
  domains: DomainInfo[];
  categories: CategoryInfo[];
  tracks: Track[];
  /** Roots of the track tree. */
  trackTree: TrackNode[];
  /** Everything reported while loading. */
  issues: LoadIssue[];
}

/** Level-of-detail summaries of the range table (built and read by src/model/lod.ts). */
export interface RangeLod {
  /** The start column the summaries were built from (a model whose ranges were replaced has stale ones). */
  startNs: Float64Array;
  /** First entry of summary level m in the columns below; one more entry than levels. */
  levelOffset: number[];
  /** Per block: longest duration (ns, rounded up). */
  maxDur: Float32Array;
  /** Per block: longest start-to-next-start step between its ranges (ns, rounded up). */
  maxStep: Float32Array;
  /** Per block: the style of all its ranges, or MIXED_STYLE (lod.ts). */
  style: Uint32Array;
}

/** The index of ranges with `RangeFlag` bits set (built by src/model/flagged.ts). */
export interface FlaggedRanges {
  /** The flags column the index was built from (a model whose ranges were replaced has a stale one). */
  flags: Uint8Array;
  /** Ranges with a flag set, ascending. */
  index: Int32Array;
}
