/**
 * The decoder reads the usual event attributes straight from the bytes (commonAttrs) and anything
 * else through the reader (allAttrs, the general path). Both must give the same attributes, the
 * same reader position, the same errors and the same reports: checked here on random attribute
 * blocks, valid and not, against the general path alone.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, type EventAttrs } from '../../model/builder.ts';
import { NativeDecoder } from './decoder.ts';
import { FormatError, ByteReader } from './reader.ts';
import { seededRandom as random } from '../../../testkit/gen/random.ts';

/** A varint, sometimes in more bytes than it needs (valid: continuation bits over zero groups). */
function varint(out: number[], v: number, next: () => number): void {
  const padded = next() < 0.1 ? 1 + Math.floor(next() * 3) : 0;
  let extra = padded;
  do {
    const low = v % 128;
    v = Math.floor(v / 128);
    out.push(v > 0 || extra > 0 ? low | 0x80 : low);
  } while (v > 0);
  while (extra-- > 0) out.push(extra > 0 ? 0x80 : 0);
}

function attributeBlock(next: () => number): number[] {
  const pick = (n: number) => Math.floor(next() * n);
  const mask = next() < 0.85 ? pick(16) : pick(256);
  const body: number[] = [];
  varint(body, mask, next);
  if (mask & 1) varint(body, next() < 0.8 ? pick(128) : pick(1 << 20), next);
  if (mask & 2) {
    varint(body, pick(3), next);
    for (let i = 0; i < 4; i++) body.push(pick(256));
  }
  if (mask & 4) {
    varint(body, next() < 0.9 ? pick(8) : pick(300), next);
    for (let i = 0; i < 8; i++) body.push(next() < 0.5 ? 0 : pick(256));
  }
  if (mask & 8) {
    varint(body, 1 + pick(3), next);
    varint(body, next() < 0.6 ? pick(128) : next() < 0.8 ? pick(1 << 14) : pick(1 << 21), next);
  }
  if (mask & 16) body.push(...Array.from({ length: pick(6) }, () => pick(256))); // extended payloads (likely malformed)
  if (next() < 0.1) body.push(...Array.from({ length: pick(4) }, () => pick(256))); // fields of a later version
  // The stated length: usually right, sometimes short or long.
  const length = next() < 0.85 ? body.length : Math.max(0, body.length + pick(7) - 3);
  const out: number[] = [];
  varint(out, length, next);
  out.push(...body);
  if (next() < 0.3) out.push(...Array.from({ length: pick(4) }, () => pick(256))); // the next record
  else if (next() < 0.2) out.length = Math.max(0, out.length - 1 - pick(3)); // the chunk ends early
  return out;
}

interface Outcome {
  attrs?: EventAttrs;
  pos?: number;
  error?: string;
  reports: string[];
}

/** Reads one block with a fresh decoder; `general`: through allAttrs only, as before the fast path. */
function read(bytes: Uint8Array, general: boolean): Outcome {
  const b = new ModelBuilder({ fileName: 'attrs.nvtxc', format: 'nvtxc', byteSize: bytes.length });
  const reports: string[] = [];
  b.report = (...args: unknown[]) => void reports.push(JSON.stringify(args));
  const decoder = new NativeDecoder(b) as unknown as Record<string, (...args: unknown[]) => EventAttrs | undefined>;
  const strings = [b.intern('')];
  for (let i = 1; i < 200; i++) strings.push(b.intern(`name ${i}`));
  const st = { id: 1, thread: 0, tid: 1, decodedTo: 0, prevRel: 0, lastNs: 0, strings, resumeNeeded: false, reportedMissingString: false, unnumberedStrings: undefined };
  const r = new ByteReader(bytes, 0, bytes.length, 1000);
  try {
    let attrs: EventAttrs | undefined;
    if (general) {
      const length = r.varint();
      const end = r.pos + length;
      if (end > r.end) r.fail('event attributes run past the end of their chunk');
      attrs = decoder.allAttrs(r, st, 3, end);
    } else {
      attrs = decoder.readAttrs(r, st, 3);
    }
    return { attrs: { ...attrs }, pos: r.pos, reports };
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    return { error: `${e.message} @${e.offset}`, reports };
  }
}

describe('event attributes: the direct read of the usual ones against the general path', () => {
  it('agrees on random blocks, valid and damaged', () => {
    const next = random(21);
    let common = 0;
    for (let trial = 0; trial < 3000; trial++) {
      const bytes = Uint8Array.from(attributeBlock(next));
      const want = read(bytes, true);
      const got = read(bytes, false);
      expect(got, `block ${Array.from(bytes).join(',')}`).toEqual(want);
      if (want.attrs && (bytes[1] & ~15) === 0) common++;
    }
    expect(common).toBeGreaterThan(1000); // the direct read was exercised, not only the fallback
  });
});
