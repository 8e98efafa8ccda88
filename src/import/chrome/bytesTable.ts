/**
 * Interning keyed by raw UTF-8 bytes: a trace repeats a few hundred names across millions of
 * events, so looking the bytes up (hash + compare) avoids decoding a string per event.
 */

interface Entry {
  bytes: Uint8Array;
  id: number;
  next: Entry | undefined;
}

export class BytesTable {
  private readonly buckets = new Map<number, Entry>();

  /** The id stored for buf[start, end), or -1. */
  get(buf: Uint8Array, start: number, end: number): number {
    const h = hashBytes(buf, start, end);
    const n = end - start;
    for (let e = this.buckets.get(h); e; e = e.next) {
      const b = e.bytes;
      if (b.length !== n) continue;
      let k = 0;
      while (k < n && b[k] === buf[start + k]) k++;
      if (k === n) return e.id;
    }
    return -1;
  }

  set(buf: Uint8Array, start: number, end: number, id: number): void {
    const h = hashBytes(buf, start, end);
    this.buckets.set(h, { bytes: buf.slice(start, end), id, next: this.buckets.get(h) });
  }
}

/** FNV-1a over the bytes. */
function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  return h | 0;
}
