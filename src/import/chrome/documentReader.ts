/**
 * Streams the top level of a Chrome trace JSON document from byte chunks: the array form
 * (`[ev, ev, ...`, possibly without the closing `]` and with a trailing comma, as Chrome writes it)
 * and the object form (`{"traceEvents": [...], "displayTimeUnit": ..., ...}`). Each element of the
 * events array goes to the sink as bytes; the whole text never exists as one string, so files far
 * larger than the largest JS string load.
 *
 * An event cut by a chunk boundary is carried: its bytes are kept (a `ValueSkipper` finds where it
 * ends in later chunks) and parsed once complete. Bad JSON inside the events array is reported with
 * its byte offset and line, then reading resumes at the next `,{` (a likely event start), so events
 * before and after the damage still load.
 */
import {
  COLON,
  COMMA,
  INCOMPLETE,
  JsonSyntaxError,
  LBRACE,
  LBRACKET,
  QUOTE,
  RBRACE,
  RBRACKET,
  decodeStringToken,
  decodeText,
  describeByte,
  isWs,
  joinBytes,
  scanString,
  stringScan,
} from './jsonBytes.ts';
import { ValueSkipper } from './valueSkipper.ts';

export interface IssueLocation {
  offset: number;
  line?: number;
}

export interface TraceDocumentSink {
  /**
   * Reads the event object at buf[pos] ('{') and acts on it once it is complete. Returns the index
   * just past it, or INCOMPLETE when buf[pos, limit) holds only part of it (the call is then
   * repeated with the whole event, so nothing may be committed before the object is complete).
   * `base` is the file offset of buf[0]. Throws JsonSyntaxError for bad JSON.
   */
  event(buf: Uint8Array, pos: number, limit: number, base: number): number;
  /**
   * Line breaks inside the event `event` just read, when the sink counted them (else undefined or
   * -1): the reader then does not scan the event again to keep line numbers.
   */
  readonly lastEventLineBreaks?: number;
  /**
   * A top-level key of the object form other than "traceEvents": `json` is the value's text for
   * kept keys, undefined for skipped ones (`bytes` long).
   */
  topLevelValue(key: string, json: string | undefined, bytes: number, where: IssueLocation): void;
  report(severity: 'error' | 'warning' | 'info', message: string, where?: IssueLocation): void;
}

export interface DocumentReaderOptions {
  /** Top-level keys whose values are handed over as JSON text (small ones such as otherData). */
  keptKeys: ReadonlySet<string>;
  /** Largest single event (or kept value) held while it straddles chunks. */
  maxCarryBytes?: number;
}

const DEFAULT_MAX_CARRY = 256 * 1024 * 1024;
/** Syntax errors reported one by one; later ones are counted in a summary. */
const MAX_SYNTAX_REPORTS = 20;
/**
 * Where the first chunk is cut in two (when it is more than twice as long). An event cut by a
 * chunk's end takes paths of its own (the general parser's INCOMPLETE, the carry, the value
 * skipper); with 4 MiB chunks a load meets them first after tens of thousands of events, when V8
 * has optimised the reader and the event parser without them, and deoptimises both there. Cut
 * early, they run while that code is still cold, in a fresh load worker and in the page's
 * warm-up sample (150 kB) alike. Any cut reads the same events: only the time changes.
 */
const EARLY_CUT_BYTES = 16 * 1024;

const S_START = 0;
/** After '[' of the events array. */
const S_EV_FIRST = 1;
/** After an element of the events array. */
const S_EV_NEXT = 2;
const S_EV_AFTER_COMMA = 3;
/** After '{' of the object form. */
const S_KEY_FIRST = 4;
const S_KEY_NEXT = 5;
const S_KEY_AFTER_COMMA = 6;
const S_COLON = 7;
const S_VALUE = 8;
const S_DONE = 9;
/** Looking for the next event after bad JSON. */
const S_RESYNC = 10;
/** Nothing more can be read (bad top-level JSON, or data after the document). */
const S_STOPPED = 11;

const C_NONE = 0;
const C_EVENT = 1;
const C_KEY = 2;
const C_KEEP = 3;
const C_SKIP = 4;

export class TraceDocumentReader {
  private state = S_START;
  private form: 'array' | 'object' | undefined;
  private eventsFound = false;
  private eventsClosed = false;
  private key = '';
  /** Where a skipped value leads: back into the events array, or to the next top-level key. */
  private skipReturn = S_KEY_NEXT;

  private carryMode = C_NONE;
  private carry: Uint8Array[] = [];
  private carryBytes = 0;
  private carryStart = 0;
  private readonly skipper = new ValueSkipper();
  private readonly maxCarry: number;

  /** File offset of the next chunk. */
  private offset = 0;
  /** Line breaks in the file before `countedTo`. */
  private lineBreaks = 0;
  private countedTo = 0;
  /**
   * File bytes [countedTo, clearTo) are known to hold no line break (the last search for one ran
   * past `countedTo`): the next count starts there, so no byte is searched twice, however the
   * file is laid out (a trace on one line has no break to stop a search early).
   */
  private clearTo = 0;
  /** Bytes searched for line breaks so far (a work counter: tests check it stays linear). */
  private lineSearchBytes = 0;

  /** The first keys of the object form (to say what a JSON object that is no trace holds). */
  private readonly keys: string[] = [];
  private keyCount = 0;
  /** Elements of the events array that are not objects. */
  private otherElements = 0;

  private sawComma = false;
  private resyncFrom = 0;
  private syntaxErrors = 0;

  constructor(
    private readonly sink: TraceDocumentSink,
    private readonly options: DocumentReaderOptions,
  ) {
    this.maxCarry = options.maxCarryBytes ?? DEFAULT_MAX_CARRY;
  }

  /** True once an events array (either form) was found. */
  get foundEvents(): boolean {
    return this.eventsFound;
  }

  get documentForm(): 'array' | 'object' | undefined {
    return this.form;
  }

  /** Elements of the events array that were not objects (skipped). */
  get nonObjectElements(): number {
    return this.otherElements;
  }

  /** Bytes searched for line breaks so far: at most about the bytes read, whatever the layout. */
  get lineSearchWork(): number {
    return this.lineSearchBytes;
  }

  /**
   * Copies the bytes held for a value that a chunk boundary cut, so that the chunks read so far
   * can be handed to another thread (transferred) while the value waits for its end.
   */
  ownCarry(): void {
    if (this.carry.length > 0) this.carry = this.carry.map((piece) => piece.slice());
  }

  push(chunk: Uint8Array): void {
    if (this.offset === 0 && chunk.length > 2 * EARLY_CUT_BYTES) {
      this.pushChunk(chunk.subarray(0, EARLY_CUT_BYTES));
      this.pushChunk(chunk.subarray(EARLY_CUT_BYTES));
      return;
    }
    this.pushChunk(chunk);
  }

  private pushChunk(chunk: Uint8Array): void {
    const base = this.offset;
    this.offset += chunk.length;
    let pos = 0;
    while (this.carryMode !== C_NONE) {
      const end = this.skipper.feed(chunk, pos, chunk.length);
      if (end === INCOMPLETE) {
        this.absorb(chunk, pos, base);
        return;
      }
      pos = this.finishCarry(chunk, pos, end, base);
    }
    this.run(chunk, pos, base, false);
  }

  /** Call after the last chunk. */
  end(): void {
    if (this.carryMode === C_EVENT) {
      const bytes = joinBytes(this.carry, this.carryBytes);
      const start = this.carryStart;
      this.clearCarry();
      this.run(bytes, 0, start, true);
    } else if (this.carryMode !== C_NONE) {
      const what = this.carryMode === C_KEY ? 'a top-level key' : `the value of "${this.key}"`;
      this.sink.report('error', `the file ends inside ${what} (starting at byte ${this.carryStart}); the file is probably truncated`, this.at(this.carryStart));
      this.clearCarry();
      this.state = S_STOPPED;
    }
    if (this.syntaxErrors > MAX_SYNTAX_REPORTS) {
      this.sink.report('error', `${this.syntaxErrors - MAX_SYNTAX_REPORTS} more JSON syntax errors not listed`);
    }
    switch (this.state) {
      case S_START:
        this.sink.report('error', this.offset === 0 ? 'the file is empty' : 'no JSON document found (only whitespace)');
        break;
      case S_EV_FIRST:
      case S_EV_NEXT:
      case S_EV_AFTER_COMMA:
        // Chrome itself writes the array form without the closing ']': not a problem there.
        if (this.form === 'object') {
          this.sink.report('warning', 'the file ends inside the traceEvents array (no closing "]}"); the file is probably truncated', { offset: this.offset });
        }
        break;
      case S_KEY_FIRST:
      case S_KEY_NEXT:
      case S_KEY_AFTER_COMMA:
      case S_COLON:
      case S_VALUE:
        this.sink.report('warning', 'the file ends before the closing "}" of the trace object', { offset: this.offset });
        break;
      case S_RESYNC:
        this.sink.report('warning', `no further event found after the JSON error (bytes ${this.resyncFrom}..${this.offset} not read)`, {
          offset: this.resyncFrom,
        });
        break;
    }
    if (this.form === 'object' && !this.eventsFound) {
      const keys = this.keys.map((k) => JSON.stringify(k)).join(', ');
      const more = this.keyCount > this.keys.length ? ` and ${this.keyCount - this.keys.length} more` : '';
      const what = this.keys.includes('systemTraceEvents')
        ? 'the trace holds only "systemTraceEvents" (ftrace text, which nvtxview does not read), no "traceEvents" array'
        : `not a Chrome trace: a JSON object without a "traceEvents" array (${this.keyCount === 0 ? 'no keys' : `keys ${keys}${more}`})`;
      this.sink.report('error', what, { offset: 0, line: 1 });
    }
  }

  // ---------------------------------------------------------------- main loop

  private run(buf: Uint8Array, pos: number, base: number, eof: boolean): void {
    const len = buf.length;
    while (pos < len) {
      if (this.state === S_EV_NEXT || this.state === S_EV_AFTER_COMMA || this.state === S_EV_FIRST) {
        pos = this.readEvents(buf, pos, base, eof);
        if (this.carryMode !== C_NONE) return;
        if (pos >= len) break;
      }
      const c = buf[pos];
      switch (this.state) {
        case S_EV_NEXT:
          if (isWs(c)) pos = this.passWs(c, pos, base);
          else if (c === COMMA) {
            this.state = S_EV_AFTER_COMMA;
            pos = this.passWs(c, pos, base);
          } else if (c === RBRACKET) pos = this.closeEvents(pos);
          else pos = this.syntaxError(buf, base, pos, `unexpected ${describeByte(c)} after an event (expected ',' or ']')`);
          break;
        case S_EV_FIRST:
        case S_EV_AFTER_COMMA:
          if (isWs(c)) pos = this.passWs(c, pos, base);
          else if (c === LBRACE) {
            pos = this.readEvent(buf, pos, base, eof);
          } else if (c === RBRACKET) pos = this.closeEvents(pos);
          else if (c === COMMA) pos = this.syntaxError(buf, base, pos, 'empty element in the events array (",,")');
          else {
            this.otherElements++;
            this.sink.report('warning', `an element of the events array is not an object (starts with ${describeByte(c)}); skipped`, this.at(base + pos, buf, base));
            this.skipReturn = S_EV_NEXT;
            pos = this.startValue(C_SKIP, buf, pos, base);
          }
          break;
        case S_RESYNC:
          pos = this.resync(buf, pos, base);
          break;
        case S_START:
          if (isWs(c) || (base + pos < 3 && (c === 0xef || c === 0xbb || c === 0xbf))) pos++;
          else if (c === LBRACKET) {
            this.form = 'array';
            this.eventsFound = true;
            this.state = S_EV_FIRST;
            pos++;
          } else if (c === LBRACE) {
            this.form = 'object';
            this.state = S_KEY_FIRST;
            pos++;
          } else pos = this.fatal(buf, base, pos, `not a JSON trace: expected '[' or '{' but found ${describeByte(c)}`);
          break;
        case S_KEY_FIRST:
        case S_KEY_AFTER_COMMA:
          if (isWs(c)) pos++;
          else if (c === QUOTE) pos = this.startValue(C_KEY, buf, pos, base);
          else if (c === RBRACE) {
            this.state = S_DONE;
            pos++;
          } else pos = this.fatal(buf, base, pos, `unexpected ${describeByte(c)} where a key of the trace object should start`);
          break;
        case S_COLON:
          if (isWs(c)) pos++;
          else if (c === COLON) {
            this.state = S_VALUE;
            pos++;
          } else pos = this.fatal(buf, base, pos, `unexpected ${describeByte(c)} after the key "${this.key}" (expected ':')`);
          break;
        case S_VALUE:
          if (isWs(c)) pos++;
          else if (this.key === 'traceEvents' && c === LBRACKET && !this.eventsFound) {
            this.eventsFound = true;
            this.state = S_EV_FIRST;
            pos++;
          } else {
            if (this.key === 'traceEvents') {
              this.sink.report('error', this.eventsFound ? 'a second "traceEvents" key; ignored' : '"traceEvents" is not an array; ignored', this.at(base + pos, buf, base));
            }
            this.skipReturn = S_KEY_NEXT;
            pos = this.startValue(this.options.keptKeys.has(this.key) ? C_KEEP : C_SKIP, buf, pos, base);
          }
          break;
        case S_KEY_NEXT:
          if (isWs(c)) pos++;
          else if (c === COMMA) {
            this.state = S_KEY_AFTER_COMMA;
            pos++;
          } else if (c === RBRACE) {
            this.state = S_DONE;
            pos++;
          } else pos = this.fatal(buf, base, pos, `unexpected ${describeByte(c)} in the trace object (expected ',' or '}')`);
          break;
        case S_DONE:
          if (isWs(c)) pos++;
          else {
            this.sink.report('warning', `data after the end of the JSON document (${describeByte(c)}); ignored`, this.at(base + pos, buf, base));
            this.state = S_STOPPED;
            pos = len;
          }
          break;
        default:
          pos = len;
      }
      if (this.carryMode !== C_NONE) return;
    }
    this.countTo(buf, base, base + len);
  }

  /**
   * Steps over a byte between events (whitespace or the comma); line numbers are kept as it goes
   * when they are counted up to it, so that most of the events array is never scanned twice.
   */
  private passWs(c: number, pos: number, base: number): number {
    if (this.countedTo === base + pos) {
      this.countedTo++;
      if (c === 0x0a) this.lineBreaks++;
    }
    return pos + 1;
  }

  /**
   * The common path through the events array, without the state machine's dispatch per byte:
   * whitespace, a comma, the next event, and again. Returns at anything else (the closing ']',
   * bad JSON, a carried event) for `run` to handle.
   */
  private readEvents(buf: Uint8Array, pos: number, base: number, eof: boolean): number {
    const len = buf.length;
    let state = this.state;
    while (pos < len) {
      const c = buf[pos];
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        pos = this.passWs(c, pos, base);
      } else if (state === S_EV_NEXT) {
        if (c !== COMMA) break;
        pos = this.passWs(c, pos, base);
        state = S_EV_AFTER_COMMA;
      } else {
        if (c !== LBRACE) break;
        this.state = state;
        pos = this.readEvent(buf, pos, base, eof);
        state = this.state;
        if (state !== S_EV_NEXT || this.carryMode !== C_NONE) return pos;
      }
    }
    this.state = state;
    return pos;
  }

  private readEvent(buf: Uint8Array, pos: number, base: number, eof: boolean): number {
    let end: number;
    if (this.countedTo < base + pos) this.countTo(buf, base, base + pos);
    try {
      end = this.sink.event(buf, pos, buf.length, base);
    } catch (e) {
      if (!(e instanceof JsonSyntaxError)) throw e;
      return this.syntaxError(buf, base, e.at, e.message);
    }
    if (end !== INCOMPLETE) {
      this.state = S_EV_NEXT;
      const lines = this.sink.lastEventLineBreaks;
      if (lines !== undefined && lines >= 0 && this.countedTo === base + pos) {
        this.lineBreaks += lines;
        this.countedTo = base + end;
      }
      return end;
    }
    if (eof) {
      this.sink.report('error', `the file ends inside an event (starting at byte ${base + pos}); the file is probably truncated`, this.at(base + pos, buf, base));
      this.state = S_STOPPED;
      return buf.length;
    }
    return this.startValue(C_EVENT, buf, pos, base);
  }

  private closeEvents(pos: number): number {
    this.eventsClosed = true;
    this.state = this.form === 'object' ? S_KEY_NEXT : S_DONE;
    return pos + 1;
  }

  // ---------------------------------------------------------------- values across chunks

  /** Starts reading a value at buf[pos]; returns where the main loop continues. */
  private startValue(mode: number, buf: Uint8Array, pos: number, base: number): number {
    if (mode === C_KEY) {
      // Keys are short: usually whole in this buffer.
      let end: number;
      try {
        end = scanString(buf, pos, buf.length);
      } catch (e) {
        if (!(e instanceof JsonSyntaxError)) throw e;
        return this.fatal(buf, base, e.at, e.message);
      }
      if (end !== INCOMPLETE) return this.keyDone(buf, pos, end, base);
    }
    this.skipper.begin();
    const end = this.skipper.feed(buf, pos, buf.length);
    if (end !== INCOMPLETE) {
      if (mode === C_EVENT) {
        // The event parser saw an incomplete object where the structure is complete.
        return this.syntaxError(buf, base, end - 1, 'malformed event');
      }
      return this.valueDone(mode, buf, pos, end, base);
    }
    this.countTo(buf, base, base + pos);
    this.carryMode = mode;
    this.carryStart = base + pos;
    this.carryBytes = buf.length - pos;
    if (mode === C_SKIP) this.countTo(buf, base, base + buf.length);
    else this.carry = [buf.subarray(pos)];
    return buf.length;
  }

  /** Takes in more bytes of a value that is still incomplete. */
  private absorb(chunk: Uint8Array, pos: number, base: number): void {
    this.carryBytes += chunk.length - pos;
    if (this.carryMode === C_SKIP) {
      this.countTo(chunk, base, base + chunk.length);
      return;
    }
    this.carry.push(pos === 0 ? chunk : chunk.subarray(pos));
    if (this.carryBytes > this.maxCarry) {
      const what = this.carryMode === C_EVENT ? 'an event' : this.carryMode === C_KEY ? 'a key' : `the value of "${this.key}"`;
      const mb = Math.round(this.maxCarry / (1024 * 1024));
      this.sink.report('error', `${what} starting at byte ${this.carryStart} is larger than ${mb} MB (or the JSON is malformed there); skipped`, this.at(this.carryStart));
      // Keep line numbers right for what follows.
      let at = this.carryStart;
      for (const piece of this.carry) {
        this.countTo(piece, at, at + piece.length);
        at += piece.length;
      }
      this.carry = [];
      if (this.carryMode !== C_KEY) this.skipReturn = this.carryMode === C_EVENT ? S_EV_NEXT : S_KEY_NEXT;
      else this.skipReturn = S_COLON;
      this.carryMode = C_SKIP;
    }
  }

  /** The carried value ends at chunk[end]; returns where reading continues in `chunk`. */
  private finishCarry(chunk: Uint8Array, pos: number, end: number, base: number): number {
    const mode = this.carryMode;
    if (mode === C_SKIP) {
      const bytes = this.carryBytes + (end - pos);
      const start = this.carryStart;
      this.clearCarry();
      this.countTo(chunk, base, base + end);
      this.skipped(bytes, start);
      return end;
    }
    this.carry.push(chunk.subarray(pos, end));
    const whole = joinBytes(this.carry, this.carryBytes + (end - pos));
    const start = this.carryStart;
    this.clearCarry();
    if (mode === C_EVENT) {
      // The state is still "expecting an event": run the main loop over the whole event.
      this.run(whole, 0, start, false);
    } else if (mode === C_KEY) {
      this.keyDone(whole, 0, whole.length, start);
      this.countTo(whole, start, start + whole.length);
    } else {
      this.valueDone(mode, whole, 0, whole.length, start);
      this.countTo(whole, start, start + whole.length);
    }
    return end;
  }

  private clearCarry(): void {
    this.carryMode = C_NONE;
    this.carry = [];
    this.carryBytes = 0;
  }

  private keyDone(buf: Uint8Array, start: number, end: number, base: number): number {
    try {
      scanString(buf, start, end);
      this.key = decodeStringToken(buf, start, end, stringScan.escaped);
      if (this.keys.length < 8) this.keys.push(this.key.length > 40 ? `${this.key.slice(0, 40)}…` : this.key);
      this.keyCount++;
    } catch (e) {
      if (!(e instanceof JsonSyntaxError)) throw e;
      return this.fatal(buf, base, e.at, e.message);
    }
    this.state = S_COLON;
    return end;
  }

  private valueDone(mode: number, buf: Uint8Array, start: number, end: number, base: number): number {
    if (mode === C_KEEP) {
      this.sink.topLevelValue(this.key, decodeText(buf, start, end), end - start, { offset: base + start });
      this.state = S_KEY_NEXT;
    } else this.skipped(end - start, base + start);
    return end;
  }

  private skipped(bytes: number, offset: number): void {
    if (this.skipReturn === S_KEY_NEXT) this.sink.topLevelValue(this.key, undefined, bytes, { offset });
    this.state = this.skipReturn;
  }

  // ---------------------------------------------------------------- errors

  /** Bad JSON inside the events array: report it and look for the next event. */
  private syntaxError(buf: Uint8Array, base: number, at: number, message: string): number {
    const inEvents = this.eventsFound && !this.eventsClosed;
    if (!inEvents) return this.fatal(buf, base, at, message);
    this.syntaxErrors++;
    if (this.syntaxErrors <= MAX_SYNTAX_REPORTS) {
      this.sink.report('error', `malformed JSON at byte ${base + at}: ${message}; skipping to the next event`, this.at(base + at, buf, base));
    }
    this.state = S_RESYNC;
    this.sawComma = false;
    this.resyncFrom = base + at;
    return at + 1;
  }

  /** Bad JSON outside the events array: nothing after it can be trusted. */
  private fatal(buf: Uint8Array, base: number, at: number, message: string): number {
    this.sink.report('error', `malformed JSON at byte ${base + at}: ${message}; the rest of the file is not read`, this.at(base + at, buf, base));
    this.state = S_STOPPED;
    return buf.length;
  }

  /** Scans for ',' then '{' (whitespace between): the likely start of the next event. */
  private resync(buf: Uint8Array, pos: number, base: number): number {
    const len = buf.length;
    let sawComma = this.sawComma;
    for (; pos < len; pos++) {
      const c = buf[pos];
      if (c === COMMA) sawComma = true;
      else if (c === LBRACE && sawComma) {
        if (this.syntaxErrors <= MAX_SYNTAX_REPORTS) {
          this.sink.report('info', `reading resumes at byte ${base + pos} (${base + pos - this.resyncFrom} bytes skipped after the JSON error)`, {
            offset: base + pos,
          });
        }
        this.state = S_EV_AFTER_COMMA;
        this.sawComma = false;
        return pos;
      } else if (!isWs(c)) sawComma = false;
    }
    this.sawComma = sawComma;
    return pos;
  }

  // ---------------------------------------------------------------- line numbers

  /** Counts line breaks in buf (file offset `base`) from `countedTo` up to file offset `upto`. */
  private countTo(buf: Uint8Array, base: number, upto: number): void {
    if (upto <= this.countedTo) return;
    if (upto <= this.clearTo) {
      this.countedTo = upto;
      return;
    }
    let i = Math.max(this.countedTo, this.clearTo) - base;
    const end = upto - base;
    if (i < 0) return;
    let n = 0;
    for (;;) {
      const k = buf.indexOf(0x0a, i);
      // The search may run past `end` (to the next break or the buffer's end): remember how far.
      this.lineSearchBytes += (k === -1 ? buf.length : k + 1) - i;
      if (k === -1 || k >= end) {
        this.clearTo = base + (k === -1 ? buf.length : k);
        break;
      }
      n++;
      i = k + 1;
    }
    this.lineBreaks += n;
    this.countedTo = upto;
  }

  /** Location of a file offset; the line is known when the offset is in `buf` (at or after what is counted). */
  private at(offset: number, buf?: Uint8Array, base = 0): IssueLocation {
    // Counting stops where the bytes before it are gone (countedTo before `buf`): no line then.
    if (buf && offset >= this.countedTo && offset - base <= buf.length) this.countTo(buf, base, offset);
    if (offset === this.countedTo) return { offset, line: this.lineBreaks + 1 };
    return { offset };
  }
}
