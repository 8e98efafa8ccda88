/**
 * The one sortable, virtualized table of the page (the statistics panel's range, mark and counter
 * tables, the Compare tab): a header of sort buttons over a windowed body of rows that open on
 * click, Enter or Space. Sort state, row order and selection belong to the caller; this draws them.
 */
import { useRef, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import { useListVirtualizer } from '../useListVirtualizer.ts';

export interface GridColumn<T> {
  id: string;
  header: ReactNode;
  /** Header tooltip (". Click to sort." is added to sortable columns). */
  title: string;
  /** False for a column that cannot be sorted by: its header is plain text. */
  sortable?: boolean;
  /** Extra classes of the column's header and cells ('name', 'num', ...). */
  className: string;
  cell(row: T): ReactNode;
  cellTitle?(row: T): string | undefined;
  cellClassName?: string;
  cellStyle?(row: T): CSSProperties | undefined;
}

export interface GridSort {
  id: string;
  descending: boolean;
}

export function SortableGrid<T>({
  label,
  rows,
  rowKey,
  columns,
  sort,
  onSort,
  busy,
  style,
  onOpen,
  openTitle,
  testId,
  rowTestId,
  className,
  selectedKey,
  rowClassName,
  rowData,
}: {
  label: string;
  /** Rows in display order. */
  rows: readonly T[];
  rowKey(row: T): string;
  columns: readonly GridColumn<T>[];
  sort: GridSort;
  onSort(id: string): void;
  busy: boolean;
  /** The grid's column template custom properties (--st-wide, --st-narrow, --st-min). */
  style: CSSProperties;
  onOpen?(row: T): void;
  openTitle?: string;
  testId: string;
  rowTestId?: string;
  /** Extra classes of the grid, for its place in the page. */
  className?: string;
  /** Where rows can be selected: the selected row's key (null for none); rows get aria-selected. */
  selectedKey?: string | null;
  /** Extra classes of a body row (its status, tone, ...). */
  rowClassName?(row: T): string;
  /** `data-*` attributes of a body row, for tests and styles. */
  rowData?(row: T): Record<`data-${string}`, string>;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useListVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => 40, overscan: 8 });
  const onKey = (e: KeyboardEvent<HTMLDivElement>, row: T) => {
    if (onOpen && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      onOpen(row);
    }
  };
  return (
    <div
      className={`st-grid${className ? ` ${className}` : ''}${busy ? ' busy' : ''}`}
      role="table"
      aria-label={label}
      aria-rowcount={rows.length + 1}
      style={style}
      data-testid={testId}
      // Keeps the name line of each row in view while the figures scroll sideways (stats.css).
      onScroll={(e) => e.currentTarget.style.setProperty('--st-scroll-x', `${e.currentTarget.scrollLeft}px`)}
    >
      <div className="st-row st-head" role="row">
        {columns.map((c) => {
          if (c.sortable === false) {
            return (
              <span key={c.id} role="columnheader" className={`st-cell static${c.className ? ` ${c.className}` : ''}`} title={c.title}>
                {c.header}
              </span>
            );
          }
          const active = sort.id === c.id;
          return (
            <button
              key={c.id}
              type="button"
              role="columnheader"
              className={`st-cell${c.className ? ` ${c.className}` : ''}${active ? ' active' : ''}`}
              aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}
              title={`${c.title}. Click to sort.`}
              onClick={() => onSort(c.id)}
            >
              {c.header}
              <span className="sort-arrow" aria-hidden="true">
                {active ? (sort.descending ? '▼' : '▲') : ''}
              </span>
            </button>
          );
        })}
      </div>
      <div className="st-body" ref={scrollRef}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const r = rows[item.index];
            const key = rowKey(r);
            const extra = rowClassName?.(r);
            return (
              <div
                key={key}
                data-index={item.index}
                aria-rowindex={item.index + 2}
                ref={virtualizer.measureElement}
                className={`st-row${onOpen ? '' : ' static'}${extra ? ` ${extra}` : ''}${selectedKey === key ? ' selected' : ''}`}
                role="row"
                aria-selected={selectedKey === undefined ? undefined : selectedKey === key}
                tabIndex={onOpen ? 0 : undefined}
                style={{ transform: `translateY(${item.start}px)` }}
                onClick={onOpen ? () => onOpen(r) : undefined}
                onKeyDown={onOpen ? (e) => onKey(e, r) : undefined}
                title={openTitle}
                data-testid={rowTestId}
                {...rowData?.(r)}
              >
                {columns.map((c) => (
                  <span
                    key={c.id}
                    className={`st-cell${c.cellClassName ?? (c.className ? ` ${c.className}` : '')}`}
                    role="cell"
                    title={c.cellTitle?.(r)}
                    style={c.cellStyle?.(r)}
                  >
                    {c.cell(r)}
                  </span>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
