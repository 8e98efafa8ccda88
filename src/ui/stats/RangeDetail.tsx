/**
 * One row of the range table in depth: its duration distribution (histogram, percentiles), jumps
 * to the slowest, median and P99 instance, and a duration band dragged on the histogram, whose
 * instances are highlighted on the timeline and listed.
 */
import { DurationAxisToggle } from './DurationAxisToggle.tsx';
import { useEffect, useMemo, useState } from 'react';
import { durationHistogram, summarizeSorted } from '../../analysis/histogram.ts';
import type { GroupInstances } from '../../analysis/rangeStats.ts';
import { useViewer, useViewerStore } from '../../state/context.tsx';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import { formatCount, formatPercent } from '../../format/numbers.ts';
import { formatDuration, formatDurationShort } from '../../format/time.ts';
import type { Grouping } from './compute.ts';
import { DurationOverTimeCanvas } from './DurationOverTimeCanvas.tsx';
import { HistogramCanvas } from './HistogramCanvas.tsx';
import { bandInterval, bandPositions, binsForCount, type BinBand } from './histogramView.ts';
import { InstanceList } from './InstanceList.tsx';
import { jumpTargets } from './jumpTargets.ts';
import { captureScope, type PanelScope } from './panelScope.ts';
import type { StatsService } from './statsService.ts';
import type { StatsRow } from './tableModel.ts';
import { useStatsQuery } from './useStatsQuery.ts';

/** Capture id and group key of a row id (`${capture}|${key}`). */
function splitRowId(rowId: string): { capture: number; key: string } {
  const bar = rowId.indexOf('|');
  return { capture: Number(rowId.slice(0, bar)), key: rowId.slice(bar + 1) };
}

export function RangeDetail({
  rowId,
  row,
  grouping,
  scope,
  scopeKey,
  service,
  onBack,
  position,
  onStep,
}: {
  rowId: string;
  /** The row in the current table; absent when the scope no longer has it. */
  row: StatsRow | undefined;
  grouping: Grouping;
  scope: PanelScope;
  scopeKey: string;
  service: StatsService;
  onBack(): void;
  position: { index: number; count: number } | null;
  onStep(delta: number): void;
}) {
  const { capture: captureId, key } = splitRowId(rowId);
  const capture = useViewer((s) => s.captures.find((c) => c.id === captureId));
  const multi = useViewer((s) => s.captures.length > 1);
  const captures = useMemo(() => (capture ? [capture] : []), [capture]);
  const query = useStatsQuery(
    service,
    captures,
    'instances',
    (c: LoadedCapture) => ({ kind: 'instances', scope: captureScope(scope, c), grouping, key }),
    `${scopeKey}|${rowId}`,
  );
  const instances = (capture && query.results?.get(capture.id)) || null;
  const label = row?.label ?? key;

  return (
    <div className="st-detail" data-testid="range-detail">
      <div className="st-detail-head">
        <button type="button" className="button small" onClick={onBack} title="Back to the table" data-testid="detail-back">
          ← Table
        </button>
        <h3 className="st-detail-name" title={label} data-testid="detail-title">
          {label}
        </h3>
        {position && (
          <span className="st-stepper">
            <button type="button" className="button small icon" disabled={position.index === 0} onClick={() => onStep(-1)} aria-label="Previous row" title="Previous row of the table">
              ‹
            </button>
            <button
              type="button"
              className="button small icon"
              disabled={position.index >= position.count - 1}
              onClick={() => onStep(1)}
              aria-label="Next row"
              title="Next row of the table"
            >
              ›
            </button>
          </span>
        )}
      </div>
      {(multi || row) && (
        <p className="st-detail-meta">
          {multi && capture && <span>{capture.model.capture.displayName}</span>}
          {row && <span>{row.style}</span>}
          {row && <span>{formatPercent(row.timePercent)} of the listed time</span>}
          {row && <span>self {formatDuration(row.selfNs)}</span>}
          {row && row.unended > 0 && (
            <span className="st-unended" title="Still open at the end of the capture: no real end, so not in the distribution" data-testid="detail-unended">
              {formatCount(row.unended)} never ended (not shown)
            </span>
          )}
        </p>
      )}
      {query.error && (
        <p className="st-error" role="alert">
          {query.error}
        </p>
      )}
      {capture && instances ? (
        instances.ranges.length > 0 ? (
          <Distribution capture={capture} instances={instances} />
        ) : (
          <p className="panel-hint">{row && row.unended > 0 ? 'No instance in scope ended: there is no duration to show.' : 'No instances in scope.'}</p>
        )
      ) : (
        <p className="panel-hint">{query.pending ? 'Collecting the instances…' : ''}</p>
      )}
    </div>
  );
}

function Distribution({ capture, instances }: { capture: LoadedCapture; instances: GroupInstances }) {
  const store = useViewerStore();
  const revealEvent = useViewer((s) => s.revealEvent);
  const [scale, setScale] = useState<'linear' | 'log'>('log');
  const [weight, setWeight] = useState<'count' | 'time'>('count');
  // Bins the histogram's width allows (the canvas reports it).
  const [bins, setBins] = useState(60);
  const [band, setBand] = useState<BinBand | null>(null);
  const durations = instances.durations;
  const summary = useMemo(() => summarizeSorted(durations), [durations]);
  const targets = useMemo(() => jumpTargets(instances, summary), [instances, summary]);
  // A log axis needs positive durations with some spread.
  const canLog = summary.maxNs > summary.minNs && summary.minNs > 0;
  const effectiveScale = canLog ? scale : 'linear';
  const binsShown = binsForCount(durations.length, bins);
  const histogram = useMemo(
    () => durationHistogram(durations, { bins: binsShown, scale: effectiveScale, weight }),
    [durations, binsShown, effectiveScale, weight],
  );
  useEffect(() => setBand(null), [histogram]);
  const positions = useMemo(() => (band ? bandPositions(histogram, durations, band) : null), [band, histogram, durations]);

  // The band's instances on the timeline, while this detail shows them.
  useEffect(() => {
    if (!positions) return;
    const highlight = { capture: capture.id, ranges: instances.ranges.slice(positions[0], positions[1]) };
    store.getState().setHighlight(highlight);
    return () => {
      if (store.getState().highlight === highlight) store.getState().setHighlight(null);
    };
  }, [store, capture.id, instances, positions]);

  const jump = (index: number) => {
    if (index >= 0) revealEvent({ kind: 'range', capture: capture.id, index });
  };
  const interval = band ? bandInterval(histogram, band) : null;
  const figures: [string, string, string][] = [
    ['Instances', formatCount(summary.count), 'Instances in scope'],
    ['Total', formatDurationShort(summary.totalNs), 'Sum of the durations'],
    ['Mean', formatDurationShort(summary.meanNs), 'Mean duration'],
    ['σ', formatDurationShort(summary.stdDevNs), 'Sample standard deviation (n − 1)'],
    ['Min', formatDurationShort(summary.minNs), 'Shortest'],
    ['P50', formatDurationShort(summary.p50Ns), 'Median'],
    ['P90', formatDurationShort(summary.p90Ns), '90th percentile'],
    ['P99', formatDurationShort(summary.p99Ns), '99th percentile'],
    ['P99.9', formatDurationShort(summary.p999Ns), '99.9th percentile'],
    ['Max', formatDurationShort(summary.maxNs), 'Longest'],
  ];
  return (
    <>
      <dl className="st-summary" data-testid="distribution-summary">
        {figures.map(([name, value, title]) => (
          <div key={name} title={title}>
            <dt>{name}</dt>
            <dd data-testid={`summary-${name}`}>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="st-hist-controls">
        <DurationAxisToggle scale={effectiveScale} canLog={canLog} onScale={setScale} />
        <div className="segmented" role="group" aria-label="Bar height">
          <button type="button" aria-pressed={weight === 'count'} onClick={() => setWeight('count')} title="Bars count instances">
            Count
          </button>
          <button type="button" aria-pressed={weight === 'time'} onClick={() => setWeight('time')} title="Bars sum the instances' time">
            Time
          </button>
        </div>
      </div>
      <HistogramCanvas histogram={histogram} summary={summary} band={band} onBand={setBand} onBins={setBins} />
      <p className="st-over-time-title muted">Duration over time</p>
      <DurationOverTimeCanvas capture={capture} instances={instances} summary={summary} />
      <div className="st-jumps" role="group" aria-label="Jump to an instance">
        <span className="muted">Show</span>
        <button type="button" className="button small" onClick={() => jump(targets.slowest)} data-testid="jump-slowest" title="Select the longest instance and show it on the timeline">
          Slowest
        </button>
        <button type="button" className="button small" onClick={() => jump(targets.median)} data-testid="jump-median" title="Select the median instance and show it on the timeline">
          Median
        </button>
        <button type="button" className="button small" onClick={() => jump(targets.p99)} data-testid="jump-p99" title="Select the P99 instance and show it on the timeline">
          P99
        </button>
      </div>
      <div className="st-band-line" data-testid="band-line">
        {positions && interval ? (
          <>
            <span>
              <strong>{formatCount(positions[1] - positions[0])}</strong> in {formatDurationShort(interval.fromNs)} – {formatDurationShort(interval.toNs)}, highlighted
            </span>
            <button type="button" className="link" onClick={() => setBand(null)}>
              Clear band
            </button>
          </>
        ) : (
          <span className="muted">Drag over the histogram to pick a duration band.</span>
        )}
      </div>
      <InstanceList capture={capture} instances={instances} begin={positions ? positions[0] : 0} end={positions ? positions[1] : instances.ranges.length} />
    </>
  );
}
