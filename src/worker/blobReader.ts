/**
 * Reading a file for another worker: a reader worker reads slices of a Blob and transfers them
 * over a MessagePort to the worker that decodes it. A Blob read hands its bytes to the reading
 * thread in many small tasks (about 6% of the load worker's time on the 10M native capture, the
 * copy into the slice's buffer), which a reader on the other core takes off the decode; the
 * transfer itself copies nothing (docs/performance.md, "The whole 10M native capture in the page").
 */
import type { ByteSource } from '../import/importer.ts';

/** From the decoding worker to the reader: read bytes [start, end) of the file. */
export interface ReadRequest {
  id: number;
  start: number;
  end: number;
}

/** From the reader: the bytes of request `id` (transferred), or why they could not be read. */
export type ReadReply = { id: number; bytes: ArrayBuffer } | { id: number; error: string };

/** The reader's side: answers every request on `port` with the file's bytes, in the order asked. */
export function serveReads(port: MessagePort, file: Blob): void {
  port.onmessage = async (event: MessageEvent<ReadRequest>) => {
    const { id, start, end } = event.data;
    try {
      const bytes = await file.slice(start, end).arrayBuffer();
      port.postMessage({ id, bytes } satisfies ReadReply, [bytes]);
    } catch (e) {
      port.postMessage({ id, error: e instanceof Error ? e.message : String(e) } satisfies ReadReply);
    }
  };
}

/** A ByteSource whose reads go to a reader worker, until told to read itself. */
export interface ReaderSource extends ByteSource {
  /** The reader is gone: reads not answered yet, and every later one, are made from `local`. */
  readHere(): void;
}

/**
 * The decoding worker's side: a ByteSource whose reads go to the reader at the other end of
 * `port`. `local` reads the same file on this thread: synchronous reads (random access, nsys) stay
 * with it, and so does everything after `readHere()`.
 */
export function readerSource(port: MessagePort, local: ByteSource): ReaderSource {
  const pending = new Map<number, { start: number; end: number; resolve(bytes: Uint8Array): void; reject(e: unknown): void }>();
  let nextId = 0;
  let here = false;
  port.onmessage = (event: MessageEvent<ReadReply>) => {
    const reply = event.data;
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if ('bytes' in reply) waiting.resolve(new Uint8Array(reply.bytes));
    else waiting.reject(new Error(`${local.name}: ${reply.error}`));
  };
  return {
    name: local.name,
    size: local.size,
    read: (start, end) => {
      if (here) return local.read(start, end);
      return new Promise<Uint8Array>((resolve, reject) => {
        const id = nextId++;
        end = Math.min(end, local.size);
        pending.set(id, { start, end, resolve, reject });
        port.postMessage({ id, start, end } satisfies ReadRequest);
      });
    },
    readSync: local.readSync,
    readHere() {
      here = true;
      port.onmessage = null;
      for (const { start, end, resolve, reject } of pending.values()) local.read(start, end).then(resolve, reject);
      pending.clear();
    },
  };
}
