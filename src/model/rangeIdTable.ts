/**
 * Range ids of open start/end ranges -> a non-negative integer, by linear probing over typed arrays.
 * Range ids are 64-bit values read as numbers, most above 2^31 (the collector and the generator put
 * the thread or stream in the high bits), which a Map holds as heap numbers: an allocation and a
 * slow hash per START, and the hottest line of the decoder (docs/performance.md, "The native
 * decoder's CPU"). Deletion shifts the entries after it back, so no tombstones build up.
 */
const EMPTY = NaN;

export class RangeIdTable {
  private keys: Float64Array;
  private values: Int32Array;
  private mask: number;
  /** Entries held. */
  size = 0;

  constructor(capacity = 64) {
    let n = 16;
    while (n < capacity * 2) n *= 2;
    this.keys = new Float64Array(n).fill(EMPTY);
    this.values = new Int32Array(n);
    this.mask = n - 1;
  }

  /** The value of `id`, or -1. */
  get(id: number): number {
    const i = this.find(id);
    return i < 0 ? -1 : this.values[i];
  }

  has(id: number): boolean {
    return this.find(id) >= 0;
  }

  /** Sets (or replaces) the value of `id`; `value` >= 0. */
  set(id: number, value: number): void {
    const keys = this.keys;
    const mask = this.mask;
    for (let i = this.home(id); ; i = (i + 1) & mask) {
      const k = keys[i];
      if (k === id) {
        this.values[i] = value;
        return;
      }
      if (k !== k) {
        keys[i] = id;
        this.values[i] = value;
        if (++this.size * 2 > keys.length) this.grow();
        return;
      }
    }
  }

  /** Removes `id`; its value, or -1 when it was not there. */
  delete(id: number): number {
    let i = this.find(id);
    if (i < 0) return -1;
    const keys = this.keys;
    const values = this.values;
    const mask = this.mask;
    const value = values[i];
    // Backward shift: an entry after the hole moves into it unless its home lies after the hole.
    for (let j = (i + 1) & mask; ; j = (j + 1) & mask) {
      const k = keys[j];
      if (k !== k) break;
      if (((j - this.home(k)) & mask) >= ((j - i) & mask)) {
        keys[i] = k;
        values[i] = values[j];
        i = j;
      }
    }
    keys[i] = EMPTY;
    this.size--;
    return value;
  }

  private find(id: number): number {
    const keys = this.keys;
    const mask = this.mask;
    for (let i = this.home(id); ; i = (i + 1) & mask) {
      const k = keys[i];
      if (k === id) return i;
      if (k !== k) return -1;
    }
  }

  /** Mixes the low and high 32 bits (equal numbers, 0 and -0 included, get equal homes). */
  private home(id: number): number {
    const lo = id >>> 0;
    const hi = (id / 4294967296) | 0;
    let h = Math.imul(lo ^ Math.imul(hi, 0x27d4eb2d), 0x9e3779b1);
    h ^= h >>> 15;
    return h & this.mask;
  }

  private grow(): void {
    const keys = this.keys;
    const values = this.values;
    this.keys = new Float64Array(keys.length * 2).fill(EMPTY);
    this.values = new Int32Array(keys.length * 2);
    this.mask = keys.length * 2 - 1;
    this.size = 0;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (k === k) this.set(k, values[i]);
    }
  }
}
