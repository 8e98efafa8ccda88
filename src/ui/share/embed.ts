/**
 * The embedding API: a page that opens nvtxview in a window or an iframe sends it captures by
 * postMessage (handshake documented in docs/hosting.md).
 *
 *   nvtxview -> opener/parent   {type: 'nvtxview:ready', version}
 *   embedder -> nvtxview        {type: 'nvtxview:open', id?, files: [{name, bytes: ArrayBuffer | typed array | Blob}]}
 *   nvtxview -> embedder        {type: 'nvtxview:loaded', version, id?, files: [{name}]}
 *                            or {type: 'nvtxview:error', version, id?, message, files?: [{name, ok, message?}]}
 *   embedder -> nvtxview        {type: 'nvtxview:ping'}  (answered with 'nvtxview:ready', for late listeners)
 *
 * Only the page's own origin, the origins given with `?embedOrigin=` (or any with
 * `?embedOrigin=*`) may send captures; a refused sender gets an error reply and the page says why.
 * The ready message carries nothing but the version, so it goes to any origin: an embedder on a
 * refused origin then learns from the error reply what to change instead of waiting forever.
 */
import type { LoadOutcome, LoadSource } from '../loadController.ts';

export const EMBED_API_VERSION = 1;

export type EmbedReply =
  | { type: 'nvtxview:ready'; version: number }
  | { type: 'nvtxview:loaded'; version: number; id?: unknown; files: { name: string }[] }
  | {
      type: 'nvtxview:error';
      version: number;
      id?: unknown;
      message: string;
      files?: { name: string; ok: boolean; message?: string }[];
    };

/** An 'nvtxview:open' message read into load sources, or why it cannot be used. */
export type OpenRequest = { ok: true; id?: unknown; files: LoadSource[] } | { ok: false; id?: unknown; message: string };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function toBlob(bytes: unknown): Blob | undefined {
  if (bytes instanceof Blob) return bytes;
  if (bytes instanceof ArrayBuffer) return new Blob([bytes]);
  if (ArrayBuffer.isView(bytes)) return new Blob([bytes as ArrayBufferView<ArrayBuffer>]);
  return undefined;
}

/** Reads an 'nvtxview:open' message; messages of other types are not this API's business (undefined). */
export function parseOpenRequest(data: unknown): OpenRequest | undefined {
  if (!isRecord(data) || data.type !== 'nvtxview:open') return undefined;
  const id = data.id;
  const withId = (r: OpenRequest): OpenRequest => (id === undefined ? r : { ...r, id });
  if (!Array.isArray(data.files) || data.files.length === 0) {
    return withId({ ok: false, message: 'nvtxview:open needs files: a non-empty array of {name, bytes}' });
  }
  const files: LoadSource[] = [];
  for (const [i, entry] of data.files.entries()) {
    if (!isRecord(entry)) return withId({ ok: false, message: `files[${i}] must be an object {name, bytes}` });
    const name = typeof entry.name === 'string' && entry.name !== '' ? entry.name : `capture-${i + 1}`;
    const blob = toBlob(entry.bytes);
    if (!blob) {
      return withId({ ok: false, message: `files[${i}] (${name}): bytes must be an ArrayBuffer, a typed array or a Blob` });
    }
    files.push({ blob, name });
  }
  return withId({ ok: true, files });
}

export interface OriginPolicy {
  pageOrigin: string;
  /** Other origins allowed (from ?embedOrigin=). */
  allowed: string[];
  /** ?embedOrigin=*: everyone. */
  any: boolean;
}

export function originAllowed(policy: OriginPolicy, origin: string): boolean {
  return policy.any || (origin !== 'null' && (origin === policy.pageOrigin || policy.allowed.includes(origin)));
}

/** The refusal shown in the page and sent back to the refused sender. */
export function refusalMessage(policy: OriginPolicy, origin: string, fileCount: number): string {
  const allowed = [policy.pageOrigin, ...policy.allowed].join(', ');
  const what = fileCount === 1 ? 'a capture' : `${fileCount} captures`;
  // "null" is every sandboxed frame and file:// page at once: it cannot be allowed by name.
  const advice =
    origin === 'null'
      ? 'A page without an origin (a sandboxed frame or a file:// page) cannot be allowed by name: serve it over http(s) and allow that origin with ?embedOrigin=, or allow every origin with ?embedOrigin=*.'
      : `To allow it, open nvtxview with ?embedOrigin=${encodeURIComponent(origin)} in its address.`;
  return `Refused ${what} sent by ${origin}: only ${allowed} may send captures to this page. ${advice}`;
}

/** Where replies go: the sender's window, restricted to the sender's origin. */
interface ReplyTarget {
  postMessage(message: EmbedReply, targetOrigin: string): void;
}

/** What the API needs of a message event (a real MessageEvent in the page). */
export interface EmbedMessage {
  data: unknown;
  origin: string;
  source: unknown;
}

/** The window as the API uses it (a fake in tests). */
export interface EmbedWindow {
  parent: unknown;
  opener: unknown;
  addEventListener(type: 'message', listener: (event: EmbedMessage) => void): void;
  removeEventListener(type: 'message', listener: (event: EmbedMessage) => void): void;
}

export interface EmbedLoader {
  open(files: LoadSource[]): Promise<LoadOutcome[]>;
}

function isReplyTarget(v: unknown): v is ReplyTarget {
  return isRecord(v) && typeof (v as { postMessage?: unknown }).postMessage === 'function';
}

/** The page that framed or opened this one, if any. */
function embedderOf(win: EmbedWindow): ReplyTarget | undefined {
  if (win.parent !== win && isReplyTarget(win.parent)) return win.parent;
  return isReplyTarget(win.opener) ? win.opener : undefined;
}

/**
 * Listens for captures sent by postMessage and announces readiness to the embedder. Returns the
 * uninstaller. `notify` shows refusals and malformed requests in the page.
 */
export function installEmbedding(
  win: EmbedWindow,
  loader: EmbedLoader,
  policy: OriginPolicy,
  notify: (tone: 'warning' | 'error', text: string, key?: string) => void,
): () => void {
  const ready: EmbedReply = { type: 'nvtxview:ready', version: EMBED_API_VERSION };
  const onMessage = (event: EmbedMessage) => {
    const data = event.data;
    if (!isRecord(data) || typeof data.type !== 'string' || !data.type.startsWith('nvtxview:')) return;
    const source = isReplyTarget(event.source) ? event.source : undefined;
    // A sender without an origin (sandboxed frame, file://) can only be answered with '*'.
    const targetOrigin = event.origin === 'null' ? '*' : event.origin;
    const reply = (message: EmbedReply) => source?.postMessage(message, targetOrigin);
    if (data.type === 'nvtxview:ping') return reply(ready);
    const request = parseOpenRequest(data);
    if (!request) return;
    const ids = request.id === undefined ? {} : { id: request.id };
    if (!originAllowed(policy, event.origin)) {
      const count = request.ok ? request.files.length : Array.isArray(data.files) ? data.files.length : 1;
      const message = refusalMessage(policy, event.origin, count);
      // One notice per refused origin, counting repeats.
      notify('error', message, `embed-refused:${event.origin}`);
      return reply({ type: 'nvtxview:error', version: EMBED_API_VERSION, ...ids, message });
    }
    if (!request.ok) {
      notify('warning', `A page at ${event.origin} sent a capture this page cannot read: ${request.message}.`, `embed-unreadable:${event.origin}`);
      return reply({ type: 'nvtxview:error', version: EMBED_API_VERSION, ...ids, message: request.message });
    }
    void loader.open(request.files).then((outcomes) => {
      const failed = outcomes.filter((o) => !o.ok);
      if (failed.length === 0) {
        return reply({ type: 'nvtxview:loaded', version: EMBED_API_VERSION, ...ids, files: outcomes.map((o) => ({ name: o.name })) });
      }
      reply({
        type: 'nvtxview:error',
        version: EMBED_API_VERSION,
        ...ids,
        message: failed.map((o) => (o.ok ? '' : o.message)).join('; '),
        files: outcomes.map((o) => (o.ok ? { name: o.name, ok: true } : { name: o.name, ok: false, message: o.message })),
      });
    });
  };
  win.addEventListener('message', onMessage);
  embedderOf(win)?.postMessage(ready, '*');
  return () => win.removeEventListener('message', onMessage);
}
