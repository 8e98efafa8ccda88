/** The model's string table while building: interned names, plus strings stored once each (JSON texts). */
import type { StringId } from '../types.ts';
import { MAX_STRING_CHARS, StringCuts } from './stringCuts.ts';

export class NameTable {
  readonly strings: string[] = [];
  private readonly ids = new Map<string, number>();
  /** About the bytes the strings take (V8 header + one byte per character): for a load's memory budget. */
  textBytes = 0;
  /** Strings cut to the bound: by the builder where it knows their kind and place, here for any other. */
  readonly cuts = new StringCuts();

  /** The id of `s`, added on first use. */
  intern(s: string): StringId {
    if (s.length > MAX_STRING_CHARS) s = this.cuts.cut(s, 'string');
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(s);
      this.ids.set(s, id);
      this.textBytes += 16 + s.length;
    }
    return id;
  }

  /** Adds `s` without interning (texts that are nearly always unique: not worth the map). */
  addUnique(s: string): StringId {
    if (s.length > MAX_STRING_CHARS) s = this.cuts.cut(s, 'string');
    this.textBytes += 16 + s.length;
    return this.strings.push(s) - 1;
  }

  get(id: number): string {
    return this.strings[id];
  }
}
