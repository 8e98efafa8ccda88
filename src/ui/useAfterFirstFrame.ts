/**
 * Whether the page has drawn a frame since `active` became true: false at first, true once an
 * animation frame has run (the timeline draws in its own frame callback, registered before this
 * one) and the page got back to its event loop. The switch to true is a transition, so what it
 * reveals is rendered by React in interruptible slices, not in the task that brought the data.
 * Used to mount the heavy panels after the first drawn timeline of a new capture.
 */
import { startTransition, useEffect, useState } from 'react';

export function useAfterFirstFrame(active: boolean): boolean {
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    if (!active) {
      setDrawn(false);
      return;
    }
    if (drawn) return;
    let timer = 0;
    const frame = requestAnimationFrame(() => {
      // After the frame's callbacks, so that it is painted before the panels' work starts.
      timer = window.setTimeout(() => startTransition(() => setDrawn(true)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [active, drawn]);
  return active && drawn;
}
