/**
 * What the nsys table decoders share while loading one export: the database and its schema, the
 * builder, string ids, process and thread names, and row iteration that reports (and survives) a
 * damaged table.
 */
import { isOutOfMemory, type ModelBuilder } from '../../model/builder.ts';
import type { StringId } from '../../model/types.ts';
import { pidOf, quoteId, tidOf, type Schema } from './schema.ts';
import type { ReadDatabase as Database, SqlValue } from './pagedSqlite.ts';
import { CELL_FLOAT, CELL_INTEGER, CELL_NULL, type RowCursor } from './rowCursor.ts';

export type Row = SqlValue[];

/** Rows between checks of the cancel signal. */
const CANCEL_CHECK_ROWS = 16384;

/** Bad times reported one by one per table; the rest are counted in one message. */
const BAD_TIMES_NAMED = 5;

/** Farthest a time may lie from 0 (the session start): beyond 2^53 ns a double is no longer exact. */
const TIME_LIMIT = Number.MAX_SAFE_INTEGER;

/** Slack around the session span (ANALYSIS_DETAILS) inside which times are believed: the span's length, at least a minute. */
const MIN_SESSION_SLACK_NS = 60e9;

export class NsysContext {
  private strings: Map<number, string> | undefined;
  /** Builder string id + 1 per StringIds id (0: not interned yet); other ids (far past the table's size, not integers) use `internedFar`. */
  private interned = new Uint32Array(1024);
  private readonly internedFar = new Map<number, StringId>();
  private readonly threadNameIds = new Map<number, number>();
  private readonly processNames = new Map<number, string>();
  private readonly threadIndex = new Map<number, number>();
  private readonly processIndex = new Map<number, number>();
  private readonly processOfThread: number[] = [];
  /** Earliest and latest time fed to the builder, in nsys ns. */
  minT = Infinity;
  maxT = -Infinity;
  /** Times outside [lowT, highT] are not believed (see `checkTime`). */
  private lowT = -TIME_LIMIT;
  private highT = TIME_LIMIT;
  private readonly badTimes = new Map<string, number>();

  /**
   * @param timeBase subtracted from every timestamp in SQL (exact 64-bit integer arithmetic), so
   *   that exports with absolute (UTC-epoch) timestamps still give times a double holds exactly.
   */
  constructor(
    readonly db: Database,
    readonly schema: Schema,
    readonly builder: ModelBuilder,
    readonly timeBase: bigint,
    readonly signal?: AbortSignal,
  ) {
    this.loadNames();
    this.readSessionSpan();
  }

  /**
   * A timestamp cell as a model time, or undefined after reporting it (table, row id, column, value)
   * when it is not a finite number within the session: such a row is skipped, so that one absurd
   * value (a REAL ±inf or 1e308, INT64_MIN) neither fails the load nor moves every other event.
   * Only the first few per table are named; `reportBadTimes` counts the rest.
   */
  checkTime(table: string, rowid: unknown, column: string, value: unknown): number | undefined {
    if (typeof value === 'number' && value >= this.lowT && value <= this.highT) return Math.round(value);
    if (value === null || value === undefined) return undefined;
    const n = (this.badTimes.get(table) ?? 0) + 1;
    this.badTimes.set(table, n);
    if (n <= BAD_TIMES_NAMED) {
      const why = typeof value !== 'number' ? `is not a number (${JSON.stringify(String(value).slice(0, 40))})` : !Number.isFinite(value) ? `is ${value}` : `is ${value}, outside the session (${this.lowT} to ${this.highT} ns)`;
      this.builder.report('error', `table ${table} row ${String(rowid)}: ${column} ${why}; the row is skipped`);
    }
    return undefined;
  }

  /** One message per table for the bad times beyond the first few named ones. */
  reportBadTimes(): void {
    for (const [table, n] of this.badTimes) {
      if (n > BAD_TIMES_NAMED) {
        this.builder.report('error', `table ${table}: and ${n - BAD_TIMES_NAMED} more row(s) with a time that is not finite or lies outside the session; skipped`);
      }
    }
    this.badTimes.clear();
  }

  /** Narrows the believed times to the session span (ANALYSIS_DETAILS) with slack, when the export gives a sane one. */
  private readSessionSpan(): void {
    const span = this.sessionSpan();
    if (!span) return;
    const slack = Math.max(span[1] - span[0], MIN_SESSION_SLACK_NS);
    this.lowT = Math.max(-TIME_LIMIT, span[0] - slack);
    this.highT = Math.min(TIME_LIMIT, span[1] + slack);
  }

  /** The session span's start and stop when the export gives a sane one. */
  sessionSpan(): [number, number] | undefined {
    const t = 'ANALYSIS_DETAILS';
    if (!this.schema.has(t) || this.schema.missing(t, ['startTime', 'stopTime']).length > 0) return undefined;
    const [row] = this.schema.pairs(t, `SELECT ${this.time('startTime')}, ${this.time('stopTime')} FROM ${t} LIMIT 1`);
    const [start, stop] = row ?? [];
    if (typeof start !== 'number' || typeof stop !== 'number' || !(start >= -TIME_LIMIT && stop <= TIME_LIMIT && start <= stop)) return undefined;
    return [start, stop];
  }

  /** SQL for a timestamp column relative to `timeBase`. */
  time(column: string): string {
    return this.timeBase === 0n ? column : `(${column} - ${this.timeBase.toString()})`;
  }

  get cancelled(): boolean {
    return this.signal?.aborted ?? false;
  }

  seeTime(t: number): void {
    if (t < this.minT) this.minT = t;
    if (t > this.maxT) this.maxT = t;
  }

  /**
   * Runs `sql` and hands each row to `onRow`. A table that cannot be read to its end (a truncated
   * or damaged file) is reported with the number of rows read; the rows before stay loaded.
   * Returns the number of rows read.
   */
  each(table: string, sql: string, onRow: (row: Row) => void): number {
    return this.read(table, () => this.db.prepare(sql), (st) => onRow(st.get()));
  }

  /**
   * `each` for the big tables: `onRow` reads the cells it needs from the cursor (rowCursor.ts), so
   * that no row array is made and unused cells are never read.
   */
  scan(table: string, sql: string, onRow: (row: RowCursor) => void): number {
    return this.read(table, () => this.db.cursor(sql), onRow);
  }

  /**
   * A time cell as a model time (see `checkTime`), read straight from the cursor; `rowidColumn` is
   * read only to name a bad row.
   */
  timeAt(table: string, r: RowCursor, i: number, column: string, rowidColumn: number): number | undefined {
    const type = r.type(i);
    if (type === CELL_INTEGER || type === CELL_FLOAT) {
      const v = r.double(i);
      if (v >= this.lowT && v <= this.highT) return Math.round(v);
      return this.checkTime(table, r.value(rowidColumn), column, v);
    }
    if (type === CELL_NULL) return undefined;
    return this.checkTime(table, r.value(rowidColumn), column, r.value(i));
  }

  private read<S extends { step(): boolean; free(): void }>(table: string, open: () => S, onRow: (st: S) => void): number {
    let n = 0;
    let st: S | undefined;
    try {
      st = open();
      while (st.step()) {
        onRow(st);
        if (++n % CANCEL_CHECK_ROWS === 0) {
          if (this.cancelled) break;
          this.builder.checkBudget();
        }
      }
    } catch (e) {
      // Memory ran out: the whole load stops there (src/import/pipeline.ts says where).
      if (isOutOfMemory(e)) {
        this.builder.report('info', `table ${table}: ${n} rows read when memory ran out`);
        throw e;
      }
      this.builder.report(
        'error',
        `table ${table}: could not read ${n === 0 ? 'any row' : `past row ${n}`} (${(e as Error).message}); ` +
          (n === 0 ? 'nothing of it is shown' : `the first ${n} rows are shown`),
      );
    } finally {
      st?.free();
    }
    return n;
  }

  /** A StringIds value, or undefined for an unknown id. */
  string(id: unknown): string | undefined {
    if (typeof id !== 'number') return undefined;
    if (!this.strings) {
      this.strings = new Map();
      if (this.schema.has('StringIds')) {
        const strings = this.strings;
        this.scan('StringIds', 'SELECT id, value FROM StringIds', (r) => {
          const id = r.number(0);
          if (id !== undefined) strings.set(id, String(r.value(1) ?? ''));
        });
      }
    }
    return this.strings.get(id);
  }

  /** Number of StringIds rows read. */
  private stringCount(): number {
    this.string(0);
    return this.strings!.size;
  }

  /** A StringIds value interned in the builder (cached by id in a typed array: cheap in per-row loops). */
  stringId(id: unknown): StringId | undefined {
    if (typeof id !== 'number') return undefined;
    if (id >= 0 && id < this.interned.length && this.interned[id] !== 0) return (this.interned[id]! - 1) as StringId;
    // Dense while the id is within reach of the table's size (StringIds ids count from 0), so that
    // one absurd id in a damaged file does not size the array.
    const small = id >= 0 && Number.isInteger(id) && id < Math.max(1024, 2 * this.stringCount());
    let s = small ? undefined : this.internedFar.get(id);
    if (s === undefined) {
      const value = this.string(id);
      if (value === undefined) return undefined;
      s = this.builder.intern(value, 'name', { record: `StringIds id ${id}` });
      if (!small) this.internedFar.set(id, s);
      else {
        if (id >= this.interned.length) {
          const grown = new Uint32Array(Math.max(this.interned.length * 2, id + 1));
          grown.set(this.interned);
          this.interned = grown;
        }
        this.interned[id] = s + 1;
      }
    }
    return s;
  }

  /** Builder index of a process, named from PROCESSES when the export has it. */
  process(pid: number): number {
    let p = this.processIndex.get(pid);
    if (p === undefined) {
      p = this.builder.process(pid, this.processNames.get(pid), { record: `PROCESSES, globalPid ${pid}` });
      this.processIndex.set(pid, p);
    }
    return p;
  }

  /** Builder index of a thread, named from ThreadNames when the export has it. */
  thread(pid: number, tid: number): number {
    const key = pid * 16777216 + tid;
    let t = this.threadIndex.get(key);
    if (t === undefined) {
      this.process(pid);
      const nameId = this.threadNameIds.get(key);
      t = this.builder.thread(pid, tid, nameId === undefined ? undefined : this.string(nameId), nameId === undefined ? undefined : { record: `StringIds id ${String(nameId)}` });
      this.threadIndex.set(key, t);
      this.processOfThread[t] = this.process(pid);
    }
    return t;
  }

  /** Builder process index of a builder thread index made by `thread()`. */
  processOf(thread: number): number {
    return this.processOfThread[thread] ?? -1;
  }

  private loadNames(): void {
    const s = this.schema;
    if (s.has('PROCESSES') && s.hasColumn('PROCESSES', 'name')) {
      const pid = s.hasColumn('PROCESSES', 'pid') ? 'pid' : s.hasColumn('PROCESSES', 'globalPid') ? pidOf('globalPid') : undefined;
      if (pid) {
        this.each('PROCESSES', `SELECT ${pid}, name FROM PROCESSES`, (row) => {
          if (typeof row[0] === 'number' && typeof row[1] === 'string' && row[1] !== '') this.processNames.set(row[0], row[1]);
        });
      }
    }
    const tn = 'ThreadNames';
    if (s.has(tn) && s.missing(tn, ['nameId', 'globalTid']).length === 0) {
      // Later rows win: a thread renamed during the capture shows its last name.
      this.each(tn, `SELECT ${pidOf('globalTid')}, ${tidOf('globalTid')}, nameId FROM ${quoteId(tn)} ORDER BY rowid`, (row) => {
        if (typeof row[0] === 'number' && typeof row[1] === 'number' && typeof row[2] === 'number') {
          this.threadNameIds.set(row[0] * 16777216 + row[1], row[2]);
        }
      });
    }
  }
}

/** A number from a row cell, or undefined for NULL / non-numbers. */
export function num(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}
