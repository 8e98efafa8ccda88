/**
 * The instrumentation-health tab: the problems of `healthList`, by kind, each row a link to its
 * place (the range selected and revealed, or the view moved to the time of an event that left no
 * range, such as a pop with nothing open).
 */
import { useMemo, useRef, useState } from 'react';
import { threadLabel } from '../../model/trackTree.ts';
import { useViewer, useViewerStore } from '../../state/context.tsx';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import { formatCount } from '../../format/numbers.ts';
import { formatTimestamp } from '../../format/time.ts';
import { HEALTH_KINDS, type HealthEntry, type HealthKind, type HealthList } from './health.ts';
import { useListVirtualizer } from '../useListVirtualizer.ts';

const KIND_LABEL = new Map(HEALTH_KINDS.map((k) => [k.kind, k.label]));

export function HealthPanel({ list }: { list: HealthList }) {
  const captures = useViewer((s) => s.captures);
  const [kind, setKind] = useState<HealthKind | 'all'>('all');
  const total = Object.values(list.counts).reduce((a, b) => a + b, 0);
  const shown = useMemo(() => (kind === 'all' ? list.entries : list.entries.filter((e) => e.kind === kind)), [list, kind]);
  const pending = list.pending;
  const waiting =
    pending > 0 ? (
      <p className="panel-hint" data-testid="health-pending">
        {pending === 1 ? 'A capture is' : `${pending} captures are`} still loading: checked when complete.
      </p>
    ) : null;
  if (total === 0) {
    return (
      <div className="health-panel" data-testid="health-panel">
        {waiting ?? (
          <p className="health-ok">
            No instrumentation problems: every push has its pop, every start/end range started once and ended once, and ranges nest.
          </p>
        )}
      </div>
    );
  }
  const listed = kind === 'all' ? list.entries.length : shown.length;
  const counted = kind === 'all' ? total : list.counts[kind];
  return (
    <div className="health-panel" data-testid="health-panel">
      <div className="panel-toolbar">
        <div className="health-kinds" role="group" aria-label="Problem kinds">
          <button type="button" className="health-kind" aria-pressed={kind === 'all'} onClick={() => setKind('all')}>
            All <span className="value-count">{formatCount(total)}</span>
          </button>
          {HEALTH_KINDS.filter((k) => list.counts[k.kind] > 0).map((k) => (
            <button
              key={k.kind}
              type="button"
              className="health-kind"
              aria-pressed={kind === k.kind}
              title={k.title}
              onClick={() => setKind(k.kind)}
            >
              {k.label} <span className="value-count">{formatCount(list.counts[k.kind])}</span>
            </button>
          ))}
        </div>
        {listed < counted && <span className="panel-count">first {formatCount(listed)} listed</span>}
      </div>
      {waiting}
      <HealthRows entries={shown} captures={captures} />
    </div>
  );
}

const TEMPLATE = '176px 118px minmax(120px, 0.8fr) minmax(260px, 3fr) minmax(140px, 1fr)';

function HealthRows({ entries, captures }: { entries: readonly HealthEntry[]; captures: readonly LoadedCapture[] }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const store = useViewerStore();
  const selection = useViewer((s) => s.selection);
  const virtualizer = useListVirtualizer({ count: entries.length, getScrollElement: () => scrollRef.current, estimateSize: () => 22, overscan: 12 });
  const byId = new Map(captures.map((c) => [c.id, c]));
  const go = (e: HealthEntry) => {
    const c = byId.get(e.captureId);
    if (!c) return;
    const s = store.getState();
    if (e.range >= 0) {
      s.revealEvent({ kind: 'range', capture: e.captureId, index: e.range });
      return;
    }
    if (Number.isNaN(e.timeNs)) return;
    // No range to show: centre the event's time, zoomed in enough to see what is around it.
    const width = Math.min(s.viewEndNs - s.viewStartNs, Math.max(c.model.durationNs / 50, 1000));
    const t = e.timeNs + c.offsetNs;
    s.setView(t - width / 2, t + width / 2);
  };
  return (
    <div className="grid-table" role="grid" aria-label="Instrumentation problems" style={{ ['--grid-template' as string]: TEMPLATE, ['--grid-min-width' as string]: '900px' }}>
      <div className="grid-head" role="row">
        {['Problem', 'Time', 'Thread', 'What', 'Where'].map((h, i) => (
          <div key={h} role="columnheader" className={`grid-head-cell${i === 1 ? ' num' : ''}`}>
            <span className="sort-button">{h}</span>
          </div>
        ))}
      </div>
      <div className="grid-body" ref={scrollRef}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const e = entries[item.index];
            const c = byId.get(e.captureId);
            const model = c?.model;
            const selected = e.range >= 0 && selection?.kind === 'range' && selection.capture === e.captureId && selection.index === e.range;
            const thread = model && e.thread >= 0 && e.thread < model.threads.length ? threadLabel(model, e.thread) : '';
            const where = [captures.length > 1 || e.where ? e.file : '', e.where].filter(Boolean).join(' · ');
            return (
              <div
                key={item.key}
                role="row"
                className={`grid-row${selected ? ' selected' : ''}${item.index % 2 ? ' odd' : ''}`}
                style={{ transform: `translateY(${item.start}px)` }}
                onClick={() => go(e)}
                title={e.range >= 0 ? 'Select and show this range' : Number.isNaN(e.timeNs) ? e.message : 'Show this moment on the timeline'}
                data-testid="health-row"
              >
                <div role="gridcell" className="grid-cell health-kind-label">
                  {KIND_LABEL.get(e.kind)}
                </div>
                <div role="gridcell" className="grid-cell num">
                  {Number.isNaN(e.timeNs) ? '' : formatTimestamp(e.timeNs)}
                </div>
                <div role="gridcell" className="grid-cell" title={thread}>
                  {thread}
                </div>
                <div role="gridcell" className="grid-cell" title={e.message}>
                  {e.message}
                </div>
                <div role="gridcell" className="grid-cell health-where" title={where}>
                  {where}
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
