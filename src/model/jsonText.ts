/**
 * JSON payload texts kept as their UTF-8 bytes (`Model.jsonText`): a decoder that reads JSON as
 * bytes (Chrome `args`) hands the span over and no string is made per event; a text is decoded
 * when it is read (`payloadValue`). One byte arena and one offset column: transferable, and far
 * smaller than a string per event.
 */
import type { JsonTextColumns } from './types.ts';

export class JsonTextStore {
  private bytes = new Uint8Array(1 << 16);
  private used = 0;
  private starts = new Float64Array(1024);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Copies buf[start, end) in; returns the text's index. */
  add(buf: Uint8Array, start: number, end: number): number {
    const n = end - start;
    if (this.used + n > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.used + n));
      grown.set(this.bytes.subarray(0, this.used));
      this.bytes = grown;
    }
    if (this.count + 1 >= this.starts.length) {
      const grown = new Float64Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    const bytes = this.bytes;
    let at = this.used;
    // Short spans (most args): a loop beats making a subarray for `set`.
    if (n <= 64) for (let i = start; i < end; i++) bytes[at++] = buf[i];
    else bytes.set(buf.subarray(start, end), at);
    this.starts[this.count] = this.used;
    this.used += n;
    return this.count++;
  }

  /** The texts as tightly sized columns. */
  finish(): JsonTextColumns {
    const start = this.starts.slice(0, this.count + 1);
    start[this.count] = this.used;
    return { bytes: this.bytes.slice(0, this.used), start };
  }
}

const utf8 = new TextDecoder('utf-8');

/** Text `k` of the columns. */
export function jsonTextAt(columns: JsonTextColumns, k: number): string {
  return utf8.decode(columns.bytes.subarray(columns.start[k], columns.start[k + 1]));
}
