import { describe, expect, it } from 'vitest';
import { MAX_CONTENT_PX, rowWindow, scrollRatio, scrollTopFor } from './virtualRows.ts';

describe('row windowing', () => {
  it('is plain windowing for short lists', () => {
    const w = rowWindow(1000, 20, 200, 400, 2);
    expect(w.contentPx).toBe(20_000);
    expect([w.first, w.last, w.firstTopPx]).toEqual([18, 32, 360]);
  });

  it('scales long lists into the content limit and still shows the rows under the viewport (property)', () => {
    for (const count of [5_000_000, 50_000_000]) {
      const rowPx = 22;
      const viewport = 600;
      expect(scrollRatio(count, rowPx, viewport)).toBeGreaterThan(1);
      for (const fraction of [0, 0.001, 0.37, 0.5, 0.999, 1]) {
        const scrollTop = fraction * (MAX_CONTENT_PX - viewport);
        const w = rowWindow(count, rowPx, viewport, scrollTop, 0);
        expect(w.contentPx).toBe(MAX_CONTENT_PX);
        // Rendered rows cover the viewport [scrollTop, scrollTop + viewport).
        expect(w.firstTopPx).toBeLessThanOrEqual(scrollTop);
        expect(w.firstTopPx + (w.last - w.first) * rowPx).toBeGreaterThanOrEqual(Math.min(scrollTop + viewport, w.firstTopPx + (count - w.first) * rowPx));
        expect(w.last).toBeLessThanOrEqual(count);
      }
      // The end of the scrollbar reaches the last row.
      expect(rowWindow(count, rowPx, viewport, MAX_CONTENT_PX - viewport, 0).last).toBe(count);
    }
  });

  it('scrolls a row into view only when it is not fully visible', () => {
    expect(scrollTopFor(1000, 20, 200, 400, 25)).toBe(400);
    expect(scrollTopFor(1000, 20, 200, 400, 100)).toBe(100 * 20 - 90);
    expect(scrollTopFor(1000, 20, 200, 400, 100, 'start')).toBe(2000);
    for (const index of [0, 12_345_678, 49_999_999]) {
      const top = scrollTopFor(50_000_000, 22, 600, 0, index);
      const w = rowWindow(50_000_000, 22, 600, top, 0);
      expect(index).toBeGreaterThanOrEqual(w.first);
      expect(index).toBeLessThan(w.last);
    }
  });
});
