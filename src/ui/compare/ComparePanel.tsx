/**
 * The comparison tab: pick a baseline (A) and a candidate (B) among the loaded captures, see per
 * name (or other grouping) what changed, with changes inside the runs' noise marked as such; a
 * row opens both duration histograms on one axis and the slowest instance of each.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { GROUP_BY_TITLE, GROUP_BY_VALUES, type GroupBy } from '../../analysis/groups.ts';
import { compareCaptures, type CompareResult, type CompareRow } from '../../analysis/compare/index.ts';
import { formatCountChange, formatDurationChange, formatRelativeChange } from '../../format/change.ts';
import { formatCount } from '../../format/numbers.ts';
import { formatDurationShort } from '../../format/time.ts';
import { useViewer } from '../../state/context.tsx';
import { captureFilter } from '../../analysis/eventFilters.ts';
import type { Model } from '../../model/types.ts';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import { useListVirtualizer } from '../useListVirtualizer.ts';
import { CompareDetail } from './CompareDetail.tsx';
import { compareSummary, DEFAULT_COMPARE_SORT, sortCompareRows, type CompareSort, type CompareSortKey } from './compareTable.ts';
import './compare.css';

const STATUS_LABEL: Readonly<Record<CompareRow['status'], string>> = {
  slower: 'slower',
  faster: 'faster',
  added: 'added',
  removed: 'removed',
  count: 'count changed',
  'within-noise': 'within noise',
  'too-few': 'too few to tell',
};

const STATUS_TITLE: Readonly<Record<CompareRow['status'], string>> = {
  slower: 'The durations shifted up beyond the runs’ noise (Mann–Whitney U, p < 0.01, non-negligible effect)',
  faster: 'The durations shifted down beyond the runs’ noise (Mann–Whitney U, p < 0.01, non-negligible effect)',
  added: 'Only in the candidate (B)',
  removed: 'Only in the baseline (A)',
  count: 'Durations within noise, but the number of instances changed',
  'within-noise': 'Same count, and the durations did not shift beyond the runs’ own spread: nothing to chase',
  'too-few': 'Fewer than 10 instances on a side: the figures are compared, but noise cannot be told apart',
};

function captureName(c: LoadedCapture, all: readonly LoadedCapture[]): string {
  const name = c.model.capture.fileName;
  return all.filter((o) => o.model.capture.fileName === name).length > 1 ? `${name} (#${all.indexOf(c) + 1})` : name;
}

function pct(row: CompareRow, column: 'total' | 'mean' | 'median' | 'p90' | 'p99'): string {
  return formatRelativeChange(row.change[column].rel);
}

function tone(row: CompareRow): string {
  return row.status === 'slower' || row.status === 'added' ? 'worse' : row.status === 'faster' || row.status === 'removed' ? 'better' : 'neutral';
}

const COLUMNS: { title: string; sort?: CompareSortKey; cell(r: CompareRow): string; className?: string; hint?: string }[] = [
  { title: 'Name', sort: 'label', cell: (r) => r.label, className: 'cmp-name' },
  { title: 'Status', sort: 'status', cell: (r) => STATUS_LABEL[r.status], className: 'cmp-status' },
  { title: 'Count A', cell: (r) => (r.base ? formatCount(r.base.count) : '–') },
  { title: 'Count B', cell: (r) => (r.candidate ? formatCount(r.candidate.count) : '–') },
  { title: 'Total A', sort: 'totalA', cell: (r) => (r.base ? formatDurationShort(r.base.totalNs) : '–') },
  { title: 'Total B', sort: 'totalB', cell: (r) => (r.candidate ? formatDurationShort(r.candidate.totalNs) : '–') },
  { title: 'Δ Total', sort: 'change', cell: (r) => formatDurationChange(r.change.total.abs, false, 3), hint: 'Change of total time (the default order)' },
  { title: 'Δ%', sort: 'relChange', cell: (r) => pct(r, 'total') },
  { title: 'Mean Δ%', cell: (r) => pct(r, 'mean') },
  { title: 'Med Δ%', sort: 'medianChange', cell: (r) => pct(r, 'median') },
  { title: 'P90 Δ%', cell: (r) => pct(r, 'p90') },
  { title: 'P99 Δ%', sort: 'p99Change', cell: (r) => pct(r, 'p99') },
  { title: 'Δ Count', cell: (r) => formatCountChange(r.change.count.abs) },
];

const ROW_HEIGHT = 24;

export function ComparePanel() {
  const captures = useViewer((s) => s.captures);
  const compare = useViewer((s) => s.compare);
  const setCompare = useViewer((s) => s.setCompare);
  const filters = useViewer((s) => s.filters);
  const [sort, setSort] = useState<CompareSort>(DEFAULT_COMPARE_SORT);

  const ready = captures.filter((c) => !c.partial);
  const base = ready.find((c) => c.id === compare?.base) ?? ready[0];
  const candidate = ready.find((c) => c.id === compare?.candidate) ?? ready.find((c) => c !== base);
  const groupBy: GroupBy = compare?.groupBy ?? 'name';
  const rowKey = compare?.row ?? null;

  // Keyed on the models, not the capture entries: moving a capture on the axis changes nothing here.
  const baseModel = base?.model;
  const candidateModel = candidate?.model;
  // Computed after the tab has painted (a 10M pair takes a second or two on the main thread), so
  // opening the tab or changing the grouping shows "Comparing…" at once instead of freezing first.
  const [computed, setComputed] = useState<{ inputs: unknown[]; result: CompareResult } | null>(null);
  const inputs = [baseModel, candidateModel, groupBy, filters];
  const current = computed && computed.inputs.every((x, i) => x === inputs[i]) ? computed.result : null;
  useEffect(() => {
    if (!baseModel || !candidateModel || current) return;
    const timer = setTimeout(() => {
      const scope = (model: Model) => {
        const f = captureFilter(model, filters);
        return f ? { groupBy, includeStyles: f.includeStyles, includeThreads: f.includeThreads, tracks: f.shownTracks } : { groupBy };
      };
      setComputed({ inputs: [baseModel, candidateModel, groupBy, filters], result: compareCaptures(baseModel, candidateModel, scope(baseModel), scope(candidateModel)) });
    }, 0);
    return () => clearTimeout(timer);
  }, [baseModel, candidateModel, groupBy, filters]);
  const result = current;
  const rows = useMemo(() => (result ? sortCompareRows(result.rows, sort) : []), [result, sort]);

  if (ready.length < 2 || !base || !candidate) {
    return (
      <div className="cmp-panel cmp-empty" data-testid="compare-panel">
        <p>Load a second capture (drop it on the page or use Open) to compare two runs: what got slower, where, and whether it stands out of the noise.</p>
      </div>
    );
  }
  const update = (patch: Partial<{ base: number; candidate: number; groupBy: GroupBy; row: string | null }>) =>
    setCompare({ base: base.id, candidate: candidate.id, groupBy, row: rowKey, ...patch });
  const selected = rows.find((r) => r.key === rowKey) ?? null;

  return (
    <div className="cmp-panel" data-testid="compare-panel">
      <div className="cmp-toolbar">
        <label>
          A (baseline){' '}
          <select value={base.id} onChange={(e) => update({ base: Number(e.target.value), row: null })} data-testid="compare-base">
            {ready.map((c) => (
              <option key={c.id} value={c.id}>
                {captureName(c, ready)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button small" title="Swap baseline and candidate" onClick={() => update({ base: candidate.id, candidate: base.id })} data-testid="compare-swap">
          ⇄
        </button>
        <label>
          B (candidate){' '}
          <select value={candidate.id} onChange={(e) => update({ candidate: Number(e.target.value), row: null })} data-testid="compare-candidate">
            {ready.map((c) => (
              <option key={c.id} value={c.id}>
                {captureName(c, ready)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Group by{' '}
          <select value={groupBy} onChange={(e) => update({ groupBy: e.target.value as GroupBy, row: null })} data-testid="compare-group-by">
            {GROUP_BY_VALUES.map((g) => (
              <option key={g} value={g}>
                {GROUP_BY_TITLE[g]}
              </option>
            ))}
          </select>
        </label>
        <span className="muted cmp-summary" data-testid="compare-summary">
          {!result ? 'Comparing…' : base === candidate ? 'A and B are the same capture' : compareSummary(result)}
        </span>
      </div>
      <div className="cmp-body">
        <CompareRows rows={rows} sort={sort} onSort={setSort} selectedKey={rowKey} onSelect={(key) => update({ row: key === rowKey ? null : key })} />
        {selected && result && <CompareDetail result={result} row={selected} base={base} candidate={candidate} />}
      </div>
    </div>
  );
}

function CompareRows({
  rows,
  sort,
  onSort,
  selectedKey,
  onSelect,
}: {
  rows: readonly CompareRow[];
  sort: CompareSort;
  onSort(sort: CompareSort): void;
  selectedKey: string | null;
  onSelect(key: string): void;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useListVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  return (
    <div className="cmp-table" role="table" aria-label="Comparison" aria-rowcount={rows.length + 1} data-testid="compare-table">
      <div className="cmp-row cmp-head" role="row">
        {COLUMNS.map((c) => (
          <div key={c.title} role="columnheader" className={`cmp-cell ${c.className ?? ''}`} title={c.hint}
            aria-sort={c.sort && sort.key === c.sort ? (sort.descending ? 'descending' : 'ascending') : undefined}>
            {c.sort ? (
              <button type="button" className="cmp-sort" onClick={() => onSort({ key: c.sort!, descending: sort.key === c.sort ? !sort.descending : c.sort !== 'label' })}>
                {c.title}
                {sort.key === c.sort ? (sort.descending ? ' ▾' : ' ▴') : ''}
              </button>
            ) : (
              c.title
            )}
          </div>
        ))}
      </div>
      <div className="cmp-scroll" ref={scrollRef}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const r = rows[item.index];
            return (
              <div
                key={r.key}
                role="row"
                aria-rowindex={item.index + 2}
                aria-selected={r.key === selectedKey}
                tabIndex={0}
                className={`cmp-row status-${r.status} tone-${tone(r)}${r.key === selectedKey ? ' selected' : ''}`}
                style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
                onClick={() => onSelect(r.key)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    onSelect(r.key);
                  }
                }}
                data-testid="compare-row"
                data-status={r.status}
                data-name={r.label}
              >
                {COLUMNS.map((c) => (
                  <div key={c.title} role="cell" className={`cmp-cell ${c.className ?? ''}`} title={c.className === 'cmp-status' ? STATUS_TITLE[r.status] : undefined}>
                    {c.cell(r)}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
