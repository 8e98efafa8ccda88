/**
 * Start/end ranges between their start and their end, by id: what the start said (thread, time,
 * style, payload, location, category, domain) in columns indexed by a slot, slots reused once the
 * range ends. No object per range: a capture has millions of start/end ranges but few open at once.
 */
export class OpenStartEnds {
  /** Id -> slot, in the order the ranges started (closing what is left at the end goes by it). */
  private readonly slots = new Map<string | number, number>();
  private readonly free: number[] = [];
  thread = new Int32Array(16);
  t = new Float64Array(16);
  style = new Uint32Array(16);
  payload = new Int32Array(16);
  loc = new Float64Array(16);
  category = new Int32Array(16);
  domain = new Int32Array(16);

  has(key: string | number): boolean {
    return this.slots.has(key);
  }

  /** Opens `key` (not open) and returns its slot, to be filled by the caller. */
  open(key: string | number): number {
    let slot = this.free.pop();
    if (slot === undefined) {
      slot = this.slots.size;
      if (slot === this.t.length) this.grow();
    }
    this.slots.set(key, slot);
    return slot;
  }

  /** Closes `key`: its slot (valid until the next `open`), or -1 when it is not open. */
  close(key: string | number): number {
    const slot = this.slots.get(key);
    if (slot === undefined) return -1;
    this.slots.delete(key);
    this.free.push(slot);
    return slot;
  }

  /** The open ranges as (id, slot), in the order they started. */
  entries(): IterableIterator<[string | number, number]> {
    return this.slots.entries();
  }

  clear(): void {
    this.slots.clear();
    this.free.length = 0;
  }

  private grow(): void {
    const n = this.t.length * 2;
    this.thread = grown(this.thread, new Int32Array(n));
    this.t = grown(this.t, new Float64Array(n));
    this.style = grown(this.style, new Uint32Array(n));
    this.payload = grown(this.payload, new Int32Array(n));
    this.loc = grown(this.loc, new Float64Array(n));
    this.category = grown(this.category, new Int32Array(n));
    this.domain = grown(this.domain, new Int32Array(n));
  }
}

function grown<T extends Float64Array | Uint32Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
