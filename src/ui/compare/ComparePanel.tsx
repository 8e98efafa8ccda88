/**
 * The comparison tab: pick a baseline (A) and a candidate (B) among the loaded captures, see per
 * name (or other grouping) what changed, with changes inside the runs' noise marked as such; a
 * row opens both duration histograms on one axis and the slowest instance of each.
 */
import { useEffect, useMemo, useState, type CSSProperties } from 'react';
import { GROUP_BY_TITLE, GROUP_BY_VALUES, type GroupBy } from '../../analysis/groups.ts';
import type { CompareResult, CompareRow } from '../../analysis/compare/index.ts';
import { formatCountChange, formatDurationChange, formatRelativeChange } from '../../format/change.ts';
import { formatCount } from '../../format/numbers.ts';
import { formatDurationShort } from '../../format/time.ts';
import { useViewer } from '../../state/context.tsx';
import type { Model } from '../../model/types.ts';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import { SortableGrid, type GridColumn } from '../stats/SortableGrid.tsx';
import { useStatsService } from '../stats/useStatsService.ts';
import '../stats/stats.css';
import { byOpenOrder } from '../loadController.ts';
import { COMPARE_DROP } from '../useFileDrop.ts';
import { CompareDetail } from './CompareDetail.tsx';
import { compareOptions } from './compareOptions.ts';
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

function isSortKey(id: string): id is CompareSortKey {
  return SORT_KEYS.has(id);
}
const SORT_KEYS: ReadonlySet<string> = new Set<CompareSortKey>(['label', 'status', 'totalA', 'totalB', 'change', 'relChange', 'medianChange', 'p99Change']);

function column(id: string, header: string, title: string, cell: (r: CompareRow) => string): GridColumn<CompareRow> {
  return { id, header, title, className: 'num', cell, sortable: isSortKey(id) };
}

const COLUMNS: readonly GridColumn<CompareRow>[] = [
  {
    id: 'label',
    header: 'Name',
    title: 'Name (or other grouping)',
    className: 'name',
    sortable: true,
    cell: (r) => (
      <span className="st-name" title={r.label}>
        {r.label}
      </span>
    ),
  },
  { id: 'status', header: 'Status', title: 'What changed, and whether it stands out of the noise', className: 'cmp-status', sortable: true, cell: (r) => STATUS_LABEL[r.status], cellTitle: (r) => STATUS_TITLE[r.status] },
  column('countA', 'Count A', 'Instances in the baseline (A)', (r) => (r.base ? formatCount(r.base.count) : '–')),
  column('countB', 'Count B', 'Instances in the candidate (B)', (r) => (r.candidate ? formatCount(r.candidate.count) : '–')),
  column('totalA', 'Total A', 'Total time in the baseline (A)', (r) => (r.base ? formatDurationShort(r.base.totalNs) : '–')),
  column('totalB', 'Total B', 'Total time in the candidate (B)', (r) => (r.candidate ? formatDurationShort(r.candidate.totalNs) : '–')),
  column('change', 'Δ Total', 'Change of total time (the default order)', (r) => formatDurationChange(r.change.total.abs, false, 3)),
  column('relChange', 'Δ%', 'Relative change of total time', (r) => pct(r, 'total')),
  column('meanChange', 'Mean Δ%', 'Relative change of the mean duration', (r) => pct(r, 'mean')),
  column('medianChange', 'Med Δ%', 'Relative change of the median duration', (r) => pct(r, 'median')),
  column('p90Change', 'P90 Δ%', 'Relative change of the 90th percentile duration', (r) => pct(r, 'p90')),
  column('p99Change', 'P99 Δ%', 'Relative change of the 99th percentile duration', (r) => pct(r, 'p99')),
  column('countChange', 'Δ Count', 'Change of the number of instances', (r) => formatCountChange(r.change.count.abs)),
];

/** The grid's column template (stats.css): the name wide, the status fixed, the figures even. */
const GRID_STYLE = {
  '--st-name': '110px',
  '--st-wide': '100px repeat(11, minmax(68px, 0.5fr))',
  '--st-min': '848px',
  '--st-narrow': '100px repeat(11, minmax(68px, 1fr))',
  '--st-narrow-min': '848px',
} as CSSProperties;

export function ComparePanel() {
  const captures = useViewer((s) => s.captures);
  const compare = useViewer((s) => s.compare);
  const setCompare = useViewer((s) => s.setCompare);
  const filters = useViewer((s) => s.filters);
  const [sort, setSort] = useState<CompareSort>(DEFAULT_COMPARE_SORT);

  // In the order the files were opened: the default A is the first, B the second.
  const ready = useMemo(() => captures.filter((c) => !c.partial).sort(byOpenOrder), [captures]);
  const loads = useViewer((s) => s.loads);
  const base = ready.find((c) => c.id === compare?.base) ?? ready[0];
  const candidate = ready.find((c) => c.id === compare?.candidate) ?? ready.find((c) => c !== base);
  const groupBy: GroupBy = compare?.groupBy ?? 'name';
  const rowKey = compare?.row ?? null;

  // Keyed on the models, not the capture entries: moving a capture on the axis changes nothing here.
  const baseModel = base?.model;
  const candidateModel = candidate?.model;
  // Large pairs are compared in the statistics worker (a 10M pair takes a second or two), small
  // ones on the page after the tab has painted: either way "Comparing…" shows at once.
  // The statistics panel's service: the worker's copies of the models serve both.
  const service = useStatsService();
  useEffect(() => service.sync(captures), [service, captures]);
  const [computed, setComputed] = useState<{ inputs: unknown[]; result: CompareResult } | null>(null);
  const [failure, setFailure] = useState<{ inputs: unknown[]; message: string } | null>(null);
  const baseId = base?.id;
  const candidateId = candidate?.id;
  const inputs = [baseModel, candidateModel, groupBy, filters];
  const same = (other: unknown[]) => other.every((x, i) => x === inputs[i]);
  const current = computed && same(computed.inputs) ? computed.result : null;
  const failed = failure && same(failure.inputs) ? failure.message : null;
  useEffect(() => {
    if (!baseModel || !candidateModel || baseId === undefined || candidateId === undefined || current) return;
    // Cleared when the inputs change: an answer for older inputs is dropped.
    let live = true;
    const timer = setTimeout(() => {
      const scope = (model: Model) => compareOptions(model, filters, groupBy);
      const asked = [baseModel, candidateModel, groupBy, filters];
      service.compare({ id: baseId, model: baseModel }, { id: candidateId, model: candidateModel }, scope(baseModel), scope(candidateModel), 'compare').then(
        (answer) => {
          if (live && answer) setComputed({ inputs: asked, result: answer.result });
        },
        (e: unknown) => {
          if (live) setFailure({ inputs: asked, message: e instanceof Error ? e.message : String(e) });
        },
      );
    }, 0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [service, baseId, candidateId, baseModel, candidateModel, groupBy, filters]);
  const result = current;
  const rows = useMemo(() => (result ? sortCompareRows(result.rows, sort) : []), [result, sort]);

  if (ready.length < 2 || !base || !candidate) {
    return (
      <div className="cmp-panel cmp-empty" data-testid="compare-panel">
        {loads.length > 0 ? (
          <p data-testid="compare-waiting">
            Loading {loads.map((l) => l.name).join(', ')}: the comparison follows once {ready.length + loads.length >= 2 ? 'both are' : 'it is'} loaded.
          </p>
        ) : (
          <p>Load a second capture to compare two runs: what got slower, where, and whether it stands out of the noise.</p>
        )}
        <div className="compare-drop" {...COMPARE_DROP} data-testid="compare-panel-drop">
          Drop {ready.length === 1 ? `a capture here to compare it (B) with ${ready[0].model.capture.fileName} (A)` : 'two captures here: the first is A (baseline), the second B'}.
        </div>
      </div>
    );
  }
  const update = (patch: Partial<{ base: number; candidate: number; groupBy: GroupBy; row: string | null }>) =>
    setCompare({ base: base.id, candidate: candidate.id, groupBy, row: rowKey, ...patch });
  const selected = rows.find((r) => r.key === rowKey) ?? null;

  return (
    <div className="cmp-panel" data-testid="compare-panel">
      <div className="cmp-toolbar">
        <CaptureSelect label="A (baseline)" value={base.id} captures={ready} onPick={(id) => update({ base: id, row: null })} testId="compare-base" />
        <button type="button" className="button small" title="Swap baseline and candidate" onClick={() => update({ base: candidate.id, candidate: base.id })} data-testid="compare-swap">
          ⇄
        </button>
        <CaptureSelect label="B (candidate)" value={candidate.id} captures={ready} onPick={(id) => update({ candidate: id, row: null })} testId="compare-candidate" />
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
          {failed ? `Comparison failed: ${failed}` : !result ? 'Comparing…' : base === candidate ? 'A and B are the same capture' : compareSummary(result)}
        </span>
      </div>
      <div className="cmp-body">
        <CompareRows rows={rows} sort={sort} onSort={setSort} selectedKey={rowKey} onSelect={(key) => update({ row: key === rowKey ? null : key })} />
        {selected && result && <CompareDetail result={result} row={selected} base={base} candidate={candidate} service={service} />}
      </div>
    </div>
  );
}


/** One side's capture picker. */
function CaptureSelect({
  label,
  value,
  captures,
  onPick,
  testId,
}: {
  label: string;
  value: number;
  captures: readonly LoadedCapture[];
  onPick(id: number): void;
  testId: string;
}) {
  return (
    <label>
      {label}{' '}
      <select value={value} onChange={(e) => onPick(Number(e.target.value))} data-testid={testId}>
        {captures.map((c) => (
          <option key={c.id} value={c.id}>
            {captureName(c, captures)}
          </option>
        ))}
      </select>
    </label>
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
  return (
    <SortableGrid
      label="Comparison"
      className="cmp-table"
      rows={rows}
      rowKey={(r) => r.key}
      columns={COLUMNS}
      sort={{ id: sort.key, descending: sort.descending }}
      // A new column sorts largest first, except the name.
      onSort={(id) => {
        if (isSortKey(id)) onSort({ key: id, descending: sort.key === id ? !sort.descending : id !== 'label' });
      }}
      busy={false}
      style={GRID_STYLE}
      onOpen={(r) => onSelect(r.key)}
      selectedKey={selectedKey}
      rowClassName={(r) => `status-${r.status} tone-${tone(r)}`}
      rowData={(r) => ({ 'data-status': r.status, 'data-name': r.label })}
      testId="compare-table"
      rowTestId="compare-row"
    />
  );
}
