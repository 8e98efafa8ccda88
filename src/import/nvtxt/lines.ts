/**
 * Splits a stream of byte chunks into lines without ever holding the whole text.
 *
 * UTF-8 (the usual case): each chunk is cut after its last LF byte. The bytes before it are whole
 * lines, and a LF byte never occurs inside a multi-byte UTF-8 sequence, so they decode on their
 * own (non-streaming decoding is several times faster than `stream: true` in some engines). Only
 * the bytes of the unfinished last line are carried to the next chunk.
 *
 * UTF-16 (a file starting with a UTF-16 BOM, as Windows tools sometimes write): decoded with a
 * streaming decoder, splitting the text.
 *
 * LF and CRLF line ends; a leading BOM is dropped.
 */

const LF = 10;

/**
 * Calls `onLine(text, lineNumber)` for every line (1-based numbers, without the line end). Bytes
 * that cannot be decoded become U+FFFD; `onInvalidText(lineNumber)` is called for each line that
 * had some.
 */
export async function forEachLine(
  chunks: AsyncIterable<Uint8Array>,
  onLine: (text: string, line: number) => void,
  signal?: AbortSignal,
  onInvalidText?: (line: number) => void,
): Promise<void> {
  const lines = new LineEmitter(onLine, onInvalidText);
  let splitter: Utf8Splitter | TextSplitter | undefined;
  /** The first bytes, until there are enough to see a BOM. */
  let head: Uint8Array[] = [];
  for await (const chunk of chunks) {
    if (signal?.aborted) return;
    if (splitter) {
      splitter.push(chunk);
      continue;
    }
    // Copied (new Uint8Array, not slice: a Buffer's slice shares): a producer may reuse its chunk buffers.
    head.push(new Uint8Array(chunk));
    const bytes = join(head);
    if (bytes.length < 2) continue;
    head = [];
    const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : '';
    splitter = utf16 ? new TextSplitter(lines, utf16) : new Utf8Splitter(lines);
    splitter.push(bytes);
  }
  if (!splitter) {
    splitter = new Utf8Splitter(lines);
    splitter.push(join(head));
  }
  splitter.end();
}

/** Numbers lines, strips CR and the BOM, notes undecodable text. */
class LineEmitter {
  private line = 0;
  /** Whether the text being split had undecodable bytes (then each line is checked). */
  invalid = false;

  constructor(
    private readonly onLine: (text: string, line: number) => void,
    private readonly onInvalidText: ((line: number) => void) | undefined,
  ) {}

  emit(text: string): void {
    const line = ++this.line;
    let end = text.length;
    if (end > 0 && text.charCodeAt(end - 1) === 13) end--;
    const start = line === 1 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
    if (this.invalid && this.onInvalidText && text.includes('\ufffd')) this.onInvalidText(line);
    this.onLine(start === 0 && end === text.length ? text : text.slice(start, end), line);
  }

  /** Emits every complete line of `text` and returns where the unfinished rest starts. */
  emitComplete(text: string): number {
    let from = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
      this.emit(text.slice(from, nl));
      from = nl + 1;
    }
    return from;
  }
}

class Utf8Splitter {
  private readonly strict = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });
  private readonly lenient = new TextDecoder('utf-8', { ignoreBOM: true });
  /** Bytes of the line that the previous chunks left unfinished. */
  private pending: Uint8Array[] = [];

  constructor(private readonly lines: LineEmitter) {}

  push(chunk: Uint8Array): void {
    const last = chunk.lastIndexOf(LF);
    if (last < 0) {
      this.pending.push(new Uint8Array(chunk));
      return;
    }
    let from = 0;
    if (this.pending.length > 0) {
      const first = chunk.indexOf(LF);
      this.pending.push(chunk.subarray(0, first + 1));
      this.lines.emitComplete(this.decode(join(this.pending)));
      this.pending = [];
      from = first + 1;
    }
    if (from <= last) this.lines.emitComplete(this.decode(chunk.subarray(from, last + 1)));
    if (last + 1 < chunk.length) this.pending.push(chunk.slice(last + 1));
  }

  end(): void {
    if (this.pending.length > 0) this.lines.emit(this.decode(join(this.pending)));
  }

  private decode(bytes: Uint8Array): string {
    try {
      this.lines.invalid = false;
      return this.strict.decode(bytes);
    } catch {
      this.lines.invalid = true;
      return this.lenient.decode(bytes);
    }
  }
}

class TextSplitter {
  private readonly decoder: TextDecoder;
  private carry = '';

  constructor(
    private readonly lines: LineEmitter,
    encoding: string,
  ) {
    this.decoder = new TextDecoder(encoding);
  }

  push(chunk: Uint8Array): void {
    this.split(this.decoder.decode(chunk, { stream: true }));
  }

  end(): void {
    this.split(this.decoder.decode());
    if (this.carry.length > 0) this.lines.emit(this.carry);
  }

  private split(text: string): void {
    const all = this.carry + text;
    this.lines.invalid = all.includes('\ufffd');
    this.carry = all.slice(this.lines.emitComplete(all));
  }
}

function join(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
