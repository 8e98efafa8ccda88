/**
 * The open begins of one async key while its events are matched in time order
 * (`AsyncRangeMatcher.finish`): an end takes the innermost open begin of its name, or the
 * innermost of all when it has no name. A key usually has one or two open at a time, kept in a
 * small array and searched from the innermost; past `SMALL_MAX` open at once the key switches to a
 * list in begin order plus a stack per name, so that each end costs O(1) however many are open
 * (ends in begin order of 50,000 begins of one key took 2.8 s of CPU with the array alone).
 */

/** Open begins kept in the array and searched; more switch the key to the list and name stacks. */
const SMALL_MAX = 32;

export class OpenBegins {
  /** Open begins (event indices) while the key has at most SMALL_MAX open. */
  private readonly small: number[] = [];
  /** Open begins of the current key. */
  count = 0;
  private big = false;
  // The list and the name stacks, by event index (indices are unique within one matching, so
  // the arrays are never cleared): neighbours in begin order, the next outer open begin of the
  // same name when this one was opened, taken already (left in its name stack, skipped there).
  private prev = new Int32Array(0);
  private next = new Int32Array(0);
  private outerSameName = new Int32Array(0);
  private taken = new Uint8Array(0);
  private head = -1;
  private tail = -1;
  /** Name id -> its innermost open begin (or one taken since, skipped when met). */
  private readonly innermostOfName = new Map<number, number>();

  /** @param names the name id of each event (begins have one); `events` events in all. */
  constructor(
    private readonly names: Int32Array,
    private readonly events: number,
  ) {}

  /** Starts the next key. */
  clear(): void {
    this.count = 0;
    if (this.big) {
      this.big = false;
      this.head = this.tail = -1;
      this.innermostOfName.clear();
    }
  }

  /** Opens begin event `i` (the innermost now). */
  open(i: number): void {
    if (!this.big) {
      if (this.count < SMALL_MAX) {
        this.small[this.count++] = i;
        return;
      }
      this.toList();
    }
    this.link(i);
    this.count++;
  }

  /** Takes the innermost open begin named `name` (of any name when `name` < 0); -1 when none. */
  take(name: number): number {
    if (!this.big) {
      const open = this.small;
      let at = this.count - 1;
      if (name >= 0) while (at >= 0 && this.names[open[at]] !== name) at--;
      if (at < 0) return -1;
      const b = open[at];
      for (let q = at + 1; q < this.count; q++) open[q - 1] = open[q];
      this.count--;
      return b;
    }
    let b: number;
    if (name < 0) b = this.tail;
    else {
      b = this.innermostOfName.get(name) ?? -1;
      while (b >= 0 && this.taken[b] === 1) b = this.outerSameName[b];
      if (b < 0) return -1;
      this.innermostOfName.set(name, this.outerSameName[b]);
    }
    if (b < 0) return -1;
    const p = this.prev[b];
    const q = this.next[b];
    if (p >= 0) this.next[p] = q;
    else this.head = q;
    if (q >= 0) this.prev[q] = p;
    else this.tail = p;
    this.taken[b] = 1;
    this.count--;
    return b;
  }

  /** Calls `f` with each open begin, in begin order. */
  forEach(f: (i: number) => void): void {
    if (!this.big) {
      for (let q = 0; q < this.count; q++) f(this.small[q]);
      return;
    }
    for (let b = this.head; b >= 0; b = this.next[b]) f(b);
  }

  private toList(): void {
    if (this.prev.length < this.events) {
      this.prev = new Int32Array(this.events);
      this.next = new Int32Array(this.events);
      this.outerSameName = new Int32Array(this.events);
      this.taken = new Uint8Array(this.events);
    }
    this.big = true;
    this.head = this.tail = -1;
    for (let q = 0; q < this.count; q++) this.link(this.small[q]);
  }

  /** Appends begin `i` to the list and to its name's stack. */
  private link(i: number): void {
    this.prev[i] = this.tail;
    this.next[i] = -1;
    if (this.tail >= 0) this.next[this.tail] = i;
    else this.head = i;
    this.tail = i;
    const name = this.names[i];
    this.outerSameName[i] = this.innermostOfName.get(name) ?? -1;
    this.innermostOfName.set(name, i);
  }
}
