/**
 * Streaming gunzip for the load pipeline that keeps what decompressed when the stream is damaged or
 * cut: the problem is noted (where it stopped, in compressed and decompressed bytes) and the
 * decoder gets everything before it. The gzip trailer's CRC-32 and size are checked, so a file
 * whose bytes changed inside the deflate data is reported rather than loaded silently.
 */
import { Gunzip } from 'fflate';

/** A problem of the gzip layer; `offset` is in compressed bytes (the message says so too). */
export interface GzipProblem {
  severity: 'error' | 'warning';
  offset: number;
  message: string;
}

let crcTable: Uint32Array | undefined;

/** CRC-32 (IEEE 802.3, gzip's) of `bytes`, continuing from `crc`. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/** Streams gunzip over compressed chunks; each output piece is yielded as soon as it is ready. */
export async function* gunzipChunks(compressed: AsyncIterable<Uint8Array>, problems: GzipProblem[]): AsyncGenerator<Uint8Array> {
  const ready: Uint8Array[] = [];
  let members = 0;
  const inflater = new Gunzip((data) => {
    ready.push(data);
  });
  inflater.onmember = () => members++;
  let consumed = 0;
  let produced = 0;
  let crc = 0;
  // The last 8 compressed bytes: the trailer (CRC-32, size mod 2^32) of a single-member file.
  const tail = new Uint8Array(8);
  let tailLength = 0;
  const take = function* (): Generator<Uint8Array> {
    while (ready.length > 0) {
      const piece = ready.shift()!;
      produced += piece.length;
      crc = crc32(piece, crc);
      yield piece;
    }
  };
  const stopped = (what: string, e: unknown) => {
    problems.push({
      severity: 'error',
      offset: consumed,
      message: `${what} near compressed byte ${consumed.toLocaleString('en-US')} (${(e as Error).message}); the ${produced.toLocaleString('en-US')} bytes decompressed before it are shown`,
    });
  };
  for await (const chunk of compressed) {
    try {
      inflater.push(chunk, false);
    } catch (e) {
      yield* take();
      stopped('gzip data is damaged', e);
      return;
    }
    consumed += chunk.length;
    if (chunk.length >= 8) {
      tail.set(chunk.subarray(chunk.length - 8));
      tailLength = 8;
    } else {
      tail.copyWithin(0, chunk.length);
      tail.set(chunk, 8 - chunk.length);
      tailLength = Math.min(8, tailLength + chunk.length);
    }
    yield* take();
  }
  try {
    inflater.push(new Uint8Array(0), true);
  } catch (e) {
    yield* take();
    stopped('the gzip stream ends early: the file is cut', e);
    return;
  }
  yield* take();
  // `onmember` runs when a further member starts: 0 means a single-member file, whose trailer ends it.
  if (members > 0) return;
  const view = new DataView(tail.buffer);
  const wantCrc = view.getUint32(0, true);
  const wantSize = view.getUint32(4, true);
  if (tailLength < 8 || wantSize !== produced % 2 ** 32) {
    problems.push({
      severity: 'error',
      offset: consumed,
      message: `the gzip stream ends early: the file is cut at compressed byte ${consumed.toLocaleString('en-US')} (its trailer is missing); the ${produced.toLocaleString('en-US')} bytes decompressed before it are shown`,
    });
  } else if (wantCrc !== crc) {
    problems.push({
      severity: 'error',
      offset: consumed - 8,
      message: `the gzip checksum does not match (CRC-32 ${crc.toString(16).padStart(8, '0')}, the file says ${wantCrc.toString(16).padStart(8, '0')}): the decompressed data is damaged somewhere`,
    });
  }
}
