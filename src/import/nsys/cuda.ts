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
import { PayloadType, type StringId } from '../../model/types.ts';
import type { NsysContext } from './context.ts';
import { CELL_FLOAT, CELL_INTEGER, CELL_NULL, CELL_TEXT, type RowCursor } from './rowCursor.ts';
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

/**
 * The CUDA model of an export, with its device and stream labels. Made before the NVTX events are
 * read, so that their ranges go straight into the GPU projection; the names the program gave CUDA
 * objects with NVTX events (`resourceNames`, filled while those are read) are looked up only when
 * the first GPU row is made.
 */
export function cudaModelOf(ctx: NsysContext, resourceNames: ResourceNames): CudaModel {
  return new CudaModel(ctx.builder, deviceAndStreamLabels(ctx, readCudaObjectNames(ctx, resourceNames)));
}

/** Kernel columns after the name (`kernelPayload` reads them in this order). */
const KERNEL_FIELDS = ['gridX', 'gridY', 'gridZ', 'blockX', 'blockY', 'blockZ', 'registersPerThread', 'staticSharedMemory', 'dynamicSharedMemory'] as const;

/** Reads the CUPTI activity tables into `cuda` (the importer adds the NVTX ranges and calls `finish()`). */
export function decodeCuda(ctx: NsysContext, cuda: CudaModel): void {
  const b = ctx.builder;
  const s = ctx.schema;

  const memcpyKinds = s.enumLabels('ENUM_CUDA_MEMCPY_OPER');
  const syncTypes = s.enumLabels('ENUM_CUPTI_SYNC_TYPE');
  const nameCache = new Map<string, StringId>();
  const CUDA_NAME = { record: 'a CUDA name (StringIds)' };
  const named = (text: string): StringId => {
    let id = nameCache.get(text);
    if (id === undefined) nameCache.set(text, (id = b.intern(text, 'name', CUDA_NAME)));
    return id;
  };
  const memcpyNames = new Map<number | undefined, StringId>();
  const memcpyNameOf = (kind: number | undefined): StringId => {
    let id = memcpyNames.get(kind);
    if (id === undefined) memcpyNames.set(kind, (id = named(memcpyName(kind, kind === undefined ? undefined : memcpyKinds?.get(kind)))));
    return id;
  };

  const kernelName = s.firstColumn('CUPTI_ACTIVITY_KIND_KERNEL', 'demangledName', 'shortName', 'mangledName', 'name');
  const gpuTables: GpuTable[] = [
    {
      table: 'CUPTI_ACTIVITY_KIND_KERNEL',
      work: true,
      extra: [kernelName ?? 'NULL', ...KERNEL_FIELDS],
      describe: (r, at) => {
        const type = r.type(at);
        const name = type === CELL_INTEGER || type === CELL_FLOAT ? ctx.stringId(r.double(at)) : type === CELL_TEXT ? named(String(r.value(at))) : undefined;
        return { nameId: name ?? named(UNNAMED_KERNEL), payload: kernelPayload(r, at + 1) };
      },
    },
    {
      table: 'CUPTI_ACTIVITY_KIND_MEMCPY',
      work: true,
      extra: ['copyKind', 'bytes'],
      describe: (r, at) => ({ nameId: memcpyNameOf(r.number(at)), payload: jsonPayload({ bytes: r.value(at + 1) ?? undefined }) }),
    },
    {
      table: 'CUPTI_ACTIVITY_KIND_MEMSET',
      work: true,
      extra: ['bytes', 'value'],
      describe: (r, at) => ({ nameId: named(MEMSET_NAME), payload: jsonPayload({ bytes: r.value(at) ?? undefined, value: r.value(at + 1) ?? undefined }) }),
    },
    {
      table: 'CUPTI_ACTIVITY_KIND_SYNCHRONIZATION',
      work: false,
      extra: [s.firstColumn('CUPTI_ACTIVITY_KIND_SYNCHRONIZATION', 'syncType', 'deprecatedSyncType') ?? 'NULL', 'streamId', 'eventId'],
      describe: (r, at) => {
        const type = r.number(at);
        return { nameId: named(syncName(type, type === undefined ? undefined : syncTypes?.get(type))), payload: syncPayload(r.value(at + 1), r.value(at + 2)) };
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
      'rowid',
      ctx.time('start'),
      ctx.time('"end"'),
      hasPid ? pidOf('globalPid') : 'NULL',
      s.hasColumn(g.table, 'deviceId') ? 'deviceId' : 'NULL',
      s.hasColumn(g.table, 'streamId') ? 'streamId' : 'NULL',
      s.hasColumn(g.table, 'correlationId') ? 'correlationId' : 'NULL',
      s.hasColumn(g.table, 'contextId') ? 'contextId' : 'NULL',
      ...g.extra.map((c) => (c !== 'NULL' && s.hasColumn(g.table, c) ? quoteId(c) : 'NULL')),
    ];
    const table = g.table;
    ctx.scan(table, `SELECT ${cols.join(', ')} FROM ${quoteId(table)}`, (r) => {
      const start = ctx.timeAt(table, r, 1, 'start', 0);
      const end = ctx.timeAt(table, r, 2, 'end', 0);
      if (start === undefined || end === undefined) return;
      const pid = r.number(3);
      const process = pid === undefined ? -1 : ctx.process(pid);
      const place: GpuPlace = { process, pid: pid ?? -1, device: r.number(4), context: r.number(7), stream: r.number(5) };
      const key = cudaCorrelation(process, r.number(6));
      const described = g.describe(r, 8);
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
      'rowid',
      ctx.time('start'),
      ctx.time('"end"'),
      s.hasColumn(table, 'eventClass') ? 'eventClass' : String(defaultClass),
      pidOf('globalTid'),
      tidOf('globalTid'),
      s.hasColumn(table, 'correlationId') ? 'correlationId' : 'NULL',
      nameCol ?? 'NULL',
      s.hasColumn(table, 'returnValue') ? 'returnValue' : 'NULL',
    ];
    ctx.scan(table, `SELECT ${cols.join(', ')} FROM ${quoteId(table)}`, (r) => {
      const start = ctx.timeAt(table, r, 1, 'start', 0);
      const end = ctx.timeAt(table, r, 2, 'end', 0);
      const pid = r.number(4);
      const tid = r.number(5);
      if (start === undefined || end === undefined || pid === undefined || tid === undefined) return;
      const cls = r.number(3) ?? defaultClass;
      const thread = ctx.thread(pid, tid);
      const process = ctx.process(pid);
      const label = API_CLASS_LABEL[cls] ?? `${classLabels?.get(cls) ?? `event class ${cls}`} API`;
      const ret = r.number(8);
      ctx.seeTime(start);
      ctx.seeTime(end);
      const payload: PayloadValue | undefined = ret ? jsonPayload({ returnValue: ret }) : undefined;
      cuda.apiCall(thread, process, label, start, end, { nameId: apiName(r, 7), payload }, cudaCorrelation(process, r.number(6)));
    });
  }

  function apiName(r: RowCursor, i: number): StringId {
    const type = r.type(i);
    if (type === CELL_TEXT) return named(stripVersion(String(r.value(i))));
    if (type !== CELL_INTEGER && type !== CELL_FLOAT) return named('[CUDA API]');
    const v = r.double(i);
    let id = apiNames.get(v);
    if (id === undefined) {
      const text = ctx.string(v);
      id = named(text === undefined ? `[CUDA API ${v}]` : stripVersion(text));
      apiNames.set(v, id);
    }
    return id;
  }
}

/**
 * A kernel's launch configuration, the JSON that `jsonPayload` makes of `{ grid, block,
 * registersPerThread, staticSharedMemory, dynamicSharedMemory }`, written directly when every cell
 * is a finite number or NULL (building that object and its entries per kernel cost more than
 * reading the row).
 */
function kernelPayload(r: RowCursor, at: number): PayloadValue | undefined {
  const v: Array<number | null> = [];
  for (let i = 0; i < KERNEL_FIELDS.length; i++) {
    const type = r.type(at + i);
    if (type === CELL_NULL) v.push(null);
    else if (type === CELL_INTEGER || (type === CELL_FLOAT && Number.isFinite(r.double(at + i)))) v.push(r.double(at + i));
    else return kernelPayloadOf(r, at);
  }
  const parts: string[] = [];
  if (v[0] !== null) parts.push(`"grid":[${v[0]},${v[1]},${v[2]}]`);
  if (v[3] !== null) parts.push(`"block":[${v[3]},${v[4]},${v[5]}]`);
  if (v[6] !== null) parts.push(`"registersPerThread":${v[6]}`);
  if (v[7] !== null) parts.push(`"staticSharedMemory":${v[7]}`);
  if (v[8] !== null) parts.push(`"dynamicSharedMemory":${v[8]}`);
  return parts.length === 0 ? undefined : { type: PayloadType.Json, value: `{${parts.join(',')}}` };
}

/** `kernelPayload` for cells of any type (a damaged file). */
function kernelPayloadOf(r: RowCursor, at: number): PayloadValue | undefined {
  const x = KERNEL_FIELDS.map((_, i) => r.value(at + i));
  const info: Record<string, unknown> = {};
  if (x[0] !== null) info.grid = [x[0], x[1], x[2]];
  if (x[3] !== null) info.block = [x[3], x[4], x[5]];
  if (x[6] !== null) info.registersPerThread = x[6];
  if (x[7] !== null) info.staticSharedMemory = x[7];
  if (x[8] !== null) info.dynamicSharedMemory = x[8];
  return jsonPayload(info);
}

interface GpuTable {
  table: string;
  /** Kernels, copies and sets are GPU work; synchronization records are not. */
  work: boolean;
  /** Extra columns read by `describe` from column `at` on (missing ones read as NULL). */
  extra: string[];
  describe: (r: RowCursor, at: number) => { nameId: StringId; payload?: PayloadValue };
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
