/**
 * One comparison row opened: the duration histograms of A and B drawn by the statistics panel's
 * histogram view on one shared axis (same bins, same log scale, one above the other, so a shift
 * reads straight down), their figures, and the slowest instance of each one click away.
 */
import { useCallback, useMemo, useState } from 'react';
import { durationHistogram, summarizeSorted } from '../../analysis/histogram.ts';
import { rowDurations, type CompareResult, type CompareRow } from '../../analysis/compare/index.ts';
import { formatRelativeChange } from '../../format/change.ts';
import { formatCount } from '../../format/numbers.ts';
import { formatDurationShort } from '../../format/time.ts';
import { useViewer, useViewerStore } from '../../state/context.tsx';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import { HistogramCanvas } from '../stats/HistogramCanvas.tsx';
import { binsForCount, type BinBand } from '../stats/histogramView.ts';
import { alignmentOffset, applyOffset } from './align.ts';

export function CompareDetail({ result, row, base, candidate }: { result: CompareResult; row: CompareRow; base: LoadedCapture; candidate: LoadedCapture }) {
  const revealEvent = useViewer((s) => s.revealEvent);
  const setHighlight = useViewer((s) => s.setHighlight);
  const store = useViewerStore();
  const [alignAt, setAlignAt] = useState(1);
  const [alignNote, setAlignNote] = useState('');
  const [maxBins, setMaxBins] = useState(60);
  const [bands, setBands] = useState<{ a: BinBand | null; b: BinBand | null }>({ a: null, b: null });
  const a = useMemo(() => rowDurations(result, row, 'base'), [result, row]);
  const b = useMemo(() => rowDurations(result, row, 'candidate'), [result, row]);
  const onBins = useCallback((bins: number) => setMaxBins(bins), []);
  const view = useMemo(() => {
    // One axis for both: from the smaller minimum to the larger maximum.
    const lo = Math.min(a.durations[0] ?? Infinity, b.durations[0] ?? Infinity);
    const hi = Math.max(a.durations[a.durations.length - 1] ?? -Infinity, b.durations[b.durations.length - 1] ?? -Infinity);
    const bins = binsForCount(Math.max(a.durations.length, b.durations.length), maxBins);
    const axis = Number.isFinite(lo) ? { minNs: Math.max(1, lo), maxNs: hi, bins, scale: 'log' as const } : { bins, scale: 'log' as const };
    return {
      a: { histogram: durationHistogram(a.durations, axis), summary: summarizeSorted(a.durations) },
      b: { histogram: durationHistogram(b.durations, axis), summary: summarizeSorted(b.durations) },
    };
  }, [a, b, maxBins]);

  const side = (label: 'A' | 'B', capture: LoadedCapture, data: typeof a, shown: (typeof view)['a'], key: 'a' | 'b') => {
    const slowest = data.ranges.length > 0 ? data.ranges[data.ranges.length - 1] : -1;
    const unended = (key === 'a' ? row.base : row.candidate)?.unendedCount ?? 0;
    return (
      <div className="cmp-side" data-testid={`compare-side-${label}`}>
        <div className="cmp-side-head">
          <strong>{label}</strong> <span className="muted">{capture.model.capture.fileName}</span>
          <span className="cmp-figures">
            {data.durations.length === 0
              ? 'no instances'
              : `${formatCount(shown.summary.count)} instances · median ${formatDurationShort(shown.summary.p50Ns)} · P90 ${formatDurationShort(shown.summary.p90Ns)} · P99 ${formatDurationShort(shown.summary.p99Ns)}`}
            {unended > 0 ? ` · ${formatCount(unended)} never ended (not counted)` : ''}
          </span>
          <button
            type="button"
            className="button small"
            disabled={slowest < 0}
            onClick={() => revealEvent({ kind: 'range', capture: capture.id, index: slowest })}
            data-testid={`compare-slowest-${label}`}
            title={`Select the longest instance in ${label} and show it on the timeline`}
          >
            Slowest in {label}
            {slowest >= 0 ? ` (${formatDurationShort(data.durations[data.durations.length - 1])})` : ''}
          </button>
        </div>
        {data.durations.length > 0 && (
          <HistogramCanvas
            histogram={shown.histogram}
            summary={shown.summary}
            band={bands[key]}
            onBand={(band) => {
              setBands((old) => ({ ...old, [key]: band }));
              if (!band) return setHighlight(null);
              // The instances in the dragged bins, pointed out on the timeline like in the statistics panel.
              const lo = shown.histogram.edges[band.first];
              const hi = shown.histogram.edges[band.last + 1];
              const picked = data.ranges.filter((_, k) => data.durations[k] >= lo && data.durations[k] <= hi);
              setHighlight({ capture: capture.id, ranges: picked });
            }}
            onBins={onBins}
          />
        )}
      </div>
    );
  };

  return (
    <section className="cmp-detail" aria-label={`Comparison of ${row.label}`} data-testid="compare-detail">
      <h3>
        {row.label}{' '}
        <span className={`cmp-badge status-${row.status}`}>
          {row.status === 'within-noise' ? 'within noise' : row.status.replace('-', ' ')}
        </span>
      </h3>
      <p className="muted cmp-test">
        Total {formatRelativeChange(row.change.total.rel)}, median {formatRelativeChange(row.change.median.rel)}, P99 {formatRelativeChange(row.change.p99.rel)}
        {row.test && row.test.verdict !== 'too-few'
          ? ` · Mann–Whitney U: p = ${row.test.pValue.toPrecision(2)}, effect (Cliff's δ) ${row.test.effect.toFixed(2)}`
          : row.test
            ? ' · too few instances to tell noise apart'
            : ''}
      </p>
      <div className="cmp-align" role="group" aria-label="Align the timelines">
        <label>
          Align B under A at instance{' '}
          <input type="number" min={1} value={alignAt} onChange={(e) => setAlignAt(Math.max(1, Math.floor(Number(e.target.value) || 1)))} data-testid="compare-align-n" />
        </label>
        <button
          type="button"
          className="button small"
          data-testid="compare-align"
          title="Shift B on the shared time axis so that its N-th instance of this row (by start time) starts with A's N-th"
          onClick={() => {
            const s = store.getState();
            const baseNow = s.captures.find((c) => c.id === base.id);
            const candidateNow = s.captures.find((c) => c.id === candidate.id);
            const aligned = baseNow && candidateNow ? alignmentOffset(result, row, alignAt, baseNow, candidateNow) : null;
            if (!aligned || !baseNow) {
              setAlignNote(`A or B has fewer than ${alignAt} instances`);
              return;
            }
            applyOffset(store, candidate.id, aligned.offsetNs);
            const r = baseNow.model.ranges;
            const start = baseNow.offsetNs + r.startNs[aligned.baseRange];
            const length = Math.max(r.endNs[aligned.baseRange] - r.startNs[aligned.baseRange], 1);
            s.setView(start - length, start + 3 * length);
            setAlignNote(`instance ${alignAt} of both starts at one time`);
          }}
        >
          Align
        </button>
        {alignNote && <span className="muted" data-testid="compare-align-note">{alignNote}</span>}
      </div>
      {side('A', base, a, view.a, 'a')}
      {side('B', candidate, b, view.b, 'b')}
    </section>
  );
}
