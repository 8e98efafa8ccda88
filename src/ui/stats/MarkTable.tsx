/** The marks tab: marks per name in the scope, with the first and last time; a row shows its first mark. */
import { useCallback, useMemo } from 'react';
import { useViewer } from '../../state/context.tsx';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import { formatCount } from '../../format/numbers.ts';
import { formatTimestamp } from '../../format/time.ts';
import { markTableCsv, markTableJson, type MarkExportRow } from './exportTable.ts';
import { FigureTable, type FigureColumn } from './FigureTable.tsx';
import { captureScope, type PanelScope } from './panelScope.ts';
import { exportScope } from './RangeTab.tsx';
import type { StatsService } from './statsService.ts';
import { TableExport } from './TableExport.tsx';
import { useStatsQuery } from './useStatsQuery.ts';

interface MarkRow extends MarkExportRow {
  capture: number;
}

const NAME: FigureColumn<MarkRow> = { id: 'label', header: 'Mark', title: 'domain:name', value: (r) => r.label, text: (r) => r.label };

const FIGURES: FigureColumn<MarkRow>[] = [
  { id: 'count', header: 'Count', title: 'Marks in scope', value: (r) => r.count, text: (r) => formatCount(r.count) },
  { id: 'first', header: 'First', title: 'Time of the first one (from the capture start)', value: (r) => r.firstNs, text: (r) => formatTimestamp(r.firstNs) },
  { id: 'last', header: 'Last', title: 'Time of the last one', value: (r) => r.lastNs, text: (r) => formatTimestamp(r.lastNs) },
];

export function MarkTable({ service, scope, scopeKey }: { service: StatsService; scope: PanelScope; scopeKey: string }) {
  const captures = useViewer((s) => s.captures);
  const revealEvent = useViewer((s) => s.revealEvent);
  const requestFor = useCallback((c: LoadedCapture) => ({ kind: 'marks' as const, scope: captureScope(scope, c) }), [scopeKey]);
  const query = useStatsQuery(service, captures, 'marks', requestFor, scopeKey);
  const multi = captures.length > 1;
  const rows = useMemo(() => {
    const out: MarkRow[] = [];
    for (const c of captures) {
      const file = c.model.capture.displayName;
      // Fields named one by one: a spread per row is slow in V8 for tables of 100k names.
      for (const r of query.results?.get(c.id)?.rows ?? []) {
        out.push({ key: r.key, label: r.label, name: r.name, domain: r.domain, count: r.count, firstNs: r.firstNs, lastNs: r.lastNs, firstMark: r.firstMark, capture: c.id, file });
      }
    }
    return out;
  }, [captures, query.results]);
  const name = useMemo(() => (multi ? { ...NAME, detail: (r: MarkRow) => r.file } : NAME), [multi]);
  const total = rows.reduce((n, r) => n + r.count, 0);
  return (
    <div className="st-ranges">
      <div className="st-toolbar">
        <span className="muted">Marks per name in the scope</span>
        <div className="st-toolbar-end">
          <TableExport
            what="mark table"
            rows={rows.length}
            fileStem="nvtx-marks"
            csv={() => markTableCsv(rows, multi)}
            json={() => markTableJson(rows, exportScope(scope, captures))}
          />
        </div>
      </div>
      {rows.length === 0 && query.results ? (
        <p className="panel-hint">No marks in scope.</p>
      ) : (
        <FigureTable
          label="Marks by name"
          rows={rows}
          rowKey={(r) => `${r.capture}|${r.key}`}
          name={name}
          figures={FIGURES}
          defaultSort={{ id: 'count', descending: true }}
          busy={query.pending}
          onOpen={(r) => revealEvent({ kind: 'mark', capture: r.capture, index: r.firstMark })}
          openTitle="Show the first one on the timeline"
          testId="mark-table"
        />
      )}
      <p className="st-status">
        <span>
          {formatCount(rows.length)} names · {formatCount(total)} marks
        </span>
      </p>
    </div>
  );
}
