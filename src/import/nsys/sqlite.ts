/**
 * SQLite held whole in memory (sql.js, compiled to WebAssembly), from our own build and never a CDN:
 * for writing exports (tests, the generator) and the former whole-file load kept for side-by-side
 * benchmarks (`DecodeOptions.nsysWholeFile`). Exports are read page by page through pagedSqlite.ts.
 * In the page and the worker the
 * `.wasm` file is an asset Vite emits next to the bundle (a relative URL, so `dist/` works from any
 * sub-path); in Node (CLI, tests, benchmarks) it is read from node_modules.
 */
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';

export type { Database, Statement } from 'sql.js';

let engine: Promise<SqlJsStatic> | undefined;

function isNode(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof p?.versions?.node === 'string';
}

async function nodeWasm(): Promise<Uint8Array> {
  // Variable specifiers keep the bundler from trying to resolve Node built-ins for the browser.
  const fsModule = 'node:fs/promises';
  const moduleModule = 'node:module';
  const { readFile } = (await import(/* @vite-ignore */ fsModule)) as typeof import('node:fs/promises');
  const { createRequire } = (await import(/* @vite-ignore */ moduleModule)) as typeof import('node:module');
  return readFile(createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm'));
}

async function browserWasm(): Promise<ArrayBuffer> {
  const { default: url } = await import('sql.js/dist/sql-wasm.wasm?url');
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not load the SQLite engine (${url}: HTTP ${response.status})`);
  return response.arrayBuffer();
}

function sqlEngine(): Promise<SqlJsStatic> {
  engine ??= (async () => {
    const wasm = isNode() ? await nodeWasm() : await browserWasm();
    return initSqlJs({ wasmBinary: wasm as ArrayBuffer });
  })().catch((e: unknown) => {
    engine = undefined;
    throw e;
  });
  return engine;
}

/**
 * Opens an SQLite file held in memory. SQLite needs the whole file at once; the engine copies it
 * into its own heap, so a file needs about twice its size in memory while it is open.
 * Close the database when done (`db.close()`) to give that memory back.
 */
export async function openDatabase(bytes: Uint8Array): Promise<Database> {
  const SQL = await sqlEngine();
  try {
    return new SQL.Database(bytes);
  } catch (e) {
    const mb = (bytes.length / 1048576).toFixed(0);
    throw new Error(
      `could not open the ${mb} MB SQLite file (${(e as Error).message}); it may be too big for this browser's memory`,
    );
  }
}
