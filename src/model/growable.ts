/**
 * Append-only typed-array columns used while building the model: amortised O(1) push, no boxing.
 *
 * One class per element type, each with its own push/get/set: a single generic class would make
 * the element access in `push` see five typed-array kinds, and V8 then cannot inline it (measured:
 * about 20x slower per push in the builder's hot loops).
 */

type TypedArray = Float64Array | Float32Array | Uint32Array | Int32Array | Uint16Array | Uint8Array;

export interface Growable<T extends TypedArray> {
  /** Values pushed so far; may be lowered to drop the tail. */
  length: number;
  push(value: number): void;
  get(i: number): number;
  set(i: number, value: number): void;
  /** The filled part as a view (no copy): valid until the next push. */
  view(): T;
  /** The filled part as a tightly sized copy, safe to transfer. */
  toArray(): T;
  /** Bytes allocated, filled or not (a load's memory budget counts these). */
  readonly capacityBytes: number;
}

abstract class Column<T extends TypedArray> {
  length = 0;
  protected data: T;

  constructor(initialCapacity: number) {
    this.data = this.make(Math.max(1, initialCapacity));
  }

  protected abstract make(length: number): T;

  view(): T {
    return this.data.subarray(0, this.length) as T;
  }

  toArray(): T {
    return this.data.slice(0, this.length) as T;
  }

  get capacityBytes(): number {
    return this.data.byteLength;
  }

  protected grow(): void {
    const next = this.make(Math.max(64, this.data.length * 2));
    next.set(this.data);
    this.data = next;
  }
}

class F64 extends Column<Float64Array> implements Growable<Float64Array> {
  protected make(n: number): Float64Array {
    return new Float64Array(n);
  }
  push(value: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = value;
  }
  get(i: number): number {
    return this.data[i];
  }
  set(i: number, value: number): void {
    this.data[i] = value;
  }
}

class U32 extends Column<Uint32Array> implements Growable<Uint32Array> {
  protected make(n: number): Uint32Array {
    return new Uint32Array(n);
  }
  push(value: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = value;
  }
  get(i: number): number {
    return this.data[i];
  }
  set(i: number, value: number): void {
    this.data[i] = value;
  }
}

class I32 extends Column<Int32Array> implements Growable<Int32Array> {
  protected make(n: number): Int32Array {
    return new Int32Array(n);
  }
  push(value: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = value;
  }
  get(i: number): number {
    return this.data[i];
  }
  set(i: number, value: number): void {
    this.data[i] = value;
  }
}

class U16 extends Column<Uint16Array> implements Growable<Uint16Array> {
  protected make(n: number): Uint16Array {
    return new Uint16Array(n);
  }
  push(value: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = value;
  }
  get(i: number): number {
    return this.data[i];
  }
  set(i: number, value: number): void {
    this.data[i] = value;
  }
}

class U8 extends Column<Uint8Array> implements Growable<Uint8Array> {
  protected make(n: number): Uint8Array {
    return new Uint8Array(n);
  }
  push(value: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = value;
  }
  get(i: number): number {
    return this.data[i];
  }
  set(i: number, value: number): void {
    this.data[i] = value;
  }
}

export const f64 = (n = 64): Growable<Float64Array> => new F64(n);
export const u32 = (n = 64): Growable<Uint32Array> => new U32(n);
export const i32 = (n = 64): Growable<Int32Array> => new I32(n);
export const u16 = (n = 64): Growable<Uint16Array> => new U16(n);
export const u8 = (n = 64): Growable<Uint8Array> => new U8(n);
