import { describe, expect, it } from 'vitest';
import type { LoadOutcome, LoadSource } from '../loadController.ts';
import { createNoticeStore } from './notices.ts';
import { installEmbedding, parseOpenRequest, type EmbedMessage, type EmbedReply, type EmbedWindow, type OriginPolicy } from './embed.ts';

/** A window that records what it posts, standing for the embedder. */
class Peer {
  readonly received: { message: EmbedReply; targetOrigin: string }[] = [];
  postMessage(message: EmbedReply, targetOrigin: string) {
    this.received.push({ message, targetOrigin });
  }
}

class FakeWindow implements EmbedWindow {
  listener: ((e: EmbedMessage) => void) | undefined;
  constructor(
    public parent: unknown,
    public opener: unknown = null,
  ) {
    if (parent === undefined) this.parent = this;
  }
  addEventListener(_type: 'message', listener: (e: EmbedMessage) => void) {
    this.listener = listener;
  }
  removeEventListener() {
    this.listener = undefined;
  }
}

/** A loader that reads each blob and fails files whose text is "bad". */
class TextLoader {
  readonly opened: LoadSource[][] = [];
  async open(files: LoadSource[]): Promise<LoadOutcome[]> {
    this.opened.push(files);
    return Promise.all(
      files.map(async (f, i): Promise<LoadOutcome> =>
        (await f.blob.text()) === 'bad'
          ? { ok: false, name: f.name, message: `${f.name}: not a format nvtxview knows`, cancelled: false }
          : { ok: true, name: f.name, captureId: i + 1 },
      ),
    );
  }
}

const policy: OriginPolicy = { pageOrigin: 'https://viewer.example', allowed: ['https://lab.example'], any: false };
const settle = () => new Promise((r) => setTimeout(r, 0));
const bytes = (text: string) => new TextEncoder().encode(text).buffer;

function setup(win: FakeWindow, p: OriginPolicy = policy) {
  const loader = new TextLoader();
  const notices: [string, string][] = [];
  const uninstall = installEmbedding(win, loader, p, (tone, text) => notices.push([tone, text]));
  return { loader, notices, uninstall };
}

describe('embedding API', () => {
  it('announces readiness to the parent frame, else the opener', () => {
    const parent = new Peer();
    setup(new FakeWindow(parent));
    expect(parent.received).toEqual([{ message: { type: 'nvtxview:ready', version: 1 }, targetOrigin: '*' }]);
    const opener = new Peer();
    setup(new FakeWindow(undefined, opener));
    expect(opener.received).toHaveLength(1);
    // Neither framed nor opened: nobody to tell, nothing thrown.
    setup(new FakeWindow(undefined, null));
  });

  it('loads captures from an allowed origin and acknowledges with the request id', async () => {
    const win = new FakeWindow(undefined);
    const { loader, notices } = setup(win);
    const sender = new Peer();
    const blob = new Blob(['text two']);
    win.listener!({
      origin: 'https://lab.example',
      source: sender,
      data: {
        type: 'nvtxview:open',
        id: 7,
        files: [
          { name: 'a.nvtxt', bytes: bytes('text one') },
          { name: 'b.json', bytes: blob },
          { bytes: new Uint8Array([1, 2, 3]) },
        ],
      },
    });
    await settle();
    expect(loader.opened[0].map((f) => f.name)).toEqual(['a.nvtxt', 'b.json', 'capture-3']);
    expect(await loader.opened[0][0].blob.text()).toBe('text one');
    expect(loader.opened[0][1].blob).toBe(blob);
    expect(loader.opened[0][2].blob.size).toBe(3);
    expect(sender.received).toEqual([
      {
        message: { type: 'nvtxview:loaded', version: 1, id: 7, files: [{ name: 'a.nvtxt' }, { name: 'b.json' }, { name: 'capture-3' }] },
        targetOrigin: 'https://lab.example',
      },
    ]);
    expect(notices).toEqual([]);
  });

  it('accepts the page\'s own origin without ?embedOrigin', async () => {
    const win = new FakeWindow(undefined);
    const { loader } = setup(win, { ...policy, allowed: [] });
    win.listener!({ origin: 'https://viewer.example', source: new Peer(), data: { type: 'nvtxview:open', files: [{ name: 'x', bytes: bytes('ok') }] } });
    await settle();
    expect(loader.opened).toHaveLength(1);
  });

  it('refuses other origins, says so in the page and answers the sender', async () => {
    const win = new FakeWindow(undefined);
    const { loader, notices } = setup(win);
    const sender = new Peer();
    win.listener!({ origin: 'https://evil.example', source: sender, data: { type: 'nvtxview:open', id: 'r1', files: [{ name: 'x', bytes: bytes('ok') }] } });
    await settle();
    expect(loader.opened).toEqual([]);
    const message =
      'Refused a capture sent by https://evil.example: only https://viewer.example, https://lab.example may send captures to this page. ' +
      'To allow it, open nvtxview with ?embedOrigin=https%3A%2F%2Fevil.example in its address.';
    expect(notices).toEqual([['error', message]]);
    expect(sender.received).toEqual([
      { message: { type: 'nvtxview:error', version: 1, id: 'r1', message }, targetOrigin: 'https://evil.example' },
    ]);
  });

  it('coalesces repeated refusals of one origin into one notice that counts them', async () => {
    const win = new FakeWindow(undefined);
    const notices = createNoticeStore();
    installEmbedding(win, { open: async () => [] }, policy, (tone, text, key) => notices.getState().notify(tone, text, key));
    for (let k = 0; k < 300; k++) {
      win.listener!({ origin: 'https://evil.example', source: new Peer(), data: { type: 'nvtxview:open', files: Array.from({ length: 1 + (k % 3) }, () => ({ name: 'x', bytes: bytes('ok') })) } });
    }
    win.listener!({ origin: 'https://other.example', source: new Peer(), data: { type: 'nvtxview:open', files: [{ name: 'x', bytes: bytes('ok') }] } });
    await settle();
    const shown = notices.getState().notices;
    expect(shown.map((n) => [n.text.slice(0, 45), n.repeats])).toEqual([
      ['Refused 3 captures sent by https://evil.examp', 300],
      ['Refused a capture sent by https://other.examp', 1],
    ]);
  });

  it('refuses opaque origins unless any origin is allowed', async () => {
    const win = new FakeWindow(undefined);
    const strict = setup(win, { ...policy, allowed: ['null'] });
    const sender = new Peer();
    win.listener!({ origin: 'null', source: sender, data: { type: 'nvtxview:open', files: [{ name: 'x', bytes: bytes('ok') }] } });
    await settle();
    expect(strict.loader.opened).toEqual([]);
    expect(sender.received[0]).toMatchObject({ message: { type: 'nvtxview:error' }, targetOrigin: '*' });
    // The advice is one the page accepts: not ?embedOrigin=null, which names no origin.
    const advice = (sender.received[0].message as { message: string }).message;
    expect(advice).not.toContain('?embedOrigin=null');
    expect(advice).toContain('?embedOrigin=*');

    const open = setup(win, { ...policy, any: true });
    win.listener!({ origin: 'null', source: sender, data: { type: 'nvtxview:open', files: [{ name: 'x', bytes: bytes('ok') }] } });
    await settle();
    expect(open.loader.opened).toHaveLength(1);
  });

  it('reports files that did not load, per file', async () => {
    const win = new FakeWindow(undefined);
    setup(win);
    const sender = new Peer();
    win.listener!({
      origin: 'https://lab.example',
      source: sender,
      data: { type: 'nvtxview:open', files: [{ name: 'good', bytes: bytes('ok') }, { name: 'bad.bin', bytes: bytes('bad') }] },
    });
    await settle();
    expect(sender.received[0].message).toEqual({
      type: 'nvtxview:error',
      version: 1,
      message: 'bad.bin: not a format nvtxview knows',
      files: [
        { name: 'good', ok: true },
        { name: 'bad.bin', ok: false, message: 'bad.bin: not a format nvtxview knows' },
      ],
    });
  });

  it('answers malformed requests and pings, and ignores other messages', async () => {
    const win = new FakeWindow(undefined);
    const { loader, notices } = setup(win);
    const sender = new Peer();
    win.listener!({ origin: 'https://lab.example', source: sender, data: { type: 'nvtxview:open', files: [{ name: 'x', bytes: 'text' }] } });
    win.listener!({ origin: 'https://lab.example', source: sender, data: { type: 'nvtxview:ping' } });
    win.listener!({ origin: 'https://lab.example', source: sender, data: { type: 'react-devtools', files: [] } });
    win.listener!({ origin: 'https://lab.example', source: sender, data: 'hello' });
    await settle();
    expect(loader.opened).toEqual([]);
    expect(sender.received.map((r) => r.message)).toEqual([
      { type: 'nvtxview:error', version: 1, message: 'files[0] (x): bytes must be an ArrayBuffer, a typed array or a Blob' },
      { type: 'nvtxview:ready', version: 1 },
    ]);
    expect(notices).toHaveLength(1);
  });

  it('reads open requests', () => {
    expect(parseOpenRequest({ type: 'other' })).toBeUndefined();
    expect(parseOpenRequest({ type: 'nvtxview:open' })).toEqual({ ok: false, message: 'nvtxview:open needs files: a non-empty array of {name, bytes}' });
    expect(parseOpenRequest({ type: 'nvtxview:open', id: 3, files: [null] })).toEqual({ ok: false, id: 3, message: 'files[0] must be an object {name, bytes}' });
  });
});
