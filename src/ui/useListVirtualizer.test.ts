import { describe, expect, it } from 'vitest';
import type { Virtualizer } from '@tanstack/react-virtual';
import { measureAfterLayout } from './useListVirtualizer.ts';

/** The parts of a virtualizer that the measuring reads. */
function instance(cached: Map<number, number>): Virtualizer<HTMLDivElement, Element> {
  return {
    indexFromElement: (el: Element) => Number((el as unknown as { index: number }).index),
    itemSizeCache: cached,
    options: { getItemKey: (i: number) => i, estimateSize: () => 40 },
  } as unknown as Virtualizer<HTMLDivElement, Element>;
}

const row = (index: number) => {
  // Reading a size from the element itself would force a layout: any such read fails the test.
  const el = { index } as Record<string, unknown>;
  for (const key of ['offsetHeight', 'offsetWidth', 'getBoundingClientRect', 'clientHeight']) {
    Object.defineProperty(el, key, {
      get: () => {
        throw new Error(`read ${key}`);
      },
    });
  }
  return el as unknown as Element;
};

describe('measureAfterLayout', () => {
  it("takes a row's height from its ResizeObserver entry", () => {
    const entry = { borderBoxSize: [{ blockSize: 22.4, inlineSize: 300 }] } as unknown as ResizeObserverEntry;
    expect(measureAfterLayout(row(3), entry, instance(new Map()))).toBe(22);
  });

  it('before any entry, the known size or the estimate, without touching the element', () => {
    const v = instance(new Map([[5, 31]]));
    expect(measureAfterLayout(row(5), undefined, v)).toBe(31);
    expect(measureAfterLayout(row(6), undefined, v)).toBe(40);
  });
});
