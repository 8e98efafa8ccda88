/**
 * Splits the byte stream of a `.nvtxc` file into verified chunks, incrementally: input arrives in
 * slices of any size, a chunk may straddle slices, and only the chunk being assembled is copied.
 * Stops at the first damaged or incomplete chunk and says where.
 */
import { crc32c } from './crc32c.ts';
import { CHUNK_HEADER_SIZE, Chunk, FILE_HEADER_SIZE, MAGIC, MAJOR_VERSION, MAX_CHUNK_BODY } from './format.ts';

export interface Frame {
  kind: number;
  flags: number;
  /** File offset of the chunk header. */
  offset: number;
  body: Uint8Array;
}

/** Why reading stopped early: a message and the byte offset it is about. */
export interface FrameProblem {
  message: string;
  offset: number;
}

export interface FileHeader {
  major: number;
  minor: number;
}

/** Bytes received but not yet consumed, as a list of slices. */
class ByteQueue {
  private parts: Uint8Array[] = [];
  private first = 0; // consumed bytes of parts[0]
  length = 0;

  push(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.parts.push(bytes);
    this.length += bytes.length;
  }

  /** The next n bytes (a view when they lie in one slice, else a copy); n <= length. */
  take(n: number): Uint8Array {
    if (n === 0) return new Uint8Array(0);
    const head = this.parts[0];
    let out: Uint8Array;
    if (head.length - this.first >= n) {
      out = head.subarray(this.first, this.first + n);
      this.first += n;
    } else {
      out = new Uint8Array(n);
      let at = 0;
      while (at < n) {
        const part = this.parts[0];
        const take = Math.min(part.length - this.first, n - at);
        out.set(part.subarray(this.first, this.first + take), at);
        at += take;
        this.first += take;
        if (this.first === part.length) {
          this.parts.shift();
          this.first = 0;
        }
      }
    }
    if (this.parts.length > 0 && this.first === this.parts[0].length) {
      this.parts.shift();
      this.first = 0;
    }
    this.length -= n;
    return out;
  }
}

export function hasMagic(head: Uint8Array): boolean {
  if (head.length < MAGIC.length) return false;
  for (let i = 0; i < MAGIC.length; i++) if (head[i] !== MAGIC[i]) return false;
  return true;
}

/**
 * Reads the file header, then yields each intact chunk. `onHeader` receives the version;
 * `onProblem` is called once if reading stops early (bad header, damage, truncation).
 */
export async function* readFrames(
  source: AsyncIterable<Uint8Array>,
  onHeader: (header: FileHeader) => void,
  onProblem: (problem: FrameProblem) => void,
): AsyncGenerator<Frame> {
  const queue = new ByteQueue();
  let offset = 0; // file offset of the queue's first byte
  let headerDone = false;
  let pendingBody = -1; // body length of a chunk whose header is parsed but whose body is incomplete
  let pendingHeader: DataView | null = null;
  let pendingHeaderBytes: Uint8Array | null = null;

  for await (const slice of source) {
    queue.push(slice);
    if (!headerDone) {
      if (queue.length < FILE_HEADER_SIZE) continue;
      const h = queue.take(FILE_HEADER_SIZE);
      if (!hasMagic(h)) {
        onProblem({ message: 'not an .nvtxc capture (bad magic bytes)', offset: 0 });
        return;
      }
      const view = new DataView(h.buffer, h.byteOffset, h.byteLength);
      const major = view.getUint16(8, true);
      const minor = view.getUint16(10, true);
      if (major !== MAJOR_VERSION) {
        onProblem({
          message: `capture format version ${major}.${minor} is not supported (this reader knows version ${MAJOR_VERSION}.x)`,
          offset: 8,
        });
        return;
      }
      onHeader({ major, minor });
      offset = FILE_HEADER_SIZE;
      headerDone = true;
    }
    for (;;) {
      if (pendingBody < 0) {
        if (queue.length < CHUNK_HEADER_SIZE) break;
        pendingHeaderBytes = queue.take(CHUNK_HEADER_SIZE).slice();
        pendingHeader = new DataView(pendingHeaderBytes.buffer);
        pendingBody = pendingHeader.getUint32(0, true);
        if (pendingBody > MAX_CHUNK_BODY) {
          onProblem({ message: `chunk length ${pendingBody} is implausible: the capture is damaged here`, offset });
          return;
        }
      }
      if (queue.length < pendingBody) break;
      const body = queue.take(pendingBody);
      const header = pendingHeader!;
      const expected = header.getUint32(8, true);
      // An OPEN chunk is written in place by a live process and has no checksum (format section 2.2).
      const checked = header.getUint16(4, true) !== Chunk.Open;
      if (checked && crc32c(body, crc32c(pendingHeaderBytes!.subarray(0, 8))) !== expected) {
        onProblem({ message: 'chunk checksum mismatch: the capture is damaged here', offset });
        return;
      }
      const frame: Frame = { kind: header.getUint16(4, true), flags: header.getUint16(6, true), offset, body };
      offset += CHUNK_HEADER_SIZE + pendingBody;
      pendingBody = -1;
      yield frame;
    }
  }
  if (!headerDone) {
    onProblem({ message: `the capture is only ${queue.length} bytes long: no complete file header`, offset: 0 });
  } else if (pendingBody >= 0) {
    onProblem({
      message: `the capture ends inside a chunk (${queue.length} of ${pendingBody} body bytes present): it was cut short, e.g. by kill -9 or a full disk`,
      offset,
    });
  } else if (queue.length > 0) {
    onProblem({
      message: `the capture ends inside a chunk header (${queue.length} of ${CHUNK_HEADER_SIZE} bytes present): it was cut short`,
      offset,
    });
  }
}
