/**
 * Interning keyed by raw UTF-8 bytes: a trace repeats a few hundred names across millions of
 * events, so looking the bytes up (hash + compare) avoids decoding a string per event. Keys live
 * in one growing byte arena (a small typed array per key would cost an allocation each); the
 * table is open addressing over typed arrays (no Map lookup per event).
 */
/** Int32 values per entry of `BytesTable.entries`. */
const ENTRY = 4;

export class BytesTable {
  /** Slot -> entry + 1 (0: empty); the size is a power of two, at most half full. */
  private slots: Int32Array = new Int32Array(256);
  /** Per entry, side by side (one cache line per probe): hash, arena start, length, id. */
  private entries: Int32Array = new Int32Array(64 * ENTRY);
  private count = 0;
  private arena: Uint8Array = new Uint8Array(4096);
  private used = 0;

  /** The id stored for buf[start, end), or -1. */
  get(buf: Uint8Array, start: number, end: number): number {
    return this.getHashed(buf, start, end, hashBytes(buf, start, end));
  }

  /** As `get`, with the bytes' `hashBytes` already known. */
  getHashed(buf: Uint8Array, start: number, end: number, hash: number): number {
    const n = end - start;
    const slots = this.slots;
    const entries = this.entries;
    const mask = slots.length - 1;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const e = slots[s] - 1;
      if (e < 0) return -1;
      const at = e * ENTRY;
      if (entries[at] !== hash || entries[at + 2] !== n) continue;
      const arena = this.arena;
      const from = entries[at + 1];
      let k = 0;
      while (k < n && arena[from + k] === buf[start + k]) k++;
      if (k === n) return entries[at + 3];
    }
  }

  /** Stores `id` for buf[start, end) (which must not be in the table yet). */
  set(buf: Uint8Array, start: number, end: number, id: number): void {
    const n = end - start;
    if (this.used + n > this.arena.length) this.arena = grownBytes(this.arena, this.used + n, this.used);
    for (let i = 0; i < n; i++) this.arena[this.used + i] = buf[start + i];
    const e = this.count++;
    if ((e + 1) * ENTRY > this.entries.length) this.entries = grownInts(this.entries);
    const hash = hashBytes(buf, start, end);
    const at = e * ENTRY;
    this.entries[at] = hash;
    this.entries[at + 1] = this.used;
    this.entries[at + 2] = n;
    this.entries[at + 3] = id;
    this.used += n;
    if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(e, hash);
  }

  /** The bytes stored for `id` (a copy), or undefined. For messages, not hot paths. */
  bytesOf(id: number): Uint8Array | undefined {
    for (let e = 0; e < this.count; e++) {
      const at = e * ENTRY;
      if (this.entries[at + 3] === id) return this.arena.slice(this.entries[at + 1], this.entries[at + 1] + this.entries[at + 2]);
    }
    return undefined;
  }

  private place(e: number, hash: number): void {
    const slots = this.slots;
    const mask = slots.length - 1;
    let s = hash & mask;
    while (slots[s] !== 0) s = (s + 1) & mask;
    slots[s] = e + 1;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    for (let e = 0; e < this.count; e++) this.place(e, this.entries[e * ENTRY]);
  }
}

function grownInts(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

function grownBytes(a: Uint8Array, need: number, used: number): Uint8Array {
  const b = new Uint8Array(Math.max(a.length * 2, need));
  b.set(a.subarray(0, used));
  return b;
}

/** FNV-1a over the bytes, as a signed 32-bit integer. */
export function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  return h | 0;
}
