/**
 * CRC-32C (Castagnoli), as used by `.nvtxc` chunk headers. Slicing-by-16: four little-endian
 * 32-bit words per step through sixteen 256-entry tables. The tables are Int32Array so that every
 * entry is a small integer to V8 (a Uint32Array entry above 2^31 is a double), and the words come
 * from a DataView (one load each instead of four byte loads and shifts): together about 1.7x the
 * byte-assembled slicing-by-8 (docs/performance.md, "The native decoder's CPU").
 */

const TABLE = (() => {
  const t = new Int32Array(16 * 256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[i] = c;
  }
  for (let i = 0; i < 256; i++) {
    for (let s = 1; s < 16; s++) t[s * 256 + i] = (t[(s - 1) * 256 + i] >>> 8) ^ t[t[(s - 1) * 256 + i] & 0xff];
  }
  return t;
})();

/** Continues a CRC over `bytes` (start with 0). */
export function crc32c(bytes: Uint8Array, crc = 0): number {
  let c = ~crc;
  let i = 0;
  const n = bytes.length;
  const t = TABLE;
  if (n >= 16) {
    const v = new DataView(bytes.buffer, bytes.byteOffset, n);
    for (; i + 16 <= n; i += 16) {
      const a = v.getInt32(i, true) ^ c;
      const b = v.getInt32(i + 4, true);
      const d = v.getInt32(i + 8, true);
      const e = v.getInt32(i + 12, true);
      c =
        t[3840 + (a & 0xff)] ^
        t[3584 + ((a >>> 8) & 0xff)] ^
        t[3328 + ((a >>> 16) & 0xff)] ^
        t[3072 + (a >>> 24)] ^
        t[2816 + (b & 0xff)] ^
        t[2560 + ((b >>> 8) & 0xff)] ^
        t[2304 + ((b >>> 16) & 0xff)] ^
        t[2048 + (b >>> 24)] ^
        t[1792 + (d & 0xff)] ^
        t[1536 + ((d >>> 8) & 0xff)] ^
        t[1280 + ((d >>> 16) & 0xff)] ^
        t[1024 + (d >>> 24)] ^
        t[768 + (e & 0xff)] ^
        t[512 + ((e >>> 8) & 0xff)] ^
        t[256 + ((e >>> 16) & 0xff)] ^
        t[e >>> 24];
    }
  }
  for (; i < n; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/** One byte through the bare CRC register (no initial value, no final XOR): what a scan keeps per byte. */
export function crc32cRegisterStep(register: number, byte: number): number {
  return TABLE[(register ^ byte) & 0xff] ^ (register >>> 8);
}

/** a * b modulo the Castagnoli polynomial, both in the reflected bit order of the register. */
function multiplyModP(a: number, b: number): number {
  let product = 0;
  for (let m = 0x80000000; m !== 0 && a !== 0; m >>>= 1) {
    if (a & m) {
      product ^= b;
      a ^= m;
    }
    b = b & 1 ? (b >>> 1) ^ 0x82f63b78 : b >>> 1;
  }
  return product >>> 0;
}

/** x^(8 * 2^k) mod P for k = 0..63: shifting by n bytes multiplies by one power per set bit of n. */
const BYTE_SHIFT_POWERS = (() => {
  const powers = new Uint32Array(64);
  let p = 0x00800000; // x^8 in reflected order
  for (let k = 0; k < 64; k++) {
    powers[k] = p;
    p = multiplyModP(p, p);
  }
  return powers;
})();

/**
 * The register after feeding `n` zero bytes to `register`. CRCs are linear, so for any bytes D
 * the register after D from state s is `crc32cShift(s, |D|) ^ (register after D from 0)`: this
 * lets a scan check a candidate chunk's CRC from two saved register values in O(log n) steps,
 * without reading its body again.
 */
export function crc32cShift(register: number, n: number): number {
  let r = register >>> 0;
  for (let k = 0; n > 0 && r !== 0; k++, n = Math.floor(n / 2)) {
    if (n % 2 === 1) r = multiplyModP(BYTE_SHIFT_POWERS[k], r);
  }
  return r;
}
