/**
 * What an nsys SQLite export contains. Tables are created lazily by `nsys export` and their columns
 * changed between Nsight Systems versions (2022 to 2026), so every query is built from what the
 * file actually has; this module answers "which table, which column" and reads the small lookup
 * tables (string ids, enums, metadata).
 */
import type { ReadDatabase as Database } from './pagedSqlite.ts';

export class Schema {
  private readonly tables = new Map<string, Set<string>>();

  /**
   * Reads the list of tables and their columns; throws if the file's schema cannot be read.
   * @param onError told when a lookup table cannot be read to its end (its rows before stay used).
   */
  constructor(
    private readonly db: Database,
    private readonly onError: (message: string) => void = () => {},
  ) {
    const list = db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')");
    const names: string[] = [];
    try {
      while (list.step()) names.push(String(list.get()[0]));
    } finally {
      list.free();
    }
    for (const name of names) {
      const columns = new Set<string>();
      const info = db.prepare(`PRAGMA table_info(${quoteId(name)})`);
      try {
        while (info.step()) columns.add(String(info.getAsObject().name));
      } finally {
        info.free();
      }
      this.tables.set(name, columns);
    }
  }

  get tableNames(): string[] {
    return [...this.tables.keys()];
  }

  has(table: string): boolean {
    return this.tables.has(table);
  }

  hasColumn(table: string, column: string): boolean {
    return this.tables.get(table)?.has(column) ?? false;
  }

  /** The first of `tables` the file has. */
  firstTable(...tables: string[]): string | undefined {
    return tables.find((t) => this.tables.has(t));
  }

  /** The first of `columns` that `table` has. */
  firstColumn(table: string, ...columns: string[]): string | undefined {
    return columns.find((c) => this.hasColumn(table, c));
  }

  /** Columns of `required` that `table` lacks. */
  missing(table: string, required: readonly string[]): string[] {
    return required.filter((c) => !this.hasColumn(table, c));
  }

  /** `column` if the table has it, else SQL NULL: lets one query serve several schema versions. */
  col(table: string, column: string, alias = column): string {
    return `${this.hasColumn(table, column) ? quoteId(column) : 'NULL'} AS ${quoteId(alias)}`;
  }

  /** Rows of a two-column (key, value) query on `table`, e.g. an enum or metadata table. */
  pairs(table: string, sql: string): Array<[unknown, unknown]> {
    return this.rows(table, sql).map((row) => [row[0], row[1]]);
  }

  /** Rows of a small query on `table`, each as its cells; what could not be read is reported. */
  rows(table: string, sql: string): unknown[][] {
    const out: unknown[][] = [];
    let st: ReturnType<Database['prepare']> | undefined;
    try {
      st = this.db.prepare(sql);
      while (st.step()) out.push(Array.from(st.get()));
    } catch (e) {
      this.onError(`table ${table}: could not read ${out.length === 0 ? 'any row' : `past row ${out.length}`} (${(e as Error).message})`);
    } finally {
      st?.free();
    }
    return out;
  }

  /**
   * An `ENUM_*` table as id -> symbol name (`name` column, e.g. 'NvtxMark'), or undefined when the
   * file has no such table (older exports, or `nsys export` run without enum tables).
   */
  enumNames(table: string): Map<number, string> | undefined {
    if (!this.has(table) || !this.hasColumn(table, 'id')) return undefined;
    const nameCol = this.firstColumn(table, 'name', 'label');
    if (!nameCol) return undefined;
    const map = new Map<number, string>();
    for (const [id, name] of this.pairs(table, `SELECT id, ${quoteId(nameCol)} FROM ${quoteId(table)}`)) {
      if (typeof id === 'number' && typeof name === 'string') map.set(id, name);
    }
    return map;
  }

  /** An `ENUM_*` table as id -> human label (`label` column, e.g. 'Host-to-Device'). */
  enumLabels(table: string): Map<number, string> | undefined {
    if (!this.has(table) || !this.hasColumn(table, 'id')) return undefined;
    const labelCol = this.firstColumn(table, 'label', 'name');
    if (!labelCol) return undefined;
    const map = new Map<number, string>();
    for (const [id, label] of this.pairs(table, `SELECT id, ${quoteId(labelCol)} FROM ${quoteId(table)}`)) {
      if (typeof id === 'number' && typeof label === 'string') map.set(id, label);
    }
    return map;
  }
}

/** An SQL identifier, quoted. */
export function quoteId(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Serialized GlobalId (nsys `globalTid` / `globalPid`): hardware id in bits 56-63, VM id in bits
 * 48-55, process id in bits 24-47, thread id in bits 0-23. Decoded in SQL: the hardware bits push the
 * value past 2^53, where a JavaScript number would lose the low (thread) bits.
 */
export function pidOf(column: string): string {
  return `((${column} >> 24) & 16777215)`;
}

export function tidOf(column: string): string {
  return `(${column} & 16777215)`;
}
