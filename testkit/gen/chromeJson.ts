/**
 * Writes the generated event stream (events.ts) as Chrome trace JSON, the way profilers write it:
 * object form, M events naming the process and threads, push/pop ranges as X events emitted when
 * they end (so the file is not time-ordered), marks as thread-scope instants, start/end ranges as
 * nestable async b/e pairs, a counter, `args` on some events, timestamps in microseconds with three
 * decimals. About 100 bytes per event: 1M events is about 100 MB.
 *
 * The returned count is ranges + marks (as for every writer); the file holds more JSON events
 * (metadata, counter samples, and two per async range).
 */
import { generateEvents, makeHeader, type GenOptions } from './events.ts';
import type { Sink } from './sink.ts';

/** Threads when the caller does not say (the Chrome benchmark shape: 8 threads, ~200 names). */
const DEFAULT_THREADS = 8;
/** One counter sample every this many events. */
const COUNTER_EVERY = 64;

/** Microseconds with exactly three decimals from integer nanoseconds (no float rounding). */
function micros(ns: number): string {
  const us = Math.floor(ns / 1000);
  const rest = ns - us * 1000;
  return `${us}.${rest < 10 ? '00' : rest < 100 ? '0' : ''}${rest}`;
}

export interface ChromeJsonOptions extends GenOptions {
  /** The whole trace on one line, as Chrome, catapult and Python's `json.dump` write it. */
  oneLine?: boolean;
  /**
   * `args` nested as Chrome's and PyTorch's are (`{"data":{...}}`, lists of shapes) instead of
   * flat: readers that skip such values unseen must still keep up.
   */
  nestedArgs?: boolean;
  /**
   * Pad the file with whitespace between events (valid JSON, skipped by readers) until it has at
   * least this many bytes, spread over the file: a valid trace larger than 2 GB in seconds.
   */
  padding?: number;
}

/** Bytes of one whitespace block of the padding. */
const PADDING_BLOCK = 16 << 20;

/** Writes a Chrome trace JSON capture; returns the number of ranges + marks written. */
export function writeChromeJson(sink: Sink, options: ChromeJsonOptions): number {
  let count = 0;
  const padding = options.padding ?? 0;
  const block = padding > 0 ? whitespace(PADDING_BLOCK) : undefined;
  // About 119 bytes per event in pieces of 1 MiB: how many pieces the padding is spread over.
  const pieces = Math.max(1, Math.round((options.events * 119) / (1 << 20)));
  let written = 0;
  let held: string | undefined;
  for (const piece of chromeJsonPieces(options, (n) => (count = n))) {
    // One piece behind, so that the last piece (the closing of the document) comes after all padding.
    if (held !== undefined) {
      sink.text(held);
      written++;
      while (block && sink.size < (padding * Math.min(written, pieces)) / pieces) sink.bytes(block);
    }
    held = piece;
  }
  while (block && sink.size < padding) sink.bytes(block);
  if (held !== undefined) sink.text(held);
  return count;
}

/** Spaces with a newline every 4 KiB. */
function whitespace(bytes: number): Uint8Array {
  const out = new Uint8Array(bytes).fill(0x20);
  for (let i = 4095; i < bytes; i += 4096) out[i] = 0x0a;
  return out;
}

/**
 * The same capture as string pieces of about `pieceChars` characters (for in-memory benchmarks
 * and tests); `done` receives the ranges + marks count at the end.
 */
export function* chromeJsonPieces(options: ChromeJsonOptions, done?: (count: number) => void, pieceChars = 1 << 20): Generator<string> {
  // Names and strings are JSON-escaped, so the only raw line breaks are the layout's own.
  if (options.oneLine) {
    for (const piece of chromeJsonPieces({ ...options, oneLine: false }, done, pieceChars)) yield piece.replaceAll('\n', '');
    return;
  }
  const opts: GenOptions = { ...options, threads: options.threads ?? DEFAULT_THREADS, pushPop: 'complete' };
  const nested = options.nestedArgs === true;
  const header = makeHeader(opts);
  const pid = header.process.pid;
  const tid = header.threads.map((t) => t.tid);
  const name = header.names.map((n) => JSON.stringify(n));
  const cat = new Map(header.categories.map((c) => [c.id, JSON.stringify(c.name)]));

  let out = `{"traceEvents":[\n{"name":"process_name","ph":"M","pid":${pid},"tid":0,"args":{"name":${JSON.stringify(header.process.name)}}}`;
  for (const t of header.threads) {
    out += `,\n{"name":"thread_name","ph":"M","pid":${pid},"tid":${t.tid},"args":{"name":${JSON.stringify(t.name)}}}`;
  }
  let count = 0;
  let asyncId = 0;
  let seq = 0;
  for (const e of generateEvents(header, opts)) {
    switch (e.kind) {
      case 'range': {
        const c = e.category ? `,"cat":${cat.get(e.category)}` : '';
        // Every fourth name carries args, as profilers attach them to some ops only.
        const args =
          e.name % 4 !== 0
            ? ''
            : nested
              ? `,"args":{"data":{"seq":${seq++},"input dims":[[8,${e.name}],[${e.name}]],"input":"tensor"}}`
              : `,"args":{"seq":${seq++},"input":"tensor"}`;
        out += `,\n{"ph":"X","name":${name[e.name]}${c},"pid":${pid},"tid":${tid[e.thread]},"ts":${micros(e.start)},"dur":${micros(e.end - e.start)}${args}}`;
        count++;
        break;
      }
      case 'mark':
        out += `,\n{"ph":"i","s":"t","name":${name[e.name]},"pid":${pid},"tid":${tid[e.thread]},"ts":${micros(e.t)},"args":{"payload":${e.payload ?? 0}}}`;
        count++;
        break;
      case 'startEnd': {
        const id = `"0x${(asyncId++).toString(16)}"`;
        const c = cat.get(e.category) ?? '"async"';
        out += `,\n{"ph":"b","name":${name[e.name]},"cat":${c},"id":${id},"pid":${pid},"tid":${tid[e.thread]},"ts":${micros(e.start)}}`;
        out += `,\n{"ph":"e","name":${name[e.name]},"cat":${c},"id":${id},"pid":${pid},"tid":${tid[e.thread]},"ts":${micros(e.end)}}`;
        count++;
        break;
      }
      case 'push':
      case 'pop':
        throw new Error('Chrome JSON writes complete ranges (X events)');
    }
    if (count % COUNTER_EVERY === 0) {
      const t = e.kind === 'range' || e.kind === 'startEnd' ? e.end : e.t;
      out += `,\n{"ph":"C","name":"queue depth","pid":${pid},"ts":${micros(t)},"args":{"value":${count % 97}}}`;
    }
    if (out.length >= pieceChars) {
      yield out;
      out = '';
    }
  }
  out += `\n],\n"displayTimeUnit":"ns",\n"otherData":{"generator":"nvtxview testkit/gen/chromeJson.ts","seed":${header.seed}}}\n`;
  yield out;
  done?.(count);
}
