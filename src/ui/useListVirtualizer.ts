/**
 * `useVirtualizer` (@tanstack/react-virtual) for the page's lists, set to read sizes only where the
 * browser has already laid the page out: in ResizeObserver callbacks. By default the virtualizer
 * reads the scroller's size (and each new row's height) synchronously as React mounts it, which
 * forces a layout of everything React just changed inside the commit; when a big capture's panels
 * appear, that layout was the largest part of one 100+ ms task. Here the list starts from the
 * window's height and estimated rows, and corrects itself from the first observation, which comes
 * after the browser's own layout and before the frame is painted.
 */
import { useVirtualizer, type PartialKeys, type Rect, type Virtualizer, type VirtualizerOptions } from '@tanstack/react-virtual';

type Options = PartialKeys<VirtualizerOptions<HTMLDivElement, Element>, 'observeElementRect' | 'observeElementOffset' | 'scrollToFn'>;

/** The scroller's size from ResizeObserver only (no read when observing starts). */
export function observeRectAfterLayout(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: Rect) => void): (() => void) | undefined {
  const element = instance.scrollElement;
  if (!element) return undefined;
  // Inside the callback layout is current, so these reads cost nothing.
  const observer = new ResizeObserver(() => cb({ width: element.clientWidth, height: element.clientHeight }));
  observer.observe(element);
  return () => observer.disconnect();
}

/** A row's height from its ResizeObserver entry; before the first one, the known or estimated size. */
export function measureAfterLayout(element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<HTMLDivElement, Element>): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  const index = instance.indexFromElement(element);
  return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
}

export function useListVirtualizer(options: Options): Virtualizer<HTMLDivElement, Element> {
  return useVirtualizer<HTMLDivElement, Element>({
    initialRect: { width: 0, height: typeof window === 'undefined' ? 0 : window.innerHeight },
    observeElementRect: observeRectAfterLayout,
    measureElement: measureAfterLayout,
    ...options,
  });
}
