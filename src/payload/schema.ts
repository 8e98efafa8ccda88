/**
 * Plain-data mirror of the NVTX payload extension registrations (nvToolsExtPayload.h,
 * nvToolsExtSemantics*.h): what a capture stores after deep-copying the registration structs, and
 * what the decoder reads. No classes, no functions, no bigint: a registry survives postMessage and
 * JSON alike. Ids and 64-bit fields are numbers, exact up to 2^53 (static ids are < 2^32 and
 * tool-generated ids start at 2^32, so real ids are exact).
 *
 * This module imports nothing, so `src/model/types.ts` can reference its types.
 */

/** `NVTX_PAYLOAD_SCHEMA_TYPE_*`. */
export const SchemaType = {
  Invalid: 0,
  Static: 1,
  Dynamic: 2,
  /** Member chosen by an integral entry of the enclosing schema (`arrayOrUnionDetail` = its index). */
  Union: 3,
  /** Member chosen by the union's own entry of type `UNION_SELECTOR`. */
  UnionWithInternalSelector: 4,
} as const;

/** `NVTX_PAYLOAD_SCHEMA_FLAG_*`. Bits 3-5 are one field (the schema's event role). */
export const SchemaFlag = {
  DeepCopy: 1 << 1,
  Referenced: 1 << 2,
  /** Mask of the role field (bits 3-5). */
  RoleMask: 7 << 3,
  CounterGroup: 1 << 3,
  RangePushPop: 2 << 3,
  RangeStartEnd: 3 << 3,
  Mark: 4 << 3,
} as const;

/**
 * `NVTX_PAYLOAD_ENTRY_FLAG_*`. Array kind (bits 4-6), role (bits 10-11) and event kind (bits 12-14)
 * are fields, not independent bits: compare after masking.
 */
export const EntryFlag = {
  Pointer: 1 << 1,
  OffsetFromBase: 1 << 2,
  OffsetFromHere: 1 << 3,
  /**
   * Mask of the array field. The header's `NVTX_PAYLOAD_ENTRY_FLAG_IS_ARRAY` is 0x30 and misses
   * `ARRAY_LENGTH_PAYLOAD_INDEX` (4 << 4); the field really spans bits 4-6.
   */
  ArrayMask: 7 << 4,
  ArrayFixedSize: 1 << 4,
  ArrayZeroTerminated: 2 << 4,
  ArrayLengthIndex: 3 << 4,
  ArrayLengthPayloadIndex: 4 << 4,
  DeepCopy: 1 << 8,
  Hide: 1 << 9,
  /** Mask of the role field (bits 10-11). */
  RoleMask: 3 << 10,
  EventMessage: 1 << 10,
  Timestamp: 2 << 10,
  /** Mask of the event-kind field (bits 12-14). */
  EventKindMask: 7 << 12,
  RangeBegin: 1 << 12,
  RangeEnd: 2 << 12,
  Mark: 3 << 12,
  Counter: 4 << 12,
} as const;

/** `NVTX_PAYLOAD_ENTRY_TYPE_*` (predefined entry types; larger values are schema or enum ids). */
export const EntryType = {
  Invalid: 0,
  Char: 1,
  UChar: 2,
  Short: 3,
  UShort: 4,
  Int: 5,
  UInt: 6,
  Long: 7,
  ULong: 8,
  LongLong: 9,
  ULongLong: 10,
  Int8: 11,
  UInt8: 12,
  Int16: 13,
  UInt16: 14,
  Int32: 15,
  UInt32: 16,
  Int64: 17,
  UInt64: 18,
  Float: 19,
  Double: 20,
  LongDouble: 21,
  Size: 22,
  Address: 23,
  WChar: 24,
  Char8: 25,
  Char16: 26,
  Char32: 27,
  Byte: 32,
  Int128: 33,
  UInt128: 34,
  Float16: 42,
  Float32: 43,
  Float64: 44,
  Float128: 45,
  BF16: 50,
  TF32: 52,
  Category: 68,
  ColorArgb: 69,
  ScopeId: 70,
  PidUInt32: 71,
  PidUInt64: 72,
  TidUInt32: 73,
  TidUInt64: 74,
  CString: 75,
  CStringUtf8: 76,
  CStringUtf16: 77,
  CStringUtf32: 78,
  RegisteredStringHandle: 80,
  UnionSelector: 100,
} as const;

/** Schema ids of `nvtxPayloadData_t` that are not registered schemas. */
export const PayloadSchemaId = {
  /** A blob other payloads of the same event point into; never shown on its own. */
  Referenced: 1022,
  /** An opaque blob, shown as bytes. */
  Raw: 1023,
  /** First id a program may register statically (`NVTX_PAYLOAD_SCHEMA_ID_STATIC_START`). */
  StaticStart: 1 << 24,
  /** First id a tool generates (`NVTX_PAYLOAD_SCHEMA_ID_DYNAMIC_START`). */
  DynamicStart: 2 ** 32,
} as const;

/** `nvtxSemanticsHeader_t::semanticId` values. */
export const SemanticId = {
  Scope: 1,
  Time: 2,
  Counter: 5,
} as const;

/** `NVTX_COUNTER_FLAG_*` (nvToolsExtSemanticsCounters.h). Value type and interpolation are fields. */
export const CounterFlag = {
  Normalize: 1 << 1,
  LimitMin: 1 << 2,
  LimitMax: 1 << 3,
  ValueTypeMask: 3 << 4,
  ValueTypeAbsolute: 1 << 4,
  ValueTypeDelta: 2 << 4,
  ValueTypeDeltaSinceStart: 3 << 4,
  InterpolationMask: 7 << 8,
  InterpolationPoint: 1 << 8,
  InterpolationSinceLast: 2 << 8,
  InterpolationUntilNext: 3 << 8,
  InterpolationLinear: 4 << 8,
} as const;

/** `NVTX_COUNTER_LIMIT_*`: which member of the `min`/`max` unions is set. */
export const CounterLimitType = {
  Undefined: 0,
  I64: 1,
  U64: 2,
  F64: 3,
} as const;

/** `nvtxSemanticsScope_t`. */
export interface ScopeSemantics {
  kind: 'scope';
  scopeId: number;
}

/** `nvtxSemanticsTime_t`: the time domain (or predefined `NVTX_TIMESTAMP_TYPE_*`) of a timestamp. */
export interface TimeSemantics {
  kind: 'time';
  timeDomainId: number;
}

/** `nvtxSemanticsCounter_t`. */
export interface CounterSemantics {
  kind: 'counter';
  /** `CounterFlag` bits. */
  flags: number;
  unit?: string;
  /** Display value = raw × numerator / denominator (both 1 when unused; 0 is read as 1). */
  unitScaleNumerator: number;
  unitScaleDenominator: number;
  /** `CounterLimitType`; `min`/`max` are already converted to numbers. */
  limitType: number;
  min?: number;
  max?: number;
}

/** A semantics struct the decoder does not know, kept so nothing is dropped. */
export interface UnknownSemantics {
  kind: 'unknown';
  semanticId: number;
  version: number;
  structSize: number;
}

/** One element of an entry's (or counter's) semantics chain, in chain order. */
export type SemanticsDef = ScopeSemantics | TimeSemantics | CounterSemantics | UnknownSemantics;

/** `nvtxPayloadSchemaEntry_t`. */
export interface EntryDef {
  /** `EntryFlag` bits. */
  flags: number;
  /** Predefined `EntryType`, or a registered schema or enum id of the same domain. */
  type: number;
  name?: string;
  description?: string;
  /** String length, array length, length-source entry/payload index, or union selector entry index. */
  arrayOrUnionDetail: number;
  /** Byte offset; 0 means "implicit" for every entry but the first (see README). */
  offset: number;
  /** The deep-copied semantics chain, in order. */
  semantics?: SemanticsDef[];
}

/** `nvtxPayloadSchemaAttr_t`, after registration (with the id the tool returned). */
export interface SchemaDef {
  /** Model domain index (`ModelBuilder.domain()`): schema ids are unique per NVTX domain only. */
  domain: number;
  id: number;
  name?: string;
  /** `SchemaType`. */
  type: number;
  /** `SchemaFlag` bits. */
  flags: number;
  entries: EntryDef[];
  /** Size of one payload for static schemas, when the program gave it (`FIELD_STATIC_SIZE`). */
  payloadStaticSize?: number;
  /** Cap on member alignment (`#pragma pack(n)`); 0 or absent = natural alignment. */
  packAlign?: number;
}

/** `nvtxPayloadEnum_t`. */
export interface EnumEntryDef {
  name: string;
  /**
   * The `uint64_t` value. Values >= 2^63 are stored as their int64 reading (negative), which keeps C
   * enum constants like -1 exact; other values above 2^53 are approximate.
   */
  value: number;
  /** The entry names a set of bits (flag enums print as `A | B`). */
  isFlag: boolean;
}

/** `nvtxPayloadEnumAttr_t`, after registration. Enum ids share the schema id space of the domain. */
export interface EnumDef {
  domain: number;
  id: number;
  name?: string;
  entries: EnumEntryDef[];
  /** `sizeOfEnum` in bytes: 1, 2, 4 or 8. */
  size: number;
}

/** A string registered with `nvtxDomainRegisterString`, for `REGISTERED_STRING_HANDLE` entries. */
export interface RegisteredStringDef {
  domain: number;
  /** The `nvtxStringHandle_t` value the program saw. */
  handle: number;
  text: string;
}

/** A scope registered with `nvtxScopeRegister`, for showing `SCOPE_ID` values by path. */
export interface ScopeDef {
  domain: number;
  id: number;
  path: string;
  parent: number;
}

/** `nvtxPayloadEntryTypeInfo_t`: size and alignment of predefined types 1..27 in the program's ABI. */
export interface TypeInfoDef {
  size: number;
  align: number;
}

/** Everything registered in one capture, for all domains. */
export interface PayloadRegistry {
  schemas: SchemaDef[];
  enums: EnumDef[];
  strings?: RegisteredStringDef[];
  scopes?: ScopeDef[];
  /**
   * The program's type table (`extInfo` of the payload module), indexed by entry type; entry 0 is
   * the table header. Absent: the Linux x86-64 table is used.
   */
  typeInfo?: TypeInfoDef[];
}

/** A payload blob of one event (`nvtxPayloadData_t` with its bytes copied). */
export interface PayloadBlob {
  schemaId: number;
  bytes: Uint8Array;
  /** Where the blob lived in the program (`nvtxPayloadData_t::payload`), for pointers into it. */
  address?: number | bigint;
}

/** Memory a collector deep-copied because an entry points to it (see README "Pointers"). */
export interface MemoryRegion {
  /** Address of `bytes[0]` in the program. */
  address: number | bigint;
  bytes: Uint8Array;
}
