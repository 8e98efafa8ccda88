/** The instances of a per-name detail (all, or a histogram band's): start, duration, thread; a click shows one on the timeline. */
import { useMemo, useRef, useState } from 'react';
import type { GroupInstances } from '../../analysis/rangeStats.ts';
import { threadLabel } from '../../model/trackTree.ts';
import { useViewer } from '../../state/context.tsx';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import { formatCount } from '../../format/numbers.ts';
import { formatDurationShort, formatTimestamp } from '../../format/time.ts';
import { listOrder } from './jumpTargets.ts';
import { useListVirtualizer } from '../useListVirtualizer.ts';

export function InstanceList({ capture, instances, begin, end }: { capture: LoadedCapture; instances: GroupInstances; begin: number; end: number }) {
  const [order, setOrder] = useState<'duration' | 'start'>('duration');
  const model = capture.model;
  const positions = useMemo(() => listOrder(instances, begin, end, order, model.ranges.startNs), [instances, begin, end, order, model]);
  const selected = useViewer((s) => (s.selection?.kind === 'range' && s.selection.capture === capture.id ? s.selection.index : -1));
  const revealEvent = useViewer((s) => s.revealEvent);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useListVirtualizer({
    count: positions.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 22,
    overscan: 12,
  });
  const reveal = (range: number) => revealEvent({ kind: 'range', capture: capture.id, index: range });
  return (
    <div className="st-instances" role="table" aria-label="Instances" aria-rowcount={positions.length + 1} data-testid="instance-list">
      <div className="st-inst-row st-head" role="row">
        <button
          type="button"
          role="columnheader"
          className={`st-cell num${order === 'start' ? ' active' : ''}`}
          aria-sort={order === 'start' ? 'ascending' : 'none'}
          onClick={() => setOrder('start')}
          title="Order by start time"
        >
          Start{order === 'start' && <span className="sort-arrow">▲</span>}
        </button>
        <button
          type="button"
          role="columnheader"
          className={`st-cell num${order === 'duration' ? ' active' : ''}`}
          aria-sort={order === 'duration' ? 'descending' : 'none'}
          onClick={() => setOrder('duration')}
          title="Order by duration, longest first"
        >
          Duration{order === 'duration' && <span className="sort-arrow">▼</span>}
        </button>
        <span className="st-cell" role="columnheader">
          Thread <span className="muted">({formatCount(positions.length)})</span>
        </span>
      </div>
      <div className="st-body" ref={scrollRef}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const k = positions[item.index];
            const range = instances.ranges[k];
            const thread = model.ranges.thread[range];
            return (
              <div
                key={range}
                className={`st-inst-row${range === selected ? ' selected' : ''}`}
                role="row"
                tabIndex={0}
                aria-selected={range === selected}
                style={{ transform: `translateY(${item.start}px)`, height: item.size }}
                onClick={() => reveal(range)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') reveal(range);
                }}
                title="Select and show on the timeline"
                data-testid="instance-row"
              >
                <span className="st-cell num" role="cell">
                  {formatTimestamp(model.ranges.startNs[range])}
                </span>
                <span className="st-cell num" role="cell">
                  {formatDurationShort(instances.durations[k])}
                </span>
                <span className="st-cell" role="cell">
                  {thread >= 0 ? threadLabel(model, thread) : '–'}
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
