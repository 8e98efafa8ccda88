/** Append-only typed-array columns used while building the model: amortised O(1) push, no boxing. */

type TypedArray =
  | Float64Array
  | Float32Array
  | Uint32Array
  | Int32Array
  | Uint16Array
  | Uint8Array;

interface TypedArrayCtor<T extends TypedArray> {
  new (length: number): T;
}

export class Growable<T extends TypedArray> {
  private data: T;
  length = 0;

  constructor(
    private readonly ctor: TypedArrayCtor<T>,
    initialCapacity = 64,
  ) {
    this.data = new ctor(initialCapacity);
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

  /** The filled part as a view (no copy): valid until the next push. */
  view(): T {
    return this.data.subarray(0, this.length) as T;
  }

  /** The filled part as a tightly sized copy, safe to transfer. */
  toArray(): T {
    return this.data.slice(0, this.length) as T;
  }

  private grow(): void {
    const next = new this.ctor(Math.max(64, this.data.length * 2));
    next.set(this.data);
    this.data = next;
  }
}

export const f64 = (n?: number) => new Growable(Float64Array, n);
export const u32 = (n?: number) => new Growable(Uint32Array, n);
export const i32 = (n?: number) => new Growable(Int32Array, n);
export const u16 = (n?: number) => new Growable(Uint16Array, n);
export const u8 = (n?: number) => new Growable(Uint8Array, n);
