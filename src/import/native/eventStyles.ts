/**
 * The builder style of a default-domain event's (message, color, category), from a direct-mapped
 * table in front of `ModelBuilder.style`: a name may come with several categories or colors (one
 * per call site), which a cache of one combination per name (`src/import/styleCache.ts`) sends to
 * the builder's hashed lookup and its attributes object on every change. A slot holds the last
 * combination that hashed to it; a miss asks the builder and takes the slot.
 */
import type { ModelBuilder } from '../../model/builder.ts';

const SLOTS = 4096;

export class EventStyles {
  /** Per slot, in one cache line: name id + 1 (0: empty), color, category id, style. */
  private readonly slots = new Int32Array(4 * SLOTS);

  constructor(private readonly builder: ModelBuilder) {}

  /** The style of (name id, ARGB color or 0, category id or 0) in the default domain. */
  styleOf(nameId: number, color: number, category: number): number {
    // A category id beyond 32 bits (any varint may be one) is not cached.
    if ((category | 0) !== category) return this.builder.style({ nameId, color, category });
    const h = Math.imul(nameId, 0x9e3779b1) ^ Math.imul(color, 0x85ebca6b) ^ Math.imul(category, 0xc2b2ae35);
    const at = 4 * ((h ^ (h >>> 15)) & (SLOTS - 1));
    const slots = this.slots;
    if (slots[at] === nameId + 1 && slots[at + 1] === (color | 0) && slots[at + 2] === category) return slots[at + 3];
    const style = this.builder.style({ nameId, color, category });
    slots[at] = nameId + 1;
    slots[at + 1] = color;
    slots[at + 2] = category;
    slots[at + 3] = style;
    return style;
  }
}
