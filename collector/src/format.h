/* Constants of the .nvtxc capture format (docs/capture-format.md is the specification). */
#ifndef NVTXC_FORMAT_H
#define NVTXC_FORMAT_H

#define NVTXC_MAGIC "\x89NVTXC\r\n"
#define NVTXC_MAJOR 1
#define NVTXC_MINOR 3
#define NVTXC_FILE_HEADER_SIZE 16
#define NVTXC_CHUNK_HEADER_SIZE 12

/* Chunk kinds. */
enum {
    NVTXC_CHUNK_PROCESS = 1,
    NVTXC_CHUNK_META = 2,
    NVTXC_CHUNK_EVENTS = 3,
    NVTXC_CHUNK_END = 4,
    /* A thread's event buffer, mapped from the file and written in place (section 2.2). */
    NVTXC_CHUNK_OPEN = 5,
    /* Filler before a page-aligned OPEN chunk; readers skip it. */
    NVTXC_CHUNK_PAD = 6,
    /* Version 1.3: GPU work from CUPTI's activity API (section 10.3). */
    NVTXC_CHUNK_CUDA_ACTIVITY = 7,
};

/*
 * Layout of an OPEN chunk, in bytes from its chunk header: the commit word
 * (u64: events << 32 | bytes of the EVENTS body that hold whole records, 0 when none), then an
 * EVENTS body whose header varints are written NVTXC_OPEN_VARINT_WIDTH bytes wide.
 */
#define NVTXC_OPEN_COMMIT_AT 16
#define NVTXC_OPEN_EVENTS_AT 24
#define NVTXC_OPEN_VARINT_WIDTH 10
/* Bytes of the EVENTS body header in an OPEN chunk (stream, offset, tick, ns, count). */
#define NVTXC_OPEN_EVENTS_HEADER (5 * NVTXC_OPEN_VARINT_WIDTH)

/* TLV tags of the PROCESS chunk. */
enum {
    NVTXC_PROC_WRITER = 1,
    NVTXC_PROC_PID = 2,
    NVTXC_PROC_PPID = 3,
    NVTXC_PROC_NAME = 4,
    NVTXC_PROC_EXE = 5,
    NVTXC_PROC_CMDLINE = 6,
    NVTXC_PROC_CLOCK_KIND = 7,
    NVTXC_PROC_START_PAIR = 8,
    NVTXC_PROC_TICK_RATE = 9,
    NVTXC_PROC_WALL_START = 10,
    NVTXC_PROC_HOST = 11,
    NVTXC_PROC_PARENT_PID = 12,
    NVTXC_PROC_CWD = 13,
    NVTXC_PROC_BUFFER_SIZE = 14,
    NVTXC_PROC_CAPTURE_START = 15,
};

/* TLV tags of the END chunk. */
enum {
    NVTXC_END_PAIR = 1,
    NVTXC_END_WALL = 2,
    NVTXC_END_REASON = 3,
    NVTXC_END_EVENTS = 4,
    NVTXC_END_LOST = 5,
    NVTXC_END_STREAMS = 6,
    NVTXC_END_TRUNCATED = 7,
    /* Version 1.3: CUDA_API and CUDA_ACTIVITY records written (section 10.5). */
    NVTXC_END_CUDA = 8,
};

enum { NVTXC_REASON_EXIT = 1, NVTXC_REASON_SIGNAL = 2, NVTXC_REASON_STOPPED = 3 };

/* Clock kinds (PROCESS tag 7). */
enum { NVTXC_CLOCK_TSC = 1, NVTXC_CLOCK_CNTVCT = 2, NVTXC_CLOCK_MONOTONIC_RAW = 3 };

/* META record ops. */
enum {
    NVTXC_META_INIT = 1,
    NVTXC_META_DOMAIN_CREATE = 2,
    NVTXC_META_DOMAIN_DESTROY = 3,
    NVTXC_META_REGISTERED_STRING = 4,
    NVTXC_META_CATEGORY_NAME = 5,
    NVTXC_META_THREAD_NAME = 6,
    NVTXC_META_RESOURCE_NAME = 7,
    NVTXC_META_RESOURCE_CREATE = 8,
    NVTXC_META_RESOURCE_DESTROY = 9,
    NVTXC_META_SYNC_CREATE = 10,
    NVTXC_META_SYNC_DESTROY = 11,
    /* Version 1.1: the payload and counters extensions (docs/capture-format.md, section 6.1). */
    NVTXC_META_PAYLOAD_TYPES = 12,
    NVTXC_META_SCHEMA = 13,
    NVTXC_META_ENUM = 14,
    NVTXC_META_SCOPE = 15,
    NVTXC_META_TIME_DOMAIN = 16,
    NVTXC_META_TIMER_SOURCE = 17,
    NVTXC_META_SYNC_POINTS = 18,
    NVTXC_META_CONVERSION_FACTOR = 19,
    NVTXC_META_COUNTER = 20,
    NVTXC_META_CLOCKS = 21,
    /* Version 1.2: something the program passed that the collector refused or cut (section 6). */
    NVTXC_META_NOTE = 22,
    /* Version 1.3: the CUDA side (section 10.1). */
    NVTXC_META_CUDA_API_NAME = 23,
    NVTXC_META_CUDA_RESOURCE = 24,
    NVTXC_META_CUDA_CLOCK = 25,
    NVTXC_META_CUDA_DROPPED = 26,
    NVTXC_META_CUDA_STATUS = 27,
    NVTXC_META_CUDA_DEVICE = 28,
};

/* Thread stream record ops (below 0x40: fixed grammar; 0x40 and above: length-prefixed). */
enum {
    NVTXC_OP_STRING = 0x01,
    NVTXC_OP_THREAD = 0x02,
    NVTXC_OP_THREAD_OS_NAME = 0x03,
    NVTXC_OP_PUSH = 0x10,
    NVTXC_OP_POP = 0x11,
    NVTXC_OP_MARK = 0x12,
    NVTXC_OP_START = 0x13,
    NVTXC_OP_END = 0x14,
    NVTXC_OP_PUSH_EX = 0x15,
    NVTXC_OP_POP_DOMAIN = 0x16,
    NVTXC_OP_MARK_EX = 0x17,
    NVTXC_OP_START_EX = 0x18,
    NVTXC_OP_END_DOMAIN = 0x19,
    NVTXC_OP_SYNC = 0x1A,
    NVTXC_OP_FIRST_LENGTH_PREFIXED = 0x40,
    /* Version 1.1 (section 7.2): length-prefixed, with their own tick (relative to T0). */
    NVTXC_OP_PAYLOAD_EVENT = 0x40,
    NVTXC_OP_COUNTER_SAMPLE = 0x41,
    NVTXC_OP_COUNTER_BATCH = 0x42,
    NVTXC_OP_EVENT_BATCH = 0x43,
    /* Version 1.3 (section 10.2): one CUDA runtime or driver API call, with its own tick. */
    NVTXC_OP_CUDA_API = 0x44,
};

/* Kinds of a PAYLOAD_EVENT record. */
enum {
    NVTXC_PEV_MARK = 1,
    NVTXC_PEV_PUSH = 2,
    NVTXC_PEV_POP = 3,
    NVTXC_PEV_START = 4,
    NVTXC_PEV_END = 5,
    NVTXC_PEV_SUBMIT = 6,
};

/* Value kinds of a COUNTER_SAMPLE record. */
enum { NVTXC_SAMPLE_INT64 = 1, NVTXC_SAMPLE_FLOAT64 = 2, NVTXC_SAMPLE_BYTES = 3, NVTXC_SAMPLE_NONE = 4 };

/* SYNC record operations. */
enum { NVTXC_SYNC_ACQUIRE_START = 1, NVTXC_SYNC_ACQUIRE_FAILED = 2, NVTXC_SYNC_ACQUIRE_SUCCESS = 3, NVTXC_SYNC_RELEASING = 4 };

/* Bits of the attrs mask. */
enum {
    NVTXC_ATTR_CATEGORY = 1u << 0,
    NVTXC_ATTR_COLOR = 1u << 1,
    NVTXC_ATTR_PAYLOAD = 1u << 2,
    NVTXC_ATTR_MESSAGE = 1u << 3,
    NVTXC_ATTR_EXT_PAYLOADS = 1u << 4,
    NVTXC_ATTR_MEMORY = 1u << 5,
};

/* Flags of an extended payload item, a deep-copied memory region or batch data. */
enum { NVTXC_EXT_SIZE_UNKNOWN = 1u << 0, NVTXC_EXT_CUT = 1u << 1 };

/* Flags of a STRING record. */
enum { NVTXC_STRING_TRUNCATED = 1u << 0 };

/* CUpti_CallbackDomain values of CUDA_API_NAME and CUDA_API records. */
enum { NVTXC_CUDA_DOMAIN_DRIVER = 1, NVTXC_CUDA_DOMAIN_RUNTIME = 2 };

/* Flags of a CUDA_API record: the call takes a stream (its handle is in the record). */
enum { NVTXC_CUDA_API_HAS_STREAM = 1u << 0 };

/* Events of a CUDA_RESOURCE record. */
enum {
    NVTXC_CUDA_RES_CONTEXT_CREATED = 1,
    NVTXC_CUDA_RES_CONTEXT_DESTROYED = 2,
    NVTXC_CUDA_RES_STREAM_CREATED = 3,
    NVTXC_CUDA_RES_STREAM_DESTROYED = 4,
};

/* Flags of a CUDA_RESOURCE record: which default stream a stream is. */
enum { NVTXC_CUDA_STREAM_LEGACY_DEFAULT = 1u << 0, NVTXC_CUDA_STREAM_PER_THREAD_DEFAULT = 1u << 1 };

/* Causes of a CUDA_DROPPED record. */
enum { NVTXC_CUDA_DROP_CUPTI = 1, NVTXC_CUDA_DROP_OUTPUT = 2 };

/* States of a CUDA_STATUS record. */
enum { NVTXC_CUDA_STATUS_RECORDING = 1, NVTXC_CUDA_STATUS_NOT_RECORDED = 2, NVTXC_CUDA_STATUS_STOPPED = 3 };

/* Record kinds inside a CUDA_ACTIVITY chunk (section 10.3). */
enum {
    NVTXC_CUDA_REC_KERNEL_NAME = 1,
    NVTXC_CUDA_REC_KERNEL = 2,
    NVTXC_CUDA_REC_MEMCPY = 3,
    NVTXC_CUDA_REC_MEMSET = 4,
    NVTXC_CUDA_REC_SYNC = 5,
};

/* CUPTI's "no stream" / "no event" id, kept as CUPTI gives it. */
#define NVTXC_CUDA_NO_ID 4294967295u /* 0xFFFFFFFF */

/* Limits. */
#define NVTXC_MAX_STRING (16 * 1024)
#define NVTXC_MAX_EXT_BLOB (64 * 1024)
/* Bytes of one batch (events, flex data, counter samples, timestamps) kept per call. */
#define NVTXC_MAX_BATCH (16 * 1024 * 1024)
/* Bytes of one semantics struct kept at registration. */
#define NVTXC_MAX_SEMANTICS 256

#endif
