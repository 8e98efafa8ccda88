/** The counters tab: per counter row in the scope, min, max, time-weighted average, first, last, delta and rate. */
import { useCallback, useMemo } from 'react';
import { useViewer } from '../../state/context.tsx';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import { formatPlain, formatValue } from '../../format/numbers.ts';
import { counterRowDetail, rowByteScale } from './cells.ts';
import { counterTableCsv, counterTableJson, type CounterExportRow } from './exportTable.ts';
import { FigureTable, type FigureColumn } from './FigureTable.tsx';
import { captureScope, type PanelScope } from './panelScope.ts';
import { exportScope } from './RangeTab.tsx';
import type { StatsService } from './statsService.ts';
import { TableExport } from './TableExport.tsx';
import { useStatsQuery } from './useStatsQuery.ts';

interface CounterRow extends CounterExportRow {
  capture: number;
}

const NAME: FigureColumn<CounterRow> = { id: 'label', header: 'Counter', title: 'Counter row', value: (r) => r.label, text: (r) => r.label };

/**
 * A figure column. Its header tooltip says what it means for counters of values and for counters of
 * changes ('delta' rows, see src/analysis/counterStats.ts). Cells hold the number alone (the row's
 * unit is on its name line, so that figures fit a narrow panel; a row of byte counts is shown in
 * one binary unit, MiB say, named there); a cell's tooltip has the value
 * with its unit and, on a delta row, what it means there.
 */
const figure = (id: keyof CounterRow & string, header: string, levels: string, changes: string, suffix = ''): FigureColumn<CounterRow> => ({
  id,
  header,
  title: `${levels}; on a counter of changes: ${changes.toLowerCase()}`,
  value: (r) => r[id] as number,
  // A row of byte counts shows its figures in one binary unit, named on its name line (rowByteScale).
  text: (r) => {
    const scale = rowByteScale(r);
    return `${scale ? formatPlain((r[id] as number) / scale[0]) : formatValue(r[id] as number)}${suffix}`;
  },
  cellTitle: (r) => {
    const value = `${formatValue(r[id] as number, r.unit)}${suffix}`;
    return r.valueType === 'delta' ? `${changes}: ${value}` : value;
  },
});

const FIGURES: FigureColumn<CounterRow>[] = [
  figure('min', 'Min', 'Smallest value in effect in the scope', 'Smallest change in the scope'),
  figure('max', 'Max', 'Largest value in effect in the scope', 'Largest change in the scope'),
  figure('average', 'Avg', 'Time-weighted average of the value, over the time it has one', 'Mean change per sample'),
  figure('first', 'First', 'Value at the start of the scope', 'First change in the scope'),
  figure('last', 'Last', 'Value at the end of the scope', 'Last change in the scope'),
  figure('delta', 'Δ', 'Last minus first', 'Sum of the changes in the scope'),
  figure('ratePerSecond', 'Rate/s', 'Δ per second between the first and the last value', 'Sum of the changes per second of the time they accrued over', '/s'),
];

export function CounterTable({ service, scope, scopeKey }: { service: StatsService; scope: PanelScope; scopeKey: string }) {
  const captures = useViewer((s) => s.captures);
  const requestFor = useCallback((c: LoadedCapture) => ({ kind: 'counters' as const, scope: captureScope(scope, c) }), [scopeKey]);
  const query = useStatsQuery(service, captures, 'counters', requestFor, scopeKey);
  const multi = captures.length > 1;
  const rows = useMemo(() => {
    const out: CounterRow[] = [];
    for (const c of captures) {
      for (const r of query.results?.get(c.id) ?? []) {
        const info = c.model.tracks[r.track]?.counter;
        const derivedFrom = info?.derived === 'runningTotal' ? info.source : undefined;
        out.push({ ...r, capture: c.id, file: c.model.capture.displayName, ...(derivedFrom ? { derivedFrom } : {}) });
      }
    }
    return out;
  }, [captures, query.results]);
  const name = useMemo(
    () => ({ ...NAME, detail: (r: CounterRow) => counterRowDetail(r, multi ? r.file : undefined) }),
    [multi],
  );
  return (
    <div className="st-ranges">
      <div className="st-toolbar">
        <span className="muted">Counter rows in the scope</span>
        <div className="st-toolbar-end">
          <TableExport
            what="counter table"
            rows={rows.length}
            fileStem="nvtx-counters"
            csv={() => counterTableCsv(rows, multi)}
            json={() => counterTableJson(rows, exportScope(scope, captures))}
          />
        </div>
      </div>
      {rows.length === 0 && query.results ? (
        <p className="panel-hint">No counters in scope.</p>
      ) : (
        <FigureTable
          label="Counters"
          rows={rows}
          rowKey={(r) => `${r.capture}|${r.track}`}
          name={name}
          figures={FIGURES}
          defaultSort={{ id: 'label', descending: false }}
          busy={query.pending}
          testId="counter-table"
        />
      )}
    </div>
  );
}
