/**
 * Finds where one JSON value ends when it is spread over several chunks, keeping its state between
 * them. It only follows structure (brackets, strings, escapes), so it is cheap; the value is
 * checked properly afterwards by whoever reads it (or not at all when it is being skipped).
 */
import { BACKSLASH, INCOMPLETE, LBRACE, LBRACKET, QUOTE, RBRACE, RBRACKET, isWs } from './jsonBytes.ts';

export class ValueSkipper {
  private started = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** A number or literal at top level: it ends at the first delimiter. */
  private scalar = false;

  begin(): void {
    this.started = false;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    this.scalar = false;
  }

  /** Continues over buf[from, limit); returns the index just past the value's end, or INCOMPLETE. */
  feed(buf: Uint8Array, from: number, limit: number): number {
    let i = from;
    if (!this.started) {
      while (i < limit && isWs(buf[i])) i++;
      if (i >= limit) return INCOMPLETE;
      this.started = true;
      const c = buf[i];
      if (c === QUOTE) this.inString = true;
      else if (c === LBRACE || c === LBRACKET) this.depth = 1;
      else this.scalar = true;
      i++;
    }
    if (this.scalar) {
      for (; i < limit; i++) {
        const c = buf[i];
        if (c === 0x2c || c === RBRACE || c === RBRACKET || isWs(c)) return i;
      }
      return INCOMPLETE;
    }
    let depth = this.depth;
    let inString = this.inString;
    let escaped = this.escaped;
    for (; i < limit; i++) {
      const c = buf[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) {
          inString = false;
          if (depth === 0) {
            this.inString = false;
            return i + 1;
          }
        }
      } else if (c === QUOTE) inString = true;
      else if (c === LBRACE || c === LBRACKET) depth++;
      else if (c === RBRACE || c === RBRACKET) {
        depth--;
        if (depth === 0) {
          this.depth = 0;
          return i + 1;
        }
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    return INCOMPLETE;
  }
}
