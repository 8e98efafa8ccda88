/** Constants of the `.nvtxc` capture format (docs/capture-format.md; collector/src/format.h). */

/** `\x89NVTXC\r\n` */
export const MAGIC = Uint8Array.of(0x89, 0x4e, 0x56, 0x54, 0x58, 0x43, 0x0d, 0x0a);
export const MAJOR_VERSION = 1;
export const MINOR_VERSION = 3;
export const FILE_HEADER_SIZE = 16;
export const CHUNK_HEADER_SIZE = 12;
/** What the collector keeps of the program's data (messages cut, payloads cut, batches cut, semantics kept). */
export const WriterLimit = { MaxString: 16 * 1024, MaxExtBlob: 64 * 1024, MaxBatch: 16 * 1024 * 1024, MaxSemantics: 256 } as const;
/** Chunk bodies above this are treated as damage. */
export const MAX_CHUNK_BODY = 256 * 1024 * 1024;

export const Chunk = { Process: 1, Meta: 2, Events: 3, End: 4, Open: 5, Pad: 6, CudaActivity: 7 } as const;

/**
 * Layout of an OPEN chunk (section 2.2), in bytes from its chunk header: the commit word (u32 bytes
 * of the EVENTS body in use, u32 events), then an EVENTS body with 10-byte header varints.
 */
export const OPEN_COMMIT_AT = 16;
export const OPEN_EVENTS_AT = 24;
export const OPEN_VARINT_WIDTH = 10;
export const OPEN_EVENTS_HEADER = 5 * OPEN_VARINT_WIDTH;

export const ProcessTag = {
  Writer: 1,
  Pid: 2,
  Ppid: 3,
  Name: 4,
  Exe: 5,
  CommandLine: 6,
  ClockKind: 7,
  StartPair: 8,
  TickRate: 9,
  WallStart: 10,
  Host: 11,
  ParentPid: 12,
  Cwd: 13,
  BufferSize: 14,
  CaptureStart: 15,
} as const;

export const EndTag = {
  Pair: 1,
  Wall: 2,
  Reason: 3,
  Events: 4,
  Lost: 5,
  Streams: 6,
  Truncated: 7,
  // Version 1.3: CUDA_API and CUDA_ACTIVITY records written (section 10.5).
  Cuda: 8,
} as const;

export const EndReason = { Exit: 1, Signal: 2, Stopped: 3 } as const;

export const ClockKind = { Tsc: 1, Cntvct: 2, MonotonicRaw: 3 } as const;

export const MetaOp = {
  Init: 1,
  DomainCreate: 2,
  DomainDestroy: 3,
  RegisteredString: 4,
  CategoryName: 5,
  ThreadName: 6,
  ResourceName: 7,
  ResourceCreate: 8,
  ResourceDestroy: 9,
  SyncCreate: 10,
  SyncDestroy: 11,
  // Version 1.1: the payload and counters extensions (section 6.1).
  PayloadTypes: 12,
  Schema: 13,
  Enum: 14,
  Scope: 15,
  TimeDomain: 16,
  TimerSource: 17,
  SyncPoints: 18,
  ConversionFactor: 19,
  Counter: 20,
  Clocks: 21,
  // Version 1.2: what the collector refused or cut of the program's input.
  Note: 22,
  // Version 1.3: the CUDA side (section 10.1).
  CudaApiName: 23,
  CudaResource: 24,
  CudaClock: 25,
  CudaDropped: 26,
  CudaStatus: 27,
  CudaDevice: 28,
} as const;

export const Op = {
  String: 0x01,
  Thread: 0x02,
  ThreadOsName: 0x03,
  Push: 0x10,
  Pop: 0x11,
  Mark: 0x12,
  Start: 0x13,
  End: 0x14,
  PushEx: 0x15,
  PopDomain: 0x16,
  MarkEx: 0x17,
  StartEx: 0x18,
  EndDomain: 0x19,
  Sync: 0x1a,
  /** Ops from here on are `op length body` and can be skipped. */
  FirstLengthPrefixed: 0x40,
  // Version 1.1 (section 7.2): with their own tick, relative to T0.
  PayloadEvent: 0x40,
  CounterSample: 0x41,
  CounterBatch: 0x42,
  EventBatch: 0x43,
  // Version 1.3 (section 10.2): one CUDA runtime or driver API call, with its own tick.
  CudaApi: 0x44,
} as const;

/** `kind` of a PAYLOAD_EVENT record. */
export const PayloadEventKind = { Mark: 1, Push: 2, Pop: 3, Start: 4, End: 5, Submit: 6 } as const;

/** Value kinds of a COUNTER_SAMPLE record. */
export const SampleKind = { Int64: 1, Float64: 2, Bytes: 3, NoValue: 4 } as const;

/** `nvtxCounterSampleNoValue` reasons. */
export const NoValueReason = { Zero: 0, Unchanged: 1, Unavailable: 2 } as const;

export const SyncOp = { AcquireStart: 1, AcquireFailed: 2, AcquireSuccess: 3, Releasing: 4 } as const;

export const Attr = {
  Category: 1 << 0,
  Color: 1 << 1,
  Payload: 1 << 2,
  Message: 1 << 3,
  ExtPayloads: 1 << 4,
  Memory: 1 << 5,
} as const;

export const MessageType = { Ascii: 1, Unicode: 2, Registered: 3 } as const;

export const ExtFlag = { SizeUnknown: 1 << 0, Cut: 1 << 1 } as const;
export const StringFlag = { Truncated: 1 << 0 } as const;

/** `nvtxPayloadType_t` scalar values. */
export const NvtxPayload = { U64: 1, I64: 2, F64: 3, U32: 4, I32: 5, F32: 6 } as const;
/** `nvtxColorType_t` ARGB. */
export const NVTX_COLOR_ARGB = 1;

/** `CUpti_CallbackDomain` values of CUDA_API_NAME and CUDA_API records. */
export const CudaDomain = { Driver: 1, Runtime: 2 } as const;
/** Flags of a CUDA_API record. */
export const CudaApiFlag = { HasStream: 1 << 0 } as const;
/** Events of a CUDA_RESOURCE record. */
export const CudaResourceEvent = { ContextCreated: 1, ContextDestroyed: 2, StreamCreated: 3, StreamDestroyed: 4 } as const;
/** Flags of a CUDA_RESOURCE record: which default stream a stream is. */
export const CudaStreamFlag = { LegacyDefault: 1 << 0, PerThreadDefault: 1 << 1 } as const;
/** Causes of a CUDA_DROPPED record. */
export const CudaDropCause = { Cupti: 1, Output: 2 } as const;
/** States of a CUDA_STATUS record. */
export const CudaStatus = { Recording: 1, NotRecorded: 2, Stopped: 3 } as const;
/** Record kinds inside a CUDA_ACTIVITY chunk (section 10.3). */
export const CudaRecord = { KernelName: 1, Kernel: 2, Memcpy: 3, Memset: 4, Sync: 5 } as const;
/** CUPTI's "no stream" / "no event" id. */
export const CUDA_NO_ID = 0xffffffff;
