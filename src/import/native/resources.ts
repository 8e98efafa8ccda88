/**
 * Names of NVTX resource types (`NVTX_RESOURCE_MAKE_TYPE(class, index)` = class << 16 | index) from
 * nvToolsExt.h (generic, class 1), nvToolsExtSync.h (OS sync 2, pthread 3), nvToolsExtCuda.h (4),
 * nvToolsExtCudaRt.h (5) and nvToolsExtOpenCL.h (6). Linux names for class 2 (Windows reuses the
 * numbers for its own objects).
 */
const KINDS: Record<number, string> = {
  0x10001: 'pointer',
  0x10002: 'handle',
  0x10003: 'OS thread',
  0x10004: 'POSIX thread',
  0x20001: 'mutex',
  0x20002: 'futex',
  0x20003: 'semaphore',
  0x20004: 'completion',
  0x20005: 'spinlock',
  0x20006: 'seqlock',
  0x20007: 'RCU',
  0x30001: 'pthread mutex',
  0x30002: 'pthread condition',
  0x30003: 'pthread rwlock',
  0x30004: 'pthread barrier',
  0x30005: 'pthread spinlock',
  0x30006: 'pthread once',
  0x40001: 'CUDA device',
  0x40002: 'CUDA context',
  0x40003: 'CUDA stream',
  0x40004: 'CUDA event',
  0x50000: 'CUDA runtime device',
  0x50001: 'CUDA runtime stream',
  0x50002: 'CUDA runtime event',
  0x60001: 'OpenCL device',
  0x60002: 'OpenCL context',
  0x60003: 'OpenCL command queue',
  0x60004: 'OpenCL memory object',
  0x60005: 'OpenCL sampler',
  0x60006: 'OpenCL program',
  0x60007: 'OpenCL event',
};

/** Types whose identifier is a number, not an address. */
const NUMBERED = new Set([0x10003, 0x40001, 0x50000]);

export function resourceKind(type: number): string {
  return KINDS[type] ?? `resource type 0x${type.toString(16)}`;
}

/** Device ordinals and thread ids in decimal, handles and pointers in hex. */
export function resourceHandle(type: number, identifier: bigint): string {
  return NUMBERED.has(type) ? identifier.toString() : `0x${identifier.toString(16)}`;
}
