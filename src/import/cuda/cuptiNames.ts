/**
 * Names and payloads of CUDA API calls and GPU operations as the model shows them, from CUPTI's
 * values: one spelling for every importer (the statistics tell copies from kernels by these names,
 * src/model/cudaRows.ts `isMemoryOperationName`).
 */
import type { PayloadValue } from '../../model/builder.ts';
import { jsonPayload } from './cudaModel.ts';

/** CUpti_ActivityMemcpyKind labels (Nsight Systems' ENUM_CUDA_MEMCPY_OPER spelling). */
export const MEMCPY_KIND: Readonly<Record<number, string>> = {
  0: 'Unknown',
  1: 'Host-to-Device',
  2: 'Device-to-Host',
  3: 'Host-to-Array',
  4: 'Array-to-Host',
  5: 'Array-to-Array',
  6: 'Array-to-Device',
  7: 'Device-to-Array',
  8: 'Device-to-Device',
  9: 'Host-to-Host',
  10: 'Peer-to-Peer',
};

/** CUpti_ActivityMemoryKind labels. */
export const MEMORY_KIND: Readonly<Record<number, string>> = {
  0: 'Unknown',
  1: 'Pageable',
  2: 'Pinned',
  3: 'Device',
  4: 'Array',
  5: 'Managed',
  6: 'Device Static',
  7: 'Managed Static',
};

/** CUpti_ActivitySynchronizationType labels (Nsight Systems' ENUM_CUPTI_SYNC_TYPE spelling). */
export const SYNC_TYPE: Readonly<Record<number, string>> = {
  0: 'Unknown sync',
  1: 'Event sync',
  2: 'Stream wait sync',
  3: 'Stream sync',
  4: 'Context sync',
};

/** Name of a kernel without one. */
export const UNNAMED_KERNEL = '[CUDA kernel]';

/** `[CUDA memcpy Host-to-Device]`; `label` is the export's own label for the kind, when it has one. */
export function memcpyName(kind: number | undefined, label?: string): string {
  const text = kind === undefined ? 'Unknown' : (label ?? MEMCPY_KIND[kind] ?? `kind ${kind}`);
  return `[CUDA memcpy ${text}]`;
}

export const MEMSET_NAME = '[CUDA memset]';

/** `[CUDA Stream sync]`; `label` is the export's own label for the type, when it has one. */
export function syncName(type: number | undefined, label?: string): string {
  const text = type === undefined ? 'sync' : (label ?? SYNC_TYPE[type] ?? `sync type ${type}`);
  return `[CUDA ${text}]`;
}

/**
 * API names carry the CUDA version that introduced them (`cudaLaunchKernel_v7000`); shown without
 * it, as Nsight Systems does. Only a 4+ digit suffix is a version: `cuGetProcAddress_v2` is a name.
 */
export function stripVersion(name: string): string {
  return name.replace(/_v\d{4,}$/, '');
}

/** What a synchronization waited for: rows are per device, so the stream and the CUDA event go in the payload. */
export function syncPayload(stream: unknown, event: unknown): PayloadValue | undefined {
  const waitedOn = (v: unknown) => (typeof v === 'number' && v !== 0xffffffff ? v : undefined);
  return jsonPayload({ stream: waitedOn(stream), event: waitedOn(event) });
}
