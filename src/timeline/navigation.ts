/**
 * Zoom and pan arithmetic on the view window, with limits: no deeper than MIN_NS_PER_PX (about
 * 1 ns per 100 px), no wider than a few times the captures' extent, and the view's centre kept
 * over the captures so the data cannot be lost off screen.
 */
import type { Nanoseconds } from '../model/types.ts';
import type { CssPx } from './units.ts';

export interface ViewWindow {
  startNs: Nanoseconds;
  endNs: Nanoseconds;
}

export interface ViewLimits {
  extentStartNs: Nanoseconds;
  extentEndNs: Nanoseconds;
  minSpanNs: Nanoseconds;
  maxSpanNs: Nanoseconds;
}

/** Deepest zoom: 1 ns spread over 100 CSS px. */
export const MIN_NS_PER_PX = 0.01;
/** Widest view, as a multiple of the captures' extent. */
export const MAX_SPAN_OF_EXTENT = 3;
/** Smallest window the store accepts (its MIN_VIEW_NS). */
const STORE_MIN_VIEW_NS = 10;

export function viewLimits(extent: { start: Nanoseconds; end: Nanoseconds }, widthCss: CssPx): ViewLimits {
  const minSpanNs = Math.max(STORE_MIN_VIEW_NS, widthCss * MIN_NS_PER_PX);
  return {
    extentStartNs: extent.start,
    extentEndNs: extent.end,
    minSpanNs,
    maxSpanNs: Math.max((extent.end - extent.start) * MAX_SPAN_OF_EXTENT, minSpanNs * 2),
  };
}

export function clampView(view: ViewWindow, limits: ViewLimits): ViewWindow {
  const span = Math.min(limits.maxSpanNs, Math.max(limits.minSpanNs, view.endNs - view.startNs));
  const centre = Math.min(limits.extentEndNs, Math.max(limits.extentStartNs, (view.startNs + view.endNs) / 2));
  return { startNs: centre - span / 2, endNs: centre + span / 2 };
}

/**
 * Zooms by `factor` (< 1 zooms in) keeping the time at `anchorNs` at the same x. At a limit the
 * zoom stops rather than sliding the anchor.
 */
export function zoomAt(view: ViewWindow, anchorNs: Nanoseconds, factor: number, limits: ViewLimits): ViewWindow {
  const span = view.endNs - view.startNs;
  const newSpan = Math.min(limits.maxSpanNs, Math.max(limits.minSpanNs, span * factor));
  const k = newSpan / span;
  return clampView({ startNs: anchorNs - (anchorNs - view.startNs) * k, endNs: anchorNs + (view.endNs - anchorNs) * k }, limits);
}

export function panBy(view: ViewWindow, deltaNs: Nanoseconds, limits: ViewLimits): ViewWindow {
  return clampView({ startNs: view.startNs + deltaNs, endNs: view.endNs + deltaNs }, limits);
}

/** A view showing [startNs, endNs] with a margin of `marginFraction` of its length on each side. */
export function viewAround(startNs: Nanoseconds, endNs: Nanoseconds, limits: ViewLimits, marginFraction = 0.08): ViewWindow {
  const length = Math.max(endNs - startNs, 0);
  const pad = length * marginFraction;
  return clampView({ startNs: startNs - pad, endNs: endNs + pad }, limits);
}

/** Wheel delta in CSS pixels, whatever unit the event used (pixels, lines or pages). */
export function wheelPixels(delta: number, deltaMode: number, pageCss: CssPx): CssPx {
  if (deltaMode === 1) return delta * 16;
  if (deltaMode === 2) return delta * pageCss;
  return delta;
}

/** Zoom factor for a wheel delta: a mouse notch (~100 px) zooms by about 1.2x, a pinch faster. */
export function wheelZoomFactor(deltaCss: CssPx, pinch: boolean): number {
  return Math.exp(deltaCss * (pinch ? 0.01 : 0.0018));
}
