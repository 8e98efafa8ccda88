/**
 * Async keys whose id is an integer (nearly all of them: Chrome writes `"id":"0x1f"`, others
 * `"id":123` or `"id":"123"`), looked up by (category, integer) in an open-addressed table of
 * numbers instead of as key bytes: no bytes copied into a key, no hash over them, and one probe
 * reads one cache line, where the byte table reads a slot, an entry and the key's bytes (three
 * cache misses per event once a trace has 100k keys).
 *
 * The caller must send a key here exactly when its bytes have the integer shape
 * (`integerIdCode`), so that each key always takes the same table and both tables can share one
 * numbering (`AsyncRangeMatcher`).
 */

/** Doubles per slot: the id's code, then prefix * 2^32 + 1 + key id (0: empty slot). */
const SLOT = 2;
const TWO_32 = 4294967296;
/** Prefixes below this pack with a key id into one double, exactly. */
export const MAX_INT_KEY_PREFIX = 1 << 20;

/** Longest decimal id taken as an integer: 15 digits, exact in a double even doubled. */
const MAX_DECIMAL_DIGITS = 15;
/** Longest hexadecimal id taken as an integer: 13 digits (52 bits), exact in a double doubled. */
const MAX_HEX_DIGITS = 13;

/**
 * A number that stands for the id buf[start, end) when it is a canonical non-negative integer:
 * decimal ("123", at most 15 digits) or hexadecimal as Chrome writes ids ("0x7b": lowercase, at most
 * 13 digits), with no sign and no leading zero, as value * 2 + (1 for hexadecimal); else -1. Two
 * ids with the same number then have the same bytes, so the number stands for the bytes in a key.
 */
export function integerIdCode(buf: Uint8Array, start: number, end: number): number {
  const n = end - start;
  if (n <= 0) return -1;
  if (buf[start] === 0x30) {
    if (n === 1) return 0;
    if (buf[start + 1] !== 0x78 || n < 3 || n > 2 + MAX_HEX_DIGITS) return -1; // 0x
    // No leading zero, except the id "0x0" itself.
    if (buf[start + 2] === 0x30 && n > 3) return -1;
    let v = 0;
    for (let i = start + 2; i < end; i++) {
      const c = buf[i];
      const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
      if (d < 0) return -1;
      v = v * 16 + d;
    }
    return v * 2 + 1;
  }
  if (n > MAX_DECIMAL_DIGITS) return -1;
  let v = 0;
  for (let i = start; i < end; i++) {
    const d = buf[i] - 0x30;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v * 2;
}

/**
 * (prefix, code) -> key id: open addressing with linear probing, at most half full, 16 bytes a
 * slot. Prefixes below `MAX_INT_KEY_PREFIX`.
 */
export class IntKeyTable {
  private slots = new Float64Array(1024 * SLOT);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The key id stored for (prefix, code), or -1. */
  get(prefix: number, code: number): number {
    const slots = this.slots;
    const mask = slots.length / SLOT - 1;
    const tagBase = prefix * TWO_32;
    for (let s = hash(prefix, code) & mask; ; s = (s + 1) & mask) {
      const at = s * SLOT;
      const tag = slots[at + 1];
      if (tag === 0) return -1;
      const id = tag - tagBase;
      if (slots[at] === code && id >= 1 && id < TWO_32) return id - 1;
    }
  }

  /** Stores `keyId` for (prefix, code), which must not be in the table yet. */
  set(prefix: number, code: number, keyId: number): void {
    if ((this.count + 1) * 2 > this.slots.length / SLOT) this.rehash(this.slots.length * 2);
    place(this.slots, code, prefix * TWO_32 + keyId + 1);
    this.count++;
  }

  /** The (prefix, code) stored for `keyId`, or undefined. For messages, not hot paths. */
  keyOf(keyId: number): { prefix: number; code: number } | undefined {
    const slots = this.slots;
    for (let at = 0; at < slots.length; at += SLOT) {
      const tag = slots[at + 1];
      if (tag !== 0 && tag % TWO_32 === keyId + 1) return { prefix: Math.floor(tag / TWO_32), code: slots[at] };
    }
    return undefined;
  }

  private rehash(length: number): void {
    const old = this.slots;
    this.slots = new Float64Array(length);
    for (let at = 0; at < old.length; at += SLOT) if (old[at + 1] !== 0) place(this.slots, old[at], old[at + 1]);
  }
}

function place(slots: Float64Array, code: number, tag: number): void {
  const mask = slots.length / SLOT - 1;
  let s = hash(Math.floor(tag / TWO_32), code) & mask;
  while (slots[s * SLOT + 1] !== 0) s = (s + 1) & mask;
  slots[s * SLOT] = code;
  slots[s * SLOT + 1] = tag;
}

/**
 * Slot hash of (prefix, code): both 32-bit halves and the prefix mixed (murmur3's finaliser).
 * Measured: a hash that kept consecutive ids in neighbouring slots, for cache locality, made long
 * probe runs where the ids of several categories met, and inserting took 5x longer.
 */
function hash(prefix: number, code: number): number {
  const lo = code >>> 0;
  const hi = (code / TWO_32) | 0;
  let h = Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi + Math.imul(prefix, 0x27d4eb2f), 0x85ebca6b);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h;
}
