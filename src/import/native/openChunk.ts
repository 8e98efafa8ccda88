/**
 * OPEN chunks (docs/capture-format.md, section 2.2): a thread's event buffer that the collector
 * maps from the capture file and writes in place, so that a process ending by _exit() or SIGKILL
 * leaves its last events in the file. The chunk has no checksum; its commit word says how many
 * bytes of the EVENTS body inside hold whole records.
 */
import { CHUNK_HEADER_SIZE, OPEN_COMMIT_AT, OPEN_EVENTS_AT, OPEN_EVENTS_HEADER } from './format.ts';

export interface OpenEvents {
  /** The EVENTS body (header and the committed records). */
  events: Uint8Array;
  /** File offset of events[0]. */
  fileOffset: number;
}

/**
 * The committed EVENTS body of an OPEN chunk's body, or null when the buffer is empty; a string
 * when the commit word cannot be right (damage).
 */
export function openChunkEvents(body: Uint8Array, chunkOffset: number): OpenEvents | null | string {
  const commitAt = OPEN_COMMIT_AT - CHUNK_HEADER_SIZE;
  const eventsAt = OPEN_EVENTS_AT - CHUNK_HEADER_SIZE;
  if (body.length < eventsAt + OPEN_EVENTS_HEADER) return `OPEN chunk of ${body.length} bytes is too short`;
  const used = new DataView(body.buffer, body.byteOffset + commitAt, 4).getUint32(0, true);
  if (used === 0) return null;
  if (used < OPEN_EVENTS_HEADER || used > body.length - eventsAt) {
    return `OPEN chunk says ${used} bytes are in use, which does not fit its ${body.length - eventsAt}`;
  }
  return { events: body.subarray(eventsAt, eventsAt + used), fileOffset: chunkOffset + OPEN_EVENTS_AT };
}
