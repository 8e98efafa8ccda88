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
  /** Per slot: name id + 1 (0: empty), color, category, style. */
  private readonly name = new Float64Array(SLOTS);
  private readonly color = new Uint32Array(SLOTS);
  private readonly category = new Float64Array(SLOTS);
  private readonly style = new Uint32Array(SLOTS);

  constructor(private readonly builder: ModelBuilder) {}

  /** The style of (name id, ARGB color or 0, category id or 0) in the default domain. */
  styleOf(nameId: number, color: number, category: number): number {
    const h = Math.imul(nameId, 0x9e3779b1) ^ Math.imul(color, 0x85ebca6b) ^ Math.imul(category, 0xc2b2ae35);
    const slot = (h ^ (h >>> 15)) & (SLOTS - 1);
    if (this.name[slot] === nameId + 1 && this.color[slot] === color && this.category[slot] === category) return this.style[slot];
    const style = this.builder.style({ nameId, color, category });
    this.name[slot] = nameId + 1;
    this.color[slot] = color;
    this.category[slot] = category;
    this.style[slot] = style;
    return style;
  }
}
