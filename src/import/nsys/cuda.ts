/**
 * CUPTI activity tables -> the CUDA model (src/import/cuda/cudaModel.ts): CUDA runtime and driver API
 * calls under their threads; kernels, memcpys and memsets per process, device and stream;
 * synchronization records on a per-device row. An API call and the GPU work it launched share a
 * correlation id; CUPTI ids are unique per process only, so the model's id is (process index,
 * correlationId). This module only reads the export's tables and labels; the rows are the CUDA
 * model's.
 */
import { API_ROW_LABEL, CudaModel, CUPTI_NO_STREAM, cudaCorrelation, jsonPayload, type CudaLabels, type GpuPlace } from '../cuda/cudaModel.ts';
import { memcpyName, MEMSET_NAME, stripVersion, syncName, syncPayload, UNNAMED_KERNEL } from '../cuda/cuptiNames.ts';
import type { PayloadValue } from '../../model/builder.ts';
import type { StringId } from '../../model/types.ts';
import { num, type NsysContext, type Row } from './context.ts';
import { readCudaObjectNames, type CudaObjectNames } from './cudaNames.ts';
import type { ResourceNames } from './nvtx.ts';
import { pidOf, quoteId, tidOf } from './schema.ts';

export { stripVersion };

/** API tables and the event class their rows have when the table has no eventClass column. */
const API_TABLES = [
  { table: 'CUPTI_ACTIVITY_KIND_RUNTIME', defaultClass: 0 },
  { table: 'CUPTI_ACTIVITY_KIND_DRIVER', defaultClass: 1 },
] as const;

/** ENUM_NSYS_EVENT_CLASS values used for CUDA API calls. */
const API_CLASS_LABEL: Record<number, string> = { 0: API_ROW_LABEL.runtime, 1: API_ROW_LABEL.driver };

/** CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL: the legacy default stream. */
const STREAM_FLAG_NULL = 3;

export interface CudaResult {
  /** The CUDA model the rows went into; the importer adds the NVTX ranges and calls `finish()`. */
  cuda: CudaModel;
  apiCalls: number;
  gpuOps: number;
}

export function decodeCuda(ctx: NsysContext, resourceNames: ResourceNames): CudaResult {
  const b = ctx.builder;
  const s = ctx.schema;
  const labels = deviceAndStreamLabels(ctx, readCudaObjectNames(ctx, resourceNames));
  const cuda = new CudaModel(b, labels);

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
        return { nameId: name ?? named(UNNAMED_KERNEL), payload: jsonPayload(info) };
      },
    },
    {
      table: 'CUPTI_ACTIVITY_KIND_MEMCPY',
      work: true,
      extra: ['copyKind', 'bytes'],
      describe: (x) => {
        const kind = num(x[0]);
        return { nameId: named(memcpyName(kind, kind === undefined ? undefined : memcpyKinds?.get(kind))), payload: jsonPayload({ bytes: x[1] ?? undefined }) };
      },
    },
    {
      table: 'CUPTI_ACTIVITY_KIND_MEMSET',
      work: true,
      extra: ['bytes', 'value'],
      describe: (x) => ({ nameId: named(MEMSET_NAME), payload: jsonPayload({ bytes: x[0] ?? undefined, value: x[1] ?? undefined }) }),
    },
    {
      table: 'CUPTI_ACTIVITY_KIND_SYNCHRONIZATION',
      work: false,
      extra: [s.firstColumn('CUPTI_ACTIVITY_KIND_SYNCHRONIZATION', 'syncType', 'deprecatedSyncType') ?? 'NULL', 'streamId', 'eventId'],
      describe: (x) => {
        const type = num(x[0]);
        return { nameId: named(syncName(type, type === undefined ? undefined : syncTypes?.get(type))), payload: syncPayload(x[1], x[2]) };
      },
    },
  ];

  // GPU work first (its rows come first in the track tree, as they always have).
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
    ctx.each(g.table, `SELECT ${cols.join(', ')} FROM ${quoteId(g.table)}`, (row) => {
      const rowid = row[row.length - 1];
      const start = ctx.checkTime(g.table, rowid, 'start', row[0]);
      const end = ctx.checkTime(g.table, rowid, 'end', row[1]);
      if (start === undefined || end === undefined) return;
      const pid = num(row[2]);
      const process = pid === undefined ? -1 : ctx.process(pid);
      const place: GpuPlace = { process, pid: pid ?? -1, device: num(row[3]), context: num(row[6]), stream: num(row[4]) };
      const key = cudaCorrelation(process, num(row[5]));
      const described = g.describe(row.slice(7, row.length - 1));
      ctx.seeTime(start);
      ctx.seeTime(end);
      if (g.work) cuda.gpuWork(place, start, end, described, key);
      else cuda.gpuSync(place, start, end, described, key);
    });
  }

  // API calls.
  const classLabels = s.enumLabels('ENUM_NSYS_EVENT_CLASS');
  const apiNames = new Map<number, StringId>();
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
    ctx.each(table, `SELECT ${cols.join(', ')} FROM ${quoteId(table)}`, (row: Row) => {
      const start = ctx.checkTime(table, row[8], 'start', row[0]);
      const end = ctx.checkTime(table, row[8], 'end', row[1]);
      const pid = num(row[3]);
      const tid = num(row[4]);
      if (start === undefined || end === undefined || pid === undefined || tid === undefined) return;
      const cls = num(row[2]) ?? defaultClass;
      const thread = ctx.thread(pid, tid);
      const process = ctx.process(pid);
      const label = API_CLASS_LABEL[cls] ?? `${classLabels?.get(cls) ?? `event class ${cls}`} API`;
      const ret = num(row[7]);
      ctx.seeTime(start);
      ctx.seeTime(end);
      const payload: PayloadValue | undefined = ret ? jsonPayload({ returnValue: ret }) : undefined;
      cuda.apiCall(thread, process, label, start, end, { nameId: apiName(row[6]), payload }, cudaCorrelation(process, num(row[5])));
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

  return { cuda, apiCalls: cuda.apiCalls, gpuOps: cuda.gpuOps };
}

interface GpuTable {
  table: string;
  /** Kernels, copies and sets are GPU work; synchronization records are not. */
  work: boolean;
  /** Extra columns handed to `describe` (missing ones read as NULL). */
  extra: string[];
  describe: (extra: Row) => { nameId: StringId; payload?: PayloadValue };
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
  const labels: CudaLabels = {
    device: ({ pid, device }) => {
      const given = names.device(pid, device);
      const gpu = cudaDevice.get(`${pid}:${device}`);
      const hw = gpu !== undefined ? gpuName.get(gpu) : gpuByCudaId.get(device);
      const name = given ?? hw;
      return name ? `GPU ${device} (${name})` : `GPU ${device}`;
    },
    stream: ({ pid, device, context, stream }) => {
      if (stream === undefined || stream === CUPTI_NO_STREAM) return 'No stream';
      const base = nullStreams.has(`${pid}:${stream}`) ? `Default stream ${stream}` : `Stream ${stream}`;
      const given = names.stream(pid, device, context, stream);
      return given ? `${base} · ${given}` : base;
    },
    deviceName: ({ pid, device }) => names.device(pid, device),
    contextName: ({ pid, device, context }) => names.context(pid, device, context),
    streamName: ({ pid, device, context, stream }) => names.stream(pid, device, context, stream),
  };
  return labels;
}
