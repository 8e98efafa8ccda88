/**
 * The events table: every range and mark of a capture, sortable by any column, filterable by text,
 * by column values and by a minimum duration, and in step with the timeline selection (clicking a
 * row selects and reveals the event; selecting on the timeline scrolls the table to its row).
 */
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { eventOf, eventSelection } from '../../analysis/eventIds.ts';
import { parseDuration } from '../../analysis/units.ts';
import { useViewer } from '../../state/context.tsx';
import { captureFilter } from '../../analysis/eventFilters.ts';
import { formatCount } from '../../format/numbers.ts';
import { formatDuration, formatTimestamp } from '../../format/time.ts';
import {
  cellText,
  columnValues,
  DEFAULT_TABLE_QUERY,
  eventRows,
  eventTableData,
  KIND_LABELS,
  type EventColumn,
  type EventTableData,
  type EventTableQuery,
  type ValueColumn,
} from './eventTable.ts';
import { useVirtualRows } from './useVirtualRows.ts';
import { ValueFilter } from './ValueFilter.tsx';

const ROW_PX = 22;
const FORMAT = { time: formatTimestamp, duration: formatDuration };

interface ColumnSpec {
  id: EventColumn;
  label: string;
  title: string;
  width: string;
  numeric?: boolean;
  filter?: ValueColumn;
  /** Shown only when the capture has something for it. */
  when?: (data: EventTableData) => boolean;
}

const COLUMNS: readonly ColumnSpec[] = [
  { id: 'start', label: 'Start', title: 'Start time from the capture start', width: '118px', numeric: true },
  { id: 'end', label: 'End', title: 'End time from the capture start', width: '118px', numeric: true },
  { id: 'duration', label: 'Duration', title: 'End minus start', width: '86px', numeric: true },
  { id: 'name', label: 'Name', title: 'Range or mark name', width: 'minmax(160px, 2fr)', filter: 'name' },
  { id: 'kind', label: 'Kind', title: 'PushPop / StartEnd range, API call, GPU work or mark', width: '86px', filter: 'kind' },
  { id: 'category', label: 'Category', title: 'NVTX category', width: 'minmax(90px, 1fr)', filter: 'category' },
  { id: 'domain', label: 'Domain', title: 'NVTX domain', width: 'minmax(80px, 0.8fr)', filter: 'domain', when: (d) => d.model.domains.some((x) => x.name !== '') },
  { id: 'thread', label: 'Thread', title: 'Thread the event was recorded on (a start/end range: where it started)', width: 'minmax(110px, 1fr)', filter: 'thread' },
  { id: 'endThread', label: 'End thread', title: 'Thread a start/end range ended on', width: 'minmax(100px, 1fr)', when: (d) => d.kind.includes(1) },
  { id: 'process', label: 'Process', title: 'Process of the thread', width: 'minmax(100px, 1fr)', filter: 'process', when: (d) => d.model.processes.length > 1 },
  { id: 'payload', label: 'Payload', title: 'Payload value (extended payloads summarised)', width: 'minmax(110px, 1.2fr)', when: (d) => d.model.payloads.type.length > 0 },
];

export function EventsPanel() {
  const captures = useViewer((s) => s.captures);
  const filters = useViewer((s) => s.filters);
  const selection = useViewer((s) => s.selection);
  const revealEvent = useViewer((s) => s.revealEvent);
  const [chosen, setChosen] = useState<number | null>(selection?.capture ?? null);
  // A selection in another capture brings the table to that capture.
  const selectedCapture = selection?.capture ?? null;
  useEffect(() => {
    if (selectedCapture !== null) setChosen(selectedCapture);
  }, [selectedCapture]);
  const capture = captures.find((c) => c.id === chosen) ?? captures[0];
  const model = capture?.model;

  const [query, setQuery] = useState<EventTableQuery>(DEFAULT_TABLE_QUERY);
  const [durationText, setDurationText] = useState('');
  const durationError = useMemo(() => {
    if (durationText.trim() === '') return '';
    try {
      parseDuration(durationText);
      return '';
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }, [durationText]);
  // Value filters name values of one model: they start over with another capture.
  const [hiddenFor, setHiddenFor] = useState<typeof capture | undefined>(capture);
  if (hiddenFor !== capture) {
    setHiddenFor(capture);
    setQuery((q) => ({ ...q, hidden: {} }));
  }
  const deferredQuery = useDeferredValue(query);

  const data = useMemo(() => (model ? eventTableData(model) : null), [model]);
  const filter = model ? captureFilter(model, filters) : null;
  const rows = useMemo(() => (data ? eventRows(data, deferredQuery, filter) : new Uint32Array(0)), [data, deferredQuery, filter]);
  const columns = useMemo(() => (data ? COLUMNS.filter((c) => !c.when || c.when(data)) : []), [data]);
  const template = columns.map((c) => c.width).join(' ');

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = useVirtualRows(scrollRef, rows.length, ROW_PX);
  const selectedEvent = model && capture && selection && selection.capture === capture.id ? eventOf(model, selection.kind, selection.index) : -1;
  const selectedRow = useMemo(() => (selectedEvent < 0 ? -1 : rows.indexOf(selectedEvent)), [rows, selectedEvent]);
  const { scrollToIndex } = virtual;
  useEffect(() => {
    if (selectedRow >= 0) scrollToIndex(selectedRow);
  }, [selectedRow, scrollToIndex]);

  const selectRow = useCallback(
    (row: number) => {
      if (!model || !capture || row < 0 || row >= rows.length) return;
      revealEvent(eventSelection(model, capture.id, rows[row]));
    },
    [model, capture, rows, revealEvent],
  );

  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    const steps: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: virtual.pageRows, PageUp: -virtual.pageRows };
    let target = -1;
    if (e.key in steps) target = Math.max(0, Math.min(rows.length - 1, (selectedRow < 0 ? virtual.first : selectedRow) + steps[e.key]));
    else if (e.key === 'Home') target = 0;
    else if (e.key === 'End') target = rows.length - 1;
    else return;
    e.preventDefault();
    selectRow(target);
  };

  if (!data || !capture) return <p className="panel-empty">Nothing loaded.</p>;
  const setSort = (column: EventColumn) =>
    setQuery((q) => ({
      ...q,
      sort: q.sort.column === column ? { column, descending: !q.sort.descending } : { column, descending: column === 'duration' },
    }));
  const hiddenCount = Object.values(query.hidden).reduce((n, set) => n + (set?.size ?? 0), 0);
  const filtered = query.text !== '' || hiddenCount > 0 || query.minDurationNs > 0;

  return (
    <div className="events-panel" data-testid="events-panel">
      <div className="panel-toolbar">
        {captures.length > 1 && (
          <select aria-label="Capture" value={capture.id} onChange={(e) => setChosen(Number(e.target.value))}>
            {captures.map((c) => (
              <option key={c.id} value={c.id}>
                {c.model.capture.displayName}
              </option>
            ))}
          </select>
        )}
        <input
          className="text-input"
          type="search"
          placeholder="Filter by name, category, thread…"
          aria-label="Filter events"
          value={query.text}
          onChange={(e) => setQuery((q) => ({ ...q, text: e.target.value }))}
        />
        <label className="duration-filter" title="Only events at least this long (e.g. 1.5ms, 200us)">
          ≥
          <input
            className="text-input"
            type="text"
            placeholder="duration"
            aria-label="Minimum duration"
            aria-invalid={durationError !== ''}
            value={durationText}
            onChange={(e) => {
              const text = e.target.value;
              setDurationText(text);
              let ns = 0;
              try {
                ns = text.trim() === '' ? 0 : parseDuration(text);
              } catch {
                return;
              }
              setQuery((q) => ({ ...q, minDurationNs: Math.max(0, ns) }));
            }}
          />
        </label>
        {filtered && (
          <button
            type="button"
            className="link"
            onClick={() => {
              setDurationText('');
              setQuery((q) => ({ ...DEFAULT_TABLE_QUERY, sort: q.sort }));
            }}
          >
            Clear filters
          </button>
        )}
        <div className="header-spacer" />
        <span className="panel-count" data-testid="events-count">
          {rows.length === data.count ? `${formatCount(data.count)} events` : `${formatCount(rows.length)} of ${formatCount(data.count)} events`}
        </span>
      </div>
      <div className="grid-table" role="grid" aria-label="Events" aria-rowcount={rows.length + 1} style={{ ['--grid-template' as string]: template }}>
        <div className="grid-head" role="row">
          {columns.map((c) => (
            <div key={c.id} role="columnheader" className={`grid-head-cell${c.numeric ? ' num' : ''}`} aria-sort={query.sort.column === c.id ? (query.sort.descending ? 'descending' : 'ascending') : 'none'}>
              <button type="button" className="sort-button" title={c.title} onClick={() => setSort(c.id)}>
                {c.label}
                <span className="sort-arrow">{query.sort.column === c.id ? (query.sort.descending ? '▼' : '▲') : ''}</span>
              </button>
              {c.filter && (
                <ValueFilter
                  label={c.label}
                  values={() => columnValues(data, c.filter!)}
                  hidden={query.hidden[c.filter]}
                  onChange={(hidden) => setQuery((q) => ({ ...q, hidden: { ...q.hidden, [c.filter!]: hidden } }))}
                />
              )}
            </div>
          ))}
        </div>
        <div className="grid-body" ref={scrollRef} tabIndex={0} onKeyDown={onKeyDown} aria-label="Event rows">
          <div style={{ height: virtual.contentPx, position: 'relative' }}>
            {rows.length === 0 && <p className="panel-empty">No events match the filters.</p>}
            {Array.from({ length: virtual.last - virtual.first }, (_, k) => {
              const row = virtual.first + k;
              const e = rows[row];
              return (
                <div
                  key={row}
                  role="row"
                  aria-rowindex={row + 2}
                  aria-selected={row === selectedRow}
                  className={`grid-row${row === selectedRow ? ' selected' : ''}${row % 2 ? ' odd' : ''}`}
                  style={{ transform: `translateY(${virtual.firstTopPx + k * ROW_PX}px)` }}
                  data-testid="event-row"
                  onClick={() => selectRow(row)}
                >
                  {columns.map((c) => {
                    const text = cellText(data, c.id, e, FORMAT);
                    return (
                      <div key={c.id} role="gridcell" className={`grid-cell${c.numeric ? ' num' : ''} col-${c.id}`} title={text}>
                        {c.id === 'kind' ? <span className={`kind-tag kind-${KIND_LABELS[data.kind[e]]}`}>{text}</span> : text}
                      </div>
                    );
                  })}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}
