/**
 * The track tree at the left of the canvas: only the rows in (and near) the scrolled viewport are
 * mounted, each at the y of its canvas row, inside the scroller that moves both.
 */
import { memo } from 'react';
import { visibleRows, type LayoutRow, type TrackLayout } from './trackLayout.ts';

/** Rows mounted beyond the viewport, in CSS px, so fast scrolling shows no gaps. */
const OVERSCAN_CSS = 400;
const INDENT_CSS = 14;

export interface TrackTreeProps {
  layout: TrackLayout;
  scrollTopCss: number;
  viewportHeightCss: number;
  onToggle(key: string): void;
}

export function TrackTree({ layout, scrollTopCss, viewportHeightCss, onToggle }: TrackTreeProps) {
  const [first, last] = visibleRows(layout, scrollTopCss - OVERSCAN_CSS, scrollTopCss + viewportHeightCss + OVERSCAN_CSS);
  const rows = layout.rows.slice(first, last);
  return (
    <div className="tl-tree" role="tree" aria-label="Tracks">
      {rows.map((row) => (
        <TreeRow key={row.key} row={row} onToggle={onToggle} />
      ))}
    </div>
  );
}

const TreeRow = memo(function TreeRow({ row, onToggle }: { row: LayoutRow; onToggle(key: string): void }) {
  const folded = row.geometry && row.geometry.levelsTotal > row.geometry.levelsShown ? row.geometry : null;
  const detail = folded ? `${folded.levelsTotal - folded.levelsShown + 1} levels in the last lane` : row.detail;
  const title = [row.label, row.detail, folded && `${folded.levelsTotal} levels; the deepest ${folded.levelsTotal - folded.levelsShown + 1} share the last lane`]
    .filter(Boolean)
    .join(' · ');
  const toggle = () => onToggle(row.key);
  return (
    <div
      className={`tl-tree-row tl-${row.kind}`}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-expanded={row.hasChildren ? !row.collapsed : undefined}
      data-key={row.key}
      title={title}
      style={{ top: row.yCss, height: row.heightCss, paddingLeft: 4 + row.depth * INDENT_CSS }}
      onClick={row.kind !== 'track' && row.hasChildren ? toggle : undefined}
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
      <span className="tl-label">{row.label}</span>
      {detail && <span className="tl-detail">{detail}</span>}
    </div>
  );
});
