/**
 * Append-only typed-array columns used while building the model: amortised O(1) push, no boxing.
 *
 * One class per element type, each with its own push/get/set: a single generic class would make
 * the element access in `push` see five typed-array kinds, and V8 then cannot inline it (measured:
 * about 20x slower per push in the builder's hot loops).
 */

type TypedArray = Float64Array | Float32Array | Uint32Array | Int32Array | Uint16Array | Uint8Array;

/**
 * What a column knows of the input it is filled from: `fraction` is the share of the file read so
 * far (0 = unknown). A column that fills at fraction f of the file grows toward its projected
 * final size (capacity / f) instead of doubling, so a column of a large file is copied about
 * once instead of ~log2(n) times. Shared by the columns of one builder.
 */
export interface GrowthPlan {
  fraction: number;
}

/** Below this share of the file read, the projection is too uncertain: columns double. */
const MIN_PROJECTION_FRACTION = 1 / 64;
/**
 * The most one growth multiplies a capacity by (bounds what a column that stops filling wastes, in
 * address space: pages never written are not in memory). 32 lets the rows of the 10M native
 * capture reach their size from a fifth into the file, with one copy of a few MB per row, instead
 * of a second copy of half their data (168 MB in all) two thirds into it (docs/performance.md,
 * "The whole 10M native capture in the page").
 */
const MAX_GROWTH = 32;
/**
 * Headroom over the projected size, so that a column filling a little faster than the file still
 * grows once: a growth late in the file copies nearly all of the column (with 6%, 35 columns of
 * the 10M native capture doubled at 97% of the file).
 */
const PROJECTION_HEADROOM = 1.2;

/**
 * The most of a column's backing array that `release` leaves unfilled behind a view instead of
 * copying: a column grown toward its projection ends within `PROJECTION_HEADROOM` of its length.
 */
const RELEASE_SLACK = 0.25;

export interface Growable<T extends TypedArray> {
  /** Values pushed so far; may be lowered to drop the tail. */
  length: number;
  push(value: number): void;
  get(i: number): number;
  set(i: number, value: number): void;
  /** The filled part as a view (no copy): valid until the next push. */
  view(): T;
  /**
   * The backing array itself, filled part and spare capacity (no copy, no new object): for hot
   * loops that read many values; valid until the next push.
   */
  array(): T;
  /** The filled part as a tightly sized copy, safe to transfer. */
  toArray(): T;
  /**
   * The filled part, safe to transfer, for a column that is done (never pushed to or set again):
   * a view of the backing array when at most `RELEASE_SLACK` of it is unfilled (no copy, so no
   * fresh pages written at finish; the unfilled tail was never written, so it holds address space
   * but no memory), else a tightly sized copy as `toArray`.
   */
  release(): T;
  /** Makes room for `capacity` values in all (one copy at most), when the count to come is known. */
  reserve(capacity: number): void;
  /** Takes `data` as the backing array, its first `length` values filled (no copy). */
  adopt(data: T, length: number): void;
  /** Bytes allocated, filled or not (a load's memory budget counts these). */
  readonly capacityBytes: number;
}

abstract class Column<T extends TypedArray> {
  length = 0;
  protected data: T;

  constructor(
    initialCapacity: number,
    private readonly plan: GrowthPlan | undefined,
  ) {
    this.data = this.make(Math.max(1, initialCapacity));
  }

  protected abstract make(length: number): T;

  view(): T {
    return this.data.subarray(0, this.length) as T;
  }

  array(): T {
    return this.data;
  }

  toArray(): T {
    return this.data.slice(0, this.length) as T;
  }

  release(): T {
    return this.length >= this.data.length * (1 - RELEASE_SLACK) ? this.view() : this.toArray();
  }

  get capacityBytes(): number {
    return this.data.byteLength;
  }

  reserve(capacity: number): void {
    if (capacity <= this.data.length) return;
    const next = this.make(capacity);
    next.set(this.data);
    this.data = next;
  }

  adopt(data: T, length: number): void {
    this.data = data;
    this.length = length;
  }

  protected grow(): void {
    const next = this.make(grownCapacity(this.data.length, this.plan));
    next.set(this.data);
    this.data = next;
  }
}

/**
 * The capacity a full column of `capacity` values grows to: double, or toward the projected final
 * size when the plan knows how far into its file the builder is (bounded by `MAX_GROWTH`). For
 * columns kept outside `Growable` (several columns sharing one length) as for these.
 */
export function grownCapacity(capacity: number, plan: GrowthPlan | undefined): number {
  let length = Math.max(64, capacity * 2);
  const fraction = plan?.fraction ?? 0;
  if (fraction >= MIN_PROJECTION_FRACTION && fraction < 1) {
    const projected = Math.ceil((capacity / fraction) * PROJECTION_HEADROOM);
    length = Math.max(length, Math.min(projected, capacity * MAX_GROWTH));
  }
  return length;
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

export const f64 = (n = 64, plan?: GrowthPlan): Growable<Float64Array> => new F64(n, plan);
export const u32 = (n = 64, plan?: GrowthPlan): Growable<Uint32Array> => new U32(n, plan);
export const i32 = (n = 64, plan?: GrowthPlan): Growable<Int32Array> => new I32(n, plan);
export const u16 = (n = 64, plan?: GrowthPlan): Growable<Uint16Array> => new U16(n, plan);
export const u8 = (n = 64, plan?: GrowthPlan): Growable<Uint8Array> => new U8(n, plan);
