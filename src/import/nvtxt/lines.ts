/**
 * Splits a stream of UTF-8 chunks into lines without ever holding the whole text: each chunk is
 * decoded (a streaming TextDecoder keeps multi-byte characters that straddle chunks intact, and
 * drops a leading BOM) and its complete lines are handed over one by one; only the unfinished
 * last line is carried to the next chunk. Accepts LF and CRLF line ends.
 */

/** Calls `onLine(text, lineNumber)` for every line (1-based numbers, without the line end). */
export async function forEachLine(
  chunks: AsyncIterable<Uint8Array>,
  onLine: (text: string, line: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  const decoder = new TextDecoder('utf-8');
  let carry = '';
  let line = 0;
  const emit = (text: string): void => {
    line++;
    const n = text.length;
    onLine(n > 0 && text.charCodeAt(n - 1) === 13 ? text.slice(0, n - 1) : text, line);
  };
  for await (const chunk of chunks) {
    if (signal?.aborted) return;
    const text = decoder.decode(chunk, { stream: true });
    let from = 0;
    let nl = text.indexOf('\n');
    if (nl < 0) {
      carry += text;
      continue;
    }
    emit(carry + text.slice(0, nl));
    carry = '';
    from = nl + 1;
    while ((nl = text.indexOf('\n', from)) >= 0) {
      emit(text.slice(from, nl));
      from = nl + 1;
    }
    carry = text.slice(from);
  }
  carry += decoder.decode();
  if (carry.length > 0) emit(carry);
}
