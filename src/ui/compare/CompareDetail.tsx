/**
 * One comparison row opened: the duration histograms of A and B overlaid in the statistics panel's
 * histogram view (one canvas, one axis, the same bins: A filled, B outlined, so a shift reads as
 * the outline moving off the bars), their figures, and the slowest instance of each one click away.
 * A band dragged over the bins counts both sides' instances in it and points out one side's on
 * the timeline.
 */
import { DurationAxisToggle } from '../stats/DurationAxisToggle.tsx';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { sharedDurationHistograms, summarizeSorted } from '../../analysis/histogram.ts';
import type { CompareResult, CompareRow } from '../../analysis/compare/index.ts';
import { formatRelativeChange } from '../../format/change.ts';
import { formatCount } from '../../format/numbers.ts';
import { formatDurationShort } from '../../format/time.ts';
import { useViewer, useViewerStore } from '../../state/context.tsx';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import { HistogramCanvas, type HistogramOverlay } from '../stats/HistogramCanvas.tsx';
import type { StatsService } from '../stats/statsService.ts';
import { bandInterval, bandPositions, binsForCount, type BinBand } from '../stats/histogramView.ts';
import { applyOffset, findNthInstances, offsetFor } from './align.ts';

interface Instances {
  durations: Float64Array;
  ranges: Int32Array;
}

const NO_INSTANCES: Instances = { durations: new Float64Array(0), ranges: new Int32Array(0) };

export function CompareDetail({
  result,
  row,
  base,
  candidate,
  service,
}: {
  result: CompareResult;
  row: CompareRow;
  base: LoadedCapture;
  candidate: LoadedCapture;
  service: StatsService;
}) {
  const revealEvent = useViewer((s) => s.revealEvent);
  const store = useViewerStore();
  const [alignAt, setAlignAt] = useState(1);
  const [alignNote, setAlignNote] = useState('');
  const [aligning, setAligning] = useState(false);
  const [maxBins, setMaxBins] = useState(60);
  const [scale, setScale] = useState<'linear' | 'log'>('log');
  const [band, setBand] = useState<BinBand | null>(null);
  // Whose instances in the band the timeline points out (it highlights one capture at a time).
  const [bandSide, setBandSide] = useState<'a' | 'b'>('b');
  // The row's instances of each side, from the worker for large captures (a big group takes most
  // of a second); an answer for another row or result is dropped.
  const [loaded, setLoaded] = useState<{ result: CompareResult; row: CompareRow; a: Instances; b: Instances } | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setLoadError(null);
    const side = (fig: CompareRow['base'], id: number, { model, options }: CompareResult['base'], slot: string) =>
      fig ? service.instances({ id, model }, options, fig.key, slot) : Promise.resolve(NO_INSTANCES);
    Promise.all([side(row.base, base.id, result.base, 'detail-a'), side(row.candidate, candidate.id, result.candidate, 'detail-b')]).then(
      ([a, b]) => {
        if (live && a && b) setLoaded({ result, row, a, b });
      },
      (e: unknown) => {
        if (live) setLoadError(e instanceof Error ? e.message : String(e));
      },
    );
    return () => {
      live = false;
    };
  }, [service, result, row, base.id, candidate.id]);
  const ready = loaded !== null && loaded.result === result && loaded.row === row;
  const a = ready ? loaded.a : NO_INSTANCES;
  const b = ready ? loaded.b : NO_INSTANCES;
  const onBins = useCallback((bins: number) => setMaxBins(bins), []);
  // A log axis needs positive durations with some spread (as in the statistics panel).
  const lo = Math.min(a.durations[0] ?? Infinity, b.durations[0] ?? Infinity);
  const hi = Math.max(a.durations[a.durations.length - 1] ?? -Infinity, b.durations[b.durations.length - 1] ?? -Infinity);
  const canLog = lo > 0 && hi > lo;
  const effectiveScale = canLog ? scale : 'linear';
  const view = useMemo(() => {
    const bins = binsForCount(Math.max(a.durations.length, b.durations.length), maxBins);
    const [ha, hb] = sharedDurationHistograms([a.durations, b.durations], { bins, scale: effectiveScale });
    return {
      a: { histogram: ha, summary: summarizeSorted(a.durations) },
      b: { histogram: hb, summary: summarizeSorted(b.durations) },
    };
  }, [a, b, maxBins, effectiveScale]);
  const overlay = useMemo<HistogramOverlay>(
    () => ({
      first: { tag: 'A', name: base.model.capture.fileName },
      second: { tag: 'B', name: candidate.model.capture.fileName, ...view.b },
    }),
    [base, candidate, view],
  );
  useEffect(() => setBand(null), [view]);
  // [begin, end) of each side's sorted durations inside the band (durations are sorted ascending).
  const inBand = useMemo(
    () => (band ? { a: bandPositions(view.a.histogram, a.durations, band), b: bandPositions(view.b.histogram, b.durations, band) } : null),
    [band, view, a, b],
  );
  useEffect(() => {
    if (!inBand) return;
    const [capture, data, [begin, end]] = bandSide === 'a' ? [base, a, inBand.a] : [candidate, b, inBand.b];
    const highlight = { capture: capture.id, ranges: data.ranges.slice(begin, end) };
    store.getState().setHighlight(highlight);
    return () => {
      if (store.getState().highlight === highlight) store.getState().setHighlight(null);
    };
  }, [store, inBand, bandSide, base, candidate, a, b]);

  const side = (label: 'A' | 'B', capture: LoadedCapture, data: typeof a, shown: (typeof view)['a'], key: 'a' | 'b') => {
    const slowest = data.ranges.length > 0 ? data.ranges[data.ranges.length - 1] : -1;
    const unended = (key === 'a' ? row.base : row.candidate)?.unendedCount ?? 0;
    return (
      <div className="cmp-side" data-testid={`compare-side-${label}`}>
        <div className="cmp-side-head">
          <strong>{label}</strong> <span className="muted">{capture.model.capture.fileName}</span>
          <span className="cmp-figures">
            {!ready
              ? '…'
              : data.durations.length === 0
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
      {!ready && (
        <p className="muted" data-testid="compare-detail-loading">
          {loadError ? `The instances could not be read: ${loadError}` : 'Reading the instances…'}
        </p>
      )}
      {a.durations.length + b.durations.length > 0 && (
        <>
          <DurationAxisToggle className="segmented cmp-scale" scale={effectiveScale} canLog={canLog} onScale={setScale} />
          <HistogramCanvas histogram={view.a.histogram} summary={view.a.summary} overlay={overlay} band={band} onBand={setBand} onBins={onBins} />
          {band && inBand && (
            <p className="cmp-band" data-testid="compare-band">
              {formatDurationShort(bandInterval(view.a.histogram, band).fromNs)} – {formatDurationShort(bandInterval(view.a.histogram, band).toNs)}: A{' '}
              {formatCount(inBand.a[1] - inBand.a[0])}, B {formatCount(inBand.b[1] - inBand.b[0])} instances
              <span className="segmented" role="group" aria-label="Instances in the band shown on the timeline">
                <button type="button" aria-pressed={bandSide === 'a'} onClick={() => setBandSide('a')} title="Point out A's instances in the band on the timeline">
                  A's
                </button>
                <button type="button" aria-pressed={bandSide === 'b'} onClick={() => setBandSide('b')} title="Point out B's instances in the band on the timeline">
                  B's
                </button>
              </span>
              <button type="button" className="link" onClick={() => setBand(null)}>
                Clear
              </button>
            </p>
          )}
        </>
      )}
      {side('A', base, a, view.a, 'a')}
      {side('B', candidate, b, view.b, 'b')}
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
          disabled={aligning}
          onClick={() => {
            // Read in the worker for large captures: the page keeps drawing meanwhile.
            const n = alignAt;
            setAligning(true);
            setAlignNote('finding the instances…');
            findNthInstances(service, result, row, n, { base: base.id, candidate: candidate.id }).then(
              (found) => {
                setAligning(false);
                if (!found) return;
                const s = store.getState();
                const baseNow = s.captures.find((c) => c.id === base.id && c.model === result.base.model);
                const candidateNow = s.captures.find((c) => c.id === candidate.id && c.model === result.candidate.model);
                if (!baseNow || !candidateNow) {
                  setAlignNote('A or B changed meanwhile: align again');
                  return;
                }
                if (found.baseRange < 0 || found.candidateRange < 0) {
                  setAlignNote(`A or B has fewer than ${n} instances`);
                  return;
                }
                applyOffset(store, candidate.id, offsetFor(baseNow, found.baseRange, candidateNow, found.candidateRange));
                const r = baseNow.model.ranges;
                const start = baseNow.offsetNs + r.startNs[found.baseRange];
                const length = Math.max(r.endNs[found.baseRange] - r.startNs[found.baseRange], 1);
                s.setView(start - length, start + 3 * length);
                setAlignNote(`instance ${n} of both starts at one time`);
              },
              (e: unknown) => {
                setAligning(false);
                setAlignNote(`could not align: ${e instanceof Error ? e.message : String(e)}`);
              },
            );
          }}
        >
          Align
        </button>
        {alignNote && <span className="muted" data-testid="compare-align-note">{alignNote}</span>}
      </div>
    </section>
  );
}
