/**
 * CUPTI activity tables -> model: CUDA runtime and driver API calls as 'api' rows under their
 * threads; kernels, memcpys and memsets as 'gpu' rows per process, device and stream
 * (Process > CUDA > GPU n > Stream m); synchronization records on a per-device row. An API call and
 * the GPU work it launched share a correlation id; CUPTI ids are unique per process only, so the
 * model's id is (process index, correlationId).
 */
import type { PayloadValue } from '../../model/builder.ts';
import { CUDA_CONTEXT, CUDA_CORRELATION_SPAN, CUDA_DEVICE, CUDA_GROUP, CUDA_STREAM, SYNC_ROW_LABEL } from '../../model/cudaRows.ts';
import { f64, u32 } from '../../model/growable.ts';
import { PayloadType, type ObjectRef, type StringId } from '../../model/types.ts';
import { num, type NsysContext, type Row } from './context.ts';
import { readCudaObjectNames, type CudaObjectNames } from './cudaNames.ts';
import type { ResourceNames } from './nvtx.ts';
import { launchTable, type LaunchTable } from './projection.ts';
import { pidOf, quoteId, tidOf } from './schema.ts';

/** API tables and the event class their rows have when the table has no eventClass column. */
const API_TABLES = [
  { table: 'CUPTI_ACTIVITY_KIND_RUNTIME', defaultClass: 0 },
  { table: 'CUPTI_ACTIVITY_KIND_DRIVER', defaultClass: 1 },
] as const;

/** ENUM_NSYS_EVENT_CLASS values used for CUDA API calls. */
const API_CLASS_LABEL: Record<number, string> = { 0: 'CUDA Runtime API', 1: 'CUDA Driver API' };

/** CUpti_ActivityMemcpyKind labels, for exports without ENUM_CUDA_MEMCPY_OPER. */
const MEMCPY_KIND: Record<number, string> = {
  0: 'Unknown',
  1: 'Host-to-Device',
  2: 'Device-to-Host',
  3: 'Host-to-Array',
  4: 'Array-to-Host',
  5: 'Array-to-Array',
  6: 'Array-to-Device',
  7: 'Device-to-Array',
  8: 'Device-to-Device',
  9: 'Host-to-Host',
  10: 'Peer-to-Peer',
};

/** CUpti_ActivitySynchronizationType labels, for exports without ENUM_CUPTI_SYNC_TYPE. */
const SYNC_TYPE: Record<number, string> = {
  0: 'Unknown sync',
  1: 'Event sync',
  2: 'Stream wait sync',
  3: 'Stream sync',
  4: 'Context sync',
};

/** streamId of records tied to no stream (e.g. a context-wide synchronization). */
const NO_STREAM = 0xffffffff;

/** CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL: the legacy default stream. */
const STREAM_FLAG_NULL = 3;
const CORRELATION_LIMIT = CUDA_CORRELATION_SPAN;

export interface CudaResult {
  /** Per builder thread: its API calls that launched GPU work (for the GPU projection). */
  launches: Map<number, LaunchTable>;
  apiCalls: number;
  gpuOps: number;
}

/** API calls of one thread, as read. */
class ThreadCalls {
  readonly start = f64();
  readonly end = f64();
  readonly key = f64();
}

export function decodeCuda(ctx: NsysContext, resourceNames: ResourceNames): CudaResult {
  const b = ctx.builder;
  const s = ctx.schema;
  const result: CudaResult = { launches: new Map(), apiCalls: 0, gpuOps: 0 };
  const labels = deviceAndStreamLabels(ctx, readCudaObjectNames(ctx, resourceNames));

  // GPU work first: the spans per correlation key feed the projection.
  const spanIndex = new Map<number, number>();
  const spanStart = f64();
  const spanEnd = f64();
  const spanCount = u32();
  const noteWork = (key: number, start: number, end: number) => {
    const k = spanIndex.get(key);
    if (k === undefined) {
      spanIndex.set(key, spanStart.length);
      spanStart.push(start);
      spanEnd.push(end);
      spanCount.push(1);
    } else {
      if (start < spanStart.get(k)) spanStart.set(k, start);
      if (end > spanEnd.get(k)) spanEnd.set(k, end);
      spanCount.set(k, spanCount.get(k) + 1);
    }
  };

  const gpuRows = new Map<string, number>();
  const gpuRow = (process: number, pid: number, device: number | undefined, context: number | undefined, stream: number | undefined, sync: boolean) => {
    const key = `${process}:${device ?? ''}:${context ?? ''}:${sync ? 'sync' : (stream ?? '')}`;
    let row = gpuRows.get(key);
    if (row === undefined) {
      const objects: ObjectRef[] = [];
      const object = (kind: string, id: number, name: string | undefined) => {
        objects.push({ kind, handle: String(id) });
        if (name !== undefined) nameResource(kind, id, name, process);
      };
      if (device !== undefined) object(CUDA_DEVICE, device, labels.names.device(pid, device));
      if (context !== undefined) object(CUDA_CONTEXT, context, labels.names.context(pid, device, context));
      if (!sync && stream !== undefined && stream !== NO_STREAM) object(CUDA_STREAM, stream, labels.names.stream(pid, device, context, stream));
      row = b.customRow({
        kind: 'gpu',
        label: sync ? SYNC_ROW_LABEL : labels.stream(pid, device, context, stream),
        process,
        path: device === undefined ? [CUDA_GROUP] : [CUDA_GROUP, labels.device(pid, device)],
        objects,
      });
      gpuRows.set(key, row);
    }
    return row;
  };
  // Each named object once per process, in Model.resources (details, tooltips, `nvtxview events`).
  const namedObjects = new Set<string>();
  const nameResource = (kind: string, id: number, name: string, process: number) => {
    const k = `${kind}:${process}:${id}`;
    if (namedObjects.has(k)) return;
    namedObjects.add(k);
    b.nameResource({ kind, handle: String(id), name, process, domain: 0 });
  };

  const memcpyKinds = s.enumLabels('ENUM_CUDA_MEMCPY_OPER');
  const syncTypes = s.enumLabels('ENUM_CUPTI_SYNC_TYPE');
  const nameCache = new Map<string, StringId>();
  const CUDA_NAME = { record: 'a CUDA name (StringIds)' };
  const named = (text: string): StringId => {
    let id = nameCache.get(text);
    if (id === undefined) nameCache.set(text, (id = b.intern(text, 'name', CUDA_NAME)));
    return id;
  };

  const kernelName = s.firstColumn('CUPTI_ACTIVITY_KIND_KERNEL', 'demangledName', 'shortName', 'mangledName', 'name');
  const gpuTables: GpuTable[] = [
    {
      table: 'CUPTI_ACTIVITY_KIND_KERNEL',
      work: true,
      extra: [kernelName ?? 'NULL', 'gridX', 'gridY', 'gridZ', 'blockX', 'blockY', 'blockZ', 'registersPerThread', 'staticSharedMemory', 'dynamicSharedMemory'],
      describe: (x) => {
        const name = typeof x[0] === 'number' ? ctx.stringId(x[0]) : typeof x[0] === 'string' ? named(x[0]) : undefined;
        const info: Record<string, unknown> = {};
        if (x[1] !== null) info.grid = [x[1], x[2], x[3]];
        if (x[4] !== null) info.block = [x[4], x[5], x[6]];
        if (x[7] !== null) info.registersPerThread = x[7];
        if (x[8] !== null) info.staticSharedMemory = x[8];
        if (x[9] !== null) info.dynamicSharedMemory = x[9];
        return { nameId: name ?? named('[CUDA kernel]'), payload: jsonPayload(info) };
      },
    },
    {
      table: 'CUPTI_ACTIVITY_KIND_MEMCPY',
      work: true,
      extra: ['copyKind', 'bytes'],
      describe: (x) => {
        const kind = num(x[0]);
        const label = kind === undefined ? 'Unknown' : (memcpyKinds?.get(kind) ?? MEMCPY_KIND[kind] ?? `kind ${kind}`);
        return { nameId: named(`[CUDA memcpy ${label}]`), payload: jsonPayload({ bytes: x[1] ?? undefined }) };
      },
    },
    {
      table: 'CUPTI_ACTIVITY_KIND_MEMSET',
      work: true,
      extra: ['bytes', 'value'],
      describe: (x) => ({ nameId: named('[CUDA memset]'), payload: jsonPayload({ bytes: x[0] ?? undefined, value: x[1] ?? undefined }) }),
    },
    {
      table: 'CUPTI_ACTIVITY_KIND_SYNCHRONIZATION',
      work: false,
      extra: [s.firstColumn('CUPTI_ACTIVITY_KIND_SYNCHRONIZATION', 'syncType', 'deprecatedSyncType') ?? 'NULL', 'streamId', 'eventId'],
      describe: (x) => {
        const type = num(x[0]);
        const label = type === undefined ? 'sync' : (syncTypes?.get(type) ?? SYNC_TYPE[type] ?? `sync type ${type}`);
        // What was waited for: the rows are per device, so the stream and CUDA event go in the payload.
        const waitedOn = (v: unknown) => (typeof v === 'number' && v !== NO_STREAM ? v : undefined);
        return { nameId: named(`[CUDA ${label}]`), payload: jsonPayload({ stream: waitedOn(x[1]), event: waitedOn(x[2]) }) };
      },
    },
  ];

  for (const g of gpuTables) {
    if (!s.has(g.table)) continue;
    const missing = s.missing(g.table, ['start', 'end']);
    if (missing.length > 0) {
      b.report('error', `table ${g.table} has no column ${missing.join(', ')}: its rows are not shown`);
      continue;
    }
    const hasPid = s.hasColumn(g.table, 'globalPid');
    if (!hasPid) b.report('warning', `table ${g.table} has no globalPid column: its rows are not tied to a process nor linked to API calls`);
    const cols = [
      ctx.time('start'),
      ctx.time('"end"'),
      hasPid ? pidOf('globalPid') : 'NULL',
      s.hasColumn(g.table, 'deviceId') ? 'deviceId' : 'NULL',
      s.hasColumn(g.table, 'streamId') ? 'streamId' : 'NULL',
      s.hasColumn(g.table, 'correlationId') ? 'correlationId' : 'NULL',
      s.hasColumn(g.table, 'contextId') ? 'contextId' : 'NULL',
      ...g.extra.map((c) => (c !== 'NULL' && s.hasColumn(g.table, c) ? quoteId(c) : 'NULL')),
      'rowid',
    ];
    const n = ctx.each(g.table, `SELECT ${cols.join(', ')} FROM ${quoteId(g.table)}`, (row) => {
      const rowid = row[row.length - 1];
      const start = ctx.checkTime(g.table, rowid, 'start', row[0]);
      const end = ctx.checkTime(g.table, rowid, 'end', row[1]);
      if (start === undefined || end === undefined) return;
      const pid = num(row[2]);
      const process = pid === undefined ? -1 : ctx.process(pid);
      const device = num(row[3]);
      const stream = num(row[4]);
      const corr = num(row[5]);
      const key = process >= 0 && corr !== undefined && corr >= 0 && corr < CORRELATION_LIMIT ? process * CORRELATION_LIMIT + corr : undefined;
      const described = g.describe(row.slice(7, row.length - 1));
      ctx.seeTime(start);
      ctx.seeTime(end);
      b.rowRange(gpuRow(process, pid ?? -1, device, num(row[6]), stream, !g.work), start, end, described, -1, key);
      if (g.work && key !== undefined) noteWork(key, start, end);
    });
    if (g.work) result.gpuOps += n;
  }

  // API calls.
  const classLabels = s.enumLabels('ENUM_NSYS_EVENT_CLASS');
  const apiRows = new Map<number, number>();
  const apiNames = new Map<number, StringId>();
  const calls = new Map<number, ThreadCalls>();
  for (const { table, defaultClass } of API_TABLES) {
    if (!s.has(table)) continue;
    const missing = s.missing(table, ['start', 'end', 'globalTid']);
    if (missing.length > 0) {
      b.report('error', `table ${table} has no column ${missing.join(', ')}: CUDA API calls cannot be read`);
      continue;
    }
    const nameCol = s.firstColumn(table, 'nameId', 'name');
    if (!nameCol) b.report('warning', `table ${table} has no nameId column: CUDA API calls are shown without names`);
    const cols = [
      ctx.time('start'),
      ctx.time('"end"'),
      s.hasColumn(table, 'eventClass') ? 'eventClass' : String(defaultClass),
      pidOf('globalTid'),
      tidOf('globalTid'),
      s.hasColumn(table, 'correlationId') ? 'correlationId' : 'NULL',
      nameCol ?? 'NULL',
      s.hasColumn(table, 'returnValue') ? 'returnValue' : 'NULL',
      'rowid',
    ];
    result.apiCalls += ctx.each(table, `SELECT ${cols.join(', ')} FROM ${quoteId(table)}`, (row: Row) => {
      const start = ctx.checkTime(table, row[8], 'start', row[0]);
      const end = ctx.checkTime(table, row[8], 'end', row[1]);
      const pid = num(row[3]);
      const tid = num(row[4]);
      if (start === undefined || end === undefined || pid === undefined || tid === undefined) return;
      const cls = num(row[2]) ?? defaultClass;
      const thread = ctx.thread(pid, tid);
      const process = ctx.process(pid);
      const rowKey = thread * 64 + (cls & 63);
      let apiRow = apiRows.get(rowKey);
      if (apiRow === undefined) {
        const label = API_CLASS_LABEL[cls] ?? `${classLabels?.get(cls) ?? `event class ${cls}`} API`;
        apiRow = b.customRow({ kind: 'api', label, process, thread });
        apiRows.set(rowKey, apiRow);
      }
      const corr = num(row[5]);
      const key = corr !== undefined && corr >= 0 && corr < CORRELATION_LIMIT ? process * CORRELATION_LIMIT + corr : undefined;
      const ret = num(row[7]);
      ctx.seeTime(start);
      ctx.seeTime(end);
      b.rowRange(
        apiRow,
        start,
        end,
        { nameId: apiName(row[6]), payload: ret ? jsonPayload({ returnValue: ret }) : undefined },
        thread,
        key,
      );
      if (key !== undefined && spanIndex.has(key)) {
        let c = calls.get(thread);
        if (!c) calls.set(thread, (c = new ThreadCalls()));
        c.start.push(start);
        c.end.push(end);
        c.key.push(key);
      }
    });
  }

  function apiName(v: unknown): StringId {
    if (typeof v === 'string') return named(stripVersion(v));
    if (typeof v !== 'number') return named('[CUDA API]');
    let id = apiNames.get(v);
    if (id === undefined) {
      const text = ctx.string(v);
      id = named(text === undefined ? `[CUDA API ${v}]` : stripVersion(text));
      apiNames.set(v, id);
    }
    return id;
  }

  for (const [thread, c] of calls) {
    const n = c.start.length;
    const gpuStart = new Float64Array(n);
    const gpuEnd = new Float64Array(n);
    const gpuCount = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const k = spanIndex.get(c.key.get(i))!;
      gpuStart[i] = spanStart.get(k);
      gpuEnd[i] = spanEnd.get(k);
      gpuCount[i] = spanCount.get(k);
    }
    result.launches.set(thread, launchTable(c.start.view(), c.end.view(), gpuStart, gpuEnd, gpuCount));
  }
  return result;
}

interface GpuTable {
  table: string;
  /** Kernels, copies and sets are GPU work; synchronization records are not. */
  work: boolean;
  /** Extra columns handed to `describe` (missing ones read as NULL). */
  extra: string[];
  describe: (extra: Row) => { nameId: StringId; payload?: PayloadValue };
}

/**
 * API names carry the CUDA version that introduced them (`cudaLaunchKernel_v7000`); shown without
 * it, as Nsight Systems does. Only a 4+ digit suffix is a version: `cuGetProcAddress_v2` is a name.
 */
export function stripVersion(name: string): string {
  return name.replace(/_v\d{4,}$/, '');
}

function jsonPayload(info: Record<string, unknown>): PayloadValue | undefined {
  const entries = Object.entries(info).filter(([, v]) => v !== undefined);
  return entries.length === 0 ? undefined : { type: PayloadType.Json, value: JSON.stringify(Object.fromEntries(entries)) };
}

/** Row labels of devices and streams, from TARGET_INFO_* tables and the names the program gave them. */
function deviceAndStreamLabels(ctx: NsysContext, names: CudaObjectNames) {
  const s = ctx.schema;
  // GPU names: TARGET_INFO_GPU by id, CUDA device ordinals per process by TARGET_INFO_CUDA_DEVICE.
  const gpuName = new Map<number, string>();
  const gpuByCudaId = new Map<number, string>();
  const gpuTable = s.firstTable('TARGET_INFO_GPU', 'TARGET_INFO_CUDA_GPU');
  if (gpuTable && s.hasColumn(gpuTable, 'name')) {
    const id = s.firstColumn(gpuTable, 'id', 'gpuId');
    const cu = s.firstColumn(gpuTable, 'cuDevice', 'cudaId');
    ctx.each(gpuTable, `SELECT ${id ?? 'NULL'}, ${cu ?? 'NULL'}, name FROM ${quoteId(gpuTable)}`, (row) => {
      if (typeof row[2] !== 'string') return;
      if (typeof row[0] === 'number') gpuName.set(row[0], row[2]);
      if (typeof row[1] === 'number') gpuByCudaId.set(row[1], row[2]);
    });
  }
  const cudaDevice = new Map<string, number>();
  if (s.has('TARGET_INFO_CUDA_DEVICE') && s.missing('TARGET_INFO_CUDA_DEVICE', ['gpuId', 'cudaId', 'pid']).length === 0) {
    ctx.each('TARGET_INFO_CUDA_DEVICE', 'SELECT pid, cudaId, gpuId FROM TARGET_INFO_CUDA_DEVICE', (row) => {
      if (typeof row[0] === 'number' && typeof row[1] === 'number' && typeof row[2] === 'number') {
        cudaDevice.set(`${row[0]}:${row[1]}`, row[2]);
      }
    });
  }
  const nullStreams = new Set<string>();
  if (s.has('TARGET_INFO_CUDA_STREAM') && s.missing('TARGET_INFO_CUDA_STREAM', ['streamId', 'processId', 'flag']).length === 0) {
    ctx.each('TARGET_INFO_CUDA_STREAM', 'SELECT processId, streamId, flag FROM TARGET_INFO_CUDA_STREAM', (row) => {
      if (row[2] === STREAM_FLAG_NULL) nullStreams.add(`${String(row[0])}:${String(row[1])}`);
    });
  }
  return {
    names,
    device(pid: number, device: number): string {
      const given = names.device(pid, device);
      const gpu = cudaDevice.get(`${pid}:${device}`);
      const hw = gpu !== undefined ? gpuName.get(gpu) : gpuByCudaId.get(device);
      const name = given ?? hw;
      return name ? `GPU ${device} (${name})` : `GPU ${device}`;
    },
    stream(pid: number, device: number | undefined, context: number | undefined, stream: number | undefined): string {
      if (stream === undefined || stream === NO_STREAM) return 'No stream';
      const base = nullStreams.has(`${pid}:${stream}`) ? `Default stream ${stream}` : `Stream ${stream}`;
      const given = names.stream(pid, device, context, stream);
      return given ? `${base} · ${given}` : base;
    },
  };
}
