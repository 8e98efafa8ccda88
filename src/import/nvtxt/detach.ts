/**
 * A copy of a string that does not keep its source alive. Substrings of a decoded chunk may be
 * stored by V8 as views into the whole chunk (several MB); anything kept past the chunk (interned
 * names, variables, messages) is detached first so that a huge file is never held as text.
 * Concatenating then slicing forces a fresh flat string.
 */
export function detach(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}
