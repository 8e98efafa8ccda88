/**
 * A model's string table in slices, for sending it between threads in several messages. A
 * structured clone of one message is (de)serialised in one go: the 470k argument strings of a 1M
 * event Chrome trace held the receiving page for about 50 ms in one task. Slices of about a
 * million characters cost a few milliseconds each, in tasks of their own.
 */

/** Characters per slice (also bounded by STRINGS_PER_SLICE). */
export const SLICE_CHARS = 1 << 20;
export const STRINGS_PER_SLICE = 1 << 16;

/** Consecutive slices of `strings`, each with at least one string; [] for no strings. */
export function stringSlices(strings: readonly string[], maxChars = SLICE_CHARS, maxStrings = STRINGS_PER_SLICE): string[][] {
  const slices: string[][] = [];
  let begin = 0;
  let chars = 0;
  for (let i = 0; i < strings.length; i++) {
    chars += strings[i].length;
    if (chars >= maxChars || i + 1 - begin >= maxStrings) {
      slices.push(strings.slice(begin, i + 1));
      begin = i + 1;
      chars = 0;
    }
  }
  if (begin < strings.length) slices.push(strings.slice(begin));
  return slices;
}

/** Collects slices in arrival order until the message they belong to takes them. */
export class StringCollector {
  private parts: string[] | null = null;

  add(slice: readonly string[]): void {
    const parts = (this.parts ??= []);
    for (let i = 0; i < slice.length; i++) parts.push(slice[i]);
  }

  /** The collected strings (then forgets them), or null when none came. */
  take(): string[] | null {
    const parts = this.parts;
    this.parts = null;
    return parts;
  }
}
