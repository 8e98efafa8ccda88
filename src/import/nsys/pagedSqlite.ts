/**
 * Reads an SQLite file page by page where it lies (a `File` in the worker, a file descriptor in
 * Node, or bytes already in memory) through the official SQLite WebAssembly build
 * (@sqlite.org/sqlite-wasm) and a read-only VFS of ours: SQLite asks for the pages a query needs,
 * and only those are read, through a bounded block cache. No copy of the file is made, so exports of
 * any size open, and memory beyond the model stays at the caches' bounds (SQLITE_CACHE_KIB + the
 * block cache).
 *
 * The same environment split as sqlite.ts: the `.wasm` file is an asset Vite emits next to the
 * bundle (the package resolves it from its own URL), and Node reads it from node_modules.
 */
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import type { RowArrayStatement, RowCursor, SqlValue, TextKeys } from './rowCursor.ts';

export type { SqlValue };

/** Synchronous random access to a file's bytes (SQLite's VFS calls are synchronous). */
export interface RandomAccessFile {
  readonly size: number;
  /** Bytes [start, end) of the file, end clamped to its size; fewer only at its end. */
  readSync(start: number, end: number): Uint8Array;
}

/** What the importer asks of an open database: sql.js's statement shape, which both engines serve. */
export interface ReadStatement extends RowArrayStatement {
  getAsObject(): Record<string, SqlValue>;
}

export interface ReadDatabase {
  prepare(sql: string): ReadStatement;
  /** The rows of `sql` cell by cell (rowCursor.ts): the importer's per-row loops. */
  cursor(sql: string): RowCursor;
  close(): void;
}

/** Bytes read from the file per request: SQLite reads one page at a time, far too small for FileReaderSync. */
const BLOCK_BYTES = 1 << 20;
/** Blocks kept (least recently used go first): 32 MiB. */
const CACHE_BLOCKS = 32;
/** SQLite's own page cache, in KiB. */
const SQLITE_CACHE_KIB = 32768;

type Sqlite3 = Awaited<ReturnType<typeof sqlite3InitModule>>;

let engine: Promise<PagedEngine> | undefined;

/** Opens `file` read-only; close the database when done. `onRead` is told the file bytes read so far. */
export async function openPagedDatabase(file: RandomAccessFile, onRead?: (bytes: number) => void): Promise<ReadDatabase> {
  engine ??= initSqlite().then((sqlite3) => new PagedEngine(sqlite3));
  const e = await engine.catch((err: unknown) => {
    engine = undefined;
    throw new Error(`could not load the SQLite engine (${(err as Error).message})`);
  });
  return e.open(file, onRead);
}

function isNode(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof p?.versions?.node === 'string';
}

/**
 * In Node the package reads its `.wasm` from node_modules. In the page and the worker its URL comes
 * from the bundler (`?url`): the package's own `new URL(..., import.meta.url)` breaks when the dev
 * server pre-bundles it.
 */
async function initSqlite(): Promise<Sqlite3> {
  if (isNode()) return sqlite3InitModule();
  const { default: url } = await import('@sqlite.org/sqlite-wasm/sqlite3.wasm?url');
  const init = sqlite3InitModule as unknown as (options: { locateFile(file: string): string }) => Promise<Sqlite3>;
  return init({ locateFile: () => url });
}

/**
 * SQLite's WebAssembly memory as bytes, the view made again only when a read reaches past it (the
 * memory grew: growing detaches the old buffer, whose view then has no bytes). The package's own
 * accessor asks the memory for its buffer on every call, which cost more than the cell read itself.
 */
class HeapBytes {
  private view: Uint8Array;

  constructor(private readonly wasm: Sqlite3['wasm']) {
    this.view = wasm.heap8u();
  }

  /** The memory as bytes, at least `end` of them. */
  upTo(end: number): Uint8Array {
    if (this.view.byteLength < end) this.view = this.wasm.heap8u();
    return this.view;
  }
}

/** A block cache over a file: reads whole blocks, keeps the most recently used ones. */
class BlockCache {
  private readonly blocks = new Map<number, Uint8Array>();
  bytesRead = 0;

  get size(): number {
    return this.file.size;
  }

  constructor(
    private readonly file: RandomAccessFile,
    private readonly onRead?: (bytes: number) => void,
  ) {}

  /** Copies [offset, offset + target.length) into `target`; returns the bytes that exist. */
  readInto(offset: number, target: Uint8Array): number {
    let done = 0;
    while (done < target.length) {
      const at = offset + done;
      if (at >= this.file.size) break;
      const index = Math.floor(at / BLOCK_BYTES);
      const block = this.block(index);
      const from = at - index * BLOCK_BYTES;
      if (from >= block.length) break;
      const n = Math.min(block.length - from, target.length - done);
      target.set(block.subarray(from, from + n), done);
      done += n;
    }
    return done;
  }

  private block(index: number): Uint8Array {
    let block = this.blocks.get(index);
    if (block) {
      // Most recently used last.
      this.blocks.delete(index);
      this.blocks.set(index, block);
      return block;
    }
    const start = index * BLOCK_BYTES;
    block = this.file.readSync(start, Math.min(this.file.size, start + BLOCK_BYTES));
    this.bytesRead += block.length;
    this.onRead?.(this.bytesRead);
    this.blocks.set(index, block);
    if (this.blocks.size > CACHE_BLOCKS) this.blocks.delete(this.blocks.keys().next().value!);
    return block;
  }
}

class PagedEngine {
  private readonly files = new Map<string, BlockCache>();
  /** Open file handles (sqlite3_file pointers) -> their cache. */
  private readonly handles = new Map<number, BlockCache>();
  private opened = 0;
  private readonly vfsName = 'nvtxview-paged';
  private readonly heap: HeapBytes;

  constructor(private readonly sqlite3: Sqlite3) {
    this.heap = new HeapBytes(sqlite3.wasm);
    // Errors reach the importer as exceptions, which it reports with the table they came from; the
    // library's own console warnings would only repeat them on the CLI's terminal.
    const config = sqlite3.config as unknown as Record<string, unknown>;
    for (const channel of ['warn', 'log', 'debug']) config[channel] = () => {};
    this.install();
  }

  open(file: RandomAccessFile, onRead?: (bytes: number) => void): ReadDatabase {
    const name = `capture-${++this.opened}`;
    this.files.set(name, new BlockCache(file, onRead));
    const { oo1 } = this.sqlite3;
    let db: InstanceType<typeof oo1.DB>;
    try {
      db = new oo1.DB({ filename: `file:${name}?immutable=1`, flags: 'r', vfs: this.vfsName });
    } catch (e) {
      this.files.delete(name);
      throw e;
    }
    const files = this.files;
    try {
      db.exec(`PRAGMA cache_size = -${SQLITE_CACHE_KIB}; PRAGMA temp_store = MEMORY;`);
    } catch {
      // A file whose header SQLite rejects still opens; its first query reports why.
    }
    return new PagedDatabase(this.sqlite3, this.heap, db as never, () => files.delete(name));
  }

  private install(): void {
    const { capi, wasm } = this.sqlite3;
    const io = new capi.sqlite3_io_methods();
    // Struct members the package's types leave out or mistype; names and values as in sqlite3.h.
    (io as unknown as { $iVersion: number }).$iVersion = 1;
    const vfs = new capi.sqlite3_vfs();
    const base = new capi.sqlite3_vfs(capi.sqlite3_vfs_find(null));
    vfs.$iVersion = 2;
    vfs.$szOsFile = (capi.sqlite3_file as unknown as { structInfo: { sizeof: number } }).structInfo.sizeof;
    vfs.$mxPathname = 1024;
    // Time and randomness (temp tables, random()) come from the default VFS.
    const withBase = vfs as unknown as Record<string, unknown>;
    const fromBase = base as unknown as Record<string, unknown>;
    for (const m of ['$xRandomness', '$xSleep', '$xCurrentTime', '$xCurrentTimeInt64', '$xGetLastError']) withBase[m] = fromBase[m];
    const handles = this.handles;
    const files = this.files;
    const heap = this.heap;
    const ok = capi.SQLITE_OK;
    this.sqlite3.vfs.installVfs({
      io: {
        struct: io,
        methods: {
          xClose: (pFile) => {
            handles.delete(pFile as number);
            return ok;
          },
          xRead: (pFile, pDest, n, offset) => {
            const cache = handles.get(pFile as number);
            if (!cache) return capi.SQLITE_IOERR_READ;
            const target = heap.upTo((pDest as number) + n).subarray(pDest as number, (pDest as number) + n);
            let got: number;
            try {
              got = cache.readInto(Number(offset), target);
            } catch {
              return capi.SQLITE_IOERR_READ;
            }
            if (got < n) {
              // Past the end (a truncated file): SQLite wants zeros and this code.
              target.fill(0, got);
              return capi.SQLITE_IOERR_SHORT_READ;
            }
            return ok;
          },
          xWrite: () => capi.SQLITE_READONLY,
          xTruncate: () => capi.SQLITE_READONLY,
          xSync: () => ok,
          xFileSize: (pFile, pSize) => {
            const cache = handles.get(pFile as number);
            wasm.poke64(pSize, BigInt(cache ? cache.size : 0));
            return ok;
          },
          xLock: () => ok,
          xUnlock: () => ok,
          xCheckReservedLock: (_pFile, pOut) => {
            wasm.poke32(pOut, 0);
            return ok;
          },
          xFileControl: () => capi.SQLITE_NOTFOUND,
          xSectorSize: (() => 4096) as never,
          xDeviceCharacteristics: (() => capi.SQLITE_IOCAP_IMMUTABLE) as never,
        },
      },
      vfs: {
        struct: vfs,
        name: this.vfsName,
        methods: {
          xOpen: (_pVfs, zName, pFile, _flags, pOutFlags) => {
            const name = zName ? (wasm.cstrToJs(zName) ?? '') : '';
            const cache = files.get(name);
            // Only the capture itself: journals and temp files have no business in a read-only open.
            if (!cache) return capi.SQLITE_CANTOPEN;
            const f = new capi.sqlite3_file(pFile);
            f.$pMethods = io.pointer!;
            f.dispose();
            handles.set(pFile as number, cache);
            if (pOutFlags) wasm.poke32(pOutFlags, capi.SQLITE_OPEN_READONLY);
            return ok;
          },
          xDelete: () => ok,
          xAccess: (_pVfs, _zName, _flags, pOut) => {
            wasm.poke32(pOut, 0);
            return ok;
          },
          xFullPathname: (_pVfs, zName, nOut, zOut) => {
            const n = wasm.cstrncpy(zOut, zName, nOut);
            return n < nOut ? ok : capi.SQLITE_CANTOPEN;
          },
        },
      },
    });
  }
}

/** Raw WebAssembly exports read per cell: the wrapped APIs check and convert every argument, which costs 3x per row. */
interface CellExports {
  sqlite3_step(stmt: number): number;
  sqlite3_column_count(stmt: number): number;
  sqlite3_column_type(stmt: number, i: number): number;
  sqlite3_column_double(stmt: number, i: number): number;
  sqlite3_column_text(stmt: number, i: number): number;
  sqlite3_column_blob(stmt: number, i: number): number;
  sqlite3_column_bytes(stmt: number, i: number): number;
  sqlite3_column_name(stmt: number, i: number): number;
}

const SQLITE_ROW = 100;
const SQLITE_DONE = 101;
const SQLITE_INTEGER = 1;
const SQLITE_FLOAT = 2;
const SQLITE_TEXT = 3;
const SQLITE_BLOB = 4;

/** One prepared statement read through the raw column API (rowCursor.ts). */
class PagedCursor implements RowCursor {
  readonly pointer: number;
  readonly count: number;
  private readonly cells: CellExports;

  constructor(
    private readonly sqlite3: Sqlite3,
    private readonly heap: HeapBytes,
    private readonly dbPointer: number,
    private readonly statement: { pointer?: number; finalize(): unknown },
    private readonly decoder: TextDecoder,
  ) {
    this.pointer = statement.pointer!;
    this.cells = sqlite3.wasm.exports as CellExports;
    this.count = this.cells.sqlite3_column_count(this.pointer);
  }

  step(): boolean {
    const rc = this.cells.sqlite3_step(this.pointer);
    if (rc === SQLITE_ROW) return true;
    if (rc === SQLITE_DONE) return false;
    throw new Error(this.sqlite3.capi.sqlite3_errmsg(this.dbPointer) ?? `SQLite error ${rc}`);
  }

  type(i: number): number {
    return this.cells.sqlite3_column_type(this.pointer, i);
  }

  double(i: number): number {
    return this.cells.sqlite3_column_double(this.pointer, i);
  }

  number(i: number): number | undefined {
    const type = this.cells.sqlite3_column_type(this.pointer, i);
    // Integers as doubles, as sql.js reads them: exact up to 2^53; the importer decodes wider fields in SQL.
    return type === SQLITE_INTEGER || type === SQLITE_FLOAT ? this.cells.sqlite3_column_double(this.pointer, i) : undefined;
  }

  value(i: number): SqlValue {
    const cells = this.cells;
    const pointer = this.pointer;
    switch (cells.sqlite3_column_type(pointer, i)) {
      case SQLITE_INTEGER:
      case SQLITE_FLOAT:
        return cells.sqlite3_column_double(pointer, i);
      case SQLITE_TEXT: {
        const ptr = cells.sqlite3_column_text(pointer, i);
        const n = cells.sqlite3_column_bytes(pointer, i);
        return n === 0 ? '' : this.decoder.decode(this.heap.upTo(ptr + n).subarray(ptr, ptr + n));
      }
      case SQLITE_BLOB: {
        const ptr = cells.sqlite3_column_blob(pointer, i);
        const n = cells.sqlite3_column_bytes(pointer, i);
        return this.heap.upTo(ptr + n).slice(ptr, ptr + n);
      }
      default:
        return null;
    }
  }

  textKey(i: number, texts: TextKeys): number {
    const cells = this.cells;
    if (cells.sqlite3_column_type(this.pointer, i) !== SQLITE_TEXT) return -1;
    const ptr = cells.sqlite3_column_text(this.pointer, i);
    const n = cells.sqlite3_column_bytes(this.pointer, i);
    return texts.keyOfBytes(this.heap.upTo(ptr + n), ptr, ptr + n);
  }

  free(): void {
    this.statement.finalize();
  }
}

/** The oo1 database behind the importer's statement shape. */
class PagedDatabase implements ReadDatabase {
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly sqlite3: Sqlite3,
    private readonly heap: HeapBytes,
    private readonly db: { pointer?: number; prepare(sql: string): { pointer?: number; finalize(): unknown }; exec(sql: string): unknown; close(): void },
    private readonly release: () => void,
  ) {}

  prepare(sql: string): ReadStatement {
    const c = this.cursor(sql);
    const count = c.count;
    const { wasm } = this.sqlite3;
    const cells = wasm.exports as CellExports;
    return {
      step: () => c.step(),
      get(): SqlValue[] {
        const row = new Array<SqlValue>(count);
        for (let i = 0; i < count; i++) row[i] = c.value(i);
        return row;
      },
      getAsObject(): Record<string, SqlValue> {
        const row: Record<string, SqlValue> = {};
        for (let i = 0; i < count; i++) row[wasm.cstrToJs(cells.sqlite3_column_name(c.pointer, i)) ?? String(i)] = c.value(i);
        return row;
      },
      free: () => c.free(),
    };
  }

  cursor(sql: string): PagedCursor {
    const st = this.db.prepare(sql);
    return new PagedCursor(this.sqlite3, this.heap, this.db.pointer!, st, this.decoder);
  }

  close(): void {
    try {
      this.db.close();
    } finally {
      this.release();
    }
  }
}
