/** Shared steps of the end-to-end tests: open the page, drop files, wait for idle, read the store. */
import { expect, type Page } from '@playwright/test';

export interface TextFile {
  name: string;
  text: string;
}

/** The parts of `window.__nvtxview` the tests use (typed loosely: the page owns the real types). */
interface PageHooks {
  store: {
    getState(): {
      captures: { id: number; model: { capture: { fileName: string; displayName: string }; issues: unknown[] } }[];
      loads: unknown[];
      failed: { name: string; message: string }[];
      viewStartNs: number;
      viewEndNs: number;
      span: { startNs: number; endNs: number } | null;
      selection: { kind: string; capture: number; index: number } | null;
      select(sel: { kind: 'range' | 'mark'; capture: number; index: number } | null): void;
      setSpan(span: { startNs: number; endNs: number } | null): void;
    };
  };
  idle(): Promise<void>;
  timeline?: { hitTestRange(captureId: number, rangeIndex: number): { x: number; y: number } | null };
}

export type HookedWindow = Window & { __nvtxview: PageHooks };

/** Opens the app (relative to the sub-path the server uses) and waits for the hooks. */
export async function openApp(page: Page, query = ''): Promise<void> {
  await page.goto(`./${query}`);
  await page.waitForFunction(() => (window as unknown as Partial<HookedWindow>).__nvtxview?.idle !== undefined);
}

/** Resolves once no load is pending and the timeline has drawn the current state. */
export async function idle(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as HookedWindow).__nvtxview.idle());
}

/** Where range `index` of capture `capture` is drawn on the timeline (page pixels), or null when it is not. */
export function rangePoint(page: Page, capture: number, index: number): Promise<{ x: number; y: number } | null> {
  return page.evaluate(([c, r]) => (window as unknown as HookedWindow).__nvtxview.timeline!.hitTestRange(c, r), [capture, index] as const);
}

/** The in-page state of `startFrameGapMeter`. */
type GapWindow = Window & { __frameGap?: { longest: number; running: boolean } };

/**
 * Starts measuring the longest gap between the page's animation frames: how long the page stayed
 * without a frame while work ran (`longestFrameGap` stops it and reads it).
 */
export async function startFrameGapMeter(page: Page): Promise<void> {
  await page.evaluate(() => {
    const meter = { longest: 0, running: true };
    (window as GapWindow).__frameGap = meter;
    let last = performance.now();
    const tick = (now: number) => {
      meter.longest = Math.max(meter.longest, now - last);
      last = now;
      if (meter.running) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** Stops the meter of `startFrameGapMeter`; the longest gap between frames, in ms. */
export function longestFrameGap(page: Page): Promise<number> {
  return page.evaluate(() => {
    const meter = (window as GapWindow).__frameGap!;
    meter.running = false;
    return meter.longest;
  });
}

/**
 * Turns on Playwright's file-chooser interception ahead of the first chooser. The client asks for
 * it without waiting for the answer when a `filechooser` listener is first added, so a chooser
 * opened right after `waitForEvent('filechooser')` can reach the browser before the interception
 * (on a busy machine: a real dialog, no event). The page round trips after it let the request land.
 */
export async function interceptFileChoosers(page: Page): Promise<void> {
  page.on('filechooser', () => {});
  await page.evaluate(() => 0);
  await idle(page);
}

/** Drops files on the page the way a file manager does (dragenter, dragover, drop with a DataTransfer). */
export async function dropFiles(page: Page, files: TextFile[]): Promise<void> {
  await page.evaluate((list) => {
    const data = new DataTransfer();
    for (const f of list) data.items.add(new File([f.text], f.name, { type: 'text/plain' }));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    }
  }, files);
}

/** Drops a binary file on the page the way a file manager does. */
export async function dropBinary(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  await page.evaluate(
    ([fileName, base64]) => {
      const raw = atob(base64);
      const data = new Uint8Array(raw.length);
      for (let i = 0; i < raw.length; i++) data[i] = raw.charCodeAt(i);
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], fileName, { type: 'application/octet-stream' }));
      for (const type of ['dragenter', 'dragover', 'drop']) {
        document.body.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }
    },
    [name, Buffer.from(bytes).toString('base64')] as const,
  );
}

/** Names of the captures in the store, in load order. */
export async function captureNames(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (window as unknown as HookedWindow).__nvtxview.store.getState().captures.map((c) => c.model.capture.displayName),
  );
}

export async function viewWidthNs(page: Page): Promise<number> {
  return page.evaluate(() => {
    const s = (window as unknown as HookedWindow).__nvtxview.store.getState();
    return s.viewEndNs - s.viewStartNs;
  });
}

/**
 * Waits until every pending load has finished (loads start as soon as files are dropped), then
 * expects `count` captures; a whole-file failure shows up in the assertion message.
 */
export async function waitForCaptures(page: Page, count: number, timeoutMs = 20_000): Promise<void> {
  const state = () =>
    page.evaluate(() => {
      const s = (window as unknown as HookedWindow).__nvtxview.store.getState();
      return { pending: s.loads.length, captures: s.captures.length, failed: s.failed.map((f) => f.message) };
    });
  await expect.poll(async () => (await state()).pending, { timeout: timeoutMs, message: 'loads still pending' }).toBe(0);
  const now = await state();
  expect(now.captures, `captures loaded (failures: ${now.failed.join('; ') || 'none'})`).toBe(count);
  await idle(page);
}

/**
 * A small NVTXT capture in nanoseconds: process "renderer" with threads "main" (push/pop:
 * frame 9 ms > update 2 ms, draw 6 ms) and "loader" (a vsync mark), and category 2 "IO" with two
 * overlapping start/end ranges (4 ms each).
 */
export const GOOD_NVTXT: TextFile = {
  name: 'render.nvtxt',
  text: [
    '# Render loop of a small game, in nanoseconds',
    'SetFileDisplayName, "Render loop"',
    'NameProcess, 1844, renderer',
    'NameOsThread, 1844, 4880, main',
    'NameOsThread, 1844, 4881, loader',
    'NameCategory, 2, IO',
    'RangePush, 1000000, ns, 1844, 4880, 0, Blue, "frame", 1',
    'RangePush, 1100000, ns, 1844, 4880, 0, Orange, "update", 0',
    'RangePop, 3100000, ns, 1844, 4880',
    'RangePush, 3200000, ns, 1844, 4880, 0, Green, "draw", 0',
    'RangePop, 9200000, ns, 1844, 4880',
    'RangePop, 10000000, ns, 1844, 4880',
    'Marker, 5000000, ns, 1844, 4881, 0, Red, "vsync", 0',
    'RangeStartEnd, 2000000, 6000000, ns, 1844, 4881, 2, Purple, "read assets", 42',
    'RangeStartEnd, 4000000, 8000000, ns, 1844, 4881, 2, Purple, "read shaders", 0',
    '',
  ].join('\n'),
};

/** An NVTXT file with mistakes on lines 3, 4 and 5; its two valid marks still load. */
export const BAD_NVTXT: TextFile = {
  name: 'broken.nvtxt',
  text: [
    '# a file with mistakes',
    'Marker, 100, ns, 1, 2, 0, 0, "ok marker", 0',
    'RangePush, abc, ns, 1, 2, 0, 0, "bad time", 0',
    'Marker, 200, ns, 1, 2, 0, 0, $undefinedVar, 0',
    'Bogus, 1, 2',
    'Marker, 400, ns, 1, 2, 0, 0, "last", 0',
    '',
  ].join('\n'),
};

/** Index of the first range named `name` in capture `captureIndex` (load order), and the capture id. */
export async function findRange(page: Page, name: string, captureIndex = 0): Promise<{ capture: number; index: number }> {
  return page.evaluate(
    ([wanted, at]) => {
      const c = (window as unknown as HookedWindow).__nvtxview.store.getState().captures[at] as unknown as {
        id: number;
        model: { strings: string[]; styles: { name: Uint32Array }; ranges: { style: Uint32Array } };
      };
      const m = c.model;
      const index = Array.from(m.ranges.style).findIndex((s) => m.strings[m.styles.name[s]] === wanted);
      if (index < 0) throw new Error(`no range named ${wanted}`);
      return { capture: c.id, index };
    },
    [name, captureIndex] as const,
  );
}
