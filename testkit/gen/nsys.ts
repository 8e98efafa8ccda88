/**
 * Writes the generated event stream (events.ts) as an Nsight Systems SQLite export: the schema of
 * `testkit/writers/nsysExport.ts` (nsys 2025.1 layout), with the NVTX events bulk-inserted
 * through one prepared statement in one transaction. Push/pop ranges are NvtxPushPopRange rows
 * (type 59, start and end), marks NvtxMark rows (34) with an int64 payload, start/end ranges
 * NvtxStartEndRange rows (60); colors and categories as the generator gives them. Rows are in
 * the generator's order (per-thread bursts), like an export that is not sorted by time.
 *
 * SQLite needs the whole database in memory, so the file is built there and written at the end
 * (about 60 bytes per event).
 */
import { EVENT_TYPES, buildExport } from '../writers/nsysExport.ts';
import { openDatabase } from '../../src/import/nsys/sqlite.ts';
import { generateEvents, makeHeader, type GenOptions } from './events.ts';
import type { Sink } from './sink.ts';

const type = Object.fromEntries(EVENT_TYPES.map(([id, name]) => [name, id])) as Record<string, number>;

/** GlobalTid as nsys writes it for VM 1: (1 << 48) | (pid << 24) | tid. */
function globalTid(pid: number, tid: number): number {
  return 2 ** 48 + pid * 2 ** 24 + tid;
}

/** Writes an nsys SQLite export; returns the number of ranges + marks written. */
export async function writeNsys(sink: Sink, options: GenOptions): Promise<number> {
  const header = makeHeader(options);
  const pid = header.process.pid;
  // Start/end ranges may begin a little before the first event: keep every time positive.
  const origin = header.originNs - 200_000;
  let last = 0;
  const base = await buildExport({
    processes: [[pid, header.process.name]],
    threads: header.threads.map((t) => [pid, t.tid, t.name] as [number, number, string]),
    span: [0, 1],
  });
  const db = await openDatabase(base);
  try {
    for (const c of header.categories) {
      db.run('INSERT INTO NVTX_EVENTS (start, eventType, category, text, globalTid, domainId) VALUES (0, ?, ?, ?, ?, 0)', [
        type.NvtxCategory,
        c.id,
        c.name,
        globalTid(pid, header.threads[0].tid),
      ]);
    }
    const insert = db.prepare(
      'INSERT INTO NVTX_EVENTS (start, end, eventType, category, color, text, globalTid, domainId, int64Value) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)',
    );
    const gtid = header.threads.map((t) => globalTid(pid, t.tid));
    const color = (name: number) => (header.colors[name] === 0 ? null : header.colors[name]);
    let count = 0;
    db.run('BEGIN');
    for (const e of generateEvents(header, { ...options, pushPop: 'complete' })) {
      switch (e.kind) {
        case 'range':
          insert.run([e.start - origin, e.end - origin, type.NvtxPushPopRange, e.category || null, color(e.name), header.names[e.name], gtid[e.thread], null]);
          last = Math.max(last, e.end - origin);
          break;
        case 'mark':
          insert.run([e.t - origin, null, type.NvtxMark, e.category || null, color(e.name), header.names[e.name], gtid[e.thread], e.payload ?? null]);
          last = Math.max(last, e.t - origin);
          break;
        case 'startEnd':
          insert.run([e.start - origin, e.end - origin, type.NvtxStartEndRange, e.category, color(e.name), header.names[e.name], gtid[e.thread], e.payload ?? null]);
          last = Math.max(last, e.end - origin);
          break;
        default:
          throw new Error('the nsys writer takes complete ranges');
      }
      count++;
    }
    db.run('COMMIT');
    insert.free();
    db.run('UPDATE ANALYSIS_DETAILS SET startTime = 0, stopTime = ?, duration = ?', [last, last]);
    sink.bytes(db.export());
    return count;
  } finally {
    db.close();
  }
}
