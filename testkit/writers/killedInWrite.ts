/**
 * The capture a process leaves when kill -9 lands inside the write of an EVENTS chunk. The
 * collector writes a full thread buffer (an OPEN chunk mapped from the file) as an EVENTS chunk and
 * empties the buffer only after the write, so the chunk ends cut short at the end of the file while
 * its events are usually still in the buffer.
 *
 * One thread (stream 1) pushes and pops 20 ranges "early 0".."early 19", written whole, then 20
 * ranges "late 0".."late 19", whose chunk is cut after `keep(chunk bytes)` bytes.
 */
import { Chunk, CHUNK_HEADER_SIZE, OPEN_COMMIT_AT, OPEN_EVENTS_AT, OPEN_EVENTS_HEADER } from '../../src/import/native/format.ts';
import { ByteWriter, CaptureWriter, StreamRecords } from './nvtxcWriter.ts';

export interface KilledInWrite {
  bytes: Uint8Array;
  /** File offset of the cut chunk's header. */
  cutAt: number;
  /** Body length the cut chunk's header states. */
  declared: number;
  /** Stream bytes of the cut chunk's records: [from, to). */
  from: number;
  to: number;
  /** First stream byte the buffer does not hold (`to` when it holds them all, `from` when there is none). */
  bufferedTo: number;
}

export const KILLED_EARLY = Array.from({ length: 20 }, (_, i) => `early ${i}`);
export const KILLED_LATE = Array.from({ length: 20 }, (_, i) => `late ${i}`);

const SEAL: [bigint, bigint] = [3_000_000n, 5_001_000_000n];

/**
 * `buffer`: what the thread's buffer holds of the cut chunk: all of it, all but its last two
 * ranges (records written directly, past the buffer), none (no buffer in the file), or all of it
 * but damaged ('torn': a record's first byte follows them, committed without the rest).
 */
export function killedInWrite(buffer: 'all' | 'part' | 'none' | 'torn', keep: (chunkBytes: number) => number): KilledInWrite {
  const rec = new StreamRecords().thread(5, 'w');
  KILLED_EARLY.forEach((_, i) => rec.push(1000 + i * 100, KILLED_EARLY[i]).pop(1050 + i * 100));
  const from = rec.bytes().length;
  let beforeLastTwo = 0;
  KILLED_LATE.forEach((name, i) => {
    if (i === KILLED_LATE.length - 2) beforeLastTwo = rec.bytes().length;
    rec.push(5000 + i * 100, name).pop(5050 + i * 100);
  });
  const all = rec.bytes();
  const to = all.length;
  const bufferedTo = buffer === 'all' || buffer === 'torn' ? to : buffer === 'part' ? beforeLastTwo : from;

  const w = new CaptureWriter().process({ pid: 7, t0: 1_000_000n, n0: 5_000_000_000n, tickRate: 2_000_000_000 });
  w.events(1, SEAL, all, 0, from);
  if (buffer !== 'none') w.chunk(Chunk.Open, openBody(buffer === 'torn' ? concat(all, all.subarray(from, from + 1)) : all, from, bufferedTo + (buffer === 'torn' ? 1 : 0)));
  const cutAt = w.bytes().length;
  w.events(1, SEAL, all, from, to);
  const whole = w.bytes();
  return { bytes: whole.subarray(0, cutAt + keep(whole.length - cutAt)), cutAt, declared: whole.length - cutAt - CHUNK_HEADER_SIZE, from, to, bufferedTo };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** An OPEN chunk body whose committed buffer holds stream 1's records [from, to). */
function openBody(records: Uint8Array, from: number, to: number): Uint8Array {
  const events = new ByteWriter().varint(1).varint(from).varint(SEAL[0]).varint(SEAL[1]).varint(0).bytes(records.subarray(from, to)).done();
  const body = new Uint8Array(OPEN_EVENTS_AT - CHUNK_HEADER_SIZE + Math.max(events.length, OPEN_EVENTS_HEADER));
  new DataView(body.buffer).setUint32(OPEN_COMMIT_AT - CHUNK_HEADER_SIZE, events.length, true);
  body.set(events, OPEN_EVENTS_AT - CHUNK_HEADER_SIZE);
  return body;
}
