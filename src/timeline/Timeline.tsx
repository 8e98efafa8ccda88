/**
 * The timeline area: track tree at the left, time axis and rows on two canvases at the right, a
 * hover tooltip. React renders the tree (virtualized) and the elements; everything that moves at
 * frame rate goes through `TimelineController` and the store subscription it holds.
 */
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type JSX,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import { useViewer, useViewerStore } from '../state/context.tsx';
import { TimelineController } from './controller.ts';
import { ContextMenu } from './menu/ContextMenu.tsx';
import { FlagEditor } from './menu/FlagEditor.tsx';
import { menuFor, type Menu, type MenuTarget } from './menu/menuItems.ts';
import { RULER_HEIGHT_CSS } from './frame.ts';
import { TrackTree } from './TrackTree.tsx';
import { rasterInWorkerFromQuery } from './raster/raster.client.ts';
import { buildTrackLayout } from './trackLayout.ts';
import './timeline.css';

const TREE_WIDTH_DEFAULT_CSS = 250;
const TREE_WIDTH_MIN_CSS = 140;
/** Space below the last row, so it never sits flush against the bottom edge. */
const BOTTOM_PAD_CSS = 24;

interface TimelineHooks {
  hitTestRange(captureId: number, rangeIndex: number): { x: number; y: number } | null;
  whenDrawn(): Promise<void>;
  /** The static canvas's pixels once drawn (RGBA, device pixels), whichever thread rasters it. */
  staticPixels(): Promise<Uint8ClampedArray>;
}

type HookedWindow = Window & { __nvtxview?: { timeline?: TimelineHooks } & Record<string, unknown> };

export function Timeline(): JSX.Element {
  const store = useViewerStore();
  const captures = useViewer((s) => s.captures);
  const collapsed = useViewer((s) => s.collapsed);
  const toggleCollapsed = useViewer((s) => s.toggleCollapsed);
  const filters = useViewer((s) => s.filters);
  const search = useViewer((s) => s.search);
  const allLevels = useViewer((s) => s.allLevels);
  const toggleAllLevels = useViewer((s) => s.toggleAllLevels);
  const arrangement = useViewer((s) => s.tracks);
  const layout = useMemo(
    () => buildTrackLayout(captures, collapsed, { filters, search, allLevels, arrangement }),
    [captures, collapsed, filters, search, allLevels, arrangement],
  );

  const rootRef = useRef<HTMLDivElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const staticRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const tooltipRef = useRef<HTMLDivElement>(null);
  const controllerRef = useRef<TimelineController | null>(null);
  const layoutRef = useRef(layout);
  layoutRef.current = layout;
  const openMenuRef = useRef<(target: MenuTarget, x: number, y: number) => void>(() => undefined);

  const [treeWidth, setTreeWidth] = useState(TREE_WIDTH_DEFAULT_CSS);
  const treeWidthRef = useRef(treeWidth);
  treeWidthRef.current = treeWidth;
  const [viewport, setViewport] = useState({ top: 0, height: 800, gutter: 0 });
  const [menu, setMenu] = useState<(Menu & { x: number; y: number }) | null>(null);
  const closeMenu = useCallback(() => setMenu(null), []);
  const openMenu = useCallback(
    (target: MenuTarget, x: number, y: number) => {
      const controller = controllerRef.current;
      if (!controller) return;
      const built = menuFor(target, {
        store,
        layout: layoutRef.current,
        zoomTo: (startNs, endNs) => controller.zoomTo(startNs, endNs),
        copy: (text) => void navigator.clipboard?.writeText(text).catch(() => undefined),
      });
      setMenu({ ...built, x, y });
    },
    [store],
  );
  const [flagEdit, setFlagEdit] = useState<{ id: number; x: number; y: number } | null>(null);
  const flags = useViewer((s) => s.flags);
  const editedFlag = flagEdit ? flags.find((f) => f.id === flagEdit.id) : undefined;
  const closeFlag = useCallback(() => setFlagEdit(null), []);
  const setFlagNote = useViewer((s) => s.setFlagNote);
  const removeFlag = useViewer((s) => s.removeFlag);
  const hiddenRows = Object.keys(arrangement.hidden).length;
  const setTrackNameFilter = useViewer((s) => s.setTrackNameFilter);
  const showHiddenRows = useViewer((s) => s.showHiddenRows);
  const setRowHeight = useViewer((s) => s.setRowHeight);

  useEffect(() => {
    const controller = new TimelineController(
      store,
      {
        root: rootRef.current!,
        canvasHost: hostRef.current!,
        staticCanvas: staticRef.current!,
        overlayCanvas: overlayRef.current!,
        scroller: scrollerRef.current!,
        tooltip: tooltipRef.current!,
      },
      layoutRef.current,
      rasterInWorkerFromQuery(window.location.search),
    );
    controllerRef.current = controller;
    controller.onMenu = (target, x, y) => openMenuRef.current(target, x, y);
    controller.onFlag = (id, x, y) => setFlagEdit({ id, x, y });
    const w = window as HookedWindow;
    const hooks = (w.__nvtxview ??= {});
    const mine: TimelineHooks = {
      hitTestRange: (captureId, rangeIndex) => controller.hitTestRange(captureId, rangeIndex),
      whenDrawn: () => controller.whenDrawn(),
      staticPixels: () => controller.staticPixels(),
    };
    hooks.timeline = mine;
    return () => {
      controller.destroy();
      controllerRef.current = null;
      if (hooks.timeline === mine) delete hooks.timeline;
    };
  }, [store]);

  useLayoutEffect(() => {
    controllerRef.current?.setLayout(layout);
  }, [layout]);
  useLayoutEffect(() => {
    openMenuRef.current = openMenu;
  }, [openMenu]);

  // The tree mounts the rows near the viewport: follow the scroller's position and size. Read only
  // where layout is already done (a ResizeObserver callback, which also comes once right after
  // the first layout, or a scroll event): reading sizes here, right after React changed the DOM,
  // would force a layout of the whole page inside the commit (~65 ms when a 10M capture's panels
  // appear).
  useEffect(() => {
    const scroller = scrollerRef.current!;
    const measure = () =>
      setViewport((v) => {
        const next = { top: scroller.scrollTop, height: scroller.clientHeight, gutter: scroller.offsetWidth - scroller.clientWidth };
        return v.top === next.top && v.height === next.height && v.gutter === next.gutter ? v : next;
      });
    scroller.addEventListener('scroll', measure, { passive: true });
    const resize = new ResizeObserver(measure);
    resize.observe(scroller);
    return () => {
      scroller.removeEventListener('scroll', measure);
      resize.disconnect();
    };
  }, []);

  const onSplitterDown = useCallback((e: ReactPointerEvent<HTMLDivElement>) => {
    const splitter = e.currentTarget;
    splitter.setPointerCapture(e.pointerId);
    const x0 = e.clientX;
    const root = rootRef.current!.getBoundingClientRect();
    const width0 = treeWidthRef.current;
    const move = (ev: PointerEvent) => {
      const max = Math.max(TREE_WIDTH_MIN_CSS, root.width * 0.6);
      setTreeWidth(Math.round(Math.min(max, Math.max(TREE_WIDTH_MIN_CSS, width0 + ev.clientX - x0))));
    };
    const up = () => {
      splitter.removeEventListener('pointermove', move);
      splitter.removeEventListener('pointerup', up);
    };
    splitter.addEventListener('pointermove', move);
    splitter.addEventListener('pointerup', up);
  }, []);

  const style = {
    '--tl-tree-w': `${treeWidth}px`,
    '--tl-ruler-h': `${RULER_HEIGHT_CSS}px`,
    '--tl-gutter': `${viewport.gutter}px`,
  } as CSSProperties;

  return (
    <div className="tl-root" ref={rootRef} style={style} data-testid="timeline">
      <div className="tl-tree-head">
        <input
          type="search"
          className="tl-track-filter"
          placeholder="Filter tracks"
          aria-label="Filter tracks by name"
          title="Only tracks whose name (or a parent's) contains this text"
          value={arrangement.nameFilter}
          onChange={(e) => setTrackNameFilter(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && e.currentTarget.value !== '') {
              e.stopPropagation();
              setTrackNameFilter('');
            }
          }}
        />
        {hiddenRows > 0 && (
          <button type="button" className="tl-hidden-rows" onClick={showHiddenRows} title="Show the rows you hid">
            {hiddenRows} hidden
          </button>
        )}
      </div>
      <div className="tl-scroller" ref={scrollerRef}>
        <div className="tl-content" style={{ height: layout.totalHeightCss + BOTTOM_PAD_CSS }}>
          <TrackTree
            layout={layout}
            scrollTopCss={viewport.top}
            viewportHeightCss={viewport.height}
            onToggle={toggleCollapsed}
            onToggleAllLevels={toggleAllLevels}
            onMenu={openMenu}
            onResize={setRowHeight}
          />
        </div>
      </div>
      <div className="tl-canvas-host" ref={hostRef}>
        <canvas className="tl-canvas" ref={staticRef} aria-hidden="true" />
        <canvas className="tl-canvas tl-overlay" ref={overlayRef} aria-label="Timeline" role="img" />
      </div>
      <div
        className="tl-splitter"
        role="separator"
        aria-orientation="vertical"
        aria-label="Resize the track tree"
        onPointerDown={onSplitterDown}
      />
      <div className="tl-tooltip" ref={tooltipRef} role="tooltip" hidden />
      {menu && <ContextMenu x={menu.x} y={menu.y} title={menu.title} entries={menu.entries} onClose={closeMenu} />}
      {flagEdit && editedFlag && (
        <FlagEditor
          key={editedFlag.id}
          flag={editedFlag}
          x={flagEdit.x}
          y={flagEdit.y}
          onNote={(note) => note !== editedFlag.note && setFlagNote(editedFlag.id, note)}
          onRemove={() => removeFlag(editedFlag.id)}
          onClose={closeFlag}
        />
      )}
    </div>
  );
}
