/**
 * What decoders hand the model builder: event attributes, payload values, source locations and
 * row options. Re-exported by `../builder.ts`, where decoders import them from.
 */
import type { CounterTrackInfo, ObjectRef, PayloadType, StringId, TrackKind } from '../types.ts';

/** A payload as decoders hand it to the builder. */
export type PayloadValue =
  | { type: typeof PayloadType.U64 | typeof PayloadType.I64; value: bigint | number }
  | {
      type: typeof PayloadType.F64 | typeof PayloadType.U32 | typeof PayloadType.I32 | typeof PayloadType.F32;
      value: number;
    }
  | { type: typeof PayloadType.String | typeof PayloadType.Json; value: string }
  | JsonBytesValue
  | { type: typeof PayloadType.Ext; value: number };

/**
 * JSON text given as its UTF-8 bytes buf[start, end): copied into `Model.jsonText`, no string made
 * (a decoder may reuse one such object for every event).
 */
export interface JsonBytesValue {
  type: typeof PayloadType.Json;
  value?: undefined;
  bytes: Uint8Array;
  start: number;
  end: number;
}

/** Attributes of a mark or range (NVTX event attributes). */
export interface EventAttrs {
  /** The message. Give `name` or a pre-interned `nameId` (faster in hot loops). */
  name?: string;
  nameId?: StringId;
  /** ARGB; 0 or absent = none. */
  color?: number;
  /** Category id as the capture gives it; 0 or absent = none. */
  category?: number;
  /** Domain index from `domain()`; absent = the default domain (index 0). */
  domain?: number;
  payload?: PayloadValue;
  /**
   * A style from `style()` for these name/color/category/domain: skips the style lookup (hot
   * loops cache styles by their own keys). `category` and `domain` must still be given: they
   * choose the row of start/end ranges.
   */
  style?: number;
}

/** Where an event came from, for messages about it. */
export interface SourceLocation {
  line?: number;
  offset?: number;
}

export interface BuilderOptions {
  fileName: string;
  format: string;
  byteSize: number;
}

/** Options of a counter row. */
export interface CounterRowOptions {
  label: string;
  /** Process index (from `process()`), or -1. */
  process: number;
  /** Thread index (from `thread()`), or -1 for a process-level counter. */
  thread?: number;
  unit?: string;
  /** Group labels between the process (or thread) node and the row. */
  path?: string[];
  /** Interpolation, value type and limits of the counter (`Track.counter`). */
  counter?: CounterTrackInfo;
}

/** Message and color given at pop/end (nvtxRangePopPayload, nvtxRangeEndPayload): they replace the push/start ones. */
export interface RangeRename {
  name?: string;
  color?: number;
}

/** Options of a custom range row (API calls, GPU work). */
export interface CustomRowOptions {
  kind: Extract<TrackKind, 'api' | 'gpu'>;
  label: string;
  process: number;
  thread?: number;
  /** Group labels between the process (or thread) node and the row, e.g. ['CUDA', 'GPU 0']. */
  path?: string[];
  /** 'stack' nests ranges by time, 'lanes' packs overlapping ones side by side; default by kind (gpu: lanes). */
  layout?: 'stack' | 'lanes';
  /** The program objects whose work the row shows (`Track.objects`). */
  objects?: ObjectRef[];
}
