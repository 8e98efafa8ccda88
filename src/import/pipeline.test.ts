import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, LoadCancelled, LoadFailed, loadModel } from './pipeline.ts';
import type { ByteSource } from './types.ts';

const encode = (s: string) => new TextEncoder().encode(s);

/** A Chrome trace padded with whitespace to span several read slices. */
function paddedTrace(slices: number): Uint8Array {
  const head = encode('[{"name":"a","ph":"X","ts":1,"dur":2,"pid":1,"tid":1},');
  const tail = encode('{"name":"b","ph":"X","ts":5,"dur":1,"pid":1,"tid":1}]');
  const bytes = new Uint8Array(CHUNK_BYTES * (slices - 1) + head.length + tail.length).fill(0x20);
  bytes.set(head, 0);
  bytes.set(tail, bytes.length - tail.length);
  return bytes;
}

/** A source that logs its reads and when each slice is handed on. */
function loggingSource(bytes: Uint8Array, log: string[], failAt = -1): ByteSource {
  return {
    name: 'trace.json',
    size: bytes.length,
    read: async (start, end) => {
      log.push(`read ${start / CHUNK_BYTES}`);
      await new Promise((done) => setTimeout(done, 1));
      return start === failAt ? new Uint8Array(0) : bytes.subarray(start, end);
    },
  };
}

describe('loadModel reading', () => {
  it('asks for the next slice before the current one is decoded, and reports progress per slice', async () => {
    const bytes = paddedTrace(3);
    const log: string[] = [];
    const model = await loadModel(loggingSource(bytes, log), { onProgress: (done) => log.push(`progress ${Math.ceil(done / CHUNK_BYTES)}`) });
    expect(model.ranges.startNs.length).toBe(2);
    // The read of slice k + 1 is under way when slice k's progress (after its decode) is reported.
    expect(log).toEqual(['read 0', 'read 1', 'progress 1', 'read 2', 'progress 2', 'progress 3']);
  });

  it('names the bytes of a read that returns nothing', async () => {
    const bytes = paddedTrace(3);
    await expect(loadModel(loggingSource(bytes, [], CHUNK_BYTES))).rejects.toThrow(
      new LoadFailed(`trace.json: could not read bytes ${CHUNK_BYTES}..${2 * CHUNK_BYTES}`),
    );
  });

  it('stops at a cancelled signal', async () => {
    const controller = new AbortController();
    const bytes = paddedTrace(3);
    const promise = loadModel(loggingSource(bytes, []), { signal: controller.signal, onProgress: () => controller.abort() });
    await expect(promise).rejects.toBeInstanceOf(LoadCancelled);
  });
});
