/**
 * Styles: name, color, category and domain interned together, so a range carries one `Uint32`
 * instead of four. Owns the style columns and the per-name chain that finds a style without
 * building a string key.
 */
import { f64, i32, u32 } from '../growable.ts';
import type { Model } from '../types.ts';
import type { EventAttrs, RangeRename } from './inputs.ts';
import type { NameTable } from './names.ts';
import type { ProcessTree } from './processTree.ts';

/** Styles of one name compared one by one before the keyed lookup. */
const STYLE_CHAIN_WALK = 16;

export class StyleTable {
  private readonly name = u32();
  private readonly color = u32();
  private readonly category = i32();
  private readonly domain = u32();
  private readonly ids = new Map<string, number>();
  /** Category id as the event gave it, per style (for the per-name chain). */
  private readonly categoryId = f64();
  /** StringId -> 1 + the newest style with that name (0 = none): `styleOf`'s fast path. */
  private byName = new Uint32Array(0);
  /**
   * StringId -> 1 + the style last found for that name (0 = none), tried before the chain: a name's
   * variants chain newest first, and the common one is often the oldest.
   */
  private lastFound = new Uint32Array(0);
  /** Per style: the next older style with the same name, or -1. */
  private readonly sameName = i32();

  constructor(
    private readonly names: NameTable,
    private readonly tree: ProcessTree,
  ) {}

  /** The style index of these attributes, interned on first use. */
  styleOf(attrs: EventAttrs): number {
    if (attrs.style !== undefined) return attrs.style;
    const name = attrs.nameId ?? this.names.intern(attrs.name ?? '');
    const color = (attrs.color ?? 0) >>> 0;
    const domain = attrs.domain ?? 0;
    const categoryId = attrs.category ?? 0;
    // A name comes with few colors, categories and domains: walk the styles of the name before
    // building the string key of the full lookup (taken only for names with many variants).
    const head = name < this.byName.length ? this.byName[name] - 1 : -1;
    let s = head;
    if (s >= 0) {
      // The column arrays, read directly: through `get` the Uint32 colors above 2^31 came out
      // as boxed numbers on every compare.
      const colors = this.color.array();
      const domains = this.domain.array();
      const categoryIds = this.categoryId.array();
      const last = this.lastFound[name] - 1;
      if (last >= 0 && colors[last] === color && domains[last] === domain && categoryIds[last] === categoryId) return last;
      const sameName = this.sameName.array();
      for (let steps = 0; s >= 0 && steps < STYLE_CHAIN_WALK; steps++) {
        if (colors[s] === color && domains[s] === domain && categoryIds[s] === categoryId) {
          this.lastFound[name] = s + 1;
          return s;
        }
        s = sameName[s];
      }
    }
    const category = this.tree.category(domain, categoryId);
    const key = `${name}:${color}:${category}:${domain}`;
    if (s >= 0) {
      const found = this.ids.get(key);
      if (found !== undefined) {
        this.lastFound[name] = found + 1;
        return found;
      }
    }
    s = this.name.length;
    this.name.push(name);
    this.color.push(color);
    this.category.push(category);
    this.domain.push(domain);
    this.categoryId.push(categoryId);
    this.sameName.push(head);
    this.ids.set(key, s);
    if (name >= this.byName.length) {
      const length = Math.max(64, 2 * name + 1);
      const grown = new Uint32Array(length);
      grown.set(this.byName);
      this.byName = grown;
      const grownLast = new Uint32Array(length);
      grownLast.set(this.lastFound);
      this.lastFound = grownLast;
    }
    this.byName[name] = s + 1;
    this.lastFound[name] = s + 1;
    return s;
  }

  /** `style` with the message and/or color replaced (same category and domain: the row stays). */
  restyle(style: number, rename: RangeRename): number {
    return this.styleOf({
      nameId: rename.name !== undefined ? this.names.intern(rename.name) : this.name.get(style),
      color: rename.color !== undefined ? rename.color : this.color.get(style),
      domain: this.domain.get(style),
      category: this.categoryId.get(style),
    });
  }

  /** The category index (or -1) of a style. */
  categoryOf(style: number): number {
    return this.category.get(style);
  }

  /** The message of a style, for messages about its events. */
  nameOf(style: number): string {
    return this.names.get(this.name.get(style));
  }

  /** `Model.styles`. */
  finish(): Model['styles'] {
    return {
      name: this.name.toArray(),
      color: this.color.toArray(),
      category: this.category.toArray(),
      domain: this.domain.toArray(),
    };
  }
}
