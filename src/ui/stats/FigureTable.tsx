/** A table of figures with its own sort state (the marks and counters tabs), drawn by `SortableGrid`. */
import { useMemo, useState, type CSSProperties } from 'react';
import { SortableGrid, type GridColumn } from './SortableGrid.tsx';
import { NATURAL } from './tableModel.ts';

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
  const style = {
    '--st-wide': `repeat(${figures.length}, 76px)`,
    '--st-narrow': `repeat(${figures.length}, minmax(56px, 1fr))`,
    '--st-min': `${figures.length * 76}px`,
    '--st-narrow-min': `${figures.length * 56}px`,
  } as CSSProperties;
  const gridColumns = useMemo<GridColumn<T>[]>(
    () => [
      {
        id: name.id,
        header: name.header,
        title: name.title,
        className: 'name',
        cell: (r) => {
          const detail = name.detail?.(r);
          return (
            <>
              <span className="st-name" title={name.text(r)}>
                {name.text(r)}
              </span>
              {detail && <span className="st-file">{detail}</span>}
            </>
          );
        },
      },
      ...figures.map((c) => ({ id: c.id, header: c.header, title: c.title, className: 'num', cell: (r: T) => c.text(r), cellTitle: c.cellTitle })),
    ],
    [name, figures],
  );
  // A new column sorts descending first, except the name column.
  const onSort = (id: string) => setSort(sort.id === id ? { id, descending: !sort.descending } : { id, descending: id !== name.id });
  return (
    <SortableGrid
      label={label}
      rows={sorted}
      rowKey={rowKey}
      columns={gridColumns}
      sort={sort}
      onSort={onSort}
      busy={busy}
      style={style}
      onOpen={onOpen}
      openTitle={openTitle}
      testId={testId}
    />
  );
}
