/**
 * Sharing: captures loaded with ?url= from another origin (this test's own static server, with
 * and without CORS), the view kept in the URL hash (a copied address reproduces it; Back/Forward),
 * and the postMessage embedding API from a page on another origin (iframe and opener) with an
 * allowed and a refused origin, and from the viewer's own origin.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect, test, type Frame, type Page } from '@playwright/test';
import { GOOD_NVTXT, findRange, idle, openApp, waitForCaptures, type HookedWindow } from './support.ts';
import { NSYS_FIXTURE } from '../testkit/fixtures.ts';

/** A second small capture: one thread, two ranges. */
const SECOND_NVTXT = [
  'NameProcess, 77, tool',
  'NameOsThread, 77, 1, worker',
  'RangePush, 500000, ns, 77, 1, 0, Red, "prepare", 0',
  'RangePop, 1500000, ns, 77, 1',
  'RangePush, 2000000, ns, 77, 1, 0, Green, "compute", 0',
  'RangePop, 7000000, ns, 77, 1',
  '',
].join('\n');

const FILES: Record<string, string> = { 'render.nvtxt': GOOD_NVTXT.text, 'second.nvtxt': SECOND_NVTXT };

/** The page that embeds nvtxview: opens it (iframe or window), sends a capture on 'ready', records replies. */
const EMBEDDER_HTML = `<!doctype html><meta charset="utf-8"><title>embedder</title><body><script>
const params = new URLSearchParams(location.search);
const target = params.get('target');
const viewerOrigin = new URL(target).origin;
const text = ${JSON.stringify(SECOND_NVTXT)};
window.replies = [];
addEventListener('message', (e) => {
  if (e.origin !== viewerOrigin || typeof e.data?.type !== 'string') return;
  if (e.data.type === 'nvtxview:ready') {
    const bytes = new TextEncoder().encode(text).buffer;
    e.source.postMessage({ type: 'nvtxview:open', id: 'req-1', files: [{ name: 'embedded.nvtxt', bytes }] }, viewerOrigin, [bytes]);
  } else {
    window.replies.push(e.data);
  }
});
if (params.get('mode') === 'opener') {
  window.viewer = window.open(target, 'viewer');
} else {
  const frame = document.createElement('iframe');
  frame.style.cssText = 'width: 1100px; height: 650px; border: 0';
  frame.src = target;
  document.body.append(frame);
}
</script>`;

let server: Server;
let serverOrigin: string;
/** Resolves the pending slow download, so a test sees it in progress first. */
let releaseSlow: (() => void) | undefined;

test.beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const [, mode, name] = url.pathname.split('/');
    if (mode === 'embed.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(EMBEDDER_HTML);
    }
    const text = FILES[name ?? ''];
    const cors = mode === 'cors' || mode === 'slow' ? { 'access-control-allow-origin': '*' } : {};
    if (text === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain', ...cors });
      return res.end('not found');
    }
    const body = Buffer.from(text);
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': body.length, ...cors });
    if (mode !== 'slow') return res.end(body);
    // Half now, the rest when the test says so: the progress bar shows a partial download.
    res.write(body.subarray(0, body.length >> 1));
    releaseSlow = () => res.end(body.subarray(body.length >> 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  releaseSlow?.();
  await new Promise((resolve) => server.close(resolve));
});

type Hooked = Window & { __nvtxview: { store: { getState(): ViewState } } };
interface ViewState {
  captures: { id: number; offsetNs: number; model: { capture: { fileName: string; byteSize: number }; strings: string[]; styles: { name: Uint32Array }; ranges: { style: Uint32Array; startNs: Float64Array } } }[];
  viewStartNs: number;
  viewEndNs: number;
  span: { startNs: number; endNs: number } | null;
  selection: { kind: string; capture: number; index: number } | null;
  panel: string | null;
  setView(a: number, b: number): void;
  setSpan(s: { startNs: number; endNs: number } | null): void;
  select(s: { kind: 'range'; capture: number; index: number } | null): void;
}

/**
 * The view as something comparable across page loads: file names instead of ids, and times relative
 * to the capture whose name sorts first (the shared axis starts at whichever file finished first).
 */
async function viewOf(page: Page | Frame) {
  return page.evaluate(() => {
    const s = (window as unknown as Hooked).__nvtxview.store.getState();
    const sel = s.selection;
    const capture = sel ? s.captures.find((c) => c.id === sel.capture) : undefined;
    const m = capture?.model;
    const names = s.captures.map((c) => c.model.capture.fileName).sort();
    const zero = s.captures.find((c) => c.model.capture.fileName === names[0])?.offsetNs ?? 0;
    return {
      captures: names,
      window: [Math.round(s.viewStartNs - zero), Math.round(s.viewEndNs - zero)],
      span: s.span && { startNs: s.span.startNs - zero, endNs: s.span.endNs - zero },
      selection: sel && m ? { file: m.capture.fileName, name: m.strings[m.styles.name[m.ranges.style[sel.index]]], startNs: m.ranges.startNs[sel.index] } : null,
      panel: s.panel,
    };
  });
}

async function selectRange(page: Page, name: string, captureIndex = 0): Promise<void> {
  const range = await findRange(page, name, captureIndex);
  await page.evaluate((r) => (window as unknown as Hooked).__nvtxview.store.getState().select({ kind: 'range', ...r }), range);
}

test('?url= loads captures from another origin and from a path relative to the page, with progress', async ({ page }) => {
  const urls = [`${serverOrigin}/slow/render.nvtxt`, 'demo/demo.nvtxc'];
  await openApp(page, `?${urls.map((u) => `url=${encodeURIComponent(u)}`).join('&')}`);
  const progress = page.getByTestId('load-progress').filter({ hasText: 'render.nvtxt' });
  await expect(progress).toBeVisible();
  await expect(progress.locator('.load-figures')).toContainText(/B \/ .*B · \d+%/);
  releaseSlow!();
  await waitForCaptures(page, 2);
  const names = await page.evaluate(() => (window as unknown as Hooked).__nvtxview.store.getState().captures.map((c) => c.model.capture.fileName));
  expect(names.sort()).toEqual(['demo.nvtxc', 'render.nvtxt']);
  const size = await page.evaluate(
    () => (window as unknown as Hooked).__nvtxview.store.getState().captures.find((c) => c.model.capture.fileName === 'render.nvtxt')!.model.capture.byteSize,
  );
  expect(size).toBe(Buffer.byteLength(GOOD_NVTXT.text));
});

test('a failed ?url= download gets a clear entry: HTTP status, or the CORS hint', async ({ page }) => {
  await openApp(page, `?url=${encodeURIComponent(`${serverOrigin}/cors/missing.nvtxt`)}&url=${encodeURIComponent(`${serverOrigin}/plain/render.nvtxt`)}`);
  const failures = page.getByTestId('load-failure');
  await expect(failures).toHaveCount(2);
  await expect(failures.filter({ hasText: 'missing.nvtxt' })).toContainText('the server answered HTTP 404 Not Found');
  const cors = failures.filter({ hasText: 'render.nvtxt' });
  await expect(cors).toContainText(`does not allow cross-origin requests from ${new URL(page.url()).origin}`);
  await expect(cors).toContainText('Access-Control-Allow-Origin');
});

test('a copied address reproduces window, span, selection and open panel after the files load', async ({ page, context }) => {
  const query = `?url=${encodeURIComponent(`${serverOrigin}/cors/render.nvtxt`)}&url=${encodeURIComponent(`${serverOrigin}/cors/second.nvtxt`)}`;
  await openApp(page, query);
  await waitForCaptures(page, 2);
  await page.evaluate(() => {
    const s = (window as unknown as Hooked).__nvtxview.store.getState();
    s.setView(2_100_000.4, 6_300_000.7);
  });
  await selectRange(page, 'compute', await page.evaluate(() => (window as unknown as Hooked).__nvtxview.store.getState().captures.findIndex((c) => c.model.capture.fileName === 'second.nvtxt')));
  await page.evaluate(() => (window as unknown as Hooked).__nvtxview.store.getState().setSpan({ startNs: 3_000_000, endNs: 4_500_000 }));
  await page.getByTestId('report-button').click();
  await expect(page.getByTestId('load-report')).toBeVisible();
  await expect.poll(() => new URL(page.url()).hash).toContain('panel=report');
  const before = await viewOf(page);
  expect(before.selection).toMatchObject({ file: 'second.nvtxt', name: 'compute' });

  const copied = page.url();
  expect(copied).toContain('sel=r_');
  const other = await context.newPage();
  await openApp(other, copied.slice(copied.indexOf('?')));
  await waitForCaptures(other, 2);
  await expect.poll(() => viewOf(other)).toEqual(before);
  await expect(other.getByTestId('range-details').getByTestId('detail-name')).toHaveText('compute');
  await expect(other.getByTestId('load-report')).toBeVisible();
  // The link is kept as it was: applying it wrote nothing new over it.
  expect(new URL(other.url()).hash).toBe(new URL(copied).hash);
});

test('Back and Forward step through selections; panning rewrites the entry instead of adding one', async ({ page }) => {
  await openApp(page, `?url=${encodeURIComponent(`${serverOrigin}/cors/render.nvtxt`)}`);
  await waitForCaptures(page, 1);
  await expect.poll(() => new URL(page.url()).hash).toContain('v=1');
  const length = () => page.evaluate(() => history.length);
  const start = await length();

  // A burst of pan steps: one entry, written once the panning stops.
  for (let i = 0; i < 10; i++) {
    await page.evaluate((k) => (window as unknown as Hooked).__nvtxview.store.getState().setView(1_000_000 + k * 10_000, 9_000_000 + k * 10_000), i);
  }
  await expect.poll(() => new URL(page.url()).hash).toContain('t=1090000_9090000');
  expect(await length()).toBe(start);

  await selectRange(page, 'update');
  await selectRange(page, 'draw');
  expect(await length()).toBe(start + 2);
  await page.evaluate(() => (window as unknown as Hooked).__nvtxview.store.getState().setView(3_000_000, 4_000_000));
  await expect.poll(() => new URL(page.url()).hash).toContain('t=3000000_4000000');

  await page.goBack();
  await expect.poll(async () => (await viewOf(page)).selection?.name).toBe('update');
  await page.goBack();
  await expect.poll(async () => (await viewOf(page)).selection).toBeNull();
  expect((await viewOf(page)).window).toEqual([1_090_000, 9_090_000]);
  await page.goForward();
  await expect.poll(async () => (await viewOf(page)).selection?.name).toBe('update');
  await page.goForward();
  await expect.poll(async () => (await viewOf(page)).selection?.name).toBe('draw');
  // The last entry kept the window it was left with.
  expect((await viewOf(page)).window).toEqual([3_000_000, 4_000_000]);
  await idle(page);
});

/** The frame of the viewer inside the embedder page, once its hooks are up. */
async function viewerFrame(page: Page): Promise<Frame> {
  await expect.poll(() => page.frames().length).toBe(2);
  const frame = page.frames()[1];
  await frame.waitForFunction(() => (window as unknown as Partial<HookedWindow>).__nvtxview?.idle !== undefined);
  return frame;
}

const replies = (page: Page) => page.evaluate(() => (window as unknown as { replies: { type: string; id?: string; message?: string; files?: unknown }[] }).replies);

test('an iframe on an allowed origin sends a capture by postMessage and gets "loaded"', async ({ page, baseURL }) => {
  const target = `${baseURL}?embedOrigin=${encodeURIComponent(serverOrigin)}`;
  await page.goto(`${serverOrigin}/embed.html?target=${encodeURIComponent(target)}`);
  const frame = await viewerFrame(page);
  await expect.poll(() => replies(page)).toEqual([{ type: 'nvtxview:loaded', version: 1, id: 'req-1', files: [{ name: 'embedded.nvtxt' }] }]);
  expect((await viewOf(frame)).captures).toEqual(['embedded.nvtxt']);
  await expect(frame.getByTestId('timeline')).toBeVisible();
});

test('an iframe on another origin is refused without ?embedOrigin, with a message in both pages', async ({ page, baseURL }) => {
  await page.goto(`${serverOrigin}/embed.html?target=${encodeURIComponent(baseURL!)}`);
  const frame = await viewerFrame(page);
  await expect.poll(async () => (await replies(page)).map((r) => r.type)).toEqual(['nvtxview:error']);
  const [reply] = await replies(page);
  expect(reply.id).toBe('req-1');
  expect(reply.message).toContain(`Refused a capture sent by ${serverOrigin}`);
  const notice = frame.getByTestId('share-notice');
  await expect(notice).toContainText(`Refused a capture sent by ${serverOrigin}`);
  await expect(notice).toContainText('?embedOrigin=');
  expect((await viewOf(frame)).captures).toEqual([]);
});

test('a window opened by a page on an allowed origin receives its capture', async ({ page, context, baseURL }) => {
  const target = `${baseURL}?embedOrigin=${encodeURIComponent(serverOrigin)}`;
  const popup = context.waitForEvent('page');
  await page.goto(`${serverOrigin}/embed.html?mode=opener&target=${encodeURIComponent(target)}`);
  const viewer = await popup;
  await viewer.waitForFunction(() => (window as unknown as Partial<HookedWindow>).__nvtxview?.idle !== undefined);
  await expect.poll(async () => (await replies(page)).map((r) => r.type)).toEqual(['nvtxview:loaded']);
  await waitForCaptures(viewer, 1);
  expect((await viewOf(viewer)).captures).toEqual(['embedded.nvtxt']);
});

test('a page on the viewer\'s own origin may embed it without ?embedOrigin', async ({ page, baseURL }) => {
  // The embedder is served from the viewer's origin (intercepted: dist/ has no such page).
  const embedder = new URL('embedder-test.html', baseURL).href;
  await page.route(embedder + '*', (route) => route.fulfill({ contentType: 'text/html', body: EMBEDDER_HTML }));
  await page.goto(`${embedder}?target=${encodeURIComponent(baseURL!)}`);
  const frame = await viewerFrame(page);
  await expect.poll(async () => (await replies(page)).map((r) => r.type)).toEqual(['nvtxview:loaded']);
  expect((await viewOf(frame)).captures).toEqual(['embedded.nvtxt']);
});

test('the build needs no .wasm MIME type: Nsight Systems exports load when the host serves it as octet-stream', async ({ page }) => {
  // docs/hosting.md says so: the SQLite engine fetches its .wasm as bytes.
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  const host = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/^\/site\//, '/');
    const file = join('dist', path.endsWith('/') ? `${path}index.html` : path);
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  try {
    await page.goto(`http://127.0.0.1:${(host.address() as AddressInfo).port}/site/`);
    await page.waitForFunction(() => (window as unknown as Partial<HookedWindow>).__nvtxview?.idle !== undefined);
    const fixture = await readFile(NSYS_FIXTURE);
    await page.getByTestId('open-input').setInputFiles({ name: 'fuser-report1.sqlite', mimeType: 'application/octet-stream', buffer: fixture });
    await waitForCaptures(page, 1);
  } finally {
    await new Promise((resolve) => host.close(resolve));
  }
});
