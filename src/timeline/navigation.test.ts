import { describe, expect, it } from 'vitest';
import { HeldKeys, MIN_PRESS_MS } from './keyboard.ts';
import { clampView, EXTENT_MARGIN, MIN_NS_PER_PX, panBy, viewAround, viewLimits, wheelAction, wheelPixels, wheelZoomFactor, zoomAt } from './navigation.ts';

const limits = viewLimits({ start: 0, end: 1_000_000 }, 1000);

describe('zoom and pan', () => {
  it('keeps the anchor time at the same place when zooming', () => {
    const view = { startNs: 100_000, endNs: 300_000 };
    const anchor = 150_000;
    const fraction = (anchor - view.startNs) / (view.endNs - view.startNs);
    const zoomed = zoomAt(view, anchor, 0.5, limits);
    expect(zoomed.endNs - zoomed.startNs).toBeCloseTo(100_000);
    expect((anchor - zoomed.startNs) / (zoomed.endNs - zoomed.startNs)).toBeCloseTo(fraction);
  });

  it('stops zooming in at 1 ns per 100 px and out at the extent plus its margin', () => {
    let view = { startNs: 0, endNs: 1_000_000 };
    for (let i = 0; i < 200; i++) view = zoomAt(view, 500_000, 0.5, limits);
    // 1000 px at 0.01 ns/px is 10 ns, also the store's smallest window.
    expect(view.endNs - view.startNs).toBeCloseTo(1000 * MIN_NS_PER_PX);
    for (let i = 0; i < 200; i++) view = zoomAt(view, 500_000, 2, limits);
    expect(view.endNs - view.startNs).toBeCloseTo(1_000_000 * (1 + 2 * EXTENT_MARGIN));
    expect(view.startNs).toBeCloseTo(-1_000_000 * EXTENT_MARGIN);
    expect(viewLimits({ start: 0, end: 1e9 }, 4000).minSpanNs).toBeCloseTo(40);
  });

  it('keeps the view inside the padded extent when panning', () => {
    const margin = 1_000_000 * EXTENT_MARGIN;
    const view = panBy({ startNs: 0, endNs: 100_000 }, 10_000_000, limits);
    expect(view.endNs).toBeCloseTo(1_000_000 + margin);
    expect(view.endNs - view.startNs).toBeCloseTo(100_000);
    expect(clampView({ startNs: -5e6, endNs: -4.9e6 }, limits).startNs).toBeCloseTo(-margin);
  });

  it('keeps a capture shorter than the deepest zoom in view', () => {
    const tiny = viewLimits({ start: 1000, end: 1002 }, 1000);
    const view = clampView({ startNs: 0, endNs: 5 }, tiny);
    expect(view.endNs - view.startNs).toBeCloseTo(10);
    expect(view.startNs).toBeLessThan(1002);
    expect(view.endNs).toBeGreaterThan(1000);
    expect(zoomAt(view, 1001, 100, tiny).startNs).toBeLessThanOrEqual(1000);
  });

  it('frames a range with a margin', () => {
    const view = viewAround(1000, 2000, limits, 0.1);
    expect(view).toEqual({ startNs: 900, endNs: 2100 });
  });

  it('normalises wheel deltas and zooms in on negative deltas', () => {
    expect(wheelPixels(3, 1, 800)).toBe(48);
    expect(wheelPixels(1, 2, 800)).toBe(800);
    expect(wheelZoomFactor(-100)).toBeLessThan(1);
    expect(wheelZoomFactor(-100)).toBeGreaterThan(0.7);
    expect(wheelZoomFactor(100)).toBeCloseTo(1 / wheelZoomFactor(-100));
    // Pinch deltas are small and come many per gesture: each one still zooms visibly.
    expect(wheelZoomFactor(-5)).toBeLessThan(0.96);
  });

  it('scrolls on the wheel, zooms on Ctrl+wheel or pinch, pans on Shift+wheel and horizontal swipes', () => {
    expect(wheelAction(0, 100, { ctrl: false, shift: false })).toEqual({ kind: 'scroll', deltaCss: 100, panCss: 0 });
    expect(wheelAction(30, 2, { ctrl: false, shift: false })).toEqual({ kind: 'scroll', deltaCss: 2, panCss: 30 });
    const zoom = wheelAction(0, -100, { ctrl: true, shift: false });
    expect(zoom.kind === 'zoom' && zoom.factor < 1).toBe(true);
    expect(wheelAction(0, 100, { ctrl: false, shift: true })).toEqual({ kind: 'pan', deltaCss: 100 });
    expect(wheelAction(-40, 0, { ctrl: false, shift: true })).toEqual({ kind: 'pan', deltaCss: -40 });
  });
});

describe('HeldKeys', () => {
  const view = { startNs: 0, endNs: 1_000_000 };

  it('moves a tap by a minimum step, then stops', () => {
    const keys = new HeldKeys();
    keys.press('w', 0);
    keys.release('w', 5);
    let v = view;
    for (let t = 16; t <= 400; t += 16) v = keys.step(v, t, 500_000, limits);
    expect(keys.active).toBe(false);
    const span = v.endNs - v.startNs;
    expect(span).toBeLessThan(900_000);
    expect(span).toBeGreaterThan(500_000);
    // The same tap held for exactly the minimum press gives the same result, whatever the frame rate.
    const again = new HeldKeys();
    again.press('w', 0);
    again.release('w', MIN_PRESS_MS);
    let w = view;
    for (let t = 7; t <= 400; t += 7) w = again.step(w, t, 500_000, limits);
    expect(w.endNs - w.startNs).toBeCloseTo(span, -2);
  });

  it('keeps going while held, faster over time, and pans by view widths', () => {
    const keys = new HeldKeys();
    keys.press('s', 0);
    let v = { startNs: 400_000, endNs: 600_000 };
    const spans: number[] = [];
    const wide = viewLimits({ start: 0, end: 1e12 }, 1000);
    for (let t = 16; t <= 1600; t += 16) {
      v = keys.step(v, t, 500_000, wide);
      spans.push(v.endNs - v.startNs);
    }
    expect(keys.active).toBe(true);
    expect(spans[spans.length - 1]).toBeGreaterThan(spans[0]);
    const early = spans[10] / spans[9];
    const late = spans[60] / spans[59];
    expect(late).toBeGreaterThan(early);

    const pan = new HeldKeys();
    pan.press('d', 0);
    let p = { startNs: 100_000, endNs: 200_000 };
    for (let t = 16; t <= 480; t += 16) p = pan.step(p, t, 0, limits);
    expect(p.startNs).toBeGreaterThan(120_000);
    expect(p.endNs - p.startNs).toBeCloseTo(100_000);
  });

  it('does not jump after a stall', () => {
    const keys = new HeldKeys();
    keys.press('a', 0);
    const v = keys.step({ startNs: 500_000, endNs: 600_000 }, 5000, 0, limits);
    expect(500_000 - v.startNs).toBeLessThan(100_000 * 0.2);
  });
});
