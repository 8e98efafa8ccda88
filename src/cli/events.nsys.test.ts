/** `nvtxview events` on a real Nsight Systems 2025.3 export: every record says enough to be found again. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadModel, memorySource } from '../import/pipeline.ts';
import { writeCudaNames } from '../../testkit/writers/nsysExport.ts';
import { openDatabase } from '../import/nsys/sqlite.ts';
import { eventRecords, type EventRecord } from './events.ts';

const REAL_2025_3 = '../shared/fixtures/nsys/cnn-h100-nsys2025.3.sqlite';

describe('nvtxview events on a real nsys export', async () => {
  const bytes = new Uint8Array(readFileSync(REAL_2025_3));
  const db = await openDatabase(bytes);
  writeCudaNames(db, { streams: [[494, 0, 1, 158, 'rt-compute-stream']] });
  const named = db.export();
  db.close();
  const records = [...eventRecords('cnn.sqlite', await loadModel(memorySource('cnn.sqlite', named)))];
  const byKind = (kind: EventRecord['kind']) => records.filter((r) => r.kind === kind);

  it('gives each kernel its process, stream, device, row, launching thread and correlation id', () => {
    const kernels = byKind('gpu').filter((r) => !r.name.startsWith('[CUDA '));
    expect(kernels).toHaveLength(1263);
    for (const k of kernels) {
      expect(k.pid).toBe(494);
      expect(k.device).toBe(0);
      expect(k.context).toBe(1);
      expect([7, 158]).toContain(k.stream);
      expect(k.row).toMatch(/^CUDA > GPU 0 \(NVIDIA H100 80GB HBM3\) > (Default stream 7|Stream 158 · rt-compute-stream)$/);
      expect(typeof k.correlationId).toBe('number');
      expect(k.tid).not.toBeNull();
      expect(k.threadName).not.toBeNull();
    }
    const side = kernels.filter((k) => k.stream === 158);
    expect(side).toHaveLength(23);
    expect(new Set(side.map((k) => k.streamName))).toEqual(new Set(['rt-compute-stream']));
    expect(new Set(kernels.filter((k) => k.stream === 7).map((k) => k.streamName))).toEqual(new Set([null]));
    // The launching call is an API record with the same correlation id on that thread.
    const k = kernels[100];
    const call = byKind('api').find((a) => a.correlationId === k.correlationId)!;
    expect(call.tid).toBe(k.tid);
    expect(call.name).toMatch(/^cudaLaunchKernel/);
  });

  it('gives NVTX ranges projected onto the GPU their own kind', () => {
    const projected = byKind('projection');
    expect(projected.length).toBeGreaterThan(0);
    expect(new Set(projected.map((r) => r.name))).toEqual(new Set(['train', 'iteration']));
    expect(byKind('gpu').some((r) => r.name === 'iteration')).toBe(false);
    expect(projected.every((r) => r.row === 'NVTX (GPU projection)' && r.tid !== null)).toBe(true);
  });

  it('names what a synchronization record waited for', () => {
    const syncs = byKind('gpu').filter((r) => r.name.startsWith('[CUDA ') && r.name.endsWith('sync]'));
    expect(syncs).toHaveLength(108);
    expect(syncs.every((r) => r.pid === 494 && r.row === 'CUDA > GPU 0 (NVIDIA H100 80GB HBM3) > Synchronization')).toBe(true);
    expect(syncs.filter((r) => (r.payload as { stream?: number } | null)?.stream === 158)).toHaveLength(46);
  });
});
