/**
 * The style of an event, cached by its name id in front of `ModelBuilder.style`: most names
 * always come with the same color and category, so two array reads and two compares replace the
 * builder's lookup in an importer's per-event loop. Other combinations of a name go to the builder
 * (which walks the styles of that name). One cache per importer run and builder; default-domain
 * events only (the domain is not part of the key).
 */
import type { ModelBuilder } from '../model/builder.ts';

export class StyleCache {
  private readonly style: number[] = [];
  private readonly color: number[] = [];
  private readonly category: number[] = [];

  constructor(private readonly builder: ModelBuilder) {}

  /** The style of (name, ARGB color or 0, category id or 0) in the default domain. */
  styleOf(nameId: number, color: number, category: number): number {
    const style = this.style[nameId];
    if (style !== undefined && this.color[nameId] === color && this.category[nameId] === category) return style;
    const made = this.builder.style({ nameId, color, category });
    if (style === undefined) {
      this.style[nameId] = made;
      this.color[nameId] = color;
      this.category[nameId] = category;
    }
    return made;
  }
}
