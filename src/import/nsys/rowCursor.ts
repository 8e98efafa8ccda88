/**
 * Reading query results cell by cell, without a row array or object per row: the importer's
 * per-row loops ask only for the cells a row's kind needs, as numbers where they are numbers, and
 * texts as small integer keys (the same text, the same key) that are decoded once per distinct text.
 * The paged engine serves it straight from SQLite's column API (pagedSqlite.ts); a database that only
 * hands out row arrays (sql.js, the whole-file load kept for benchmarks) is served by `rowArrayCursor`.
 */
import { BytesTable } from '../bytesTable.ts';

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

/**
 * Distinct texts by key (0, 1, 2, … in order of first sight). Texts are found by their UTF-8 bytes
 * (`BytesTable`), so a repeated text costs a hash and a compare, not a decode; `TextDecoder` runs
 * once per distinct spelling.
 */
export class TextKeys {
  /** The texts, by key. */
  readonly values: string[] = [];
  private readonly byString = new Map<string, number>();
  private readonly byBytes = new BytesTable();
  private readonly decoder = new TextDecoder();

  get size(): number {
    return this.values.length;
  }

  /** The key of the UTF-8 text `bytes[start, end)`. */
  keyOfBytes(bytes: Uint8Array, start: number, end: number): number {
    const known = this.byBytes.get(bytes, start, end);
    if (known >= 0) return known;
    // Two spellings of one text (invalid UTF-8 decodes to U+FFFD) share its key: names compare as strings.
    const key = this.keyOfString(this.decoder.decode(bytes.subarray(start, end)));
    this.byBytes.set(bytes, start, end, key);
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
