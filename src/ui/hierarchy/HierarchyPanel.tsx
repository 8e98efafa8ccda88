/**
 * The push/pop hierarchy of one thread as a tree table with the columns of `nsys stats
 * nvtx_pushpop_trace`, colored by depth. Keyboard (focus the rows): Up/Down/Home/End/PageUp/
 * PageDown move, Right opens a node or goes to its first child, Left closes or goes to the parent,
 * `*` opens the whole subtree, `/` closes it, Enter zooms the timeline to the range. The focused
 * row is the timeline selection, and a range selected elsewhere is shown and focused here.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { rangeName, trackOfRange } from '../../model/query.ts';
import { useViewer } from '../../state/context.tsx';
import { captureFilter } from '../../analysis/eventFilters.ts';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import { formatCount } from '../../format/numbers.ts';
import { formatDuration, formatTimestamp } from '../../format/time.ts';
import { useVirtualRows } from '../events/useVirtualRows.ts';
import { busiestThread, threadRows, type ThreadRow } from './threadRows.ts';
import {
  ancestors,
  childCount,
  flattenTree,
  HIERARCHY_KEYS,
  hierarchyKey,
  initialView,
  pushPopRow,
  pushPopTree,
  revealInView,
  shownChildren,
  type HierarchyKey,
  type HierarchyView,
  type PushPopTree,
} from './hierarchy.ts';

const ROW_PX = 22;
const INDENT_PX = 14;

const TEMPLATE = 'minmax(240px, 2.2fr) 112px 112px 84px 84px 96px 40px 80px minmax(160px, 1.5fr)';
const HEADERS: { label: string; title: string; num?: boolean }[] = [
  { label: 'Name', title: 'Range name, nested by the push/pop stack' },
  { label: 'Start', title: 'Start time from the capture start', num: true },
  { label: 'End', title: 'End time from the capture start', num: true },
  { label: 'Duration', title: 'End minus start', num: true },
  { label: 'DurChild', title: 'Time of the direct children', num: true },
  { label: 'DurNonChild', title: 'Duration minus DurChild (self time)', num: true },
  { label: 'Lvl', title: 'Stack depth (0 at the top)', num: true },
  { label: 'NumChild', title: 'Direct children', num: true },
  { label: 'Range stack', title: 'The enclosing ranges, outermost first' },
];

/** A sequential hue ramp from the top of the stack (blue) to the deepest level (orange). */
function depthColor(level: number, maxDepth: number): string {
  const t = maxDepth > 0 ? Math.min(1, level / maxDepth) : 0;
  return `hsl(${Math.round(212 - t * 186)} 70% 52%)`;
}

export function HierarchyPanel() {
  const captures = useViewer((s) => s.captures);
  const filters = useViewer((s) => s.filters);
  const selection = useViewer((s) => s.selection);
  const select = useViewer((s) => s.select);
  const revealEvent = useViewer((s) => s.revealEvent);

  const threads = useMemo(
    () => threadRows(captures, (c, track) => captureFilter(c.model, filters)?.hiddenTracks[track] === 1),
    [captures, filters],
  );
  const [chosen, setChosen] = useState<{ captureId: number; track: number } | null>(null);
  // A selected push/pop range brings its thread here.
  const selectedTrack = useMemo(() => {
    if (!selection || selection.kind !== 'range') return null;
    const c = captures.find((x) => x.id === selection.capture);
    if (!c) return null;
    const track = trackOfRange(c.model, selection.index);
    return track >= 0 && c.model.tracks[track].kind === 'pushpop' ? { captureId: c.id, track } : null;
  }, [captures, selection]);
  const selectedKey = selectedTrack ? `${selectedTrack.captureId}/${selectedTrack.track}` : '';
  useEffect(() => {
    if (selectedKey === '') return;
    const [captureId, track] = selectedKey.split('/').map(Number);
    setChosen({ captureId, track });
  }, [selectedKey]);
  const current = threads.find((t) => t.captureId === chosen?.captureId && t.track === chosen?.track) ?? busiestThread(threads);
  const capture = current ? captures.find((c) => c.id === current.captureId) : undefined;

  if (!current || !capture) {
    return <p className="panel-empty">No push/pop ranges{filters.hidden.length > 0 ? ' left by the filters' : ''}: the hierarchy shows the push/pop stacks of threads.</p>;
  }
  return (
    <HierarchyTable
      key={`${current.captureId}/${current.track}`}
      capture={capture}
      track={current.track}
      threads={threads}
      current={current}
      onChoose={setChosen}
      selectedRange={selection && selection.kind === 'range' && selection.capture === capture.id ? selection.index : -1}
      onSelect={(index) => select({ kind: 'range', capture: capture.id, index })}
      onReveal={(index) => revealEvent({ kind: 'range', capture: capture.id, index })}
    />
  );
}

interface TableProps {
  capture: LoadedCapture;
  track: number;
  threads: ThreadRow[];
  current: ThreadRow;
  onChoose(row: { captureId: number; track: number }): void;
  selectedRange: number;
  onSelect(range: number): void;
  onReveal(range: number): void;
}

function HierarchyTable({ capture, track, threads, current, onChoose, selectedRange, onSelect, onReveal }: TableProps) {
  const model = capture.model;
  const filters = useViewer((s) => s.filters);
  const filter = captureFilter(model, filters);
  const tree = useMemo(() => pushPopTree(model, track), [model, track]);
  const [view, setView] = useState<HierarchyView>(() => {
    const start = initialView(tree, filter);
    return selectedRange >= tree.begin && selectedRange < tree.end ? revealInView(tree, start, selectedRange, filter) : start;
  });
  // The filters changed: same expansion, rows again.
  const [viewFilter, setViewFilter] = useState(filter);
  if (viewFilter !== filter) {
    setViewFilter(filter);
    setView((v) => ({ ...v, rows: flattenTree(tree, v.expanded, filter) }));
  }
  // A range selected elsewhere (timeline, table, search) is opened up to and focused.
  useEffect(() => {
    if (selectedRange >= tree.begin && selectedRange < tree.end) {
      setView((v) => (v.focus === selectedRange && v.rows.includes(selectedRange) ? v : revealInView(tree, v, selectedRange, filter)));
    }
  }, [selectedRange, tree, filter]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = useVirtualRows(scrollRef, view.rows.length, ROW_PX);
  const focusRow = useMemo(() => view.rows.indexOf(view.focus), [view]);
  const { scrollToIndex } = virtual;
  useEffect(() => {
    if (focusRow >= 0) scrollToIndex(focusRow);
  }, [focusRow, scrollToIndex]);

  const toggle = useCallback(
    (range: number) => {
      setView((v) => {
        const focused = { ...v, focus: range };
        const open = v.expanded[range - tree.begin] === 1;
        return hierarchyKey(tree, focused, open ? 'ArrowLeft' : 'ArrowRight', filter);
      });
    },
    [tree, filter],
  );

  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      if (view.focus >= 0) onReveal(view.focus);
      return;
    }
    if (!HIERARCHY_KEYS.includes(e.key) || e.ctrlKey || e.metaKey || e.altKey) return;
    // The keys belong to the tree here: not to the timeline or the page.
    e.preventDefault();
    const next = hierarchyKey(tree, view, e.key as HierarchyKey, filter, virtual.pageRows);
    setView(next);
    if (next.focus !== view.focus && next.focus >= 0) onSelect(next.focus);
  };

  const t = model.tracks[track];
  return (
    <div className="hierarchy-panel" data-testid="hierarchy-panel">
      <div className="panel-toolbar">
        <select
          aria-label="Thread"
          value={`${current.captureId}/${current.track}`}
          onChange={(e) => {
            const [captureId, tr] = e.target.value.split('/').map(Number);
            onChoose({ captureId, track: tr });
          }}
        >
          {threads.map((r) => (
            <option key={`${r.captureId}/${r.track}`} value={`${r.captureId}/${r.track}`}>
              {r.label}
            </option>
          ))}
        </select>
        <span className="panel-count">
          {formatCount(t.rangeEnd - t.rangeBegin)} ranges · depth {tree.maxDepth + 1}
        </span>
        <div className="header-spacer" />
        <span className="panel-hint-keys" title="Keyboard, with the rows focused">
          → open · ← close · * open all · / close all · Enter zoom
        </span>
      </div>
      <div className="grid-table" role="treegrid" aria-label="Push/pop hierarchy" style={{ ['--grid-template' as string]: TEMPLATE, ['--grid-min-width' as string]: '1120px' }}>
        <div className="grid-head" role="row">
          {HEADERS.map((h) => (
            <div key={h.label} role="columnheader" className={`grid-head-cell${h.num ? ' num' : ''}`} title={h.title}>
              <span className="sort-button">{h.label}</span>
            </div>
          ))}
        </div>
        <div className="grid-body" ref={scrollRef} tabIndex={0} onKeyDown={onKeyDown} data-testid="hierarchy-rows" aria-activedescendant={view.focus >= 0 ? `hier-${view.focus}` : undefined}>
          <div style={{ height: virtual.contentPx, position: 'relative' }}>
            {Array.from({ length: virtual.last - virtual.first }, (_, k) => {
              const row = virtual.first + k;
              const range = view.rows[row];
              return (
                <TreeRow
                  key={range}
                  tree={tree}
                  range={range}
                  row={row}
                  top={virtual.firstTopPx + k * ROW_PX}
                  open={view.expanded[range - tree.begin] === 1}
                  expandable={filter ? shownChildren(tree, range, filter).length > 0 : childCount(tree, range) > 0}
                  focused={range === view.focus}
                  selected={range === selectedRange}
                  onClick={() => {
                    setView((v) => ({ ...v, focus: range }));
                    onSelect(range);
                  }}
                  onDoubleClick={() => onReveal(range)}
                  onToggle={() => toggle(range)}
                />
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}

interface TreeRowProps {
  tree: PushPopTree;
  range: number;
  row: number;
  top: number;
  open: boolean;
  expandable: boolean;
  focused: boolean;
  selected: boolean;
  onClick(): void;
  onDoubleClick(): void;
  onToggle(): void;
}

function TreeRow({ tree, range, row, top, open, expandable, focused, selected, onClick, onDoubleClick, onToggle }: TreeRowProps) {
  const model = tree.model;
  const r = pushPopRow(tree, range);
  const color = depthColor(r.level, tree.maxDepth);
  const name = rangeName(model, range);
  const stack = ancestors(model, range).map((a) => rangeName(model, a)).join(' › ');
  return (
    <div
      id={`hier-${range}`}
      role="row"
      aria-level={r.level + 1}
      aria-expanded={expandable ? open : undefined}
      aria-selected={selected}
      className={`grid-row${focused ? ' focused' : ''}${selected && !focused ? ' selected' : ''}${row % 2 ? ' odd' : ''}`}
      style={{ transform: `translateY(${top}px)`, background: focused || selected ? undefined : `color-mix(in srgb, ${color} 9%, transparent)` }}
      data-testid="hierarchy-row"
      onClick={onClick}
      onDoubleClick={onDoubleClick}
    >
      <div role="gridcell" className="grid-cell tree-cell" style={{ paddingLeft: 2 + r.level * INDENT_PX }} title={name}>
        <span className="depth-bar" style={{ background: color }} />
        {expandable ? (
          <button
            type="button"
            className="tree-twisty"
            tabIndex={-1}
            aria-label={open ? `Close ${name}` : `Open ${name}`}
            onClick={(e) => {
              e.stopPropagation();
              onToggle();
            }}
          >
            {open ? '▼' : '▶'}
          </button>
        ) : (
          <span className="tree-twisty-space" />
        )}
        <span className="tree-name">{name}</span>
      </div>
      <div role="gridcell" className="grid-cell num">{formatTimestamp(r.startNs)}</div>
      {r.unended ? (
        <>
          <div role="gridcell" className="grid-cell num unended" title={`Never ended: still open when the capture stopped at ${formatTimestamp(r.endNs)}`}>
            never ended
          </div>
          <div role="gridcell" className="grid-cell num unended" title="At least this long: it was still open at the end of the capture">
            ≥ {formatDuration(r.durationNs)}
          </div>
          <div role="gridcell" className="grid-cell num">{formatDuration(r.durChildNs)}</div>
          <div role="gridcell" className="grid-cell num unended" title="At least this much: the range was still open at the end of the capture">
            ≥ {formatDuration(r.durNonChildNs)}
          </div>
        </>
      ) : (
        <>
          <div role="gridcell" className="grid-cell num">{formatTimestamp(r.endNs)}</div>
          <div role="gridcell" className="grid-cell num">{formatDuration(r.durationNs)}</div>
          <div role="gridcell" className="grid-cell num">{formatDuration(r.durChildNs)}</div>
          <div role="gridcell" className="grid-cell num">{formatDuration(r.durNonChildNs)}</div>
        </>
      )}
      <div role="gridcell" className="grid-cell num">{r.level}</div>
      <div role="gridcell" className="grid-cell num">{formatCount(r.numChild)}</div>
      <div role="gridcell" className="grid-cell range-stack" title={stack}>
        {stack}
      </div>
    </div>
  );
}
