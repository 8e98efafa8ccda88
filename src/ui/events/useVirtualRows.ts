/** A scrolled list of fixed-height rows that renders only the rows in view (see virtualRows.ts). */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { rowWindow, scrollRatio, scrollTopFor, type RowWindow } from './virtualRows.ts';

export interface VirtualRows extends RowWindow {
  /** Brings a row into view (no scroll when it is fully visible). */
  scrollToIndex(index: number, align?: 'auto' | 'start'): void;
  /** Rows that fit in the viewport (for Page Up / Page Down). */
  pageRows: number;
}

export function useVirtualRows(scrollRef: RefObject<HTMLElement | null>, count: number, rowPx: number): VirtualRows {
  const [view, setView] = useState({ top: 0, height: 400 });
  const countRef = useRef(count);
  countRef.current = count;

  // Sizes are read where layout is current (ResizeObserver, whose first callback follows the first
  // layout, and scroll events), never right after React changed the DOM: that forces a layout.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const measure = () =>
      setView((v) => (v.top === el.scrollTop && v.height === el.clientHeight ? v : { top: el.scrollTop, height: el.clientHeight }));
    // Scaled lists move by rows under the wheel, not by scaled pixels.
    const onWheel = (e: WheelEvent) => {
      const ratio = scrollRatio(countRef.current, rowPx, el.clientHeight);
      if (ratio === 1 || e.ctrlKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) return;
      e.preventDefault();
      const px = e.deltaMode === 1 ? e.deltaY * rowPx : e.deltaMode === 2 ? e.deltaY * el.clientHeight : e.deltaY;
      el.scrollTop += px / ratio;
    };
    el.addEventListener('scroll', measure, { passive: true });
    el.addEventListener('wheel', onWheel, { passive: false });
    const resize = new ResizeObserver(measure);
    resize.observe(el);
    return () => {
      el.removeEventListener('scroll', measure);
      el.removeEventListener('wheel', onWheel);
      resize.disconnect();
    };
  }, [scrollRef, rowPx]);

  const scrollToIndex = useCallback(
    (index: number, align: 'auto' | 'start' = 'auto') => {
      const el = scrollRef.current;
      if (!el || index < 0) return;
      const top = scrollTopFor(countRef.current, rowPx, el.clientHeight, el.scrollTop, index, align);
      if (Math.abs(top - el.scrollTop) >= 0.5) el.scrollTop = top;
    },
    [scrollRef, rowPx],
  );

  const win = rowWindow(count, rowPx, view.height, Math.min(view.top, Math.max(0, count * rowPx)));
  return { ...win, scrollToIndex, pageRows: Math.max(1, Math.floor(view.height / rowPx) - 1) };
}
