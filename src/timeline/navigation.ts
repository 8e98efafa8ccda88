/**
 * Zoom and pan arithmetic on the view window, with limits: no deeper than MIN_NS_PER_PX (about
 * 1 ns per 100 px), no wider than the captures' extent plus a small margin, and the view kept
 * inside that padded extent (as in Nsight Systems and Perfetto) so the data cannot be lost off screen.
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
/** Margin beyond each end of the captures' extent that the view may show, as a fraction of the extent. */
export const EXTENT_MARGIN = 0.05;
/** Smallest window the store accepts (its MIN_VIEW_NS). */
const STORE_MIN_VIEW_NS = 10;

export function viewLimits(extent: { start: Nanoseconds; end: Nanoseconds }, widthCss: CssPx): ViewLimits {
  const minSpanNs = Math.max(STORE_MIN_VIEW_NS, widthCss * MIN_NS_PER_PX);
  const margin = (extent.end - extent.start) * EXTENT_MARGIN;
  const maxSpanNs = Math.max(extent.end - extent.start + 2 * margin, minSpanNs * 2);
  // A capture shorter than the deepest zoom still gets a window centred on it.
  const centre = (extent.start + extent.end) / 2;
  return {
    extentStartNs: Math.min(extent.start - margin, centre - maxSpanNs / 2),
    extentEndNs: Math.max(extent.end + margin, centre + maxSpanNs / 2),
    minSpanNs,
    maxSpanNs,
  };
}

/** The view with its span inside the limits, shifted to lie inside the padded extent. */
export function clampView(view: ViewWindow, limits: ViewLimits): ViewWindow {
  const span = Math.min(limits.maxSpanNs, Math.max(limits.minSpanNs, view.endNs - view.startNs));
  const centre = Math.min(limits.extentEndNs - span / 2, Math.max(limits.extentStartNs + span / 2, (view.startNs + view.endNs) / 2));
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

/** Wheel deltas at or above this size (CSS px) come from a mouse notch; smaller ones from a pinch. */
const NOTCH_MIN_CSS: CssPx = 40;

/**
 * Zoom factor of a Ctrl+wheel delta (< 1 zooms in): a mouse notch (~100 px) zooms by about 1.3x;
 * a trackpad pinch, which Chromium sends as ctrl+wheel with small deltas, follows the fingers.
 */
export function wheelZoomFactor(deltaCss: CssPx): number {
  const rate = Math.abs(deltaCss) >= NOTCH_MIN_CSS ? 0.0025 : 0.01;
  return Math.exp(Math.max(-300, Math.min(300, deltaCss)) * rate);
}

/** What a wheel event does to the timeline, following Nsight Systems and Perfetto. */
export type WheelAction =
  | { kind: 'zoom'; factor: number }
  | { kind: 'pan'; deltaCss: CssPx }
  | { kind: 'scroll'; deltaCss: CssPx; panCss: CssPx };

/**
 * Ctrl (or Cmd) + wheel and pinch zoom at the pointer; Shift+wheel pans; otherwise the vertical
 * delta scrolls the track list and the horizontal one (trackpad two-finger swipe, tilt wheel) pans.
 */
export function wheelAction(dxCss: CssPx, dyCss: CssPx, mods: { ctrl: boolean; shift: boolean }): WheelAction {
  if (mods.ctrl) return { kind: 'zoom', factor: wheelZoomFactor(dyCss) };
  if (mods.shift) return { kind: 'pan', deltaCss: dxCss !== 0 ? dxCss : dyCss };
  return { kind: 'scroll', deltaCss: dyCss, panCss: dxCss };
}
