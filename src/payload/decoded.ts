/** What the payload decoder returns: a tree of fields per payload, plus what the event learns from it. */
import type { CounterSemantics } from './schema.ts';

/** A decoded value: scalars, text, or (nested, for multi-dimensional arrays) arrays of them. */
export type FieldValue = number | bigint | string | boolean | null | FieldValue[];

export type FieldKind =
  /** A number, character, address... (`value`). */
  | 'scalar'
  /** An enum value: `value` is the entry name (`A | B` for flags), `numeric` the number. */
  | 'enum'
  /** Text (`value` is a string; for arrays of strings, an array). */
  | 'string'
  /** An array of scalars or enums (`value` is an array, nested for several dimensions). */
  | 'array'
  /** A nested schema (`children`); arrays of nested schemas have one child per element. */
  | 'struct'
  /** A union (`children`: the selector for internal-selector unions, then the selected member). */
  | 'union'
  /** Bytes without a schema (`value` is their hex). */
  | 'raw';

/** Counter semantics as applied to a field's value. */
export interface FieldCounter {
  semantics: CounterSemantics;
  /** The value for display: normalised (when asked) then scaled; arrays have no single value. */
  value?: number;
}

export interface DecodedField {
  /** Entry name, `#i` for unnamed entries, `[i]` for array elements. */
  name: string;
  /** C-like type text: "int32_t", "char[16]", "struct Foo", "enum Color", "float *". */
  type: string;
  kind: FieldKind;
  value?: FieldValue;
  /** Enum fields: the numeric value. */
  numeric?: number | bigint;
  children?: DecodedField[];
  description?: string;
  /** Index of the entry in its schema, -1 for array elements and predefined-type payloads. */
  entry: number;
  /** `EntryFlag` bits of the entry (0 for array elements). */
  flags: number;
  /** The entry has `NVTX_PAYLOAD_ENTRY_FLAG_HIDE`: kept, but hidden by default in views. */
  hidden?: boolean;
  /** Unit from counter semantics. */
  unit?: string;
  counter?: FieldCounter;
  /** Scope id from scope semantics. */
  scope?: number;
  /** Time domain (or predefined timestamp type) from time semantics of a timestamp entry. */
  timeDomain?: number;
  /** Byte range of the field's storage in its buffer: the payload, or `pointee.region`. */
  offset: number;
  size: number;
  /**
   * Pointer and offset entries: where the data was looked for. `resolved` is false when the
   * collector did not copy the memory (then `value` is the address, or null for NULL).
   */
  pointer?: { address: string; resolved: boolean; region?: 'payload' | 'memory' | 'flexData' };
  /** Why the field could not be decoded (fully); `raw` has the hex of the bytes involved. */
  error?: string;
  raw?: string;
  /** How to show the numbers: addresses, bytes and unresolved handles in hex; ARGB colors as such. */
  display?: 'hex' | 'color';
  /** The array was longer than the decoder's element limit: only the first elements are in `value`. */
  truncated?: { shown: number; total: number };
}

/** Timestamp entries (TIMESTAMP flag / RANGE_BEGIN / RANGE_END / MARK), for deferred events. */
export interface TimestampRef {
  role: 'begin' | 'end' | 'mark' | 'counter' | 'none';
  /** Raw timestamp in its time domain (int64). */
  value: number | bigint;
  timeDomain?: number;
  scope?: number;
  /** Dotted path of the field, e.g. "times.start" or "events[2].t". */
  path: string;
}

/** Entries flagged `NVTX_PAYLOAD_ENTRY_FLAG_COUNTER`. */
export interface CounterRef {
  path: string;
  /** Entry name (or path when unnamed). */
  name: string;
  /** Raw value as a number (64-bit integers beyond 2^53 lose precision here; `raw` keeps them). */
  value: number;
  raw: number | bigint;
  /** Normalised and scaled value per the counter semantics (= value without semantics). */
  display: number;
  semantics?: CounterSemantics;
  scope?: number;
}

/** NVTX event attributes carried by one payload (the last one given wins within the payload). */
export interface PayloadAttributes {
  message?: string;
  /** ARGB. */
  color?: number;
  category?: number;
  scope?: number | bigint;
  pid?: number | bigint;
  tid?: number | bigint;
}

export type PayloadKind =
  /** Decoded with a registered schema (or enum). */
  | 'schema'
  /** The schema id is a predefined entry type (e.g. a single int64, a C string). */
  | 'predefined'
  /** `NVTX_TYPE_PAYLOAD_SCHEMA_RAW`: an opaque blob. */
  | 'raw'
  /** `NVTX_TYPE_PAYLOAD_SCHEMA_REFERENCED`: memory other payloads point into, not shown itself. */
  | 'referenced'
  /** The schema id is not registered in the payload's domain. */
  | 'unknown';

export interface DecodedPayload {
  schemaId: number;
  domain: number;
  schemaName?: string;
  kind: PayloadKind;
  /** Blob size in bytes. */
  size: number;
  fields: DecodedField[];
  /** Why the payload does not match its schema (fields hold what could still be decoded). */
  error?: string;
  /** Hex of the whole blob, when there is an error. */
  raw?: string;
  /**
   * Bytes the schema covers from the start of the blob (for a static schema its size; for a
   * dynamic one where its last entry ended): the stride to the next event of a batch.
   */
  consumed?: number;
  /** The schema's event role (`NVTX_PAYLOAD_SCHEMA_FLAG_*`). */
  role?: 'counterGroup' | 'pushpop' | 'startend' | 'mark';
  attributes: PayloadAttributes;
  timestamps: TimestampRef[];
  counters: CounterRef[];
}
