/**
 * Interning keyed by raw UTF-8 bytes: a trace repeats a few hundred names across millions of
 * events, so looking the bytes up (hash + compare) avoids decoding a string per event. Keys live
 * in one growing byte arena (a small typed array per key would cost an allocation each).
 */
export class BytesTable {
  /** Hash -> first entry of its chain. */
  private readonly heads = new Map<number, number>();
  private readonly next: number[] = [];
  private readonly start: number[] = [];
  private readonly length: number[] = [];
  private readonly ids: number[] = [];
  private arena = new Uint8Array(4096);
  private used = 0;

  /** The id stored for buf[start, end), or -1. */
  get(buf: Uint8Array, start: number, end: number): number {
    const n = end - start;
    const arena = this.arena;
    for (let e = this.heads.get(hashBytes(buf, start, end)) ?? -1; e !== -1; e = this.next[e]) {
      if (this.length[e] !== n) continue;
      const at = this.start[e];
      let k = 0;
      while (k < n && arena[at + k] === buf[start + k]) k++;
      if (k === n) return this.ids[e];
    }
    return -1;
  }

  /** Stores `id` for buf[start, end) (which must not be in the table yet). */
  set(buf: Uint8Array, start: number, end: number, id: number): void {
    const n = end - start;
    if (this.used + n > this.arena.length) {
      const grown = new Uint8Array(Math.max(this.arena.length * 2, this.used + n));
      grown.set(this.arena.subarray(0, this.used));
      this.arena = grown;
    }
    for (let i = 0; i < n; i++) this.arena[this.used + i] = buf[start + i];
    const h = hashBytes(buf, start, end);
    const e = this.ids.length;
    this.next.push(this.heads.get(h) ?? -1);
    this.start.push(this.used);
    this.length.push(n);
    this.ids.push(id);
    this.heads.set(h, e);
    this.used += n;
  }

  /** The bytes stored for `id` (a copy), or undefined. For messages, not hot paths. */
  bytesOf(id: number): Uint8Array | undefined {
    const e = this.ids.indexOf(id);
    return e === -1 ? undefined : this.arena.slice(this.start[e], this.start[e] + this.length[e]);
  }
}

/** FNV-1a over the bytes. */
function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  return h | 0;
}
