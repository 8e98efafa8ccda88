/** Buffered, synchronous output to a file: generators write text or bytes in small pieces. */
import { closeSync, openSync, writeSync } from 'node:fs';

export interface Sink {
  text(s: string): void;
  bytes(b: Uint8Array): void;
  /** Bytes written so far. */
  readonly size: number;
}

const FLUSH_AT = 1 << 20;

export class FileSink implements Sink {
  private readonly fd: number;
  private pending: string[] = [];
  private pendingLength = 0;
  private written = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }

  get size(): number {
    return this.written + Buffer.byteLength(this.pending.join(''));
  }

  text(s: string): void {
    this.pending.push(s);
    this.pendingLength += s.length;
    if (this.pendingLength >= FLUSH_AT) this.flush();
  }

  bytes(b: Uint8Array): void {
    this.flush();
    writeSync(this.fd, b);
    this.written += b.length;
  }

  flush(): void {
    if (this.pending.length === 0) return;
    const buf = Buffer.from(this.pending.join(''), 'utf8');
    writeSync(this.fd, buf);
    this.written += buf.length;
    this.pending = [];
    this.pendingLength = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** A sink collecting text in memory (tests, small captures). */
export class StringSink implements Sink {
  private parts: string[] = [];

  get size(): number {
    return Buffer.byteLength(this.parts.join(''));
  }

  text(s: string): void {
    this.parts.push(s);
  }

  bytes(): void {
    throw new Error('StringSink holds text only');
  }

  toString(): string {
    return this.parts.join('');
  }
}

/** Collects a generator's output, text or bytes, in memory (tests, fuzz seeds). */
export class MemorySink implements Sink {
  private readonly parts: Uint8Array[] = [];
  private bytesWritten = 0;
  private readonly encoder = new TextEncoder();

  get size(): number {
    return this.bytesWritten;
  }

  text(s: string): void {
    this.bytes(this.encoder.encode(s));
  }

  bytes(b: Uint8Array): void {
    this.parts.push(b.slice());
    this.bytesWritten += b.length;
  }

  toBytes(): Uint8Array {
    const out = new Uint8Array(this.bytesWritten);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}
