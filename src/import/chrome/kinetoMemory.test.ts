import { describe, expect, it } from 'vitest';
import { isMemoryEventName, memorySample } from './kinetoMemory.ts';

describe('PyTorch memory events', () => {
  it('recognises the name from its bytes', () => {
    const bytes = new TextEncoder().encode('x"[memory]"[memory ]"[Memory]"');
    expect(isMemoryEventName(bytes, 2, 10)).toBe(true);
    expect(isMemoryEventName(bytes, 12, 21)).toBe(false);
    expect(isMemoryEventName(bytes, 23, 31)).toBe(false);
  });

  it('reads the totals of a device, by its c10::DeviceType', () => {
    const args = (type: number, id: number, extra: Record<string, unknown> = {}) => ({ 'Total Allocated': 4096, 'Total Reserved': 8192, 'Device Type': type, 'Device Id': id, Bytes: 512, ...extra });
    expect(memorySample(args(1, 0))).toEqual({ device: 'CUDA 0', allocated: 4096, reserved: 8192 });
    expect(memorySample(args(1, 3))).toEqual({ device: 'CUDA 3', allocated: 4096, reserved: 8192 });
    expect(memorySample(args(6, 1))).toEqual({ device: 'HIP 1', allocated: 4096, reserved: 8192 });
    expect(memorySample(args(99, 0))).toEqual({ device: 'device type 99 0', allocated: 4096, reserved: 8192 });
    // The CPU: device id -1, and no reserved total.
    expect(memorySample(args(0, -1))).toEqual({ device: 'CPU', allocated: 4096 });
    expect(memorySample(args(1, 0, { 'Total Reserved': 'n/a' }))).toEqual({ device: 'CUDA 0', allocated: 4096, reserved: undefined });
  });

  it('leaves other "[memory]" events alone', () => {
    expect(memorySample({})).toBeUndefined();
    expect(memorySample({ 'Total Allocated': '4096', 'Device Type': 1 })).toBeUndefined();
    expect(memorySample({ 'Total Allocated': 4096 })).toBeUndefined();
    expect(memorySample({ 'Total Allocated': Infinity, 'Device Type': 1 })).toBeUndefined();
    expect(memorySample({ 'Total Allocated': 4096, 'Device Type': 1.5 })).toBeUndefined();
  });
});
