/** Reading little-endian scalars and strings out of payload bytes. Callers check bounds first. */

/** A byte buffer with a DataView over exactly its bytes. */
export interface Buf {
  bytes: Uint8Array;
  view: DataView;
}

export function bufOf(bytes: Uint8Array): Buf {
  return { bytes, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

const TWO_53 = 2n ** 53n;

/** A bigint as a number when that is exact, else the bigint. */
export function exactNumber(v: bigint): number | bigint {
  return v <= TWO_53 && v >= -TWO_53 ? Number(v) : v;
}

/**
 * Integer of `size` bytes (1, 2, 4, 8 or 16). Up to 32 bits: a number; 64 bits: a number when
 * exact, else a bigint; 128 bits: always a bigint.
 */
export function readInt(b: Buf, off: number, size: number, signed: boolean): number | bigint {
  const v = b.view;
  switch (size) {
    case 1:
      return signed ? v.getInt8(off) : v.getUint8(off);
    case 2:
      return signed ? v.getInt16(off, true) : v.getUint16(off, true);
    case 4:
      return signed ? v.getInt32(off, true) : v.getUint32(off, true);
    case 8:
      return exactNumber(signed ? v.getBigInt64(off, true) : v.getBigUint64(off, true));
    case 16: {
      const lo = v.getBigUint64(off, true);
      const hi = v.getBigUint64(off + 8, true);
      const u = (hi << 64n) | lo;
      return signed ? BigInt.asIntN(128, u) : u;
    }
    default:
      return readBigUint(b, off, size);
  }
}

/** Unsigned little-endian integer of any width, as a bigint. */
export function readBigUint(b: Buf, off: number, size: number): bigint {
  let u = 0n;
  for (let i = size - 1; i >= 0; i--) u = (u << 8n) | BigInt(b.bytes[off + i]);
  return u;
}

/** IEEE 754 binary16. */
export function float16ToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 0x1f) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

const f32 = new DataView(new ArrayBuffer(4));

/** bfloat16: the upper half of a binary32. */
export function bfloat16ToNumber(h: number): number {
  f32.setUint32(0, (h & 0xffff) << 16);
  return f32.getFloat32(0);
}

/** TensorFloat-32 stored in 32 bits: a binary32 with 10 mantissa bits (the 13 low bits are ignored). */
export function tf32ToNumber(bits: number): number {
  f32.setUint32(0, (bits & 0xffffe000) >>> 0);
  return f32.getFloat32(0);
}

/** m × 2^e without intermediate overflow/underflow (e may be far outside the double range). */
function scale2(m: number, e: number): number {
  if (m === 0) return 0;
  let x = m;
  let k = e;
  while (k > 1000) {
    x *= 2 ** 1000;
    k -= 1000;
    if (!Number.isFinite(x)) return x;
  }
  while (k < -1000) {
    x *= 2 ** -1000;
    k += 1000;
    if (x === 0) return x;
  }
  return x * 2 ** k;
}

/**
 * x87 80-bit extended precision (the first 10 of `long double`'s 16 bytes): 64-bit significand with
 * an explicit integer bit, 15-bit exponent biased by 16383. Rounded to the nearest double.
 */
export function readX87(b: Buf, off: number): number {
  const mant = b.view.getBigUint64(off, true);
  const se = b.view.getUint16(off + 8, true);
  const sign = se & 0x8000 ? -1 : 1;
  const exp = se & 0x7fff;
  if (exp === 0x7fff) {
    // Infinity has only the integer bit set; everything else (NaNs, pseudo-infinities) is NaN.
    return mant === 1n << 63n ? sign * Infinity : NaN;
  }
  // Denormals (exp 0) use the minimum exponent 1 - 16383.
  const e = (exp === 0 ? 1 : exp) - 16383 - 63;
  return sign * scale2(Number(mant), e);
}

/** IEEE 754 binary128 (`__float128`, `_Float128`), rounded to the nearest double. */
export function readFloat128(b: Buf, off: number): number {
  const lo = b.view.getBigUint64(off, true);
  const hi = b.view.getBigUint64(off + 8, true);
  const sign = hi >> 63n ? -1 : 1;
  const exp = Number((hi >> 48n) & 0x7fffn);
  const frac = ((hi & 0xffffffffffffn) << 64n) | lo;
  if (exp === 0x7fff) return frac === 0n ? sign * Infinity : NaN;
  const mant = exp === 0 ? frac : frac | (1n << 112n);
  const e = (exp === 0 ? 1 : exp) - 16383 - 112;
  return sign * scale2(Number(mant), e);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const utf16 = new TextDecoder('utf-16le');

/** True if all `width` bytes at `off` are zero. */
export function isZero(bytes: Uint8Array, off: number, width: number): boolean {
  for (let i = 0; i < width; i++) if (bytes[off + i] !== 0) return false;
  return true;
}

/** Number of code units before the first NUL code unit in [off, off + units × width), or `units`. */
export function unitsBeforeNul(bytes: Uint8Array, off: number, units: number, width: number): number {
  for (let u = 0; u < units; u++) if (isZero(bytes, off + u * width, width)) return u;
  return units;
}

/**
 * Text of `units` code units of `width` bytes (1: UTF-8, 2: UTF-16LE, 4: UTF-32LE). Byte strings
 * that are not valid UTF-8 (a program's locale may be Latin-1) are read as Latin-1; invalid UTF-32
 * code points become U+FFFD.
 */
export function decodeText(b: Buf, off: number, units: number, width: 1 | 2 | 4): string {
  if (units <= 0) return '';
  if (width === 1 && units <= 64) {
    // Short ASCII (most names and labels): cheaper than a TextDecoder call.
    let s = '';
    let i = 0;
    for (; i < units; i++) {
      const c = b.bytes[off + i];
      if (c >= 0x80) break;
      s += String.fromCharCode(c);
    }
    if (i === units) return s;
  }
  const bytes = b.bytes.subarray(off, off + units * width);
  if (width === 1) {
    try {
      return utf8.decode(bytes);
    } catch {
      return latin1(bytes);
    }
  }
  if (width === 2) return utf16.decode(bytes);
  let out = '';
  for (let u = 0; u < units; u++) {
    const cp = b.view.getUint32(off + u * 4, true);
    out += cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) ? String.fromCodePoint(cp) : '\ufffd';
  }
  return out;
}

function latin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += String.fromCharCode(bytes[i]);
  return out;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Lower-case hex of bytes [start, end), without separators. */
export function hex(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let out = '';
  const e = Math.min(end, bytes.length);
  for (let i = Math.max(0, start); i < e; i++) out += HEX[bytes[i]];
  return out;
}
