import { describe, expect, it } from 'vitest';
import { OPEN_COMMIT_AT, OPEN_EVENTS_AT, OPEN_EVENTS_HEADER } from './format.ts';
import { openChunkEvents } from './openChunk.ts';

/** The body of an OPEN chunk of `size` body bytes whose commit word says `used`. */
function openBody(size: number, used: number): Uint8Array {
  const body = new Uint8Array(size);
  new DataView(body.buffer).setUint32(OPEN_COMMIT_AT - 12, used, true);
  body[OPEN_EVENTS_AT - 12] = 0x81; // a first header byte, to see where the view starts
  return body;
}

describe('openChunkEvents', () => {
  it('ignores an empty buffer', () => {
    expect(openChunkEvents(openBody(4096, 0), 4096)).toBeNull();
  });

  it('returns the committed EVENTS body with its file offset', () => {
    const used = OPEN_EVENTS_HEADER + 7;
    const open = openChunkEvents(openBody(4096, used), 8192);
    expect(open).not.toBeNull();
    expect(typeof open).toBe('object');
    const { events, fileOffset } = open as Exclude<typeof open, string | null>;
    expect(events.length).toBe(used);
    expect(events[0]).toBe(0x81);
    expect(fileOffset).toBe(8192 + OPEN_EVENTS_AT);
  });

  it('says when the commit word cannot be right', () => {
    expect(openChunkEvents(openBody(4096, 5000), 0)).toMatch(/does not fit/);
    expect(openChunkEvents(openBody(4096, 3), 0)).toMatch(/does not fit/);
    expect(openChunkEvents(new Uint8Array(20), 0)).toMatch(/too short/);
  });
});
