/** A small sortable, virtualized table of figures (the marks and counters tabs). */
import { useMemo, useRef, useState, type CSSProperties } from 'react';
import { NATURAL } from './tableModel.ts';
import { useListVirtualizer } from '../useListVirtualizer.ts';

export interface FigureColumn<T> {
  id: string;
  header: string;
  title: string;
  /** Sort key. */
  value(row: T): number | string;
  text(row: T): string;
  /** A cell's own tooltip, when the figure means something else on some rows (e.g. counters of changes). */
  cellTitle?(row: T): string | undefined;
}

export function FigureTable<T>({
  label,
  rows,
  rowKey,
  name,
  figures,
  defaultSort,
  busy,
  onOpen,
  openTitle,
  testId,
}: {
  label: string;
  rows: readonly T[];
  rowKey(row: T): string;
  /** The name column (always shown, on its own line in a narrow panel). */
  name: FigureColumn<T> & { detail?(row: T): string | undefined };
  figures: readonly FigureColumn<T>[];
  defaultSort: { id: string; descending: boolean };
  busy: boolean;
  onOpen?(row: T): void;
  openTitle?: string;
  testId: string;
}) {
  const [sort, setSort] = useState(defaultSort);
  const columns = [name, ...figures];
  const sorted = useMemo(() => {
    const col = columns.find((c) => c.id === sort.id) ?? name;
    const dir = sort.descending ? -1 : 1;
    return [...rows].sort((a, b) => {
      const x = col.value(a);
      const y = col.value(b);
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), undefined, NATURAL);
      return dir * c || name.text(a).localeCompare(name.text(b), undefined, NATURAL);
    });
    // columns derive from name and figures.
  }, [rows, sort, name, figures]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useListVirtualizer({ count: sorted.length, getScrollElement: () => scrollRef.current, estimateSize: () => 40, overscan: 8 });
  const style = {
    '--st-wide': `repeat(${figures.length}, 76px)`,
    '--st-narrow': `repeat(${figures.length}, minmax(56px, 1fr))`,
    '--st-min': `${figures.length * 76}px`,
    '--st-narrow-min': `${figures.length * 56}px`,
  } as CSSProperties;
  return (
    <div className={`st-grid${busy ? ' busy' : ''}`} role="table" aria-label={label} aria-rowcount={sorted.length + 1} style={style} data-testid={testId}>
      <div className="st-row st-head" role="row">
        {columns.map((c, i) => {
          const active = sort.id === c.id;
          return (
            <button
              key={c.id}
              type="button"
              role="columnheader"
              className={`st-cell${i === 0 ? ' name' : ' num'}${active ? ' active' : ''}`}
              aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}
              title={`${c.title}. Click to sort.`}
              onClick={() => setSort(active ? { id: c.id, descending: !sort.descending } : { id: c.id, descending: i > 0 })}
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
            const r = sorted[item.index];
            const detail = name.detail?.(r);
            return (
              <div
                key={rowKey(r)}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className={`st-row${onOpen ? '' : ' static'}`}
                role="row"
                tabIndex={onOpen ? 0 : undefined}
                style={{ transform: `translateY(${item.start}px)` }}
                onClick={onOpen ? () => onOpen(r) : undefined}
                onKeyDown={onOpen ? (e) => e.key === 'Enter' && onOpen(r) : undefined}
                title={openTitle}
              >
                <span className="st-cell name" role="cell">
                  <span className="st-name" title={name.text(r)}>
                    {name.text(r)}
                  </span>
                  {detail && <span className="st-file">{detail}</span>}
                </span>
                {figures.map((c) => (
                  <span key={c.id} className="st-cell num" role="cell" title={c.cellTitle?.(r)}>
                    {c.text(r)}
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
