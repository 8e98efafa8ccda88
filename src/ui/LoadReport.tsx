/** The collapsible load report at the bottom: every problem found while loading, filterable, virtualized. */
import { useRef, useState } from 'react';
import { formatCount } from '../format/numbers.ts';
import { filterRows, type IssueCounts, type ReportRow, type SeverityFilter } from './loadReport.ts';
import { useListVirtualizer } from './useListVirtualizer.ts';

export interface LoadReportProps {
  rows: readonly ReportRow[];
  counts: IssueCounts;
  onClose(): void;
}

const FILTERS: { value: SeverityFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'error', label: 'Errors' },
  { value: 'warning', label: 'Warnings' },
  { value: 'info', label: 'Info' },
];

export function LoadReport({ rows, counts, onClose }: LoadReportProps) {
  const [filter, setFilter] = useState<SeverityFilter>('all');
  const shown = filterRows(rows, filter);
  const total = counts.error + counts.warning + counts.info;
  return (
    <section className="load-report" aria-label="Load report" data-testid="load-report">
      <div className="load-report-bar">
        <h2 className="section-title">Load report</h2>
        <div className="segmented" role="group" aria-label="Filter by severity">
          {FILTERS.map((f) => (
            <button
              key={f.value}
              type="button"
              aria-pressed={filter === f.value}
              onClick={() => setFilter(f.value)}
              data-severity={f.value}
            >
              {f.label} <span className="count">{formatCount(f.value === 'all' ? total : counts[f.value])}</span>
            </button>
          ))}
        </div>
        <div className="header-spacer" />
        <button type="button" className="button icon" onClick={onClose} aria-label="Hide the load report" title="Hide">
          ×
        </button>
      </div>
      {shown.length === 0 ? (
        <p className="load-report-empty">
          {rows.length === 0 ? 'Every file loaded without problems.' : 'Nothing of this severity.'}
        </p>
      ) : (
        <ReportList rows={shown} />
      )}
    </section>
  );
}

const SEVERITY_LABEL = { error: 'Error', warning: 'Warning', info: 'Info' } as const;

function ReportList({ rows }: { rows: readonly ReportRow[] }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useListVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 24,
    overscan: 12,
  });
  return (
    <div className="load-report-list" ref={scrollRef} role="table" aria-rowcount={rows.length}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const r = rows[item.index];
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className={`report-row severity-${r.severity}`}
              role="row"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <span className="report-severity" role="cell">
                {SEVERITY_LABEL[r.severity]}
              </span>
              <span className="report-file" role="cell" title={r.file}>
                {r.file}
              </span>
              <span className="report-where" role="cell">
                {r.where}
              </span>
              <span className="report-message" role="cell">
                {r.message}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
