/**
 * Importer for Nsight Systems SQLite exports (`nsys export --type sqlite report.nsys-rep`).
 *
 * The file is read page by page where it lies (pagedSqlite.ts): only the pages the queries need, never
 * the whole file at once. Every query is built from the tables and columns the file actually has (exports of 2022 to
 * 2026 differ), a missing table or column is named in the load report, and everything else loads.
 * Rows are read one at a time through prepared statements.
 */
import type { DecodeContext, DecodeInput, Importer } from '../importer.ts';
import { NsysContext } from './context.ts';
import { cudaModelOf, decodeCuda } from './cuda.ts';
import { reportDiagnostics } from './diagnostics.ts';
import { decodeNvtx, emptyResourceNames } from './nvtx.ts';
import { Schema } from './schema.ts';
import { rowArrayCursor } from './rowCursor.ts';
import { openPagedDatabase, type RandomAccessFile, type ReadDatabase as Database } from './pagedSqlite.ts';

const SQLITE_MAGIC = 'SQLite format 3\u0000';

/** True if the bytes start with the 16-byte SQLite 3 header. */
export function isSqlite(head: Uint8Array): boolean {
  if (head.length < SQLITE_MAGIC.length) return false;
  for (let i = 0; i < SQLITE_MAGIC.length; i++) if (head[i] !== SQLITE_MAGIC.charCodeAt(i)) return false;
  return true;
}

export const nsysImporter: Importer = {
  id: 'nsys-sqlite',
  label: 'Nsight Systems SQLite export',
  extensions: ['sqlite', 'sqlite3', 'db'],
  // Any SQLite file is claimed: no other importer reads SQLite, and the table names an nsys export
  // starts with may lie beyond the first 64 KiB (the schema spreads over pages as tables are added).
  // One that is not an nsys export gets a clear message from decode() instead of "unknown format".
  sniff: isSqlite,
  decode: decodeNsys,
};

async function decodeNsys(input: DecodeInput, ctx: DecodeContext): Promise<void> {
  const b = ctx.builder;
  // Page by page from the file where it can be read at random (a File in the worker, a file in the
  // CLI); a compressed or downloaded export is gathered in memory first and read the same way.
  const file: RandomAccessFile = input.file && !ctx.options.nsysWholeFile ? input.file : memoryFile(await wholeFile(input));
  if (ctx.signal?.aborted) return;
  const truncation = truncationOf(input.head, file.size);
  if (truncation) b.report('error', `${truncation.message}; what can still be read is shown`);
  const readable = truncation ? wholePages(file, input.head, truncation) : file;

  let db: Database;
  try {
    db = ctx.options.nsysWholeFile ? await openWholeFile(readable) : await openPagedDatabase(readable, input.file?.onRead);
  } catch (e) {
    throw new Error(`${input.name}: ${(e as Error).message}`);
  }
  try {
    let schema: Schema;
    try {
      schema = new Schema(db, (message) => b.report('error', message));
    } catch (e) {
      throw new Error(
        truncation
          ? `${input.name}: ${truncation.message}; the list of its tables lies in the missing part, so none of them can be read (${(e as Error).message})`
          : `${input.name}: not a readable SQLite database (${(e as Error).message})`,
      );
    }
    if (!isNsysSchema(schema)) {
      const tables = schema.tableNames;
      throw new Error(
        `${input.name}: not an Nsight Systems export: no NVTX_EVENTS, CUPTI_ACTIVITY_KIND_*, StringIds or TARGET_INFO_* table ` +
          `(it has ${tables.length === 0 ? 'no tables' : `${tables.length} table(s): ${tables.slice(0, 8).join(', ')}${tables.length > 8 ? ', ...' : ''}`})`,
      );
    }
    const meta = readMetadata(schema);
    const clock = captureClock(schema, meta);
    b.setClock(clock.name, clock.origin);
    for (const [k, v] of Object.entries(describeCapture(schema, meta))) b.setProperty(k, v);
    reportDiagnostics(schema, b);

    const nsys = new NsysContext(db, schema, b, clock.timeBase, ctx.signal);
    if (!schema.has('NVTX_EVENTS')) b.report('info', 'no NVTX_EVENTS table: the capture has no NVTX events');
    const resourceNames = emptyResourceNames();
    const cuda = cudaModelOf(nsys, resourceNames);
    decodeNvtx(nsys, resourceNames, cuda);
    if (nsys.cancelled) return;
    decodeCuda(nsys, cuda);
    if (nsys.cancelled) return;
    cuda.finish();
    declareSpan(nsys);
    nsys.reportBadTimes();
  } finally {
    db.close();
  }
}

/** All chunks in one buffer (a gzipped or downloaded export); its size is known up front unless it was gzipped. */
async function wholeFile(input: DecodeInput): Promise<Uint8Array> {
  let buffer: Uint8Array;
  try {
    buffer = new Uint8Array(Math.max(input.size, 1024));
    let used = 0;
    for await (const chunk of input.chunks()) {
      if (used + chunk.length > buffer.length) {
        const grown = new Uint8Array(Math.max(buffer.length * 2, used + chunk.length));
        grown.set(buffer.subarray(0, used));
        buffer = grown;
      }
      buffer.set(chunk, used);
      used += chunk.length;
    }
    return buffer.subarray(0, used);
  } catch (e) {
    if (e instanceof RangeError) {
      throw new Error(
        `${input.name}: the ${(input.size / 1048576).toFixed(0)} MB compressed SQLite file does not fit in this browser's memory once decompressed; ` +
          `decompress it first (SQLite files are then read page by page), or open it with the nvtxview CLI`,
      );
    }
    throw e;
  }
}

/** The former engine: sql.js with the whole file copied into its heap (benchmark comparison). */
async function openWholeFile(file: RandomAccessFile): Promise<Database> {
  const { openDatabase } = await import('./sqlite.ts');
  const db = await openDatabase(file.readSync(0, file.size));
  return {
    prepare: (sql) => db.prepare(sql),
    cursor: (sql) => rowArrayCursor(db.prepare(sql)),
    close: () => db.close(),
  };
}

function memoryFile(bytes: Uint8Array): RandomAccessFile {
  return { size: bytes.length, readSync: (start, end) => bytes.subarray(start, Math.min(end, bytes.length)) };
}

interface Truncation {
  message: string;
  pageSize: number;
  /** Whole pages the file still has. */
  pages: number;
}

/** What is missing if the file is shorter than its SQLite header (in `head`) says, else undefined. */
function truncationOf(head: Uint8Array, size: number): Truncation | undefined {
  if (head.length < 100 || !isSqlite(head)) return undefined;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const rawPageSize = view.getUint16(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  const pageCount = view.getUint32(28);
  // The header's page count is valid only when "version-valid-for" matches the change counter.
  if (view.getUint32(92) !== view.getUint32(24) || pageCount === 0 || pageSize < 512) return undefined;
  const expected = pageSize * pageCount;
  if (size >= expected) return undefined;
  const percent = Math.floor((100 * size) / expected);
  return {
    message: `the file is truncated: its SQLite header says ${expected} bytes, but it has ${size} (the data ends at byte offset ${size}, ${percent}% of the file)`,
    pageSize,
    pages: Math.floor(size / pageSize),
  };
}

/**
 * A truncated file seen as its whole pages, with the header's page count made to match: SQLite
 * then reads every table whose pages survived and reports the others as damaged, instead of
 * refusing the whole file. Nothing is copied but the patched first block.
 */
function wholePages(file: RandomAccessFile, head: Uint8Array, t: Truncation): RandomAccessFile {
  if (t.pages === 0) return file;
  const size = t.pages * t.pageSize;
  const patched = head.slice(0, Math.min(head.length, size));
  new DataView(patched.buffer).setUint32(28, t.pages);
  return {
    size,
    readSync(start, end) {
      end = Math.min(end, size);
      if (start >= patched.length) return file.readSync(start, end);
      if (end <= patched.length) return patched.subarray(start, end);
      const out = new Uint8Array(end - start);
      out.set(patched.subarray(start));
      out.set(file.readSync(patched.length, end), patched.length - start);
      return out;
    },
  };
}

function isNsysSchema(schema: Schema): boolean {
  return schema.tableNames.some(
    (t) => t === 'NVTX_EVENTS' || t === 'StringIds' || t.startsWith('CUPTI_ACTIVITY_KIND_') || t.startsWith('TARGET_INFO_'),
  );
}

/** name -> values of the export and capture metadata tables (their names changed across versions). */
function readMetadata(schema: Schema): Map<string, string[]> {
  const meta = new Map<string, string[]>();
  for (const table of ['META_DATA_EXPORT', 'META_DATA_CAPTURE', 'EXPORT_META_DATA']) {
    if (!schema.has(table) || schema.missing(table, ['name', 'value']).length > 0) continue;
    for (const [k, v] of schema.pairs(table, `SELECT name, value FROM ${table}`)) {
      if (typeof k !== 'string') continue;
      const list = meta.get(k) ?? [];
      list.push(v === null ? '' : String(v));
      meta.set(k, list);
    }
  }
  return meta;
}

interface Clock {
  name: string;
  /** Absolute time of the decoder's zero, in ns of `name`. */
  origin: bigint;
  /** Subtracted from the file's timestamps (see NsysContext). */
  timeBase: bigint;
}

/**
 * nsys timestamps count ns from the session start, whose UTC time TARGET_INFO_SESSION_START_TIME
 * gives: the model's clock is then UTC (ns since the Unix epoch), so captures align. An export made
 * with timestamps normalized to UTC (EXPORT_PARAM_TIME_NORMALIZE) already holds epoch times; those
 * are rebased on the session start so that doubles hold them exactly.
 */
function captureClock(schema: Schema, meta: Map<string, string[]>): Clock {
  const table = schema.firstTable('TARGET_INFO_SESSION_START_TIME');
  let utc: bigint | undefined;
  if (table && schema.hasColumn(table, 'utcEpochNs')) {
    const [row] = schema.pairs(table, `SELECT CAST(utcEpochNs AS TEXT), 0 FROM ${table} LIMIT 1`);
    if (row && typeof row[0] === 'string' && /^\d+$/.test(row[0])) utc = BigInt(row[0]);
  }
  const normalized = meta.get('EXPORT_PARAM_TIME_NORMALIZE')?.[0] === 'true';
  if (utc === undefined) return { name: normalized ? 'UTC' : 'nsys session', origin: 0n, timeBase: 0n };
  return normalized ? { name: 'UTC', origin: utc, timeBase: utc } : { name: 'UTC', origin: utc, timeBase: 0n };
}

/** Facts worth showing about the capture. */
function describeCapture(schema: Schema, meta: Map<string, string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  const first = (k: string) => meta.get(k)?.[0];
  const product = first('EXPORT_PRODUCT_VERSION');
  if (product) out['Nsight Systems'] = product;
  const version = first('EXPORT_SCHEMA_VERSION');
  if (version) out['export schema'] = version;
  const command = first('PROCESS_0:COMMAND');
  if (command) {
    const args: string[] = [];
    for (let i = 0; first(`PROCESS_0:ARGUMENT_${i}`) !== undefined; i++) args.push(first(`PROCESS_0:ARGUMENT_${i}`)!);
    out.command = [command, ...args].join(' ');
  }
  const host = first('DEVICE_DISPLAY_NAME') ?? first('EXPORT_HOST');
  if (host) out.host = host;
  if (schema.has('TARGET_INFO_SESSION_START_TIME') && schema.hasColumn('TARGET_INFO_SESSION_START_TIME', 'utcTime')) {
    const [row] = schema.pairs('TARGET_INFO_SESSION_START_TIME', 'SELECT utcTime, 0 FROM TARGET_INFO_SESSION_START_TIME LIMIT 1');
    if (row && typeof row[0] === 'string') out['session start (UTC)'] = row[0];
  }
  if (schema.has('TARGET_INFO_GPU') && schema.hasColumn('TARGET_INFO_GPU', 'name')) {
    const names = schema.pairs('TARGET_INFO_GPU', 'SELECT name, 0 FROM TARGET_INFO_GPU').map(([n]) => String(n ?? ''));
    if (names.length > 0) out.GPUs = names.join(', ');
  }
  return out;
}

/** The session span from ANALYSIS_DETAILS, widened to every event read. */
function declareSpan(ctx: NsysContext): void {
  const span = ctx.sessionSpan();
  if (!span) return;
  ctx.builder.setCaptureSpan(Math.min(span[0], ctx.minT), Math.max(span[1], ctx.maxT));
}
