/**
 * Async events (nestable b/e and legacy S/F) pair up by key (category + id, plus scope), not by
 * thread, and a trace may list them in any order. They are collected in columns, sorted by key and
 * time once the file is read, and matched with a stack per key: an end closes the innermost open
 * begin of the same name (or the innermost one when the end has no name); a named end that matches
 * no open begin is reported and dropped, never closing another range. Pairs become start/end
 * ranges of the process's category row (the builder packs them into lanes).
 */
import type { EventAttrs, JsonBytesValue, ModelBuilder } from '../../model/builder.ts';
import { f64, i32, u32, u8 } from '../../model/growable.ts';
import { JsonTextStore } from '../../model/jsonText.ts';
import { PayloadType, type JsonTextColumns } from '../../model/types.ts';
import { BytesTable } from '../bytesTable.ts';
import { IntKeyTable } from './asyncIntKeys.ts';
import { OpenBegins } from './openBegins.ts';
import type { IssueBudget } from './issueBudget.ts';
import { StyleCache } from '../styleCache.ts';

/** Builds an async key as bytes (no string per event): parts separated by 0 bytes. */
export class AsyncKey {
  private bytes = new Uint8Array(256);
  length = 0;

  clear(): this {
    this.length = 0;
    return this;
  }

  part(buf: Uint8Array, start: number, end: number): this {
    this.ensure(end - start + 1);
    const bytes = this.bytes;
    let at = this.length;
    for (let i = start; i < end; i++) bytes[at++] = buf[i];
    bytes[at++] = 0;
    this.length = at;
    return this;
  }

  byte(c: number): this {
    this.ensure(2);
    this.bytes[this.length++] = c;
    this.bytes[this.length++] = 0;
    return this;
  }

  text(s: string): this {
    const b = encoder.encode(s);
    return this.part(b, 0, b.length);
  }

  /** The key's bytes are bytes[0, length) (valid until the next change). */
  get buffer(): Uint8Array {
    return this.bytes;
  }

  private ensure(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }
}

const encoder = new TextEncoder();

export class AsyncRangeMatcher {
  private readonly keyIds = new BytesTable();
  /** Keys of nestable events with a plain integer id and no scope: one numbering with `keyIds`. */
  private readonly intKeyIds = new IntKeyTable();
  /** The category bytes of each prefix `intKeyId` was given, for messages (`describeKey`). */
  private readonly prefixBytes = new Map<number, Uint8Array>();
  private keyCount = 0;
  // One row per event, in typed columns (no boxing, no per-event arrays).
  private readonly key = u32();
  private readonly time = f64();
  private readonly isEnd = u8();
  /** StringId of the name, or -1 for an end without a name. */
  private readonly name = i32();
  private readonly category = u32();
  private readonly thread = u32();
  private readonly color = u32();
  /** Index into `args`, or -1. */
  private readonly payload = i32();
  private readonly offset = f64();
  /** `args` bytes of begin events (the chunks they came in are gone by `finish`). */
  private readonly args = new JsonTextStore();
  private argsColumns: JsonTextColumns | undefined;
  private readonly scratch: EventAttrs = {};
  private readonly where = { offset: 0 };
  private readonly argsPayload: JsonBytesValue = { type: PayloadType.Json, bytes: new Uint8Array(0), start: 0, end: 0 };
  private styles: StyleCache | undefined;

  /** Id of the key (parts: kind, category, scope, id[, name]). */
  keyId(key: AsyncKey): number {
    const bytes = key.buffer;
    let k = this.keyIds.get(bytes, 0, key.length);
    if (k === -1) {
      k = this.keyCount++;
      this.keyIds.set(bytes, 0, key.length, k);
    }
    return k;
  }

  /**
   * Id of the key of a nestable event ('b' kind) with no scope and an integer id (`code`: its
   * `integerIdCode`): `prefix` numbers its category bytes buf[catStart, catEnd) (0 for none),
   * equal bytes equal numbers. The same id as `keyId` of the key's bytes would be, provided every
   * key of this shape comes here.
   */
  intKeyId(prefix: number, code: number, buf: Uint8Array, catStart: number, catEnd: number): number {
    let k = this.intKeyIds.get(prefix, code);
    if (k === -1) {
      k = this.keyCount++;
      this.intKeyIds.set(prefix, code, k);
      if (!this.prefixBytes.has(prefix)) this.prefixBytes.set(prefix, buf.slice(catStart, catEnd));
    }
    return k;
  }

  /** The bytes of key `k` as `AsyncKey` builds them (for messages). */
  private keyBytes(k: number): Uint8Array {
    const int = this.intKeyIds.keyOf(k);
    if (int === undefined) return this.keyIds.bytesOf(k) ?? new Uint8Array(0);
    const key = new AsyncKey().byte(0x62);
    const cat = this.prefixBytes.get(int.prefix) ?? new Uint8Array(0);
    const id = Math.floor(int.code / 2);
    key.part(cat, 0, cat.length).part(cat, 0, 0).text(int.code % 2 === 1 ? `0x${id.toString(16)}` : String(id));
    return key.buffer.slice(0, key.length);
  }

  get size(): number {
    return this.key.length;
  }

  /** A begin event; its `args` are buf[argsStart, argsEnd) when `buf` is given. */
  begin(
    key: number,
    tNs: number,
    thread: number,
    name: number,
    category: number,
    color: number,
    offset: number,
    buf?: Uint8Array,
    argsStart = 0,
    argsEnd = 0,
  ): void {
    this.add(key, tNs, false, thread, name, category, color, offset, buf === undefined ? -1 : this.args.add(buf, argsStart, argsEnd));
  }

  end(key: number, tNs: number, thread: number, name: number, offset: number): void {
    this.add(key, tNs, true, thread, name, 0, 0, offset, -1);
  }

  private add(k: number, tNs: number, isEnd: boolean, thread: number, name: number, category: number, color: number, offset: number, payload: number): void {
    this.key.push(k);
    this.time.push(tNs);
    this.isEnd.push(isEnd ? 1 : 0);
    this.name.push(name);
    this.category.push(category);
    this.thread.push(thread);
    this.color.push(color >>> 0);
    this.payload.push(payload);
    this.offset.push(offset);
  }

  /** Matches everything collected and hands the ranges to the builder. */
  finish(builder: ModelBuilder, budget: IssueBudget, nameText: (id: number) => string): void {
    const n = this.key.length;
    if (n === 0) return;
    const key = this.key.view();
    const time = this.time.view();
    const isEnd = this.isEnd.view();
    const names = this.name.view();
    const thread = this.thread.view();
    const offset = this.offset.view();
    this.argsColumns = this.args.finish();
    const order = orderByKeyAndTime(key, time, this.keyCount);
    // The open begins of the current key.
    const open = new OpenBegins(names, n);
    let unterminated = 0;
    const closeUnterminated = (b: number): void => {
      builder.rangeStart(`chrome async ${unterminated++}`, thread[b], time[b], this.attrs(builder, b), this.at(offset[b]));
    };
    for (let g = 0; g < n; ) {
      const k = key[order[g]];
      open.clear();
      for (; g < n && key[order[g]] === k; g++) {
        const i = order[g];
        if (!isEnd[i]) {
          open.open(i);
          continue;
        }
        // An end closes the innermost open begin of its name (catapult's rule, and the trace
        // event format's: pairs are matched by category, id and name); an end without a name
        // closes the innermost one. A named end that matches nothing closes nothing.
        const name = names[i];
        const b = open.take(name);
        if (b < 0) {
          // The key's bytes are found by a scan of the key tables: only for the messages listed.
          const kind = 'async end without begin';
          const why = open.count === 0 ? 'has no open begin' : `has no open begin of its name (${open.count} of other names open)`;
          budget.report(kind, 'warning', budget.willList(kind) ? `async end "${nameText(name)}" (${describeKey(this.keyBytes(k))}) ${why}; ignored` : '', offset[i]);
          continue;
        }
        builder.startEnd(thread[b], time[b], time[i], this.attrs(builder, b), thread[i], this.at(offset[b]));
      }
      // Still open at the end: the builder closes them at the capture end and reports each.
      open.forEach(closeUnterminated);
    }
  }

  /** The reused location object for builder calls (the builder keeps the offset, not the object). */
  private at(offset: number): { offset: number } {
    this.where.offset = offset;
    return this.where;
  }

  /** Attributes of begin event `i` (one reused object: the builder copies what it keeps). */
  private attrs(builder: ModelBuilder, i: number): EventAttrs {
    const a = this.scratch;
    a.nameId = this.name.get(i);
    a.category = this.category.get(i);
    a.color = this.color.get(i);
    a.style = (this.styles ??= new StyleCache(builder)).styleOf(a.nameId, a.color, a.category);
    const p = this.payload.get(i);
    if (p >= 0) {
      const columns = this.argsColumns!;
      const payload = this.argsPayload;
      payload.bytes = columns.bytes;
      payload.start = columns.start[p];
      payload.end = columns.start[p + 1];
      a.payload = payload;
    } else a.payload = undefined;
    return a;
  }
}

/**
 * Event indices ordered by key, then time, then arrival: a stable counting sort by key (keys are
 * 0..keyCount-1), then each key's run sorted by time only where it is not in time order already
 * (a begin and its end usually arrive in order).
 */
/** Longest run of one key sorted by insertion. */
const INSERTION_SORT_MAX = 16;

export function orderByKeyAndTime(key: Uint32Array, time: Float64Array, keyCount: number): Uint32Array {
  const n = key.length;
  const at = new Uint32Array(keyCount + 1);
  for (let i = 0; i < n; i++) at[key[i] + 1]++;
  for (let k = 0; k < keyCount; k++) at[k + 1] += at[k];
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[at[key[i]]++] = i;
  // at[k] is now the end of key k's run.
  let from = 0;
  for (let k = 0; k < keyCount; k++) {
    const to = at[k];
    let sorted = true;
    for (let g = from + 1; g < to && sorted; g++) sorted = time[order[g - 1]] <= time[order[g]];
    if (!sorted) {
      if (to - from <= INSERTION_SORT_MAX) {
        // Short runs (an end listed before its begin): in place. A typed-array sort with a
        // comparator copies the run out and back, and allocated ~250 bytes per key here.
        for (let g = from + 1; g < to; g++) {
          const x = order[g];
          let h = g - 1;
          while (h >= from && (time[order[h]] - time[x] || order[h] - x) > 0) {
            order[h + 1] = order[h];
            h--;
          }
          order[h + 1] = x;
        }
      } else order.subarray(from, to).sort((a, b) => time[a] - time[b] || a - b);
    }
    from = to;
  }
  return order;
}

function describeKey(key: Uint8Array): string {
  const [kind, cat, scope, id] = new TextDecoder().decode(key).split('\u0000');
  const parts = [`${kind === 'S' ? 'legacy async' : 'async'} id ${id}`];
  if (cat) parts.push(`cat "${cat}"`);
  if (scope) parts.push(`scope "${scope}"`);
  return parts.join(', ');
}
