/**
 * Reading query results cell by cell, without a row array or object per row: the importer's
 * per-row loops ask only for the cells a row's kind needs, as numbers where they are numbers, and
 * texts as small integer keys (the same text, the same key) that are decoded once per distinct text.
 * The paged engine serves it straight from SQLite's column API (pagedSqlite.ts); a database that only
 * hands out row arrays (sql.js, the whole-file load kept for benchmarks) is served by `rowArrayCursor`.
 */
/** A cell as a row array holds it: integers and reals as numbers, texts, blobs, NULL. */
export type SqlValue = number | string | Uint8Array | null;

/** A statement that hands out whole rows (sql.js's shape). */
export interface RowArrayStatement {
  step(): boolean;
  get(): SqlValue[];
  free(): void;
}

/** Cell types, SQLite's codes (sqlite3.h). */
export const CELL_INTEGER = 1;
export const CELL_FLOAT = 2;
export const CELL_TEXT = 3;
export const CELL_BLOB = 4;
export const CELL_NULL = 5;

export interface RowCursor {
  /** Moves to the next row; false after the last one. Throws SQLite's error message. */
  step(): boolean;
  /** The cell's type (CELL_*). */
  type(i: number): number;
  /** The cell as a double, whatever its type (call after `type` says it is a number). */
  double(i: number): number;
  /** The cell as a number if it is one (integers exact up to 2^53), else undefined. */
  number(i: number): number | undefined;
  /** The cell's value as a row array would hold it (for messages and rare cells). */
  value(i: number): SqlValue;
  /** The key of a text cell in `texts`, or -1 when the cell is not text. */
  textKey(i: number, texts: TextKeys): number;
  free(): void;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * Distinct texts by key (0, 1, 2, … in order of first sight). Texts are found by their UTF-8 bytes
 * (an open-addressing table of FNV-1a hashes over a pool of the bytes seen), so a repeated text
 * costs a hash and a compare, not a decode; `TextDecoder` runs once per distinct spelling.
 */
export class TextKeys {
  /** The texts, by key. */
  readonly values: string[] = [];
  private readonly byString = new Map<string, number>();
  private readonly decoder = new TextDecoder();
  /** Spellings (byte strings) seen, one entry each: bytes in the pool, hash, and the key of their text. */
  private entries = 0;
  private pool = new Uint8Array(1 << 16);
  /** Entry e's bytes are pool[offsets[e], offsets[e + 1]). */
  private offsets = new Uint32Array(1024);
  private hashes = new Uint32Array(1024);
  private keys = new Int32Array(1024);
  /** Open-addressing slots: entry + 1, 0 when empty; at most half full. */
  private slots = new Int32Array(2048);

  get size(): number {
    return this.values.length;
  }

  /** The key of the UTF-8 text `bytes[start, end)`. */
  keyOfBytes(bytes: Uint8Array, start: number, end: number): number {
    let h = FNV_OFFSET;
    for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, FNV_PRIME);
    h >>>= 0;
    const slots = this.slots;
    const mask = slots.length - 1;
    const length = end - start;
    const pool = this.pool;
    const offsets = this.offsets;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const e = slots[s]! - 1;
      if (e < 0) break;
      if (this.hashes[e] !== h) continue;
      const from = offsets[e]!;
      if (offsets[e + 1]! - from !== length) continue;
      let i = 0;
      while (i < length && pool[from + i] === bytes[start + i]) i++;
      if (i === length) return this.keys[e]!;
    }
    // Two spellings of one text (invalid UTF-8 decodes to U+FFFD) share its key: names compare as strings.
    const value = this.decoder.decode(bytes.subarray(start, end));
    const key = this.keyOfString(value);
    this.remember(bytes, start, end, h, key);
    return key;
  }

  /** The key of a text already decoded. */
  keyOfString(value: string): number {
    let key = this.byString.get(value);
    if (key === undefined) {
      key = this.values.length;
      this.values.push(value);
      this.byString.set(value, key);
    }
    return key;
  }

  private remember(bytes: Uint8Array, start: number, end: number, hash: number, key: number): void {
    const e = this.entries++;
    if (e + 2 > this.offsets.length) {
      this.offsets = grown(this.offsets, this.offsets.length * 2);
      this.hashes = grown(this.hashes, this.offsets.length);
      this.keys = grown(this.keys, this.offsets.length);
    }
    const from = this.offsets[e]!;
    const to = from + end - start;
    if (to > this.pool.length) this.pool = grown(this.pool, Math.max(this.pool.length * 2, to));
    this.pool.set(bytes.subarray(start, end), from);
    this.offsets[e + 1] = to;
    this.hashes[e] = hash;
    this.keys[e] = key;
    if (2 * this.entries > this.slots.length) {
      this.slots = new Int32Array(this.slots.length * 2);
      for (let i = 0; i < this.entries; i++) this.insertSlot(i, this.hashes[i]!);
    } else {
      this.insertSlot(e, hash);
    }
  }

  private insertSlot(entry: number, hash: number): void {
    const slots = this.slots;
    const mask = slots.length - 1;
    let s = hash & mask;
    while (slots[s] !== 0) s = (s + 1) & mask;
    slots[s] = entry + 1;
  }
}

function grown<T extends Uint8Array | Uint32Array | Int32Array>(a: T, length: number): T {
  const b = new (a.constructor as new (n: number) => T)(length);
  b.set(a);
  return b;
}

/** A cursor over a statement that hands out whole rows (sql.js): each row is read once, then served by cell. */
export function rowArrayCursor(st: RowArrayStatement): RowCursor {
  let row: SqlValue[] = [];
  return {
    step() {
      if (!st.step()) return false;
      row = st.get();
      return true;
    },
    type(i) {
      const v = row[i];
      return typeof v === 'number' ? (Number.isInteger(v) ? CELL_INTEGER : CELL_FLOAT) : typeof v === 'string' ? CELL_TEXT : v instanceof Uint8Array ? CELL_BLOB : CELL_NULL;
    },
    double(i) {
      return Number(row[i]);
    },
    number(i) {
      const v = row[i];
      return typeof v === 'number' ? v : undefined;
    },
    value(i) {
      return row[i] ?? null;
    },
    textKey(i, texts) {
      const v = row[i];
      return typeof v === 'string' ? texts.keyOfString(v) : -1;
    },
    free() {
      st.free();
    },
  };
}
