/**
 * Splits the byte stream of a `.nvtxc` file into verified chunks, incrementally: input arrives in
 * slices of any size, a chunk may straddle slices, and only the chunk being assembled is copied.
 *
 * After damage (a CRC mismatch, an implausible length, a cut chunk, a zero-filled region) it
 * resynchronises (chunkResync.ts): it finds the next intact chunk, reports the skipped byte range
 * and goes on, so one bad byte costs one chunk, not the rest of the file.
 */
import { crc32c } from './crc32c.ts';
import { ChunkResync, type DamageCause, type Frame, type SkippedRegion } from './chunkResync.ts';
import { CHUNK_HEADER_SIZE, Chunk, FILE_HEADER_SIZE, MAGIC, MAJOR_VERSION, MAX_CHUNK_BODY } from './format.ts';

export type { Frame };

/** Bytes that could not be read as chunks: a message and the byte range it is about. */
export interface FrameProblem {
  severity: 'error' | 'warning';
  message: string;
  /** File offset where the problem starts. */
  offset: number;
  /** File offset where reading resumed (end of the skipped range); undefined when nothing followed. */
  resumedAt?: number;
  /** The file's last chunk, when it is cut short and nothing intact follows it. */
  cutChunk?: CutChunk;
}

/**
 * A chunk cut short by the end of the file, e.g. a write that kill -9 interrupted: what its header
 * says and its first body bytes, so that the decoder can tell whether its events are kept elsewhere
 * (an OPEN chunk holds a thread's buffer until its EVENTS chunk is written).
 */
export interface CutChunk {
  kind: number;
  /** File offset of the chunk header. */
  offset: number;
  /** Body length its header states. */
  declaredBody: number;
  /** The first body bytes present (at most CUT_CHUNK_HEAD). */
  bodyHead: Uint8Array;
}

/** Body bytes kept of a cut chunk: an EVENTS chunk's five header varints fit. */
const CUT_CHUNK_HEAD = 64;

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

  /** Everything left, as slices (views). */
  drain(): Uint8Array[] {
    const out = this.parts.map((p, i) => (i === 0 ? p.subarray(this.first) : p));
    this.parts = [];
    this.first = 0;
    this.length = 0;
    return out;
  }
}

export function hasMagic(head: Uint8Array): boolean {
  if (head.length < MAGIC.length) return false;
  for (let i = 0; i < MAGIC.length; i++) if (head[i] !== MAGIC[i]) return false;
  return true;
}

/** Reads chunks from slices pushed in file order; `next()` gives each intact chunk once it is whole. */
export class ChunkSplitter {
  private queue = new ByteQueue();
  /** File offset of the queue's first byte. */
  private offset = 0;
  private headerDone = false;
  private stopped = false;
  private eof = false;
  /** Header of a chunk whose body is not complete yet. */
  private pendingHeader: Uint8Array | null = null;
  private pendingBody = -1;
  private resync: ChunkResync | null = null;
  /** The chunk the current resync started at, when the file ended inside it. */
  private cutChunk: CutChunk | undefined;

  constructor(
    private readonly fileName: string,
    private readonly onHeader: (header: FileHeader) => void,
    private readonly onProblem: (problem: FrameProblem) => void,
  ) {}

  feed(slice: Uint8Array): void {
    if (this.stopped || slice.length === 0) return;
    if (this.resync) this.resync.append(slice);
    else this.queue.push(slice);
  }

  /** Marks the end of the input: `next()` then also resolves what the last bytes hold. */
  end(): void {
    this.eof = true;
  }

  /** The next intact chunk, or undefined when more input is needed (or, after `end()`, none is left). */
  next(): Frame | undefined {
    while (!this.stopped) {
      if (this.resync) {
        const found = this.resync.scan();
        if (found) {
          this.report(this.resync.region(found.offset));
          this.resync = null;
          this.queue = new ByteQueue();
          this.queue.push(found.rest);
          this.offset = found.end;
          return found.frame;
        }
        if (!this.eof) return undefined;
        this.report(this.resync.region(undefined), this.cutChunk);
        this.resync = null;
        this.stopped = true;
        return undefined;
      }
      if (!this.headerDone) {
        if (!this.readFileHeader()) return undefined;
        continue;
      }
      if (this.pendingBody < 0) {
        if (this.queue.length < CHUNK_HEADER_SIZE) {
          if (this.eof && this.queue.length > 0) this.startResync('cut-header', []);
          else if (this.eof) this.stopped = true;
          if (!this.resync) return undefined;
          continue;
        }
        const header = new Uint8Array(this.queue.take(CHUNK_HEADER_SIZE)); // a copy whatever the view (Buffer.slice shares)
        const length = new DataView(header.buffer).getUint32(0, true);
        if (length > MAX_CHUNK_BODY) {
          this.startResync('length', [header]);
          continue;
        }
        this.pendingHeader = header;
        this.pendingBody = length;
      }
      const header = this.pendingHeader!;
      if (this.queue.length < this.pendingBody) {
        if (!this.eof) return undefined;
        const rest = this.queue.drain();
        this.cutChunk = {
          kind: new DataView(header.buffer).getUint16(4, true),
          offset: this.offset,
          declaredBody: this.pendingBody,
          bodyHead: firstBytes(rest, CUT_CHUNK_HEAD),
        };
        this.startResync('cut', [header, ...rest]);
        continue;
      }
      const body = this.queue.take(this.pendingBody);
      const view = new DataView(header.buffer);
      // An OPEN chunk is written in place by a live process and has no checksum (format section 2.2).
      const checked = view.getUint16(4, true) !== Chunk.Open;
      if (checked && crc32c(body, crc32c(header.subarray(0, 8))) !== view.getUint32(8, true)) {
        this.startResync('crc', [header, body]);
        continue;
      }
      const frame: Frame = { kind: view.getUint16(4, true), flags: view.getUint16(6, true), offset: this.offset, body };
      this.offset += CHUNK_HEADER_SIZE + this.pendingBody;
      this.pendingBody = -1;
      this.pendingHeader = null;
      return frame;
    }
    return undefined;
  }

  /** Problems that only the end of the input can tell (a file too short for its header). */
  finish(): void {
    if (!this.headerDone && !this.stopped) {
      this.stopped = true;
      this.onProblem({
        severity: 'error',
        message: `the capture is only ${this.queue.length} bytes long: no complete file header`,
        offset: 0,
      });
    }
  }

  private readFileHeader(): boolean {
    if (this.queue.length < FILE_HEADER_SIZE) return false;
    const h = this.queue.take(FILE_HEADER_SIZE);
    if (!hasMagic(h)) {
      this.stop('not an .nvtxc capture (bad magic bytes)', 0);
      return false;
    }
    const view = new DataView(h.buffer, h.byteOffset, h.byteLength);
    const major = view.getUint16(8, true);
    const minor = view.getUint16(10, true);
    if (major !== MAJOR_VERSION) {
      this.stop(`capture format version ${major}.${minor} is not supported (this reader knows version ${MAJOR_VERSION}.x)`, 8);
      return false;
    }
    this.onHeader({ major, minor });
    this.offset = FILE_HEADER_SIZE;
    this.headerDone = true;
    return true;
  }

  /** The chunk at `this.offset` is damaged: scan from the byte after its start for the next intact one. */
  private startResync(cause: DamageCause, consumed: Uint8Array[]): void {
    const declaredBody = this.pendingBody >= 0 ? this.pendingBody : undefined;
    this.resync = new ChunkResync(this.fileName, this.offset, cause, declaredBody);
    for (const part of consumed) this.resync.append(part);
    for (const part of this.queue.drain()) this.resync.append(part);
    this.pendingBody = -1;
    this.pendingHeader = null;
  }

  private stop(message: string, offset: number): void {
    this.stopped = true;
    this.onProblem({ severity: 'error', message, offset });
  }

  private report(region: SkippedRegion, cutChunk?: CutChunk): void {
    const problem: FrameProblem = { severity: region.severity, message: region.message, offset: region.from, resumedAt: region.to };
    if (cutChunk && cutChunk.offset === region.from) problem.cutChunk = cutChunk;
    this.onProblem(problem);
  }
}

/** A copy of the first `n` bytes of `parts` (fewer when they hold fewer). */
function firstBytes(parts: Uint8Array[], n: number): Uint8Array {
  let total = 0;
  for (const part of parts) total += part.length;
  const out = new Uint8Array(Math.min(n, total));
  let at = 0;
  for (const part of parts) {
    if (at === out.length) break;
    const take = Math.min(part.length, out.length - at);
    out.set(part.subarray(0, take), at);
    at += take;
  }
  return out;
}

/**
 * Reads the file header, then yields each intact chunk. `onHeader` receives the version;
 * `onProblem` is called for each damaged or skipped byte range and for a bad file header.
 */
export async function* readFrames(
  source: AsyncIterable<Uint8Array>,
  onHeader: (header: FileHeader) => void,
  onProblem: (problem: FrameProblem) => void,
  fileName = 'the capture',
): AsyncGenerator<Frame> {
  const splitter = new ChunkSplitter(fileName, onHeader, onProblem);
  for await (const slice of source) {
    splitter.feed(slice);
    for (let frame = splitter.next(); frame; frame = splitter.next()) yield frame;
  }
  splitter.end();
  for (let frame = splitter.next(); frame; frame = splitter.next()) yield frame;
  splitter.finish();
}
