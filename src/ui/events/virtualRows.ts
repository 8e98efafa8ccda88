/**
 * Row windowing for lists of millions of fixed-height rows. Browsers cap an element's height
 * (about 33.5M px in Chromium: 1.5M rows of 22 px), so past a limit the scrolled content is
 * shorter than the rows and scroll positions are scaled: the scrollbar spans every row, the wheel
 * moves by rows as usual. Below the limit it is plain windowing. Pure arithmetic here; the hook
 * lives in useVirtualRows.ts.
 */

/** Tallest scrolled content used (well under every browser's cap). */
export const MAX_CONTENT_PX = 8_000_000;

export interface RowWindow {
  /** Height of the scrolled content. */
  contentPx: number;
  /** First and last (exclusive) rows to render, overscan included. */
  first: number;
  last: number;
  /** Content y of row `first` (rows follow at `rowPx` intervals). */
  firstTopPx: number;
}

/** Real (unscaled) pixels per scrolled pixel: 1 below the limit. */
export function scrollRatio(count: number, rowPx: number, viewportPx: number): number {
  const real = count * rowPx;
  if (real <= MAX_CONTENT_PX) return 1;
  return Math.max(1, (real - viewportPx) / Math.max(1, MAX_CONTENT_PX - viewportPx));
}

export function rowWindow(count: number, rowPx: number, viewportPx: number, scrollTopPx: number, overscan = 8): RowWindow {
  const ratio = scrollRatio(count, rowPx, viewportPx);
  const contentPx = ratio === 1 ? count * rowPx : MAX_CONTENT_PX;
  const realTop = scrollTopPx * ratio;
  const firstVisible = Math.floor(realTop / rowPx);
  const first = Math.max(0, firstVisible - overscan);
  const last = Math.min(count, Math.ceil((realTop + viewportPx) / rowPx) + overscan);
  // Rows sit where they would be in the real list, shifted so that the viewport shows them.
  const firstTopPx = scrollTopPx + (first * rowPx - realTop);
  return { contentPx, first, last, firstTopPx };
}

/**
 * The scroll position that shows row `index`: unchanged when it is fully visible, else one that
 * centres it ('auto'), or puts it at the top ('start').
 */
export function scrollTopFor(
  count: number,
  rowPx: number,
  viewportPx: number,
  scrollTopPx: number,
  index: number,
  align: 'auto' | 'start' = 'auto',
): number {
  const ratio = scrollRatio(count, rowPx, viewportPx);
  const realTop = scrollTopPx * ratio;
  const rowTop = index * rowPx;
  if (align === 'auto' && rowTop >= realTop && rowTop + rowPx <= realTop + viewportPx) return scrollTopPx;
  const target = align === 'start' ? rowTop : rowTop - (viewportPx - rowPx) / 2;
  const maxReal = Math.max(0, count * rowPx - viewportPx);
  return Math.min(maxReal, Math.max(0, target)) / ratio;
}
