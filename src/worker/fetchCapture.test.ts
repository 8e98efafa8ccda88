import { gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { loadModel, loadModelFromStream, memorySource } from '../import/pipeline.ts';
import { DownloadFailed, noAnswerMessage, openDownload } from './fetchCapture.ts';

const NVTXT = [
  'NameProcess, 1, app',
  'RangePush, 1000, ns, 1, 2, 0, Blue, "step", 0',
  'RangePop, 5000, ns, 1, 2',
  'Marker, 3000, ns, 1, 2, 0, Red, "tick", 0',
  '',
].join('\n');

/** A Response whose body arrives in the given pieces. */
function streamed(pieces: Uint8Array[], init: ResponseInit = {}, failAfter?: number): Response {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (failAfter !== undefined && i === failAfter) controller.error(new TypeError('network changed'));
      else if (i < pieces.length) controller.enqueue(pieces[i++]);
      else controller.close();
    },
  });
  return new Response(body, init);
}

function split(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.slice(at, at + size));
  return out;
}

const fetchReturning = (response: Response | Error) => (async () => {
  if (response instanceof Error) throw response;
  return response;
}) as typeof fetch;

async function drain(chunks: AsyncIterable<Uint8Array>): Promise<number> {
  let n = 0;
  for await (const c of chunks) n += c.length;
  return n;
}

describe('openDownload', () => {
  it('streams the body with progress against Content-Length, into the same pipeline as a file', async () => {
    const bytes = new TextEncoder().encode(NVTXT);
    const progress: [number, number][] = [];
    const download = await openDownload('https://data.example/run.nvtxt', 'run.nvtxt', {
      fetchImpl: fetchReturning(streamed(split(bytes, 16), { headers: { 'content-length': String(bytes.length) } })),
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(download.sizeHint).toBe(bytes.length);
    const model = await loadModelFromStream('run.nvtxt', download.chunks, download.sizeHint);
    const fromFile = await loadModel(memorySource('run.nvtxt', bytes));
    expect(Array.from(model.ranges.startNs)).toEqual(Array.from(fromFile.ranges.startNs));
    expect(model.marks.timeNs.length).toBe(1);
    expect(model.capture.byteSize).toBe(bytes.length);
    expect(progress[0]).toEqual([16, bytes.length]);
    expect(progress.at(-1)).toEqual([bytes.length, bytes.length]);
    expect(progress.map((p) => p[0])).toEqual([...progress.map((p) => p[0])].sort((a, b) => a - b));
  });

  it('gunzips a compressed download and counts received bytes when the length is unknown', async () => {
    const gz = gzipSync(new TextEncoder().encode(NVTXT));
    const progress: [number, number][] = [];
    const download = await openDownload('https://data.example/run.nvtxt.gz', 'run.nvtxt.gz', {
      fetchImpl: fetchReturning(streamed(split(gz, 7))),
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(download.sizeHint).toBe(0);
    const model = await loadModelFromStream('run.nvtxt.gz', download.chunks, 0);
    expect(model.capture.properties.compression).toBe('gzip');
    expect(model.capture.byteSize).toBe(gz.length);
    expect(model.ranges.startNs.length).toBe(1);
    expect(progress[0]).toEqual([7, 0]);
    expect(progress.at(-1)).toEqual([gz.length, gz.length]);
  });

  it('treats a length the body outgrows (Content-Encoding) as unknown', async () => {
    const progress: [number, number][] = [];
    const download = await openDownload('https://x.example/a', 'a', {
      fetchImpl: fetchReturning(streamed(split(new Uint8Array(30), 10), { headers: { 'content-length': '15' } })),
      onProgress: (done, total) => progress.push([done, total]),
    });
    await drain(download.chunks);
    expect(progress).toEqual([
      [10, 15],
      [20, 0],
      [30, 0],
      [30, 30],
    ]);
  });

  it('names the HTTP status', async () => {
    const promise = openDownload('https://data.example/missing.json', 'missing.json', {
      fetchImpl: fetchReturning(new Response('no', { status: 404, statusText: 'Not Found' })),
    });
    await expect(promise).rejects.toThrow(DownloadFailed);
    await expect(promise).rejects.toThrow('missing.json: could not fetch https://data.example/missing.json: the server answered HTTP 404 Not Found');
  });

  it('explains a request without an answer: CORS for another origin, mixed content for http from https', async () => {
    const promise = openDownload('http://other.example:8080/t.json', 't.json', {
      fetchImpl: fetchReturning(new TypeError('Failed to fetch')),
      pageOrigin: 'https://viewer.example',
    });
    await expect(promise).rejects.toThrow(
      't.json: could not fetch http://other.example:8080/t.json (Failed to fetch): this page is served over https, so the browser ' +
        'blocks plain http:// URLs (mixed content); or the server at http://other.example:8080 does not allow cross-origin ' +
        'requests from https://viewer.example (it must answer with the header Access-Control-Allow-Origin: https://viewer.example or *); ' +
        'or the server is unreachable',
    );
    // Same origin: CORS cannot be the reason.
    expect(noAnswerMessage('t.json', 'https://viewer.example/t.json', 'https://viewer.example', 'Failed to fetch')).toBe(
      't.json: could not fetch https://viewer.example/t.json (Failed to fetch): the server is unreachable',
    );
  });

  it('says how far a download got when it breaks off', async () => {
    const download = await openDownload('https://x.example/big.json', 'big.json', {
      fetchImpl: fetchReturning(streamed(split(new Uint8Array(40), 10), {}, 2)),
    });
    await expect(drain(download.chunks)).rejects.toThrow('big.json: the download of https://x.example/big.json broke off after 20 bytes (network changed)');
  });

  it('reports an empty download as an empty file', async () => {
    const download = await openDownload('https://x.example/empty', 'empty', { fetchImpl: fetchReturning(streamed([])) });
    await expect(loadModelFromStream('empty', download.chunks, 0)).rejects.toThrow('empty: the file is empty');
  });
});
