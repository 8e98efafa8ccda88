/** Per-name table of the ranges in the selected time span (second part of the side panel). */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import { useViewer } from '../state/context.tsx';
import { formatCount, formatDuration, formatDurationShort, formatTimestamp } from './format.ts';
import { DEFAULT_SPAN_SORT, nextSort, sortSpanRows, spanRows, type SpanRow, type SpanSort, type SpanSortKey } from './spanTable.ts';

const COLUMNS: { key: SpanSortKey; label: string; title: string; numeric: boolean }[] = [
  { key: 'label', label: 'Name', title: 'Range name (domain:name outside the default domain)', numeric: false },
  { key: 'count', label: 'Count', title: 'Ranges meeting the span', numeric: true },
  { key: 'totalNs', label: 'Total', title: 'Time inside the span, summed', numeric: true },
  { key: 'selfNs', label: 'Self', title: 'Total minus the time of direct children', numeric: true },
  { key: 'avgNs', label: 'Avg', title: 'Average time inside the span', numeric: true },
  { key: 'minNs', label: 'Min', title: 'Shortest', numeric: true },
  { key: 'maxNs', label: 'Max', title: 'Longest (click the row to select it)', numeric: true },
  { key: 'medianNs', label: 'Median', title: 'Median', numeric: true },
];

export function SpanStats() {
  const span = useViewer((s) => s.span);
  const captures = useViewer((s) => s.captures);
  const setSpan = useViewer((s) => s.setSpan);
  const [sort, setSort] = useState<SpanSort>(DEFAULT_SPAN_SORT);
  const rows = useMemo(() => (span ? spanRows(captures, span) : []), [captures, span]);
  const sorted = useMemo(() => sortSpanRows(rows, sort), [rows, sort]);
  if (!span) {
    return <p className="panel-hint">Drag across the time axis to select a span and get per-name statistics of the ranges in it.</p>;
  }
  return (
    <div className="span-stats" data-testid="span-stats">
      <div className="span-summary">
        <span>
          {formatTimestamp(span.startNs)} – {formatTimestamp(span.endNs)}
        </span>
        <strong data-testid="span-length">{formatDuration(span.endNs - span.startNs)}</strong>
        <button type="button" className="link" onClick={() => setSpan(null)}>
          Clear
        </button>
      </div>
      {sorted.length === 0 ? (
        <p className="panel-hint">No ranges in this span.</p>
      ) : (
        <StatsGrid rows={sorted} sort={sort} onSort={(key) => setSort(nextSort(sort, key))} showFile={captures.length > 1} />
      )}
    </div>
  );
}

function StatsGrid({
  rows,
  sort,
  onSort,
  showFile,
}: {
  rows: SpanRow[];
  sort: SpanSort;
  onSort(key: SpanSortKey): void;
  showFile: boolean;
}) {
  const select = useViewer((s) => s.select);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    // Rows are one line in a wide panel and two (name, then figures) in a narrow one: measured.
    estimateSize: () => (showFile ? 40 : 24),
    overscan: 10,
  });
  // Same-named ranges of two kinds (push/pop and start/end) get a kind tag to tell them apart.
  const labels = new Map<string, number>();
  for (const r of rows) labels.set(r.label, (labels.get(r.label) ?? 0) + 1);
  return (
    <div className="stats-grid" role="table" aria-label="Ranges in the span by name" aria-rowcount={rows.length + 1}>
      <div className="stats-row stats-head" role="row">
        {COLUMNS.map((c) => {
          const active = sort.key === c.key;
          return (
            <button
              key={c.key}
              type="button"
              role="columnheader"
              className={`stats-cell${c.numeric ? ' num' : ''}${active ? ' active' : ''}`}
              aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}
              title={c.title}
              onClick={() => onSort(c.key)}
            >
              {c.label}
              <span className="sort-arrow" aria-hidden="true">
                {active ? (sort.descending ? '▼' : '▲') : ''}
              </span>
            </button>
          );
        })}
      </div>
      <div className="stats-body" ref={scrollRef}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const r = rows[item.index];
            return (
              <div
                key={r.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className="stats-row"
                role="row"
                style={{ transform: `translateY(${item.start}px)` }}
                onClick={() => select({ kind: 'range', capture: r.capture, index: r.maxRange })}
                data-testid="span-row"
              >
                <span className="stats-cell name" role="cell" title={showFile ? `${r.label} · ${r.file}` : r.label}>
                  <span className="stats-name">{r.label}</span>
                  {(labels.get(r.label) ?? 0) > 1 && <span className="tag">{r.style}</span>}
                  {showFile && <span className="stats-file">{r.file}</span>}
                </span>
                <span className="stats-cell num" role="cell">
                  {formatCount(r.count)}
                </span>
                <span className="stats-cell num" role="cell">
                  {formatDurationShort(r.totalNs)}
                </span>
                <span className="stats-cell num" role="cell">
                  {formatDurationShort(r.selfNs)}
                </span>
                <span className="stats-cell num" role="cell">
                  {formatDurationShort(r.avgNs)}
                </span>
                <span className="stats-cell num" role="cell">
                  {formatDurationShort(r.minNs)}
                </span>
                <span className="stats-cell num" role="cell">
                  {formatDurationShort(r.maxNs)}
                </span>
                <span className="stats-cell num" role="cell">
                  {formatDurationShort(r.medianNs)}
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
