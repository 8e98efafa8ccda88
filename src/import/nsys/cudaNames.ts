/**
 * Names the program gave its CUDA devices, contexts and streams (nvtxNameCudaDevice/Context/Stream
 * and their CUDA runtime twins), from every place an export keeps them:
 * - Nsight Systems 2025.x (schema 3.20): `TARGET_INFO_NVTX_CUDA_DEVICE(name, hwId, vmId, deviceId)`,
 *   `TARGET_INFO_NVTX_CUDA_CONTEXT(name, hwId, vmId, processId, deviceId, contextId)` and
 *   `TARGET_INFO_NVTX_CUDA_STREAM(name, hwId, vmId, processId, deviceId, contextId, streamId)`;
 * - older exports: `NVTX_EVENTS` rows of type NvtxNameCuda* (read by nvtx.ts into `ResourceNames`).
 * A table name wins over an event (it is the export's final word on the object). Columns are looked
 * up by name, with the spellings of other schema versions (`nameId` into StringIds, `pid`, `globalPid`).
 */
import { num, type NsysContext } from './context.ts';
import type { ResourceNames } from './nvtx.ts';
import { pidOf, quoteId } from './schema.ts';

export interface CudaObjectNames {
  /** Name of CUDA device `device` as seen by process `pid` (device names are system-wide in 2025.x). */
  device(pid: number, device: number): string | undefined;
  context(pid: number, device: number | undefined, context: number | undefined): string | undefined;
  stream(pid: number, device: number | undefined, context: number | undefined, stream: number): string | undefined;
}

export function readCudaObjectNames(ctx: NsysContext, fromEvents: ResourceNames): CudaObjectNames {
  const devices = readTable(ctx, 'TARGET_INFO_NVTX_CUDA_DEVICE', ['deviceId']);
  const contexts = readTable(ctx, 'TARGET_INFO_NVTX_CUDA_CONTEXT', ['deviceId', 'contextId']);
  const streams = readTable(ctx, 'TARGET_INFO_NVTX_CUDA_STREAM', ['deviceId', 'contextId', 'streamId']);
  return {
    device: (pid, device) => devices.find(pid, [device]) ?? fromEvents.device.get(`${pid}:${device}`),
    context: (pid, device, context) =>
      context === undefined ? undefined : (contexts.find(pid, [device, context]) ?? fromEvents.context.get(`${pid}:${context}`)),
    stream: (pid, device, context, stream) => streams.find(pid, [device, context, stream]) ?? fromEvents.stream.get(`${pid}:${stream}`),
  };
}

/**
 * One TARGET_INFO_NVTX_CUDA_* table, looked up by (process, ids). A table without a process column
 * names objects for every process; an id column the table lacks matches any id, so that a layout
 * with fewer columns still names what it can.
 */
function readTable(ctx: NsysContext, table: string, idColumns: string[]) {
  const byKey = new Map<string, string>();
  const s = ctx.schema;
  const nameColumn = s.firstColumn(table, 'name', 'nameId', 'text');
  if (!s.has(table) || !nameColumn) return { find: () => undefined };
  const pidColumn = s.hasColumn(table, 'processId') ? 'processId' : s.hasColumn(table, 'pid') ? 'pid' : s.hasColumn(table, 'globalPid') ? pidOf('globalPid') : undefined;
  const present = idColumns.map((c) => s.hasColumn(table, c));
  const cols = [pidColumn ?? 'NULL', quoteId(nameColumn), ...idColumns.map((c, i) => (present[i] ? quoteId(c) : 'NULL'))];
  ctx.each(table, `SELECT ${cols.join(', ')} FROM ${quoteId(table)} ORDER BY rowid`, (row) => {
    const name = typeof row[1] === 'string' ? row[1] : ctx.string(row[1]);
    if (name === undefined || name === '') return;
    // Later rows win: an object renamed during the capture shows its last name.
    byKey.set(key(num(row[0]), row.slice(2).map(num)), name);
  });
  return {
    find(pid: number, ids: Array<number | undefined>): string | undefined {
      if (byKey.size === 0) return undefined;
      const wanted = ids.map((id, i) => (present[i] ? id : undefined));
      // A row without a process (no such column, or NULL) names the object in every process.
      return byKey.get(key(pidColumn ? pid : undefined, wanted)) ?? byKey.get(key(undefined, wanted));
    },
  };
}

function key(pid: number | undefined, ids: Array<number | undefined>): string {
  return `${pid ?? ''}:${ids.map((id) => id ?? '').join(':')}`;
}
