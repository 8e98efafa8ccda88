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

  // The readers below are on the path of every record: each is a short common case that V8 inlines
  // into the record loop, with the rare case (and the error) in a separate method.

  u8(): number {
    const pos = this.pos;
    if (pos >= this.end) this.need(1);
    this.pos = pos + 1;
    return this.bytes[pos];
  }

  u32(): number {
    const pos = this.pos;
    if (pos + 4 > this.end) this.need(4);
    const b = this.bytes;
    this.pos = pos + 4;
    return (b[pos] | (b[pos + 1] << 8) | (b[pos + 2] << 16) | (b[pos + 3] << 24)) >>> 0;
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
    const pos = this.pos;
    if (pos < this.end) {
      const b0 = this.bytes[pos];
      if (b0 < 0x80) {
        this.pos = pos + 1;
        return b0;
      }
      if (pos + 1 < this.end) {
        const b1 = this.bytes[pos + 1];
        if (b1 < 0x80) {
          this.pos = pos + 2;
          return (b0 & 0x7f) | (b1 << 7);
        }
      }
    }
    return this.longVarint();
  }

  private longVarint(): number {
    const start = this.pos;
    const bytes = this.bytes;
    if (start + 4 <= this.end) {
      // Three and four bytes (deltas of tick clocks): 28 bits, still small integers.
      const low = (bytes[start] & 0x7f) | ((bytes[start + 1] & 0x7f) << 7);
      const b2 = bytes[start + 2];
      if (b2 < 0x80) {
        this.pos = start + 3;
        return low | (b2 << 14);
      }
      const b3 = bytes[start + 3];
      if (b3 < 0x80) {
        this.pos = start + 4;
        return low | ((b2 & 0x7f) << 14) | (b3 << 21);
      }
      if (start + 10 <= this.end) {
        // Five to ten bytes (range ids hold a thread in their high 32 bits): no bounds check per byte.
        let result = low | ((b2 & 0x7f) << 14) | ((b3 & 0x7f) << 21);
        let scale = 0x10000000;
        for (let i = 4; i < 10; i++) {
          const b = bytes[start + i];
          result += (b & 0x7f) * scale;
          if (b < 0x80) {
            this.pos = start + i + 1;
            return result;
          }
          scale *= 128;
        }
        return this.fail('varint longer than 10 bytes', start);
      }
    }
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
    // Below 2^31 integer shifts are exact; above, the division keeps 53 bits.
    if (z < 0x80000000) return (z >>> 1) ^ -(z & 1);
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
