/**
 * Start/end ranges between their start and their end, by id: what the start said (thread, time,
 * style, payload, location, category, domain) in columns indexed by a slot, slots reused once the
 * range ends. No object per range: a capture has millions of start/end ranges but few open at once.
 *
 * Number ids (nvtxRangeId_t, mostly above 2^31) go to a typed-array table: in a `Map` each one is
 * a heap number, and the map's set, has and delete were ~0.2 s of a 10M native load
 * (docs/performance.md, "The native one-thread load, per record"). Other ids (strings, NaN) go to a
 * `Map`. Each slot remembers when it opened, so `entries()` keeps a `Map`'s order.
 */
import { RangeIdTable } from '../rangeIdTable.ts';

/** How a slot is held: closed, by the number table, or by the map. */
const Held = { Closed: 0, Number: 1, Other: 2 } as const;

export class OpenStartEnds {
  private readonly numbers = new RangeIdTable();
  private readonly others = new Map<string | number, number>();
  private readonly free: number[] = [];
  /** Slots ever used: every slot below is open or in `free`. */
  private used = 0;
  /** Opens so far: the order of `entries()`. */
  private opened = 0;
  /** Per slot: `Held`. */
  private held = new Uint8Array(16);
  /** Per slot: its number id (for `entries()`). */
  private numberKey = new Float64Array(16);
  /** Per slot: the value of `opened` when it opened. */
  private openedAt = new Float64Array(16);
  thread = new Int32Array(16);
  t = new Float64Array(16);
  style = new Uint32Array(16);
  payload = new Int32Array(16);
  loc = new Float64Array(16);
  category = new Int32Array(16);
  domain = new Int32Array(16);

  has(key: string | number): boolean {
    return typeof key === 'number' && key === key ? this.numbers.has(key) : this.others.has(key);
  }

  /** Opens `key` (not open) and returns its slot, to be filled by the caller. */
  open(key: string | number): number {
    let slot = this.free.pop();
    if (slot === undefined) {
      slot = this.used++;
      if (slot === this.t.length) this.grow();
    }
    if (typeof key === 'number' && key === key) {
      this.numbers.set(key, slot);
      this.held[slot] = Held.Number;
      this.numberKey[slot] = key + 0; // -0 as +0, as a Map keeps it
    } else {
      this.others.set(key, slot);
      this.held[slot] = Held.Other;
    }
    this.openedAt[slot] = this.opened++;
    return slot;
  }

  /** Closes `key`: its slot (valid until the next `open`), or -1 when it is not open. */
  close(key: string | number): number {
    let slot: number;
    if (typeof key === 'number' && key === key) slot = this.numbers.delete(key);
    else {
      slot = this.others.get(key) ?? -1;
      if (slot >= 0) this.others.delete(key);
    }
    if (slot < 0) return -1;
    this.held[slot] = Held.Closed;
    this.free.push(slot);
    return slot;
  }

  /** The open ranges as (id, slot), in the order they started (as a `Map` of them would list them). */
  entries(): [string | number, number][] {
    const slots: number[] = [];
    for (let slot = 0; slot < this.used; slot++) if (this.held[slot] !== Held.Closed) slots.push(slot);
    slots.sort((a, b) => this.openedAt[a] - this.openedAt[b]);
    const keyOfOther = new Map<number, string | number>();
    for (const [key, slot] of this.others) keyOfOther.set(slot, key);
    return slots.map((slot) => [this.held[slot] === Held.Number ? this.numberKey[slot] : keyOfOther.get(slot)!, slot]);
  }

  clear(): void {
    for (const [key] of this.entries()) this.close(key);
    this.free.length = 0;
    this.used = 0;
  }

  private grow(): void {
    const n = this.t.length * 2;
    this.held = grown(this.held, new Uint8Array(n));
    this.numberKey = grown(this.numberKey, new Float64Array(n));
    this.openedAt = grown(this.openedAt, new Float64Array(n));
    this.thread = grown(this.thread, new Int32Array(n));
    this.t = grown(this.t, new Float64Array(n));
    this.style = grown(this.style, new Uint32Array(n));
    this.payload = grown(this.payload, new Int32Array(n));
    this.loc = grown(this.loc, new Float64Array(n));
    this.category = grown(this.category, new Int32Array(n));
    this.domain = grown(this.domain, new Int32Array(n));
  }
}

function grown<T extends Uint8Array | Float64Array | Uint32Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
