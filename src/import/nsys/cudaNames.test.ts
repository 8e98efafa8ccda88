/**
 * Names of CUDA devices, contexts and streams (nvtxNameCuda*) in nsys exports: the
 * TARGET_INFO_NVTX_CUDA_* tables of Nsight Systems 2025.x, laid into a copy of the real 2025.3 export
 * with the columns of schema 3.20.3, and the older NVTX_EVENTS naming events.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CUDA_CONTEXT, CUDA_DEVICE, CUDA_STREAM } from '../../model/cudaRows.ts';
import { rowObjects } from '../../model/resources.ts';
import type { Model } from '../../model/types.ts';
import { loadModel, memorySource } from '../pipeline.ts';
import { buildExport, T, writeCudaNames } from '../../../testkit/writers/nsysExport.ts';
import { openDatabase } from './sqlite.ts';

const REAL_2025_3 = '../shared/fixtures/nsys/cnn-h100-nsys2025.3.sqlite';
/** Process of the real export's CUDA work. */
const PID = 494;

async function realExportWithNames(): Promise<Uint8Array> {
  const db = await openDatabase(new Uint8Array(readFileSync(REAL_2025_3)));
  try {
    writeCudaNames(db, {
      devices: [[0, 'main GPU']],
      contexts: [[PID, 0, 1, 'trainer context']],
      streams: [
        [PID, 0, 1, 13, 'rt-h2d-stream'],
        [PID, 0, 1, 158, 'rt-compute-stream'],
      ],
    });
    return db.export();
  } finally {
    db.close();
  }
}

const gpuRows = (m: Model) => m.tracks.filter((t) => t.kind === 'gpu' && t.path[0] === 'CUDA');

describe('CUDA object names in a real Nsight Systems 2025.3 export', async () => {
  const plain = await loadModel(memorySource('cnn.sqlite', new Uint8Array(readFileSync(REAL_2025_3))));
  const named = await loadModel(memorySource('cnn-named.sqlite', await realExportWithNames()));

  it('labels stream and device rows with the names from TARGET_INFO_NVTX_CUDA_*', () => {
    expect(gpuRows(plain).map((t) => t.label).sort()).toEqual(['Default stream 7', 'Stream 13', 'Stream 141', 'Stream 158', 'Synchronization']);
    expect(gpuRows(named).map((t) => t.label).sort()).toEqual([
      'Default stream 7',
      'Stream 13 · rt-h2d-stream',
      'Stream 141',
      'Stream 158 · rt-compute-stream',
      'Synchronization',
    ]);
    expect(new Set(gpuRows(named).map((t) => t.path.join(' > ')))).toEqual(new Set(['CUDA > GPU 0 (main GPU)']));
    expect(named.issues.filter((i) => i.severity !== 'info')).toEqual(plain.issues.filter((i) => i.severity !== 'info'));
  });

  it('keeps each row`s device, context and stream with their names for details, tooltips and the CLI', () => {
    const compute = gpuRows(named).find((t) => t.label.startsWith('Stream 158'))!;
    expect(rowObjects(named, compute)).toEqual([
      { kind: CUDA_DEVICE, handle: '0', name: 'main GPU' },
      { kind: CUDA_CONTEXT, handle: '1', name: 'trainer context' },
      { kind: CUDA_STREAM, handle: '158', name: 'rt-compute-stream' },
    ]);
    const unnamed = gpuRows(named).find((t) => t.label === 'Stream 141')!;
    expect(rowObjects(named, unnamed).map((o) => o.name)).toEqual(['main GPU', 'trainer context', undefined]);
    const process = named.processes.findIndex((p) => p.pid === PID);
    expect(named.resources?.filter((r) => r.kind === CUDA_STREAM).map((r) => [r.handle, r.name, r.process]).sort()).toEqual([
      ['13', 'rt-h2d-stream', process],
      ['158', 'rt-compute-stream', process],
    ]);
    expect(rowObjects(plain, unnamed).every((o) => o.name === undefined)).toBe(true);
  });
});

describe('CUDA object names in generated exports', () => {
  const base = {
    processes: [[100, 'trainer'] as [number, string]],
    threads: [[100, 101, 'main'] as [number, number, string]],
    kernels: [
      { start: 30, end: 130, pid: 100, stream: 7, correlationId: 1, name: 'k1' },
      { start: 40, end: 50, pid: 100, stream: 9, correlationId: 2, name: 'k2' },
    ],
  };

  it('reads names from NVTX_EVENTS naming events, and lets the 2025.x tables win over them', async () => {
    const fromEvents = await loadModel(
      memorySource(
        'events.sqlite',
        await buildExport({
          ...base,
          nvtx: [
            { start: 1, type: T.nameStream, pid: 100, tid: 101, uint64: 7n, text: 'old name' },
            { start: 1, type: T.nameStream, pid: 100, tid: 101, uint64: 9n, text: 'nine' },
          ],
        }),
      ),
    );
    expect(gpuRows(fromEvents).map((t) => t.label).sort()).toEqual(['Stream 7 · old name', 'Stream 9 · nine']);
    const both = await loadModel(
      memorySource(
        'both.sqlite',
        await buildExport({
          ...base,
          nvtx: [{ start: 1, type: T.nameStream, pid: 100, tid: 101, uint64: 7n, text: 'old name' }],
          cudaNames: { streams: [[100, 0, 1, 7, 'table name']] },
        }),
      ),
    );
    expect(gpuRows(both).map((t) => t.label).sort()).toEqual(['Stream 7 · table name', 'Stream 9']);
  });

  it('does not give one process`s stream name to the same stream id of another process', async () => {
    const m = await loadModel(
      memorySource(
        'two.sqlite',
        await buildExport({
          ...base,
          processes: [...base.processes, [200, 'other']],
          kernels: [...base.kernels, { start: 60, end: 70, pid: 200, stream: 7, correlationId: 1, name: 'k3' }],
          cudaNames: { streams: [[100, 0, 1, 7, 'mine']], devices: [[0, 'shared device']] },
        }),
      ),
    );
    const rows = gpuRows(m).map((t) => `${m.processes[t.process].pid} ${t.path[1]} ${t.label}`);
    expect(rows.sort()).toEqual([
      '100 GPU 0 (shared device) Stream 7 · mine',
      '100 GPU 0 (shared device) Stream 9',
      '200 GPU 0 (shared device) Stream 7',
    ]);
  });
});
