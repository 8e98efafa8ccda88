/**
 * Builds small Nsight Systems-like SQLite exports in memory, for tests and benchmarks: the tables
 * and column names of `nsys export --type sqlite` (Nsight Systems 2025.1, schema 3.17), or an older
 * layout without enum tables and with the old metadata table name. Only what nvtxview reads.
 */
import { BUILTIN_EVENT_TYPES } from '../../src/import/nsys/eventTypes.ts';
import { openDatabase, type Database } from '../../src/import/nsys/sqlite.ts';

export interface NvtxRow {
  start: number;
  end?: number;
  type: number;
  pid: number;
  tid: number;
  endPid?: number;
  endTid?: number;
  text?: string;
  /** Index into `strings` (registered string). */
  textId?: number;
  domainId?: number;
  category?: number;
  color?: number;
  rangeId?: number;
  int64?: bigint;
  uint64?: bigint;
  double?: number;
  float?: number;
  uint32?: number;
  int32?: number;
  jsonText?: string;
  binary?: boolean;
}

export interface ApiRow {
  start: number;
  end: number;
  pid: number;
  tid: number;
  correlationId: number;
  name: string;
  /** ENUM_NSYS_EVENT_CLASS: 0 runtime (default), 1 driver. */
  eventClass?: number;
  returnValue?: number;
}

export interface GpuRow {
  start: number;
  end: number;
  pid: number;
  device?: number;
  stream?: number;
  correlationId: number;
  /** Kernel name (kernels only). */
  name?: string;
  /** Memcpy copyKind / synchronization syncType. */
  kind?: number;
  bytes?: number;
}

export interface ExportSpec {
  /** 'modern' (default): 2025.1 layout with enum tables; 'old': no enum tables, EXPORT_META_DATA. */
  layout?: 'modern' | 'old';
  /** Hardware id put in bits 56-63 of every GlobalId (pushes values past 2^53). */
  hardwareId?: number;
  /** VM id in bits 48-55 (real exports: 1). */
  vmId?: number;
  strings?: string[];
  processes?: Array<[pid: number, name: string]>;
  threads?: Array<[pid: number, tid: number, name: string]>;
  nvtx?: NvtxRow[];
  runtime?: ApiRow[];
  /** A separate driver API table (only if the export has one). */
  driver?: ApiRow[];
  kernels?: GpuRow[];
  memcpy?: GpuRow[];
  memset?: GpuRow[];
  sync?: GpuRow[];
  gpus?: Array<{ id: number; name: string }>;
  /** TARGET_INFO_CUDA_STREAM rows: [pid, streamId, flag]; flag 3 = the NULL (default) stream. */
  streams?: Array<[pid: number, stream: number, flag: number]>;
  /**
   * Names given with nvtxNameCuda*, in the TARGET_INFO_NVTX_CUDA_* tables of Nsight Systems 2025.x
   * (schema 3.20); the tables exist only when given.
   */
  cudaNames?: {
    devices?: Array<[device: number, name: string]>;
    contexts?: Array<[pid: number, device: number, context: number, name: string]>;
    streams?: Array<[pid: number, device: number, context: number, stream: number, name: string]>;
  };
  /** TARGET_INFO_SESSION_START_TIME.utcEpochNs. */
  sessionStartUtcNs?: bigint;
  /** ANALYSIS_DETAILS start and stop. */
  span?: [number, number];
  /** Name/value rows of the export metadata table. */
  metadata?: Array<[string, string]>;
  /**
   * DIAGNOSTIC_EVENT rows as Nsight Systems 2025 writes them (severity 1 info, 2 warning, 3 error;
   * the text inline); pid 0: a session-level note (globalPid of the session). The table exists only when given.
   */
  diagnostics?: Array<{ timestamp: number; severity: number; text: string | number; pid: number }>;
}

/** Returns the bytes of a new SQLite file holding `spec`. */
export async function buildExport(spec: ExportSpec): Promise<Uint8Array> {
  const db = await openDatabase(new Uint8Array(0));
  try {
    fill(db, spec);
    return db.export();
  } finally {
    db.close();
  }
}

function fill(db: Database, spec: ExportSpec): void {
  const modern = (spec.layout ?? 'modern') === 'modern';
  const hw = spec.hardwareId ?? 0;
  const vm = spec.vmId ?? 1;
  // A GlobalId from small parts, computed by SQLite so that it stays exact above 2^53.
  const gid = `((${hw} << 56) | (${vm} << 48) | (? << 24) | ?)`;
  const strings = [...(spec.strings ?? [])];
  const stringId = (s: string): number => {
    let i = strings.indexOf(s);
    if (i < 0) i = strings.push(s) - 1;
    return i;
  };

  db.run('CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL)');
  db.run('CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT)');
  db.run('CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER)');
  db.run(
    `CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER,
      category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,
      domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER,
      int32Value INTEGER, floatValue REAL${modern ? ', jsonTextId INTEGER, jsonText TEXT, binaryData TEXT' : ''})`,
  );
  const apiColumns = `start INTEGER NOT NULL, end INTEGER NOT NULL, ${modern ? 'eventClass INTEGER NOT NULL, ' : ''}globalTid INTEGER,
      correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER`;
  db.run(`CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (${apiColumns})`);
  if (spec.driver) db.run(`CREATE TABLE CUPTI_ACTIVITY_KIND_DRIVER (${apiColumns})`);
  const gpuColumns = `start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,
      streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER`;
  db.run(
    `CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (${gpuColumns}, demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL,
      gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER, blockZ INTEGER,
      registersPerThread INTEGER, staticSharedMemory INTEGER, dynamicSharedMemory INTEGER)`,
  );
  db.run(`CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (${gpuColumns}, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL)`);
  db.run(`CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (${gpuColumns}, value INTEGER NOT NULL, bytes INTEGER NOT NULL)`);
  db.run(`CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (${gpuColumns}, syncType INTEGER NOT NULL)`);
  db.run('CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, cuDevice INTEGER)');
  db.run(
    'CREATE TABLE TARGET_INFO_CUDA_STREAM (streamId INTEGER NOT NULL, hwId INTEGER NOT NULL, vmId INTEGER NOT NULL, processId INTEGER NOT NULL, contextId INTEGER NOT NULL, priority INTEGER NOT NULL, flag INTEGER NOT NULL)',
  );
  db.run('CREATE TABLE ANALYSIS_DETAILS (globalVid INTEGER NOT NULL, duration INTEGER NOT NULL, startTime INTEGER NOT NULL, stopTime INTEGER NOT NULL)');
  const metaTable = modern ? 'META_DATA_EXPORT' : 'EXPORT_META_DATA';
  db.run(`CREATE TABLE ${metaTable} (name TEXT NOT NULL, value TEXT)`);
  if (modern) {
    db.run('CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT)');
    db.run('CREATE TABLE ENUM_NSYS_EVENT_TYPE (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT)');
    for (const [id, name] of EVENT_TYPES) db.run('INSERT INTO ENUM_NSYS_EVENT_TYPE VALUES (?, ?, ?)', [id, name, name]);
    db.run('CREATE TABLE ENUM_NSYS_EVENT_CLASS (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT)');
    db.run("INSERT INTO ENUM_NSYS_EVENT_CLASS VALUES (0, 'TRACE_PROCESS_EVENT_CUDA_RUNTIME', 'CUDA runtime'), (1, 'TRACE_PROCESS_EVENT_CUDA_DRIVER', 'CUDA driver')");
  }

  for (const [pid, name] of spec.processes ?? []) {
    db.run(`INSERT INTO PROCESSES VALUES (${gid}, ?, ?)`, [pid, 0, pid, name]);
  }
  for (const [pid, tid, name] of spec.threads ?? []) {
    db.run(`INSERT INTO ThreadNames VALUES (?, 20, ${gid})`, [stringId(name), pid, tid]);
  }
  for (const e of spec.nvtx ?? []) {
    const values: unknown[] = [
      e.start,
      e.end ?? null,
      e.type,
      e.rangeId ?? null,
      e.category ?? null,
      e.color ?? null,
      e.text ?? null,
      e.pid,
      e.tid,
      e.endPid ?? null,
      e.endTid ?? null,
      e.textId ?? null,
      e.domainId ?? null,
      e.uint64 === undefined ? null : BigInt.asIntN(64, e.uint64).toString(),
      e.int64 === undefined ? null : e.int64.toString(),
      e.double ?? null,
      e.uint32 ?? null,
      e.int32 ?? null,
      e.float ?? null,
    ];
    const endGid = e.endPid === undefined ? 'NULL + ? + ?' : gid;
    const extra = modern ? ', NULL, ?, ?' : '';
    if (modern) values.push(e.jsonText ?? null, e.binary ? 'AAEC' : null);
    db.run(
      `INSERT INTO NVTX_EVENTS VALUES (?, ?, ?, ?, ?, ?, ?, ${gid}, ${endGid}, ?, ?, CAST(? AS INTEGER), CAST(? AS INTEGER), ?, ?, ?, ?${extra})`,
      values as never,
    );
  }
  const api = (table: string, rows: ApiRow[] | undefined) => {
    for (const a of rows ?? []) {
      const cls = modern ? `${a.eventClass ?? 0}, ` : '';
      db.run(`INSERT INTO ${table} VALUES (?, ?, ${cls}${gid}, ?, ?, ?, NULL)`, [
        a.start,
        a.end,
        a.pid,
        a.tid,
        a.correlationId,
        stringId(a.name),
        a.returnValue ?? 0,
      ]);
    }
  };
  api('CUPTI_ACTIVITY_KIND_RUNTIME', spec.runtime);
  api('CUPTI_ACTIVITY_KIND_DRIVER', spec.driver);
  const gpu = (table: string, rows: GpuRow[] | undefined, tail: (g: GpuRow) => unknown[]) => {
    for (const g of rows ?? []) {
      const values = [g.start, g.end, g.device ?? 0, 1, g.stream ?? 7, g.correlationId, g.pid, 0, ...tail(g)];
      db.run(`INSERT INTO ${table} VALUES (?, ?, ?, ?, ?, ?, ${gid}, ${values.slice(8).map(() => '?').join(', ')})`, values as never);
    }
  };
  gpu('CUPTI_ACTIVITY_KIND_KERNEL', spec.kernels, (g) => {
    const name = stringId(g.name ?? 'kernel');
    return [name, name, 4, 1, 1, 128, 1, 1, 32, 0, 0];
  });
  gpu('CUPTI_ACTIVITY_KIND_MEMCPY', spec.memcpy, (g) => [g.bytes ?? 0, g.kind ?? 1]);
  gpu('CUPTI_ACTIVITY_KIND_MEMSET', spec.memset, (g) => [0, g.bytes ?? 0]);
  gpu('CUPTI_ACTIVITY_KIND_SYNCHRONIZATION', spec.sync, (g) => [g.kind ?? 3]);
  for (const g of spec.gpus ?? []) db.run('INSERT INTO TARGET_INFO_GPU VALUES (?, ?, ?, ?)', [vm, g.id, g.name, g.id]);
  for (const [pid, stream, flag] of spec.streams ?? []) {
    db.run('INSERT INTO TARGET_INFO_CUDA_STREAM VALUES (?, 0, ?, ?, 1, 0, ?)', [stream, vm, pid, flag]);
  }
  if (spec.cudaNames) writeCudaNames(db, spec.cudaNames, vm);
  if (spec.span) db.run('INSERT INTO ANALYSIS_DETAILS VALUES (0, ?, ?, ?)', [spec.span[1] - spec.span[0], spec.span[0], spec.span[1]]);
  if (modern && spec.sessionStartUtcNs !== undefined) {
    db.run("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (CAST(? AS INTEGER), '2025-01-01T00:00:00', '')", [spec.sessionStartUtcNs.toString()]);
  }
  for (const [name, value] of spec.metadata ?? [['EXPORT_SCHEMA_VERSION', modern ? '3.17.1' : '2.7.1']]) {
    db.run(`INSERT INTO ${metaTable} VALUES (?, ?)`, [name, value]);
  }
  if (spec.diagnostics) {
    // A text given as a number is a StringIds id (a column without affinity keeps it an integer).
    const textType = spec.diagnostics.some((d) => typeof d.text === 'number') ? '' : ' TEXT';
    db.run(`CREATE TABLE DIAGNOSTIC_EVENT (timestamp INTEGER NOT NULL, timestampType INTEGER NOT NULL, source INTEGER NOT NULL, severity INTEGER NOT NULL, text${textType} NOT NULL, globalPid INTEGER)`);
    for (const d of spec.diagnostics) {
      if (d.pid === 0) db.run('INSERT INTO DIAGNOSTIC_EVENT VALUES (?, 1, 3, ?, ?, -144115188075855872)', [d.timestamp, d.severity, d.text]);
      else db.run(`INSERT INTO DIAGNOSTIC_EVENT VALUES (?, 1, 3, ?, ?, ((${hw} << 56) | (${vm} << 48) | (? << 24)))`, [d.timestamp, d.severity, d.text, d.pid]);
    }
  }
  strings.forEach((s, i) => db.run('INSERT INTO StringIds VALUES (?, ?)', [i, s]));
}

/** The TARGET_INFO_NVTX_CUDA_* tables with the columns of Nsight Systems 2025.3 (schema 3.20.3). */
export function writeCudaNames(db: Database, names: NonNullable<ExportSpec['cudaNames']>, vm = 1): void {
  db.run('CREATE TABLE TARGET_INFO_NVTX_CUDA_DEVICE (name TEXT NOT NULL, hwId INTEGER NOT NULL, vmId INTEGER NOT NULL, deviceId INTEGER NOT NULL)');
  db.run(
    'CREATE TABLE TARGET_INFO_NVTX_CUDA_CONTEXT (name TEXT NOT NULL, hwId INTEGER NOT NULL, vmId INTEGER NOT NULL, processId INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL)',
  );
  db.run(
    'CREATE TABLE TARGET_INFO_NVTX_CUDA_STREAM (name TEXT NOT NULL, hwId INTEGER NOT NULL, vmId INTEGER NOT NULL, processId INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL)',
  );
  for (const [device, name] of names.devices ?? []) db.run('INSERT INTO TARGET_INFO_NVTX_CUDA_DEVICE VALUES (?, 0, ?, ?)', [name, vm, device]);
  for (const [pid, device, context, name] of names.contexts ?? []) {
    db.run('INSERT INTO TARGET_INFO_NVTX_CUDA_CONTEXT VALUES (?, 0, ?, ?, ?, ?)', [name, vm, pid, device, context]);
  }
  for (const [pid, device, context, stream, name] of names.streams ?? []) {
    db.run('INSERT INTO TARGET_INFO_NVTX_CUDA_STREAM VALUES (?, 0, ?, ?, ?, ?, ?)', [name, vm, pid, device, context, stream]);
  }
}

/**
 * ENUM_NSYS_EVENT_TYPE rows written by the modern layout: the importer's own table of Nsight
 * Systems 2025.1 codes (one table for both sides, so a generated export cannot drift from it).
 */
export const EVENT_TYPES: ReadonlyArray<readonly [number, string]> = [...BUILTIN_EVENT_TYPES];

/** The code of an event type symbol in that table. */
function code(symbol: string): number {
  const found = EVENT_TYPES.find(([, name]) => name === symbol);
  if (!found) throw new Error(`nsysExport: no event type ${symbol}`);
  return found[0];
}

/** eventType codes, for building rows. */
export const T = {
  category: code('NvtxCategory'),
  mark: code('NvtxMark'),
  push: code('NvtxPushRange'),
  pop: code('NvtxPopRange'),
  start: code('NvtxStartRange'),
  end: code('NvtxEndRange'),
  thread: code('NvtxThread'),
  pushPop: code('NvtxPushPopRange'),
  startEnd: code('NvtxStartEndRange'),
  nvtxtMark: code('NvtxtMark'),
  nvtxtPushPop: code('NvtxtPushPopRange'),
  nvtxtProcess: code('NvtxtMetaProcess'),
  domainCreate: code('NvtxDomainCreate'),
  domainDestroy: code('NvtxDomainDestroy'),
  nameStream: code('NvtxNameCudaStream'),
} as const;
