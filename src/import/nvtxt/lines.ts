/**
 * Splits a stream of UTF-8 chunks into lines without ever holding the whole text. Each chunk is
 * cut after its last LF byte: the bytes before it are whole lines, and a LF byte never occurs
 * inside a multi-byte UTF-8 sequence, so they decode on their own (non-streaming decoding is
 * several times faster than `stream: true` in some engines). Only the bytes of the unfinished
 * last line are carried to the next chunk. Accepts LF and CRLF line ends; drops a leading BOM.
 */

const LF = 10;

/**
 * Calls `onLine(text, lineNumber)` for every line (1-based numbers, without the line end). Bytes
 * that are not valid UTF-8 become U+FFFD; `onInvalidUtf8(lineNumber)` is called for each line that
 * had some.
 */
export async function forEachLine(
  chunks: AsyncIterable<Uint8Array>,
  onLine: (text: string, line: number) => void,
  signal?: AbortSignal,
  onInvalidUtf8?: (line: number) => void,
): Promise<void> {
  const strict = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });
  const lenient = new TextDecoder('utf-8', { ignoreBOM: true });
  let line = 0;
  /** Whether the block being split had invalid bytes (then its lines are checked one by one). */
  let invalid = false;
  const decode = (bytes: Uint8Array): string => {
    try {
      invalid = false;
      return strict.decode(bytes);
    } catch {
      invalid = true;
      return lenient.decode(bytes);
    }
  };
  /** Bytes of the line that the previous chunks left unfinished. */
  let pending: Uint8Array[] = [];

  const emit = (text: string): void => {
    line++;
    let end = text.length;
    if (end > 0 && text.charCodeAt(end - 1) === 13) end--;
    const start = line === 1 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
    if (invalid && onInvalidUtf8 && text.includes('\ufffd')) onInvalidUtf8(line);
    onLine(start === 0 && end === text.length ? text : text.slice(start, end), line);
  };
  /** Emits every line of `text`, which ends with LF. */
  const emitAll = (text: string): void => {
    let from = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
      emit(text.slice(from, nl));
      from = nl + 1;
    }
  };

  for await (const chunk of chunks) {
    if (signal?.aborted) return;
    const last = chunk.lastIndexOf(LF);
    // Pending bytes are copied: a producer may reuse its chunk buffers.
    if (last < 0) {
      pending.push(chunk.slice());
      continue;
    }
    let from = 0;
    if (pending.length > 0) {
      const first = chunk.indexOf(LF);
      pending.push(chunk.subarray(0, first + 1));
      emitAll(decode(join(pending)));
      pending = [];
      from = first + 1;
    }
    if (from <= last) emitAll(decode(chunk.subarray(from, last + 1)));
    if (last + 1 < chunk.length) pending.push(chunk.slice(last + 1));
  }
  if (pending.length > 0) emit(decode(join(pending)));
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
