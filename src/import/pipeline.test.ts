import { describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { CHUNK_BYTES, LoadCancelled, LoadFailed, READ_AHEAD, READ_BYTES, loadModel, memorySource } from './pipeline.ts';
import type { ByteSource } from './importer.ts';

const encode = (s: string) => new TextEncoder().encode(s);

/** A Chrome trace padded with whitespace to span several reads (the first is one chunk, the others READ_BYTES). */
function paddedTrace(reads: number): Uint8Array {
  const head = encode('[{"name":"a","ph":"X","ts":1,"dur":2,"pid":1,"tid":1},');
  const tail = encode('{"name":"b","ph":"X","ts":5,"dur":1,"pid":1,"tid":1}]');
  const bytes = new Uint8Array(CHUNK_BYTES + READ_BYTES * (reads - 2) + head.length + tail.length).fill(0x20);
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
      log.push(`read ${start === 0 ? 0 : (start - CHUNK_BYTES) / READ_BYTES + 1}`);
      await new Promise((done) => setTimeout(done, 1));
      return start === failAt ? new Uint8Array(0) : bytes.subarray(start, end);
    },
  };
}

describe('loadModel reading', () => {
  it('reads ahead while a read is decoded, in order, and hands reads on in chunks with progress each', async () => {
    const reads = 4;
    const bytes = paddedTrace(reads);
    const log: string[] = [];
    const model = await loadModel(loggingSource(bytes, log), { onProgress: (done) => log.push(`progress ${Math.ceil(done / CHUNK_BYTES)}`) });
    expect(model.ranges.startNs.length).toBe(2);
    expect(log.filter((l) => l.startsWith('read'))).toEqual(Array.from({ length: reads }, (_, k) => `read ${k}`));
    const chunks = Math.ceil(bytes.length / CHUNK_BYTES);
    expect(log.filter((l) => l.startsWith('progress'))).toEqual(Array.from({ length: chunks }, (_, k) => `progress ${k + 1}`));
    // When the first chunk of read k has been decoded, reads up to k + READ_AHEAD have been asked for.
    expect(READ_AHEAD).toBeGreaterThan(0);
    const perRead = READ_BYTES / CHUNK_BYTES;
    for (let k = 0; k < reads; k++) {
      const firstChunk = k === 0 ? 1 : 2 + (k - 1) * perRead;
      const readsBefore = log.slice(0, log.indexOf(`progress ${firstChunk}`)).filter((l) => l.startsWith('read')).length;
      expect(readsBefore).toBe(Math.min(reads, k + 1 + READ_AHEAD));
    }
  });

  it('reads on after a short read from where it ended', async () => {
    // Events all through the file, so that a lost or repeated byte shows.
    const event = '{"name":"m","ph":"i","ts":3,"pid":1,"tid":1},\n';
    const count = Math.ceil((2.5 * CHUNK_BYTES) / event.length);
    const bytes = encode(`[${event.repeat(count)}{"name":"end","ph":"i","ts":4,"pid":1,"tid":1}]`);
    const short: ByteSource = {
      name: 'trace.json',
      size: bytes.length,
      read: async (start, end) => bytes.slice(start, Math.min(end, start + 1000003)),
    };
    const model = await loadModel(short);
    expect(model.issues).toEqual([]);
    expect(model.marks.timeNs.length).toBe(count + 1);
  });

  it('names the bytes of a read that returns nothing', async () => {
    const bytes = paddedTrace(3);
    await expect(loadModel(loggingSource(bytes, [], CHUNK_BYTES))).rejects.toThrow(
      new LoadFailed(`trace.json: could not read bytes ${CHUNK_BYTES}..${CHUNK_BYTES + READ_BYTES}`),
    );
  });

  it('awaits the checkpoint before each chunk is decoded, so a held decode waits there', async () => {
    const bytes = paddedTrace(3);
    const log: string[] = [];
    let release: (() => void) | undefined;
    const checkpoint = () => {
      log.push('checkpoint');
      // The second checkpoint holds until released: no chunk is decoded meanwhile.
      if (log.filter((l) => l === 'checkpoint').length !== 2) return Promise.resolve();
      return new Promise<void>((done) => (release = done));
    };
    const loading = loadModel(loggingSource(bytes, []), { checkpoint, onProgress: (done) => log.push(`progress ${Math.ceil(done / CHUNK_BYTES)}`) });
    await vi.waitFor(() => expect(release).toBeDefined());
    // Held: nothing more is decoded however long it waits.
    await new Promise((r) => setTimeout(r, 20));
    expect(log).toEqual(['checkpoint', 'progress 1', 'checkpoint']);
    release!();
    const model = await loading;
    expect(model.ranges.startNs.length).toBe(2);
    const chunks = Math.ceil(bytes.length / CHUNK_BYTES);
    expect(log.filter((l) => l === 'checkpoint')).toHaveLength(chunks);
    expect(log.at(-1)).toBe(`progress ${chunks}`);
  });

  it('stops at a cancelled signal', async () => {
    const controller = new AbortController();
    const bytes = paddedTrace(3);
    const promise = loadModel(loggingSource(bytes, []), { signal: controller.signal, onProgress: () => controller.abort() });
    await expect(promise).rejects.toBeInstanceOf(LoadCancelled);
  });
});

describe('memorySource', () => {
  it('gives a Node Buffer the same model as a plain Uint8Array (Buffer.slice does not copy)', async () => {
    const file = readFileSync(new URL('../../public/demo/demo.nvtxc', import.meta.url));
    expect(Buffer.isBuffer(file)).toBe(true);
    const plain = await loadModel(memorySource('demo.nvtxc', new Uint8Array(file)));
    // Inside a larger allocation, as Buffers often are: the view does not start at its memory's start.
    const padded = Buffer.alloc(file.length + 100);
    file.copy(padded, 37);
    const fromBuffer = await loadModel(memorySource('demo.nvtxc', padded.subarray(37, 37 + file.length)));
    expect(fromBuffer.issues).toEqual(plain.issues);
    expect(fromBuffer.ranges.startNs.length).toBe(plain.ranges.startNs.length);
    expect(Array.from(fromBuffer.ranges.startNs)).toEqual(Array.from(plain.ranges.startNs));
    expect(plain.issues.filter((i) => i.severity === 'error')).toEqual([]);
  });
});
