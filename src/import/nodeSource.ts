/** A ByteSource over a file on disk, for Node (CLI, tests, benchmarks). Never imported by the page. */
import { readSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ByteSource } from './importer.ts';

export async function fileSource(path: string): Promise<ByteSource & { close(): Promise<void> }> {
  const info = await stat(path);
  if (!info.isFile()) throw new Error(`${path}: not a regular file`);
  const handle = await open(path, 'r');
  return {
    name: basename(path),
    size: info.size,
    async read(start, end) {
      const length = Math.max(0, Math.min(end, info.size) - start);
      const buffer = new Uint8Array(length);
      let got = 0;
      while (got < length) {
        const { bytesRead } = await handle.read(buffer, got, length - got, start + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return got === length ? buffer : buffer.subarray(0, got);
    },
    readSync(start, end) {
      const length = Math.max(0, Math.min(end, info.size) - start);
      const buffer = new Uint8Array(length);
      let got = 0;
      while (got < length) {
        const n = readSync(handle.fd, buffer, got, length - got, start + got);
        if (n === 0) break;
        got += n;
      }
      return got === length ? buffer : buffer.subarray(0, got);
    },
    close: () => handle.close(),
  };
}
