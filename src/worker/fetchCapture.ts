/**
 * Downloads a capture for the load worker: fetch (CORS mode, no credentials) and the response
 * body as a stream of chunks, so that decoding overlaps the transfer. Failures become messages a
 * user can act on: the HTTP status, or for a request that got no answer at all the likely causes
 * (the browser does not say which: unreachable server, missing CORS header, mixed content).
 */

export interface Download {
  /** The body, chunk by chunk; iterate once. Progress is reported as the chunks are taken. */
  chunks: AsyncIterable<Uint8Array>;
  /** Content-Length when the server sent one, else 0. */
  sizeHint: number;
}

export interface DownloadOptions {
  /** Bytes received so far and the expected total (0 while unknown). */
  onProgress?(bytesDone: number, bytesTotal: number): void;
  /** Origin of the page asking, named in the CORS hint. */
  pageOrigin?: string;
  signal?: AbortSignal;
  fetchImpl?: typeof fetch;
}

/** Why a download failed, with the file name first like every load message. */
export class DownloadFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DownloadFailed';
  }
}

/** The message for a request that never got an HTTP answer. */
export function noAnswerMessage(name: string, url: string, pageOrigin: string | undefined, reason: string): string {
  const target = safeUrl(url);
  const causes: string[] = [];
  if (pageOrigin?.startsWith('https:') && target?.protocol === 'http:') {
    causes.push('this page is served over https, so the browser blocks plain http:// URLs (mixed content)');
  }
  if (target && pageOrigin && target.origin !== pageOrigin && (target.protocol === 'http:' || target.protocol === 'https:')) {
    causes.push(
      `the server at ${target.origin} does not allow cross-origin requests from ${pageOrigin} ` +
        `(it must answer with the header Access-Control-Allow-Origin: ${pageOrigin} or *)`,
    );
  }
  causes.push('the server is unreachable');
  return `${name}: could not fetch ${url} (${reason}): ${causes.join('; or ')}`;
}

function safeUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** Starts the request; resolves once the response headers arrived and were OK. */
export async function openDownload(url: string, name: string, options: DownloadOptions = {}): Promise<Download> {
  const fetchImpl = options.fetchImpl ?? fetch;
  let response: Response;
  try {
    response = await fetchImpl(url, { mode: 'cors', credentials: 'omit', signal: options.signal });
  } catch (e) {
    if (options.signal?.aborted) throw e;
    throw new DownloadFailed(noAnswerMessage(name, url, options.pageOrigin, e instanceof Error ? e.message : String(e)));
  }
  if (!response.ok) {
    const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    throw new DownloadFailed(`${name}: could not fetch ${url}: the server answered ${status}`);
  }
  const length = Number(response.headers.get('content-length'));
  const sizeHint = Number.isFinite(length) && length > 0 ? length : 0;
  return { chunks: bodyChunks(response, name, url, sizeHint, options), sizeHint };
}

async function* bodyChunks(
  response: Response,
  name: string,
  url: string,
  sizeHint: number,
  options: DownloadOptions,
): AsyncGenerator<Uint8Array> {
  let done = 0;
  // With Content-Encoding the length counts compressed bytes: past it the total is unknown.
  const total = () => (done <= sizeHint ? sizeHint : 0);
  if (!response.body) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    done = bytes.length;
    options.onProgress?.(done, done);
    yield bytes;
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (e) {
        if (options.signal?.aborted) throw e;
        const reason = e instanceof Error ? e.message : String(e);
        throw new DownloadFailed(`${name}: the download of ${url} broke off after ${done} bytes (${reason})`);
      }
      if (next.done) break;
      done += next.value.length;
      options.onProgress?.(done, total());
      yield next.value;
    }
    options.onProgress?.(done, done);
  } finally {
    reader.releaseLock();
  }
}
