/**
 * Styles: name, color, category and domain interned together, so a range carries one `Uint32`
 * instead of four. Owns the style columns, a hash table of integer keys that finds an existing
 * style in one or two probes, and for first uses the per-name chain and the string-keyed map that
 * decide whether a style is new.
 */
import { f64, i32, u32 } from '../growable.ts';
import type { Model } from '../types.ts';
import type { EventAttrs, RangeRename } from './inputs.ts';
import type { NameTable } from './names.ts';
import type { ProcessTree } from './processTree.ts';

/** Styles of one name compared one by one before the keyed lookup. */
const STYLE_CHAIN_WALK = 16;

/** Hash of a style's attributes as given (a non-integer category id hashes by its integer part). */
function styleHash(name: number, color: number, domain: number, categoryId: number): number {
  const h = Math.imul(name, 0x9e3779b1) ^ Math.imul(color, 0x85ebca6b) ^ Math.imul(domain + 1, 0xc2b2ae35) ^ Math.imul(categoryId | 0, 0x27d4eb2f);
  return h ^ (h >>> 15);
}

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
   * Open-addressed hash table (linear probing) of every style by its (name, color, domain, category
   * id) as given: 1 + style, 0 = empty slot; at most half full.
   */
  private slots = new Uint32Array(1024);
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
    // The column arrays, read directly: through `get` the Uint32 colors above 2^31 came out as
    // boxed numbers on every compare.
    const names = this.name.array();
    const colors = this.color.array();
    const domains = this.domain.array();
    const categoryIds = this.categoryId.array();
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let slot = styleHash(name, color, domain, categoryId) & mask; slots[slot] !== 0; slot = (slot + 1) & mask) {
      const c = slots[slot] - 1;
      if (names[c] === name && colors[c] === color && domains[c] === domain && categoryIds[c] === categoryId) return c;
    }
    // Not seen as given (a first use, or a NaN category id): a name comes with few colors,
    // categories and domains, so walk the styles of the name before building the string key of the
    // full lookup (taken only for names with many variants).
    const head = name < this.byName.length ? this.byName[name] - 1 : -1;
    let s = head;
    const sameName = this.sameName.array();
    for (let steps = 0; s >= 0 && steps < STYLE_CHAIN_WALK; steps++) {
      if (colors[s] === color && domains[s] === domain && categoryIds[s] === categoryId) return s;
      s = sameName[s];
    }
    const category = this.tree.category(domain, categoryId);
    const key = `${name}:${color}:${category}:${domain}`;
    if (s >= 0) {
      const found = this.ids.get(key);
      if (found !== undefined) return found;
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
      const grown = new Uint32Array(Math.max(64, 2 * name + 1));
      grown.set(this.byName);
      this.byName = grown;
    }
    this.byName[name] = s + 1;
    this.addToSlots(s);
    return s;
  }

  /** Enters style `s` in the hash table, doubling it first when it would be over half full. */
  private addToSlots(s: number): void {
    if (2 * (s + 1) > this.slots.length) {
      const old = this.slots;
      this.slots = new Uint32Array(old.length * 2);
      for (let slot = 0; slot < old.length; slot++) if (old[slot] !== 0) this.placeInSlots(old[slot] - 1);
    }
    this.placeInSlots(s);
  }

  private placeInSlots(s: number): void {
    const slots = this.slots;
    const mask = slots.length - 1;
    let slot = styleHash(this.name.get(s), this.color.get(s), this.domain.get(s), this.categoryId.get(s)) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = s + 1;
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
