/**
 * The range table (nsys `nvtx_sum` columns plus self time and P90/P99) for the scope, grouped by
 * name or another key, and the drill-down detail of one of its rows.
 */
import { useCallback, useMemo, useState, type CSSProperties } from 'react';
import { GROUP_BY_VALUES, type GroupBy } from '../../analysis/groups.ts';
import { useViewer } from '../../state/context.tsx';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import { formatCount } from '../../format/numbers.ts';
import { formatDuration } from '../../format/time.ts';
import { usePopover } from '../usePopover.ts';
import type { Grouping } from './compute.ts';
import { TableExport } from './TableExport.tsx';
import { rangeTableCsv, rangeTableJson, type ExportScope } from './exportTable.ts';
import { captureScope, selectedTrackCount, type PanelScope } from './panelScope.ts';
import { RangeDetail } from './RangeDetail.tsx';
import { SortableGrid, type GridColumn } from './SortableGrid.tsx';
import { cellText } from './cells.ts';
import type { StatsService } from './statsService.ts';
import {
  column,
  DEFAULT_FIGURES,
  figureTemplate,
  DEFAULT_SORT,
  FIGURE_COLUMNS,
  groupHeader,
  nextSort,
  shownFigures,
  sortRows,
  tableRows,
  tableTotals,
  type ColumnId,
  type StatsRow,
  type TableSort,
} from './tableModel.ts';
import { useStatsQuery } from './useStatsQuery.ts';

const GROUP_LABELS: Record<GroupBy, string> = {
  name: 'Name',
  family: 'Name, numbers folded (steps)',
  thread: 'Thread',
  process: 'Process',
  category: 'Category',
  domain: 'Domain',
  parent: 'Parent range',
  payload: 'Payload value',
};

function groupingValue(g: Grouping): string {
  return g.by === 'payloadField' ? `field:${g.path}` : g.by;
}

function parseGrouping(value: string): Grouping {
  return value.startsWith('field:') ? { by: 'payloadField', path: value.slice(6) } : { by: value as GroupBy };
}

export function exportScope(scope: PanelScope, captures: readonly LoadedCapture[]): ExportScope {
  const tracks = selectedTrackCount(scope.tracks, captures);
  if (scope.kind === 'span' && scope.span) return { kind: 'span', startNs: scope.span.startNs, endNs: scope.span.endNs, mode: scope.mode, tracks };
  return { kind: 'capture', tracks };
}

/** `subject`: what the table lists when it is not NVTX ranges ("GPU work", "API call"), for its name column. */
export function RangeTab({ service, scope, scopeKey, subject }: { service: StatsService; scope: PanelScope; scopeKey: string; subject?: string }) {
  const captures = useViewer((s) => s.captures);
  const [grouping, setGrouping] = useState<Grouping>({ by: 'name' });
  const [sort, setSort] = useState<TableSort>(DEFAULT_SORT);
  const [figures, setFigures] = useState<readonly ColumnId[]>(DEFAULT_FIGURES);
  const [openId, setOpenId] = useState<string | null>(null);

  const choices = useStatsQuery(service, captures, 'payloadChoices', () => ({ kind: 'payloadChoices' }), '');
  const fields = useMemo(() => {
    const all = new Set<string>();
    for (const c of choices.results?.values() ?? []) for (const f of c.fields) all.add(f);
    return [...all];
  }, [choices.results]);
  const hasValues = [...(choices.results?.values() ?? [])].some((c) => c.values);

  const groupingKey = groupingValue(grouping);
  const requestFor = useCallback(
    (c: LoadedCapture) => ({ kind: 'ranges' as const, scope: captureScope(scope, c), grouping }),
    // scopeKey and groupingKey stand for scope and grouping.
    [scopeKey, groupingKey],
  );
  const table = useStatsQuery(service, captures, 'ranges', requestFor, `${scopeKey}|${groupingKey}`);
  const rows = useMemo(() => {
    const out: StatsRow[] = [];
    for (const c of captures) {
      const result = table.results?.get(c.id);
      if (result) out.push(...tableRows({ id: c.id, file: c.model.capture.displayName }, result));
    }
    return out;
  }, [captures, table.results]);
  const sorted = useMemo(() => sortRows(rows, sort), [rows, sort]);
  const multi = captures.length > 1;

  const open = openId === null ? null : { id: openId, row: sorted.find((r) => r.id === openId) };
  if (open) {
    const index = sorted.findIndex((r) => r.id === open.id);
    return (
      <RangeDetail
        key={`${open.id}|${groupingKey}`}
        rowId={open.id}
        row={open.row}
        grouping={grouping}
        scope={scope}
        scopeKey={scopeKey}
        service={service}
        onBack={() => setOpenId(null)}
        position={index >= 0 ? { index, count: sorted.length } : null}
        onStep={(delta) => {
          if (index < 0) return;
          const next = sorted[index + delta];
          if (next) setOpenId(next.id);
        }}
      />
    );
  }

  const totals = tableTotals(rows);
  return (
    <div className="st-ranges">
      <div className="st-toolbar">
        <label className="st-field">
          <span>Group by</span>
          <select value={groupingKey} onChange={(e) => setGrouping(parseGrouping(e.target.value))} data-testid="group-by">
            {GROUP_BY_VALUES.filter((g) => g !== 'payload' || hasValues).map((g) => (
              <option key={g} value={g}>
                {GROUP_LABELS[g]}
              </option>
            ))}
            {fields.length > 0 && (
              <optgroup label="Payload field">
                {fields.map((f) => (
                  <option key={f} value={`field:${f}`}>
                    {f}
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        </label>
        <div className="st-toolbar-end">
          <ColumnMenu figures={figures} onChange={setFigures} />
          <TableExport
            what="range table"
            rows={sorted.length}
            fileStem={`nvtx-ranges-by-${grouping.by === 'payloadField' ? 'payload-field' : grouping.by}`}
            csv={() => rangeTableCsv(sorted, grouping, multi, subject)}
            json={() => rangeTableJson(sorted, grouping, exportScope(scope, captures))}
          />
        </div>
      </div>
      {table.error && (
        <p className="st-error" role="alert">
          {table.error}
        </p>
      )}
      {sorted.length === 0 && table.results ? (
        <p className="panel-hint">{scope.kind === 'span' ? 'No ranges in this span.' : 'No ranges in scope.'}</p>
      ) : (
        <RangeGrid
          rows={sorted}
          grouping={grouping}
          subject={subject}
          sort={sort}
          figures={shownFigures(figures, sorted)}
          busy={table.pending}
          multi={multi}
          onSort={(id) => setSort(nextSort(sort, id))}
          onOpen={(row) => setOpenId(row.id)}
        />
      )}
      <p className="st-status" aria-live="polite">
        <span>
          {formatCount(sorted.length)} {sorted.length === 1 ? 'row' : 'rows'} · {formatCount(totals.instances)} instances · {formatDuration(totals.totalNs)}
          {totals.unended > 0 && (
            <span className="st-unended" title="Ranges still open at the end of the capture: their end is unknown, so they are counted here and in no total, mean or percentile" data-testid="unended-total">
              {' '}
              · {formatCount(totals.unended)} never ended (not in the figures)
            </span>
          )}
        </span>
        <span className={`st-busy${table.pending ? ' on' : ''}`} title={table.where ? `computed in ${table.ms.toFixed(0)} ms (${table.where === 'worker' ? 'statistics worker' : 'page'})` : undefined}>
          {table.pending ? 'computing…' : table.where === 'worker' ? `${table.ms.toFixed(0)} ms in worker` : ''}
        </span>
      </p>
    </div>
  );
}

function RangeGrid({
  rows,
  grouping,
  subject,
  sort,
  figures,
  busy,
  multi,
  onSort,
  onOpen,
}: {
  rows: StatsRow[];
  grouping: Grouping;
  subject?: string;
  sort: TableSort;
  figures: readonly ColumnId[];
  busy: boolean;
  multi: boolean;
  onSort(id: ColumnId): void;
  onOpen(row: StatsRow): void;
}) {
  // Same-named ranges of two kinds (push/pop and start/end) get a style tag to tell them apart.
  const labels = useMemo(() => {
    const m = new Map<string, number>();
    for (const r of rows) m.set(r.label, (m.get(r.label) ?? 0) + 1);
    return m;
  }, [rows]);
  const template = figureTemplate(figures);
  const style = {
    '--st-wide': template.wide,
    '--st-narrow': template.narrow,
    '--st-min': `${template.widePx}px`,
    '--st-narrow-min': `${template.narrowMinPx}px`,
  } as CSSProperties;
  // Share bars are relative to the largest share listed, so small shares still read.
  const maxShare = rows.reduce((m, r) => Math.max(m, r.timePercent), 0) || 1;
  const columns: GridColumn<StatsRow>[] = [
    {
      id: 'label',
      header: groupHeader(grouping, subject),
      title: column('label').title,
      className: column('label').kind === 'text' ? 'name' : 'name num',
      cellClassName: ' name',
      cell: (r) => (
        <>
          <span className="st-name" title={r.label}>
            {r.label}
          </span>
          {(labels.get(r.label) ?? 0) > 1 && !figures.includes('style') && <span className="tag">{r.style}</span>}
          {multi && <span className="st-file">{r.file}</span>}
        </>
      ),
    },
    ...figures.map(
      (id): GridColumn<StatsRow> => ({
        id,
        header: column(id).header,
        title: column(id).title,
        className: column(id).kind === 'text' ? '' : 'num',
        cellClassName: `${column(id).kind === 'text' ? '' : ' num'}${id === 'timePercent' ? ' pct' : ''}`,
        cell: (r) => cellText(r, id),
        cellStyle: id === 'timePercent' ? (r) => ({ '--pct': `${(100 * r.timePercent) / maxShare}%` }) as CSSProperties : undefined,
      }),
    ),
  ];
  return (
    <SortableGrid
      label="Range statistics"
      rows={rows}
      rowKey={(r) => r.id}
      columns={columns}
      sort={{ id: sort.column, descending: sort.descending }}
      onSort={(id) => onSort(id as ColumnId)}
      busy={busy}
      style={style}
      onOpen={onOpen}
      openTitle="Open the distribution of this row"
      testId="range-table"
      rowTestId="stats-row"
    />
  );
}

function ColumnMenu({ figures, onChange }: { figures: readonly ColumnId[]; onChange(next: readonly ColumnId[]): void }) {
  const { open, setOpen, ref } = usePopover();
  const toggle = (id: ColumnId) => {
    const on = figures.includes(id);
    // Keep the table's column order (nsys order) whatever the clicking order.
    onChange(FIGURE_COLUMNS.filter((c) => (c === id ? !on : figures.includes(c))));
  };
  return (
    <div className="popover-anchor" ref={ref}>
      <button type="button" className="button small" aria-expanded={open} aria-haspopup="dialog" onClick={() => setOpen(!open)} title="Choose the columns">
        Columns ▾
      </button>
      {open && (
        <div className="popover st-columns" role="dialog" aria-label="Columns">
          {FIGURE_COLUMNS.map((id) => (
            <label key={id} className="st-check" title={column(id).title}>
              <input type="checkbox" checked={figures.includes(id)} onChange={() => toggle(id)} />
              {column(id).csvHeader.replace(' (ns)', '')}
            </label>
          ))}
          <button type="button" className="link" onClick={() => onChange(DEFAULT_FIGURES)}>
            Defaults
          </button>
        </div>
      )}
    </div>
  );
}
