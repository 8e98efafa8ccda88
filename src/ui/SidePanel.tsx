/** The resizable panel at the right: the selection's details and the selected span's per-name table. */
import { useCallback, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useViewer } from '../state/context.tsx';
import { SelectionDetails } from './SelectionDetails.tsx';
import { SpanStats } from './SpanStats.tsx';

const MIN_WIDTH = 260;
/** A third of the window within bounds: the timeline keeps most of the room. */
function defaultWidth(): number {
  return Math.round(Math.max(340, Math.min(560, window.innerWidth * 0.32)));
}
/** The timeline keeps at least this much of the window. */
const MIN_TIMELINE = 420;

function clampWidth(width: number): number {
  return Math.round(Math.max(MIN_WIDTH, Math.min(width, window.innerWidth - MIN_TIMELINE)));
}

export function SidePanel() {
  const hasSpan = useViewer((s) => s.span !== null);
  const [width, setWidth] = useState(defaultWidth);
  const drag = useRef<{ x: number; width: number } | null>(null);
  const onPointerDown = useCallback(
    (e: ReactPointerEvent<HTMLDivElement>) => {
      e.currentTarget.setPointerCapture(e.pointerId);
      drag.current = { x: e.clientX, width };
    },
    [width],
  );
  const onPointerMove = useCallback((e: ReactPointerEvent<HTMLDivElement>) => {
    if (drag.current) setWidth(clampWidth(drag.current.width + drag.current.x - e.clientX));
  }, []);
  const onPointerUp = useCallback(() => {
    drag.current = null;
  }, []);
  return (
    <>
      <div
        className="splitter"
        role="separator"
        aria-orientation="vertical"
        aria-label="Resize the side panel"
        aria-valuenow={width}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onDoubleClick={() => setWidth(defaultWidth())}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
          // The arrows resize the panel here; they must not also pan the timeline.
          e.stopPropagation();
          setWidth((w) => clampWidth(w + (e.key === 'ArrowLeft' ? 24 : -24)));
        }}
        title="Drag to resize; double-click to reset"
      />
      <aside className={`side-panel${hasSpan ? ' has-span' : ''}`} style={{ width }} aria-label="Range statistics" data-testid="side-panel">
        <section className="panel-section selection-section">
          <h2 className="section-title">Selection</h2>
          <SelectionDetails />
        </section>
        <section className="panel-section span-section">
          <h2 className="section-title">Time span</h2>
          <SpanStats />
        </section>
      </aside>
    </>
  );
}
