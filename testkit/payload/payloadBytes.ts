/** Little-endian byte building for payload tests (a DataView over a growing buffer). */
export class ByteWriter {
  private buf = new Uint8Array(64);
  private view = new DataView(this.buf.buffer);
  length = 0;

  private ensure(n: number): number {
    const at = this.length;
    if (at + n > this.buf.length) {
      const next = new Uint8Array(Math.max(this.buf.length * 2, at + n));
      next.set(this.buf);
      this.buf = next;
      this.view = new DataView(next.buffer);
    }
    this.length += n;
    return at;
  }

  /** Zero bytes up to a multiple of `n`. */
  align(n: number): this {
    while (this.length % n !== 0) this.u8(0);
    return this;
  }

  pad(n: number): this {
    this.ensure(n);
    return this;
  }

  u8(v: number): this {
    const at = this.ensure(1);
    this.view.setUint8(at, v);
    return this;
  }
  i8(v: number): this {
    const at = this.ensure(1);
    this.view.setInt8(at, v);
    return this;
  }
  u16(v: number): this {
    const at = this.ensure(2);
    this.view.setUint16(at, v, true);
    return this;
  }
  i16(v: number): this {
    const at = this.ensure(2);
    this.view.setInt16(at, v, true);
    return this;
  }
  u32(v: number): this {
    const at = this.ensure(4);
    this.view.setUint32(at, v, true);
    return this;
  }
  i32(v: number): this {
    const at = this.ensure(4);
    this.view.setInt32(at, v, true);
    return this;
  }
  u64(v: number | bigint): this {
    const at = this.ensure(8);
    this.view.setBigUint64(at, BigInt(v), true);
    return this;
  }
  i64(v: number | bigint): this {
    const at = this.ensure(8);
    this.view.setBigInt64(at, BigInt(v), true);
    return this;
  }
  f32(v: number): this {
    const at = this.ensure(4);
    this.view.setFloat32(at, v, true);
    return this;
  }
  f64(v: number): this {
    const at = this.ensure(8);
    this.view.setFloat64(at, v, true);
    return this;
  }
  u128(v: bigint): this {
    const u = BigInt.asUintN(128, v);
    this.u64(u & 0xffffffffffffffffn);
    return this.u64(u >> 64n);
  }
  bytes(b: ArrayLike<number>): this {
    const at = this.ensure(b.length);
    this.buf.set(b, at);
    return this;
  }
  /** UTF-8 text, optionally NUL-padded to `units` bytes. */
  utf8(s: string, units?: number): this {
    const b = new TextEncoder().encode(s);
    this.bytes(b);
    if (units !== undefined) this.pad(units - b.length);
    return this;
  }
  utf16(s: string, units?: number): this {
    for (let i = 0; i < s.length; i++) this.u16(s.charCodeAt(i));
    if (units !== undefined) this.pad((units - s.length) * 2);
    return this;
  }
  utf32(s: string, units?: number): this {
    const cps = [...s].map((c) => c.codePointAt(0)!);
    for (const cp of cps) this.u32(cp);
    if (units !== undefined) this.pad((units - cps.length) * 4);
    return this;
  }

  done(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

export const w = () => new ByteWriter();
