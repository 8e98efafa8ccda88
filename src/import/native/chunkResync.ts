/**
 * Finds the next intact chunk after damage, in one pass over the bytes (docs/capture-format.md,
 * section 2.1).
 *
 * Every byte offset after the damaged chunk's start is a candidate chunk header when its kind is
 * one this reader knows and its length is plausible. Checking each candidate's CRC by reading its
 * body would cost O(n * length), so instead the scan keeps one running CRC register over all
 * bytes since the damage: a candidate's CRC follows from the register at its body start (saved
 * with the candidate) and the register at its body end (reached later by the same scan), with
 * `crc32cShift` (linearity of CRCs). Candidates wait in a heap ordered by body end; the first one
 * whose CRC matches is the next intact chunk. Each byte is read once, plus O(log length) work per
 * candidate.
 */
import { crc32cRegisterStep, crc32cShift } from './crc32c.ts';
import { Chunk, CHUNK_HEADER_SIZE, MAX_CHUNK_BODY } from './format.ts';

/** Why the chunk at the damage's start could not be read. */
/** One chunk as read from the file (the header's kind and flags, its file offset, its body). */
export interface Frame {
  kind: number;
  flags: number;
  /** File offset of the chunk header. */
  offset: number;
  body: Uint8Array;
}

export type DamageCause = 'crc' | 'length' | 'cut' | 'cut-header';

/** A byte range that was skipped, with the message that says what it held. */
export interface SkippedRegion {
  severity: 'error' | 'warning';
  message: string;
  from: number;
  /** End of the range (exclusive): the offset of the chunk reading resumed with, or the file's end. */
  to: number;
}

export interface ResyncFound {
  frame: Frame;
  /** File offset of the intact chunk (= end of the damaged range). */
  offset: number;
  /** File offset just after the intact chunk. */
  end: number;
  /** Bytes received after the intact chunk: they go back to normal reading. */
  rest: Uint8Array;
}

const LARGEST_KNOWN_KIND = Chunk.CudaActivity;

export class ChunkResync {
  private buf = new Uint8Array(1 << 16);
  /** File offset of buf[0]. */
  private base: number;
  private length = 0;
  /** File offset of the next byte the scan reads. */
  private pos: number;
  /** CRC register over the bytes [from, pos), started from 0. */
  private register = 0;
  /** Last non-zero byte offset seen (from - 1: none). */
  private lastNonZero: number;
  /** Last non-zero byte offset before pos - 12, i.e. before the newest candidate header. */
  private lastNonZeroBeforeHeader: number;
  /** Last non-zero byte offset before the intact chunk that was found. */
  private lastNonZeroBeforeFound: number;

  // Candidates in the order they were found (= by header offset); `head` is the first unresolved one.
  private readonly cOffset: number[] = [];
  private readonly cEnd: number[] = [];
  /** Register value that, shifted by the body length, gives the CRC register minus the body's own part. */
  private readonly cStart: number[] = [];
  private readonly cCrc: number[] = [];
  private readonly cHeader: number[] = []; // kind | flags << 16
  private readonly cNonZero: number[] = [];
  private readonly cResolved: boolean[] = [];
  private head = 0;
  /** Candidate indexes, a min-heap by body end. */
  private readonly heap: number[] = [];

  constructor(
    private readonly fileName: string,
    /** File offset of the damaged chunk's header. */
    readonly from: number,
    private readonly cause: DamageCause,
    /** Body length its header states, when it was read. */
    private readonly declaredBody: number | undefined,
  ) {
    this.base = from;
    this.pos = from;
    this.lastNonZero = from - 1;
    this.lastNonZeroBeforeHeader = from - 1;
    this.lastNonZeroBeforeFound = from - 1;
  }

  append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.length + bytes.length > this.buf.length) this.makeRoom(bytes.length);
    this.buf.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** Reads what has arrived; returns the first intact chunk after the damage, if it is complete. */
  scan(): ResyncFound | undefined {
    const buf = this.buf;
    const end = this.base + this.length;
    while (this.pos < end) {
      const at = this.pos;
      const byte = buf[at - this.base];
      this.register = crc32cRegisterStep(this.register, byte);
      if (byte !== 0) this.lastNonZero = at;
      this.pos = at + 1;
      const header = this.pos - CHUNK_HEADER_SIZE; // a candidate header ends here
      if (header > this.from) {
        if (buf[header - 1 - this.base] !== 0) this.lastNonZeroBeforeHeader = header - 1;
        this.consider(header);
      }
      while (this.heap.length > 0 && this.cEnd[this.heap[0]] === this.pos) {
        const found = this.verify(this.popHeap());
        if (found) return found;
      }
    }
    return undefined;
  }

  /** What the skipped range [from, resumedAt) held; `resumedAt` undefined: it runs to the end of the file. */
  region(resumedAt: number | undefined): SkippedRegion {
    const from = this.from;
    const to = resumedAt ?? this.base + this.length;
    const lastNonZero = resumedAt === undefined ? this.lastNonZero : this.lastNonZeroBeforeFound;
    const size = to - from;
    const written = lastNonZero + 1 - from;
    // A zero run at least a chunk header long is space that was never written (a file mapping).
    const zeros = to - from - written >= CHUNK_HEADER_SIZE ? to - from - written : 0;
    const range = `bytes ${from}–${to} of ${this.fileName}`;
    if (resumedAt !== undefined) {
      if (written <= 0) {
        return {
          severity: 'warning',
          from,
          to,
          message: `${range} (${plural(size, 'byte')}) are zero-filled: never written (space the collector reserved, or a hole left by a crash); reading resumes with the intact chunk at byte ${to}`,
        };
      }
      const tail = zeros > 0 ? `, and its last ${plural(zeros, 'byte')} are zero-filled` : '';
      return {
        severity: 'error',
        from,
        to,
        message: `${range} (${plural(size, 'byte')}) are damaged: ${this.causeText(size)}${tail}; the events stored there are lost, and reading resumes with the intact chunk at byte ${to}`,
      };
    }
    const kept = `everything before byte ${from} is kept`;
    if (written <= 0) {
      return {
        severity: 'warning',
        from,
        to,
        message: `${range}, its last ${plural(size, 'byte')}, are zero-filled: space the collector reserved but never wrote (the process ended without closing the capture, e.g. kill -9); ${kept}`,
      };
    }
    if (zeros > 0) {
      return {
        severity: 'error',
        from,
        to,
        message: `the chunk at ${range} is incomplete: ${plural(size - zeros, 'byte')} were written, then ${plural(zeros, 'zero byte')} up to the end of the file (the process ended while writing it, e.g. kill -9); ${kept}`,
      };
    }
    if (this.cause === 'cut') {
      const message = `the capture ends inside a chunk at ${range} (${size - CHUNK_HEADER_SIZE} of ${this.declaredBody} body bytes present): it was cut short, e.g. by kill -9 or a full disk; ${kept}`;
      return { severity: 'error', from, to, message };
    }
    if (this.cause === 'cut-header') {
      const message = `the capture ends inside a chunk header at ${range} (${size} of ${CHUNK_HEADER_SIZE} bytes present): it was cut short; ${kept}`;
      return { severity: 'error', from, to, message };
    }
    return {
      severity: 'error',
      from,
      to,
      message: `${range} (${plural(size, 'byte')}) are damaged: ${this.causeText(size)}; no intact chunk follows; ${kept}`,
    };
  }

  private causeText(size: number): string {
    switch (this.cause) {
      case 'crc':
        return `the chunk at byte ${this.from} has a checksum mismatch`;
      case 'length':
        return `the chunk header at byte ${this.from} states an implausible length`;
      case 'cut':
        return `the chunk at byte ${this.from} claims ${plural(this.declaredBody ?? 0, 'body byte')}, more than the ${size - CHUNK_HEADER_SIZE} that follow`;
      case 'cut-header':
        return `the chunk header at byte ${this.from} is incomplete`;
    }
  }

  /** Registers the candidate header at `at` (its 12 bytes are in the buffer) if it looks like one. */
  private consider(at: number): void {
    const buf = this.buf;
    const i = at - this.base;
    const kind = buf[i + 4] | (buf[i + 5] << 8);
    if (kind < Chunk.Process || kind > LARGEST_KNOWN_KIND) return;
    const length = (buf[i] | (buf[i + 1] << 8) | (buf[i + 2] << 16) | (buf[i + 3] << 24)) >>> 0;
    if (length > MAX_CHUNK_BODY) return;
    let headerRegister = 0xffffffff;
    for (let k = 0; k < 8; k++) headerRegister = crc32cRegisterStep(headerRegister, buf[i + k]);
    const c = this.cOffset.length;
    this.cOffset.push(at);
    this.cEnd.push(this.pos + length);
    // The whole chunk's register = shift(headerRegister, length) ^ (body's register from 0), and
    // the body's register from 0 = register(bodyEnd) ^ shift(register(bodyStart), length).
    this.cStart.push((headerRegister ^ this.register) >>> 0);
    this.cCrc.push((buf[i + 8] | (buf[i + 9] << 8) | (buf[i + 10] << 16) | (buf[i + 11] << 24)) >>> 0);
    this.cHeader.push(kind | ((buf[i + 6] | (buf[i + 7] << 8)) << 16));
    this.cNonZero.push(this.lastNonZeroBeforeHeader);
    this.cResolved.push(false);
    this.pushHeap(c);
  }

  private verify(c: number): ResyncFound | undefined {
    this.cResolved[c] = true;
    while (this.head < this.cOffset.length && this.cResolved[this.head]) this.head++;
    const bodyLength = this.cEnd[c] - this.cOffset[c] - CHUNK_HEADER_SIZE;
    const crc = (crc32cShift(this.cStart[c], bodyLength) ^ this.register ^ 0xffffffff) >>> 0;
    if (crc !== this.cCrc[c]) return undefined;
    const offset = this.cOffset[c];
    const end = this.cEnd[c];
    this.lastNonZeroBeforeFound = this.cNonZero[c];
    const header = this.cHeader[c];
    const frame: Frame = {
      kind: header & 0xffff,
      flags: header >>> 16,
      offset,
      body: this.buf.subarray(offset + CHUNK_HEADER_SIZE - this.base, end - this.base),
    };
    return { frame, offset, end, rest: this.buf.subarray(end - this.base, this.length) };
  }

  /** Drops bytes no candidate needs any more (keeping the last header's worth), then grows if needed. */
  private makeRoom(extra: number): void {
    const keepFrom = Math.min(this.pos - CHUNK_HEADER_SIZE - 1, this.head < this.cOffset.length ? this.cOffset[this.head] : Infinity);
    const drop = Math.max(0, keepFrom - this.base);
    const keep = this.length - drop;
    let cap = this.buf.length;
    while (cap < keep + extra) cap *= 2;
    if (cap === this.buf.length) {
      this.buf.copyWithin(0, drop, this.length);
    } else {
      const next = new Uint8Array(cap);
      next.set(this.buf.subarray(drop, this.length));
      this.buf = next;
    }
    this.base += drop;
    this.length = keep;
    this.compactCandidates();
  }

  /** Forgets resolved candidates at the front of the lists so they do not grow with the damaged range. */
  private compactCandidates(): void {
    const h = this.head;
    if (h < 1024 || h * 2 < this.cOffset.length) return;
    for (const list of [this.cOffset, this.cEnd, this.cStart, this.cCrc, this.cHeader, this.cNonZero, this.cResolved] as unknown[][]) {
      list.splice(0, h);
    }
    for (let k = 0; k < this.heap.length; k++) this.heap[k] -= h;
    this.head = 0;
  }

  private pushHeap(c: number): void {
    const heap = this.heap;
    const end = this.cEnd;
    let i = heap.length;
    heap.push(c);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (end[heap[parent]] <= end[c]) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = c;
  }

  private popHeap(): number {
    const heap = this.heap;
    const end = this.cEnd;
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= heap.length) break;
        const r = l + 1;
        const child = r < heap.length && end[heap[r]] < end[heap[l]] ? r : l;
        if (end[heap[child]] >= end[last]) break;
        heap[i] = heap[child];
        i = child;
      }
      heap[i] = last;
    }
    return top;
  }
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}
