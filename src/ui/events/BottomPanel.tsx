/**
 * The panel under the timeline: a strip of tabs (Events, Hierarchy, Health, Load report, Capture) that is
 * always there once something is loaded, and the open tab's content above it at a height the user
 * drags. The open tab is the store's `panel` (kept in the URL hash); clicking the open tab or
 * the collapse button closes it.
 */
import { useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent, type ReactNode } from 'react';
import { useViewer } from '../../state/context.tsx';
import { formatCount } from '../../format/numbers.ts';
import './panels.css';

export type BottomTab = 'events' | 'hierarchy' | 'health' | 'report' | 'compare' | 'capture';

export interface TabSpec {
  id: BottomTab;
  label: string;
  /** A count shown beside the label (e.g. problems), or undefined. */
  badge?: number;
  tone?: 'error' | 'warning';
  title: string;
  render(): ReactNode;
}

const HEIGHT_KEY = 'nvtxview.bottomPanelHeight';
const MIN_HEIGHT = 120;
/** The timeline keeps at least this much of the window. */
const MIN_TIMELINE = 200;

function defaultHeight(): number {
  return Math.round(Math.max(MIN_HEIGHT, Math.min(340, window.innerHeight * 0.36)));
}

function clampHeight(h: number): number {
  return Math.round(Math.max(MIN_HEIGHT, Math.min(h, window.innerHeight - MIN_TIMELINE)));
}

function storedHeight(): number {
  try {
    const v = Number(window.localStorage.getItem(HEIGHT_KEY));
    return Number.isFinite(v) && v > 0 ? clampHeight(v) : defaultHeight();
  } catch {
    return defaultHeight();
  }
}

export function BottomPanel({ tabs, contentReady = true }: { tabs: readonly TabSpec[]; contentReady?: boolean }) {
  const panel = useViewer((s) => s.panel);
  const setPanel = useViewer((s) => s.setPanel);
  const open = tabs.find((t) => t.id === panel) ?? null;
  const [height, setHeight] = useState(storedHeight);
  const drag = useRef<{ y: number; height: number } | null>(null);

  useEffect(() => {
    try {
      window.localStorage.setItem(HEIGHT_KEY, String(height));
    } catch {
      // Storage can be unavailable (private windows); the height is then per visit.
    }
  }, [height]);
  useEffect(() => {
    const onResize = () => setHeight((h) => clampHeight(h));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  const onPointerDown = useCallback(
    (e: ReactPointerEvent<HTMLDivElement>) => {
      e.currentTarget.setPointerCapture(e.pointerId);
      drag.current = { y: e.clientY, height };
    },
    [height],
  );
  const onPointerMove = useCallback((e: ReactPointerEvent<HTMLDivElement>) => {
    if (drag.current) setHeight(clampHeight(drag.current.height + drag.current.y - e.clientY));
  }, []);
  const onPointerUp = useCallback(() => {
    drag.current = null;
  }, []);

  return (
    <section className={`bottom-panel${open ? ' open' : ''}`} aria-label="Bottom panel" data-testid="bottom-panel">
      {open && (
        <div
          className="bottom-splitter"
          role="separator"
          aria-orientation="horizontal"
          aria-label="Resize the bottom panel"
          aria-valuenow={height}
          tabIndex={0}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onDoubleClick={() => setHeight(defaultHeight())}
          onKeyDown={(e) => {
            if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
            e.preventDefault();
            setHeight((h) => clampHeight(h + (e.key === 'ArrowUp' ? 24 : -24)));
          }}
          title="Drag to resize; double-click to reset"
        />
      )}
      <div className="bottom-tabs" role="tablist" aria-label="Panels">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={open?.id === t.id}
            aria-controls={open?.id === t.id ? `tabpanel-${t.id}` : undefined}
            className="bottom-tab"
            title={t.title}
            onClick={() => setPanel(open?.id === t.id ? null : t.id)}
          >
            {t.label}
            {t.badge !== undefined && t.badge > 0 && <span className={`tab-badge${t.tone ? ` tone-${t.tone}` : ''}`}>{formatCount(t.badge)}</span>}
          </button>
        ))}
        <div className="header-spacer" />
        {open && (
          <button type="button" className="bottom-collapse" onClick={() => setPanel(null)} aria-label="Close the panel" title="Close the panel">
            ▾
          </button>
        )}
      </div>
      {open && (
        <div
          className="bottom-content"
          role="tabpanel"
          id={`tabpanel-${open.id}`}
          aria-labelledby={`tab-${open.id}`}
          aria-busy={!contentReady}
          style={{ height }}
        >
          {contentReady && open.render()}
        </div>
      )}
    </section>
  );
}
