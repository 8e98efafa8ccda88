/** The resizable panel at the right: the selection's details (collapsible) and the statistics. */
import { useCallback, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { SelectionDetails, SelectionSummary } from './SelectionDetails.tsx';
import { StatsPanel } from './stats/StatsPanel.tsx';

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

/**
 * Share of the panel's height the selection details may take (the statistics get the rest): over
 * half, so duration, payload, children and CUDA statistics are in view without scrolling. It is a
 * maximum: with nothing selected the section shrinks to its hint and the statistics get the room.
 */
const DEFAULT_SELECTION_SHARE = 0.58;
const MIN_SELECTION_SHARE = 0.1;
const MAX_SELECTION_SHARE = 0.85;

function clampShare(share: number): number {
  return Math.max(MIN_SELECTION_SHARE, Math.min(MAX_SELECTION_SHARE, share));
}

/** `contentReady` false: the statistics section is left empty (busy) for now. */
export function SidePanel({ contentReady = true }: { contentReady?: boolean }) {
  const [width, setWidth] = useState(defaultWidth);
  const [selectionOpen, setSelectionOpen] = useState(true);
  const [selectionShare, setSelectionShare] = useState(DEFAULT_SELECTION_SHARE);
  const panelRef = useRef<HTMLElement>(null);
  const resizeSections = (clientY: number) => {
    const rect = panelRef.current?.getBoundingClientRect();
    if (!rect || rect.height <= 0) return;
    setSelectionShare(clampShare((clientY - rect.top) / rect.height));
  };
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
      <aside className="side-panel" ref={panelRef} style={{ width }} aria-label="Details and statistics" data-testid="side-panel">
        <section
          className={`panel-section selection-section${selectionOpen ? '' : ' collapsed'}`}
          style={selectionOpen ? { maxHeight: `${(selectionShare * 100).toFixed(1)}%` } : undefined}
        >
          <h2 className="section-title">
            <button
              type="button"
              className="section-toggle"
              aria-expanded={selectionOpen}
              onClick={() => setSelectionOpen(!selectionOpen)}
              title={selectionOpen ? 'Collapse the selection details' : 'Expand the selection details'}
            >
              <span className="chevron" aria-hidden="true" />
              Selection
            </button>
            {!selectionOpen && <SelectionSummary />}
          </h2>
          {selectionOpen && <SelectionDetails />}
        </section>
        {selectionOpen && (
          <div
            className="section-splitter"
            role="separator"
            aria-orientation="horizontal"
            aria-label="Resize the selection details"
            aria-valuenow={Math.round(selectionShare * 100)}
            tabIndex={0}
            title="Drag to share the height between the selection and the statistics; double-click to reset"
            onPointerDown={(e) => e.currentTarget.setPointerCapture(e.pointerId)}
            onPointerMove={(e) => {
              if (e.currentTarget.hasPointerCapture(e.pointerId)) resizeSections(e.clientY);
            }}
            onDoubleClick={() => setSelectionShare(DEFAULT_SELECTION_SHARE)}
            onKeyDown={(e) => {
              if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
              // The arrows resize here; they must not also move through the timeline.
              e.preventDefault();
              e.stopPropagation();
              setSelectionShare((f) => clampShare(f + (e.key === 'ArrowUp' ? -0.05 : 0.05)));
            }}
          />
        )}
        <section className="panel-section stats-section" aria-label="Statistics" aria-busy={!contentReady}>
          {contentReady && <StatsPanel />}
        </section>
      </aside>
    </>
  );
}
