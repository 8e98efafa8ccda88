/** Bounds-checked reading of the `.nvtxc` primitives (varints, zigzag, strings, fixed widths). */

/** Malformed bytes inside a chunk; `offset` is the absolute byte offset in the file. */
export class FormatError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'FormatError';
  }
}

const utf8 = new TextDecoder('utf-8');

export class ByteReader {
  pos: number;
  /** Made on first use: most readers (one per extension record) never need it. */
  private dataView: DataView | undefined;

  /**
   * Reads `bytes[start, end)`; `fileOffset` is the file offset of `bytes[0]`, for messages.
   */
  constructor(
    readonly bytes: Uint8Array,
    start: number,
    readonly end: number,
    readonly fileOffset: number,
  ) {
    this.pos = start;
  }

  private get view(): DataView {
    return (this.dataView ??= new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength));
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** File offset of the current position. */
  get offset(): number {
    return this.fileOffset + this.pos;
  }

  fail(message: string, at = this.pos): never {
    throw new FormatError(message, this.fileOffset + at);
  }

  private need(n: number): void {
    if (this.pos + n > this.end) this.fail(`record runs past the end of its chunk (needs ${n} more bytes)`);
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.pos++];
  }

  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  /** 8 raw bytes (little-endian) as a view of the underlying bytes. */
  raw8(): DataView {
    this.need(8);
    const v = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.pos, 8);
    this.pos += 8;
    return v;
  }

  /** An unsigned varint as a number (exact below 2^53). */
  varint(): number {
    const b0 = this.pos < this.end ? this.bytes[this.pos] : 0x80;
    if (b0 < 0x80) {
      this.pos++;
      return b0;
    }
    const start = this.pos;
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) this.fail('varint runs past the end of its chunk', start);
      const b = this.bytes[this.pos++];
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 128;
    }
    return this.fail('varint longer than 10 bytes', start);
  }

  /** An unsigned varint as a 64-bit bigint. */
  varintBig(): bigint {
    const start = this.pos;
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) this.fail('varint runs past the end of its chunk', start);
      const b = this.bytes[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return BigInt.asUintN(64, result);
      shift += 7n;
    }
    return this.fail('varint longer than 10 bytes', start);
  }

  /** A zigzag varint as a number (exact below 2^52 in magnitude). */
  svarint(): number {
    const z = this.varint();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }

  bytesOf(n: number): Uint8Array {
    this.need(n);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** A `str`: varint length, then UTF-8 (invalid sequences become U+FFFD). */
  str(): string {
    const n = this.varint();
    return utf8.decode(this.bytesOf(n));
  }
}

/** Decodes bytes as UTF-8 text (for TLV values). */
export function utf8Text(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}
