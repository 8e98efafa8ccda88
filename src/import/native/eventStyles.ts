/**
 * The builder style of a default-domain event's (message, color, category), from a table in front
 * of `ModelBuilder.style`: a name may come with several categories or colors (one per call site),
 * which a cache of one combination per name (`src/import/styleCache.ts`) sends to the builder's
 * hashed lookup and its attributes object on every change.
 *
 * The table keeps every combination it was asked for (open addressing, grown at half full), so
 * the builder is asked once per combination. A direct-mapped table that let colliding combinations
 * evict each other asked it 389k times for the 1,200 styles of the 10M generated capture
 * (docs/performance.md, "The native one-thread load, third pass"). It holds no more than the
 * builder's own style table does.
 */
import type { ModelBuilder } from '../../model/builder.ts';

const INITIAL_SLOTS = 4096;

export class EventStyles {
  /** Per slot, in one cache line: name id + 1 (0: empty), color, category id, style. */
  private slots = new Int32Array(4 * INITIAL_SLOTS);
  private mask = INITIAL_SLOTS - 1;
  private used = 0;

  constructor(private readonly builder: ModelBuilder) {}

  /** The style of (name id, ARGB color or 0, category id or 0) in the default domain. */
  styleOf(nameId: number, color: number, category: number): number {
    // A category id beyond 32 bits (any varint may be one) is not cached.
    if ((category | 0) !== category) return this.builder.style({ nameId, color, category });
    const slots = this.slots;
    const mask = this.mask;
    const key = nameId + 1;
    const c = color | 0;
    for (let i = slotOf(nameId, c, category) & mask; ; i = (i + 1) & mask) {
      const at = 4 * i;
      const k = slots[at];
      if (k === key && slots[at + 1] === c && slots[at + 2] === category) return slots[at + 3];
      if (k === 0) {
        const style = this.builder.style({ nameId, color, category });
        slots[at] = key;
        slots[at + 1] = c;
        slots[at + 2] = category;
        slots[at + 3] = style;
        if (2 * ++this.used > mask) this.grow();
        return style;
      }
    }
  }

  private grow(): void {
    const old = this.slots;
    const mask = 2 * (this.mask + 1) - 1;
    const slots = new Int32Array(4 * (mask + 1));
    for (let from = 0; from < old.length; from += 4) {
      if (old[from] === 0) continue;
      let i = slotOf(old[from] - 1, old[from + 1], old[from + 2]) & mask;
      while (slots[4 * i] !== 0) i = (i + 1) & mask;
      slots.set(old.subarray(from, from + 4), 4 * i);
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** A well-mixed 32-bit hash of a combination (`color` as a signed 32-bit integer). */
function slotOf(nameId: number, color: number, category: number): number {
  let h = Math.imul(nameId, 0x9e3779b1) ^ Math.imul(color, 0x85ebca6b) ^ Math.imul(category, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  return h ^ (h >>> 15);
}
