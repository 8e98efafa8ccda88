/**
 * Nsight Systems exports changed through SQL rather than bytes: values of the columns the importer
 * reads replaced by extreme REALs (±1e308, ±Inf), the int64 edges, NULL, text and blobs; rows
 * deleted or repeated; tables or columns dropped; and crafted databases that have the export's
 * table names with few, misnamed or mistyped columns. The database stays a valid SQLite file, so
 * the decoder's own logic is what gets exercised.
 */
import type { Database } from 'sql.js';
import type { Random } from '../gen/random.ts';
import { openDatabase } from '../../src/import/nsys/sqlite.ts';

/** SQL literals for a replaced value (9e999 is +Infinity as an SQLite REAL). */
const VALUES = [
  'NULL',
  '9e999',
  '-9e999',
  '1e308',
  '-1e308',
  '9223372036854775807',
  '-9223372036854775808',
  '-1',
  '0',
  '0.5',
  '4503599627370497',
  "'text'",
  "'<img src=x onerror=alert(1)>'",
  "x'00ff'",
  "''",
];

const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;

function tables(db: Database): string[] {
  const result = db.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
  return result.length === 0 ? [] : result[0].values.map((row) => String(row[0]));
}

function columns(db: Database, table: string): string[] {
  const result = db.exec(`PRAGMA table_info(${quoteName(table)})`);
  return result.length === 0 ? [] : result[0].values.map((row) => String(row[1]));
}

function rowCount(db: Database, table: string): number {
  return Number(db.exec(`SELECT count(*) FROM ${quoteName(table)}`)[0].values[0][0]);
}

/** Tables holding events are where most mutations go: that is what the decoder walks. */
function pickTable(db: Database, rnd: Random): string | undefined {
  const all = tables(db);
  if (all.length === 0) return undefined;
  const events = all.filter((t) => /NVTX_EVENTS|CUPTI_ACTIVITY|OSRT|StringIds|ThreadNames|PROCESSES|TARGET_INFO/.test(t));
  return rnd.pick(events.length > 0 && rnd.chance(0.8) ? events : all);
}

type Edit = (db: Database, rnd: Random) => void;

const setValues: Edit = (db, rnd) => {
  const table = pickTable(db, rnd);
  if (!table) return;
  const cols = columns(db, table);
  const timeCols = cols.filter((c) => /^(start|end|timestamp|globalTid|eventType|rangeId|textId|domainId|category|value|id)$/i.test(c));
  const col = rnd.pick(timeCols.length > 0 && rnd.chance(0.7) ? timeCols : cols);
  const n = rowCount(db, table);
  if (n === 0) return;
  const value = rnd.pick(VALUES);
  // Some rows, or (rarely) the whole column.
  const where = rnd.chance(0.1) ? '' : ` WHERE rowid IN (SELECT rowid FROM ${quoteName(table)} LIMIT ${rnd.int(1, 5)} OFFSET ${rnd.int(0, n - 1)})`;
  db.run(`UPDATE ${quoteName(table)} SET ${quoteName(col)} = ${value}${where}`);
};

const deleteRows: Edit = (db, rnd) => {
  const table = pickTable(db, rnd);
  if (!table) return;
  const n = rowCount(db, table);
  if (n === 0) return;
  db.run(`DELETE FROM ${quoteName(table)} WHERE rowid IN (SELECT rowid FROM ${quoteName(table)} LIMIT ${rnd.int(1, Math.max(1, n >> 2))} OFFSET ${rnd.int(0, n - 1)})`);
};

const repeatRows: Edit = (db, rnd) => {
  const table = pickTable(db, rnd);
  if (!table) return;
  const n = rowCount(db, table);
  if (n === 0) return;
  try {
    db.run(`INSERT INTO ${quoteName(table)} SELECT * FROM ${quoteName(table)} LIMIT ${rnd.int(1, 50)} OFFSET ${rnd.int(0, n - 1)}`);
  } catch {
    // A primary key refuses the copy: the case goes on with the other edits.
  }
};

const dropTable: Edit = (db, rnd) => {
  const table = pickTable(db, rnd);
  if (table) db.run(`DROP TABLE ${quoteName(table)}`);
};

const dropColumn: Edit = (db, rnd) => {
  const table = pickTable(db, rnd);
  if (!table) return;
  const cols = columns(db, table);
  if (cols.length < 2) return;
  try {
    db.run(`ALTER TABLE ${quoteName(table)} DROP COLUMN ${quoteName(rnd.pick(cols))}`);
  } catch {
    // Key and indexed columns cannot be dropped.
  }
};

const EDITS: readonly Edit[] = [setValues, setValues, setValues, setValues, deleteRows, repeatRows, dropTable, dropColumn];

/** A copy of `input` (an SQLite export) with 1 to 4 SQL edits. */
export async function sqlMutate(input: Uint8Array, rnd: Random): Promise<Uint8Array> {
  const db = await openDatabase(input);
  try {
    for (let k = rnd.int(1, 4); k > 0; k--) {
      try {
        rnd.pick(EDITS)(db, rnd);
      } catch {
        // An edit SQLite refuses (constraint, type): the others still apply.
      }
    }
    return db.export();
  } finally {
    db.close();
  }
}

/** Table shapes an importer may meet: the export's names with odd column sets. */
const CRAFTED_TABLES: Record<string, string[]> = {
  NVTX_EVENTS: ['start', 'end', 'eventType', 'rangeId', 'category', 'color', 'text', 'globalTid', 'endGlobalTid', 'textId', 'domainId', 'uint64Value', 'int64Value', 'doubleValue', 'uint32Value', 'int32Value', 'floatValue', 'jsonTextId', 'jsonText'],
  StringIds: ['id', 'value'],
  ThreadNames: ['nameId', 'priority', 'globalTid'],
  PROCESSES: ['globalPid', 'pid', 'name'],
  CUPTI_ACTIVITY_KIND_KERNEL: ['start', 'end', 'deviceId', 'contextId', 'streamId', 'correlationId', 'globalPid', 'demangledName', 'shortName'],
  CUPTI_ACTIVITY_KIND_RUNTIME: ['start', 'end', 'eventClass', 'globalTid', 'correlationId', 'nameId', 'returnValue', 'callchainId'],
  TARGET_INFO_SESSION_START_TIME: ['utcEpochNs', 'utcTime', 'localTime'],
  META_DATA_EXPORT: ['name', 'value'],
  ANALYSIS_DETAILS: ['globalVid', 'duration', 'startTime', 'stopTime'],
};

/** A new database with some of the export's tables, some of their columns, and odd rows. */
export async function craftDatabase(rnd: Random): Promise<Uint8Array> {
  const db = await openDatabase(new Uint8Array(0));
  try {
    const names = Object.keys(CRAFTED_TABLES).filter(() => rnd.chance(0.6));
    if (!names.includes('NVTX_EVENTS') && rnd.chance(0.8)) names.push('NVTX_EVENTS');
    for (const table of names) {
      const cols = CRAFTED_TABLES[table].filter((_, k) => k < 2 || rnd.chance(0.85));
      const type = () => rnd.pick(['INTEGER', 'REAL', 'TEXT', 'BLOB', '']);
      db.run(`CREATE TABLE ${table} (${cols.map((c) => `${c} ${type()}`).join(', ')})`);
      const rows = rnd.int(0, 300);
      for (let k = 0; k < rows; k++) {
        const values = cols.map((c) => {
          if (rnd.chance(0.25)) return rnd.pick(VALUES);
          if (c === 'eventType') return String(rnd.pick([33, 34, 59, 60, 75, 76, 77, 78, 79, 80, 97, 98, 99, rnd.int(0, 200)]));
          if (c === 'start' || c === 'end') return String(rnd.int(0, 1e9));
          if (c === 'text' || c === 'value' || c === 'name') return `'s${rnd.int(0, 50)}'`;
          return String(rnd.int(-2, 1 << 20));
        });
        db.run(`INSERT INTO ${table} VALUES (${values.join(', ')})`);
      }
    }
    return db.export();
  } finally {
    db.close();
  }
}
