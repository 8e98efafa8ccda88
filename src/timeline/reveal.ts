/**
 * Bringing one event into view (store `revealEvent`): which collapsed tree nodes hide its row,
 * the time window that shows it with context, and the scroll position that puts its row on screen.
 */
import type { LoadedCapture } from '../state/viewerStore.ts';
import { clampView, viewAround, type ViewLimits, type ViewWindow } from './navigation.ts';
import { buildTrackLayout } from './trackLayout.ts';
import type { CssPx } from './units.ts';

/** Keys of the collapsed nodes above a track's row (expanding them shows the row), outermost first. */
export function collapsedAbove(capture: LoadedCapture, collapsed: Readonly<Record<string, true>>, track: number): string[] {
  // The fully expanded layout names every node the way the real one does (same key rules).
  const rows = buildTrackLayout([capture], {}).rows;
  let r = rows.findIndex((row) => row.track === track);
  if (r < 0) return [];
  const keys: string[] = [];
  let depth = rows[r].depth;
  for (r--; r >= 0 && depth > 0; r--) {
    if (rows[r].depth < depth) {
      depth = rows[r].depth;
      if (collapsed[rows[r].key]) keys.unshift(rows[r].key);
    }
  }
  return keys;
}

/** The range fills about a third of the view: its neighbours stay visible on both sides. */
export const REVEAL_CONTEXT = 1;

/**
 * View showing [startNs, endNs] (shared axis) with context. An instant keeps the current zoom: the
 * view stays where it is when the instant is in it, else it is centred on the instant.
 */
export function revealWindow(startNs: number, endNs: number, current: ViewWindow, limits: ViewLimits): ViewWindow {
  if (endNs > startNs) return viewAround(startNs, endNs, limits, REVEAL_CONTEXT);
  if (startNs >= current.startNs && startNs <= current.endNs) return current;
  const half = (current.endNs - current.startNs) / 2;
  return clampView({ startNs: startNs - half, endNs: startNs + half }, limits);
}

/**
 * Scroll position that shows a row (content y and height) in a viewport of `viewportCss`: the
 * current one when the row is already fully visible, else one that centres the row.
 */
export function scrollToShow(rowTopCss: CssPx, rowHeightCss: CssPx, scrollTopCss: CssPx, viewportCss: CssPx): CssPx {
  if (rowTopCss >= scrollTopCss && rowTopCss + rowHeightCss <= scrollTopCss + viewportCss) return scrollTopCss;
  const centred = rowTopCss + rowHeightCss / 2 - viewportCss / 2;
  // A row taller than the viewport shows its top.
  return Math.max(0, rowHeightCss > viewportCss ? rowTopCss : centred);
}
