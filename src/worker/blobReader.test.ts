import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedFixture } from '../../testkit/fixtures.ts';
import { blobSource, loadModel, memorySource } from '../import/pipeline.ts';
import { readerSource, serveReads } from './blobReader.ts';

const bytes = Uint8Array.from({ length: 10_000 }, (_, i) => (i * 7) & 0xff);
const file = new Blob([bytes]);

describe('reads made by a reader at the other end of a channel', () => {
  it('give the same bytes as reading the file here, in any order, the end clamped to the size', async () => {
    const channel = new MessageChannel();
    serveReads(channel.port2, file);
    const source = readerSource(channel.port1, blobSource(file, 'f.nvtxc'));
    expect(source.size).toBe(bytes.length);
    const asked: [number, number][] = [[0, 4096], [9000, 20_000], [4096, 4097], [123, 123]];
    const got = await Promise.all(asked.map(([s, e]) => source.read(s, e)));
    asked.forEach(([s, e], k) => expect(Array.from(got[k])).toEqual(Array.from(bytes.subarray(s, Math.min(e, bytes.length)))));
    channel.port1.close();
  });

  it('read here once the reader is gone, the reads it had not answered included', async () => {
    const channel = new MessageChannel();
    // No reader serves the other end: the first read waits until readHere.
    const source = readerSource(channel.port1, blobSource(file, 'f.nvtxc'));
    const waiting = source.read(100, 200);
    source.readHere();
    expect(Array.from(await waiting)).toEqual(Array.from(bytes.subarray(100, 200)));
    expect(Array.from(await source.read(0, 3))).toEqual(Array.from(bytes.subarray(0, 3)));
    channel.port1.close();
  });

  it('fail with the file name when the reader cannot read', async () => {
    const channel = new MessageChannel();
    const broken = new (class extends Blob {
      override slice(): Blob {
        throw new Error('gone');
      }
    })([bytes]);
    serveReads(channel.port2, broken);
    const source = readerSource(channel.port1, blobSource(file, 'f.nvtxc'));
    await expect(source.read(0, 10)).rejects.toThrow('f.nvtxc: gone');
    channel.port1.close();
    channel.port2.close();
  });

  it('load the real captures as reading here does: streamed (PyTorch trace) and at random through the synchronous reads (nsys export)', async () => {
    for (const name of ['pytorch/cnn-h100-torch2.11.json', 'nsys/cnn-h100-nsys2025.3.sqlite']) {
      const real = new Uint8Array(readFileSync(sharedFixture(name)));
      const here = await loadModel(memorySource(name, real));
      const channel = new MessageChannel();
      serveReads(channel.port2, new Blob([real]));
      // The local source reads synchronously, as the worker's FileReaderSync does: the nsys importer reads pages with it.
      const viaReader = await loadModel(readerSource(channel.port1, memorySource(name, real)));
      expect(viaReader, name).toEqual(here);
      channel.port1.close();
      channel.port2.close();
    }
  }, 60_000);
});
