/**
 * PyTorch profiler memory events (`profile_memory=True`): each allocation and free is a "[memory]"
 * instant whose args give the allocator's running totals for one device, "Total Allocated" and
 * "Total Reserved" (bytes), with "Device Type" (c10::DeviceType: 0 CPU, 1 CUDA, ...) and "Device
 * Id". The importer keeps the instants as marks and also draws the totals as counter rows per
 * device, as the PyTorch TensorBoard plugin's memory view plots them.
 */

/** The name of the memory instants. */
export const MEMORY_EVENT_NAME = '[memory]';

/** The bytes of `MEMORY_EVENT_NAME`, for a test of an event's name without decoding it. */
const MEMORY_NAME_BYTES = new TextEncoder().encode(MEMORY_EVENT_NAME);

/** True when buf[start, end) is "[memory]". */
export function isMemoryEventName(buf: Uint8Array, start: number, end: number): boolean {
  if (end - start !== MEMORY_NAME_BYTES.length) return false;
  for (let i = 0; i < MEMORY_NAME_BYTES.length; i++) if (buf[start + i] !== MEMORY_NAME_BYTES[i]) return false;
  return true;
}

/** One memory event's totals: a sample for each of its device's counter rows. */
export interface MemorySample {
  /** Device label: "CPU", "CUDA 0", ... */
  device: string;
  allocated: number;
  /** Undefined for the CPU, whose allocator reserves nothing (always 0). */
  reserved?: number;
}

/** c10::DeviceType values of the devices PyTorch reports memory for (c10/core/DeviceType.h). */
const DEVICE_TYPES: Record<number, string> = { 0: 'CPU', 1: 'CUDA', 6: 'HIP', 12: 'XPU', 13: 'MPS', 20: 'PrivateUse1' };

/** The totals of a "[memory]" event's args, or undefined when they are not PyTorch's. */
export function memorySample(args: Record<string, unknown>): MemorySample | undefined {
  const allocated = args['Total Allocated'];
  const reserved = args['Total Reserved'];
  const type = args['Device Type'];
  const id = args['Device Id'];
  if (typeof allocated !== 'number' || !Number.isFinite(allocated) || typeof type !== 'number' || !Number.isInteger(type)) return undefined;
  const kind = DEVICE_TYPES[type] ?? `device type ${type}`;
  if (type === 0) return { device: kind, allocated };
  const device = typeof id === 'number' && Number.isInteger(id) && id >= 0 ? `${kind} ${id}` : kind;
  return { device, allocated, reserved: typeof reserved === 'number' && Number.isFinite(reserved) ? reserved : undefined };
}

/** Group of the memory counter rows under their process. */
export const MEMORY_ROW_PATH = ['Memory'];
