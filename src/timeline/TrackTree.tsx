/**
 * The track tree at the left of the canvas: only the rows in (and near) the scrolled viewport are
 * mounted, each at the y of its canvas row, inside the scroller that moves both. Pinned rows sit in
 * a band that sticks to the top of the scroller (CSS `position: sticky`, so it moves with the
 * native scroll, never a frame late); the other rows scroll under it, as on the canvas.
 */
import { memo } from 'react';
import type { MenuTarget } from './menu/menuItems.ts';
import { MAX_LEVELS_SHOWN } from './rowGeometry.ts';
import { visibleRows, type LayoutRow, type TrackLayout } from './trackLayout.ts';
import { shownDetail, splitLabel } from './treeLabel.ts';

/** Rows mounted beyond the viewport, in CSS px, so fast scrolling shows no gaps. */
const OVERSCAN_CSS = 400;
const INDENT_CSS = 14;

export interface TrackTreeProps {
  layout: TrackLayout;
  scrollTopCss: number;
  viewportHeightCss: number;
  onToggle(key: string): void;
  /** Opens a row deeper than the fold to every level, or folds it again. */
  onToggleAllLevels(key: string): void;
  /** Right-click on a row: its menu (viewport px). */
  onMenu(target: MenuTarget, x: number, y: number): void;
  /** A counter row's bottom edge dragged to a new height (CSS px). */
  onResize(key: string, heightCss: number): void;
}

export function TrackTree({ layout, scrollTopCss, viewportHeightCss, onToggle, onToggleAllLevels, onMenu, onResize }: TrackTreeProps) {
  const band = layout.pinnedHeightCss;
  const [first, last] = visibleRows(layout, scrollTopCss + band - OVERSCAN_CSS, scrollTopCss + viewportHeightCss + OVERSCAN_CSS);
  const scrolled = layout.rows.slice(Math.max(first, layout.pinnedCount), last);
  const pinned = layout.rows.slice(0, layout.pinnedCount);
  const item = (row: LayoutRow) => (
    <TreeRow
      key={row.key}
      row={row}
      shiftable={row.kind === 'capture' && layout.captures.length > 1}
      onToggle={onToggle}
      onToggleAllLevels={onToggleAllLevels}
      onMenu={onMenu}
      onResize={onResize}
    />
  );
  return (
    <div className="tl-tree" role="tree" aria-label="Tracks">
      {pinned.length > 0 && (
        <div className="tl-pinned-band" role="group" aria-label="Pinned tracks" data-testid="pinned-band" style={{ height: band }}>
          {pinned.map(item)}
        </div>
      )}
      {scrolled.map(item)}
    </div>
  );
}

interface TreeRowProps {
  row: LayoutRow;
  /** A capture row that can be dragged in time (several captures are loaded). */
  shiftable: boolean;
  onToggle(key: string): void;
  onToggleAllLevels(key: string): void;
  onMenu(target: MenuTarget, x: number, y: number): void;
  onResize(key: string, heightCss: number): void;
}

const TreeRow = memo(function TreeRow({ row, shiftable, onToggle, onToggleAllLevels, onMenu, onResize }: TreeRowProps) {
  const resizable = row.track >= 0 && row.model.tracks[row.track].kind === 'counter';
  const g = row.geometry;
  const deep = g !== null && g.levelsTotal > MAX_LEVELS_SHOWN;
  const folded = deep && g.levelsTotal > g.levelsShown;
  const detail = shownDetail(row.label, row.detail);
  const title = [
    row.label,
    detail,
    shiftable && 'drag this row on the timeline to shift the capture in time; right-click to reset',
    deep && (folded ? `${g.levelsTotal} levels; the deepest ${g.levelsTotal - g.levelsShown + 1} share the last lane` : `${g.levelsTotal} levels`),
  ]
    .filter(Boolean)
    .join(' · ');
  const { head, tail } = splitLabel(row.label);
  const toggle = () => onToggle(row.key);
  return (
    <div
      className={`tl-tree-row tl-${row.kind}${row.pinned ? ' tl-pinned' : ''}`}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-expanded={row.hasChildren ? !row.collapsed : undefined}
      aria-label={row.label}
      data-key={row.key}
      title={title}
      style={{ top: row.yCss, height: row.heightCss, paddingLeft: 4 + row.depth * INDENT_CSS }}
      onClick={row.kind !== 'track' && row.hasChildren ? toggle : undefined}
      onContextMenu={(e) => {
        e.preventDefault();
        onMenu({ kind: 'row', row }, e.clientX, e.clientY);
      }}
    >
      {row.hasChildren ? (
        <button
          type="button"
          className="tl-twisty"
          aria-label={row.collapsed ? `Expand ${row.label}` : `Collapse ${row.label}`}
          onClick={(e) => {
            e.stopPropagation();
            toggle();
          }}
        >
          <span className={row.collapsed ? 'tl-chevron' : 'tl-chevron tl-open'} aria-hidden="true" />
        </button>
      ) : (
        <span className="tl-twisty-space" />
      )}
      {/* The detail wraps onto a hidden second line when it does not fit whole: it shows entirely or not at all. */}
      <span className="tl-line">
        <span className="tl-label" data-testid="track-label">
          <span className="tl-label-head">{head}</span>
          {tail && <span className="tl-label-tail">{tail}</span>}
        </span>
        {detail && <span className="tl-detail">{detail}</span>}
      </span>
      {deep && (
        <button
          type="button"
          className="tl-depth"
          aria-pressed={!folded}
          aria-label={folded ? `Show all ${g.levelsTotal} levels of ${row.label}` : `Fold ${row.label} to ${MAX_LEVELS_SHOWN} levels`}
          title={folded ? `Show all ${g.levelsTotal} levels (the deepest share the last lane)` : `Fold the levels below ${MAX_LEVELS_SHOWN - 1} into the last lane`}
          onClick={(e) => {
            e.stopPropagation();
            onToggleAllLevels(row.key);
          }}
        >
          {folded ? `+${g.levelsTotal - g.levelsShown + 1} levels` : `${g.levelsTotal} levels`}
        </button>
      )}
      {resizable && (
        <div
          className="tl-row-resize"
          role="separator"
          aria-orientation="horizontal"
          aria-label={`Resize ${row.label}`}
          title="Drag to resize the row"
          onClick={(e) => e.stopPropagation()}
          onPointerDown={(e) => {
            e.preventDefault();
            e.stopPropagation();
            const handle = e.currentTarget;
            handle.setPointerCapture(e.pointerId);
            const y0 = e.clientY;
            const h0 = row.heightCss;
            const move = (ev: PointerEvent) => onResize(row.key, Math.round(h0 + ev.clientY - y0));
            const up = () => {
              handle.removeEventListener('pointermove', move);
              handle.removeEventListener('pointerup', up);
              handle.removeEventListener('pointercancel', up);
            };
            handle.addEventListener('pointermove', move);
            handle.addEventListener('pointerup', up);
            handle.addEventListener('pointercancel', up);
          }}
        />
      )}
    </div>
  );
});
