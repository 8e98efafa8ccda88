/**
 * Frame times of the timeline during a scripted zoom and pan, measured in the page: each step sets
 * the store's view, then a requestAnimationFrame callback registered after the timeline's own (so
 * it runs right after the timeline drew, in the same frame) reads the clock. The frame time is
 * from the frame's start (the rAF timestamp) to that point: the main-thread work of the frame.
 * The latency is from the setView call (the "input") to the same point, so it also holds the wait
 * for the next frame.
 */
import type { Page } from '@playwright/test';

/** The views of the script: zoom from the whole capture to 1 µs around its middle, then pan across it at 1/50 of its length. */
export function scriptedViews(startNs: number, endNs: number, zoomSteps = 120, panSteps = 60): [number, number][] {
  const views: [number, number][] = [];
  const length = endNs - startNs;
  const mid = (startNs + endNs) / 2;
  const finest = Math.min(1000, length);
  for (let i = 0; i <= zoomSteps; i++) {
    const span = length * Math.pow(finest / length, i / zoomSteps);
    views.push([mid - span / 2, mid + span / 2]);
  }
  const span = length / 50;
  for (let i = 0; i <= panSteps; i++) {
    const a = startNs + ((length - span) * i) / panSteps;
    views.push([a, a + span]);
  }
  return views;
}

export interface FrameSample {
  frameMs: number;
  latencyMs: number;
  /** The timeline's frame counter moved (the step was drawn). */
  drawn: boolean;
}

/** In-page source of the script (text, so that no helper of the TypeScript runner leaks into the page). */
const RUN_VIEWS = `async (list) => {
  const store = window.__nvtxview.store;
  const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const samples = [];
  await nextFrame();
  for (const [a, b] of list) {
    const before = document.body.dataset.timelineFrame;
    const inputAt = performance.now();
    store.getState().setView(a, b);
    const frameStart = await nextFrame();
    const done = performance.now();
    samples.push({ frameMs: done - frameStart, latencyMs: done - inputAt, drawn: document.body.dataset.timelineFrame !== before });
  }
  return samples;
}`;

/** Runs the views one per frame; returns one sample per view. */
export function runViews(page: Page, views: [number, number][]): Promise<FrameSample[]> {
  return page.evaluate(`(${RUN_VIEWS})(${JSON.stringify(views)})`) as Promise<FrameSample[]>;
}

/** The p-quantile (0..1) of `values` by nearest rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
}
