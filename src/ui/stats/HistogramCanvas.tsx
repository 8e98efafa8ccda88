/**
 * The duration histogram on a small canvas: bars (count or time per bin), P50/P90/P99 markers, a
 * duration axis, and a band the user drags (or clicks, for one bar) to pick instances by duration.
 * With an overlay (the Compare tab), a second series on the same bins is drawn over the first:
 * the first filled and translucent, the second as an outline, each in its own color, so the two
 * tell apart by shape as well as by color (color-blind users, print); a legend names both, the
 * markers are each series' P50 and P99, and the hover readout gives both values of the bin.
 */
import { useEffect, useLayoutEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { sameBins, type DistributionSummary, type Histogram } from '../../analysis/histogram.ts';
import { formatCount } from '../../format/numbers.ts';
import { formatDurationShort } from '../../format/time.ts';
import { useEffectiveTheme } from '../useTheme.ts';
import { chartContext } from './chartCanvas.ts';
import { bandOfDrag, barHeight, binAtX, binCount, binShare, histogramScale, stepOutline, tallestBinOf, type BinBand } from './histogramView.ts';

/** A series' short tag (drawn in the chart, e.g. "A") and what it is (the legend, e.g. a file name). */
export interface SeriesName {
  tag: string;
  name: string;
}

/** The second distribution of an overlaid histogram; its histogram must have the first's bins. */
export interface HistogramOverlay {
  first: SeriesName;
  second: SeriesName & { histogram: Histogram; summary: DistributionSummary };
}

const PLOT_HEIGHT_CSS = 88;
const AXIS_HEIGHT_CSS = 16;
const HEIGHT_CSS = PLOT_HEIGHT_CSS + AXIS_HEIGHT_CSS;
/** Target bar width: enough bars to see a shape, wide enough to hit with the pointer. */
const BAR_CSS = 6;

/** Bins for a plot width. */
export function binsForWidth(widthCss: number): number {
  return Math.max(12, Math.min(120, Math.round(widthCss / BAR_CSS)));
}

/** Tick durations of the axis: a few round values (powers of ten on a log axis). */
function axisTicks(h: Histogram, widthCss: number): number[] {
  const lo = h.edges[0];
  const hi = h.edges[binCount(h)];
  if (h.scale === 'log') {
    const out: number[] = [];
    for (let p = Math.ceil(Math.log10(lo)); 10 ** p <= hi; p++) out.push(10 ** p);
    if (out.length >= 2) return out.length > 6 ? out.filter((_, i) => i % 2 === 0) : out;
  }
  return histogramScale(h, widthCss).ticks(Math.max(2, Math.floor(widthCss / 90)));
}

interface Palette {
  bar: string;
  barDim: string;
  band: string;
  fg: string;
  muted: string;
  grid: string;
  marker: string;
  /** Overlay: the filled first series and the outlined second one. */
  first: string;
  second: string;
}

function readPalette(el: Element): Palette {
  const s = getComputedStyle(el);
  const v = (name: string, fallback: string) => s.getPropertyValue(name).trim() || fallback;
  const accent = v('--accent', '#3f7d00');
  return {
    bar: accent,
    barDim: v('--fg-muted', '#5b6675'),
    band: v('--selection', 'rgba(46, 108, 214, 0.16)'),
    fg: v('--fg', '#1c2230'),
    muted: v('--fg-muted', '#5b6675'),
    grid: v('--grid', '#e8ecf1'),
    marker: v('--info', '#2e6cd6'),
    first: v('--series-first', '#0072b2'),
    second: v('--series-second', '#d55e00'),
  };
}

interface Marker {
  label: string;
  ns: number;
  color: string;
  dash: number[];
}

function draw(
  canvas: HTMLCanvasElement,
  widthCss: number,
  h: Histogram,
  summary: DistributionSummary,
  overlay: HistogramOverlay | undefined,
  band: BinBand | null,
  palette: Palette,
): void {
  const ctx = chartContext(canvas, widthCss, HEIGHT_CSS);
  if (!ctx) return;
  const bins = binCount(h);
  const barW = widthCss / bins;
  // One vertical scale for both series, so equal bars mean equal values.
  const top = tallestBinOf(overlay ? [h, overlay.second.histogram] : [h]);
  const plotTop = 12;
  const plotH = PLOT_HEIGHT_CSS - plotTop;
  const baseY = PLOT_HEIGHT_CSS - 1;
  const inBand = (b: number) => !band || (b >= band.first && b <= band.last);

  if (band) {
    // Overlaid, a neutral wash: the selection blue would read as more of the first series.
    ctx.fillStyle = overlay ? palette.fg : palette.band;
    ctx.globalAlpha = overlay ? 0.08 : 1;
    ctx.fillRect(band.first * barW, 0, (band.last - band.first + 1) * barW, PLOT_HEIGHT_CSS);
    ctx.globalAlpha = 1;
  }
  ctx.fillStyle = palette.grid;
  ctx.fillRect(0, PLOT_HEIGHT_CSS - 1, widthCss, 1);
  for (let b = 0; b < bins; b++) {
    const barH = barHeight(h.values[b], top, plotH);
    if (barH === 0) continue;
    if (overlay) {
      // Translucent, so the outline of the second series reads where it falls inside a bar.
      ctx.fillStyle = palette.first;
      ctx.globalAlpha = inBand(b) ? 0.5 : 0.2;
    } else {
      ctx.fillStyle = inBand(b) ? palette.bar : palette.barDim;
      ctx.globalAlpha = inBand(b) ? 1 : 0.45;
    }
    ctx.fillRect(b * barW + 0.5, baseY - barH, Math.max(1, barW - 1), barH);
  }
  ctx.globalAlpha = 1;
  if (overlay) {
    const pts = stepOutline(overlay.second.histogram, top, widthCss, baseY, plotH);
    ctx.strokeStyle = palette.second;
    ctx.lineWidth = 1.75;
    ctx.lineJoin = 'miter';
    for (let b = 0; b < bins; b++) {
      ctx.globalAlpha = inBand(b) ? 1 : 0.35;
      ctx.beginPath();
      ctx.moveTo(pts[4 * b], pts[4 * b + 1]);
      ctx.lineTo(pts[4 * b + 2], pts[4 * b + 3]);
      ctx.lineTo(pts[4 * b + 4], pts[4 * b + 5]);
      // The last bin also takes the drop back to the baseline at the right edge.
      if (b === bins - 1) ctx.lineTo(pts[4 * b + 6], pts[4 * b + 7]);
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
    ctx.lineWidth = 1;
  }

  const x = histogramScale(h, widthCss);
  ctx.font = '10px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  // Percentile markers, labels at the top, pushed apart when they would overlap.
  const markers: Marker[] = overlay
    ? [
        { label: `${overlay.first.tag} P50`, ns: summary.p50Ns, color: palette.first, dash: [3, 2] },
        { label: `${overlay.second.tag} P50`, ns: overlay.second.summary.p50Ns, color: palette.second, dash: [1, 2] },
        { label: `${overlay.first.tag} P99`, ns: summary.p99Ns, color: palette.first, dash: [3, 2] },
        { label: `${overlay.second.tag} P99`, ns: overlay.second.summary.p99Ns, color: palette.second, dash: [1, 2] },
      ]
        .filter((m) => Number.isFinite(m.ns))
        .sort((m, n) => m.ns - n.ns)
    : [
        { label: 'P50', ns: summary.p50Ns, color: palette.marker, dash: [3, 2] },
        { label: 'P90', ns: summary.p90Ns, color: palette.marker, dash: [3, 2] },
        { label: 'P99', ns: summary.p99Ns, color: palette.marker, dash: [3, 2] },
      ];
  let labelEnd = -Infinity;
  for (const { label, ns, color, dash } of markers) {
    const mx = Math.round(Math.min(widthCss - 1, Math.max(0, x(Math.max(ns, h.edges[0]))))) + 0.5;
    ctx.strokeStyle = color;
    ctx.setLineDash(dash);
    ctx.beginPath();
    ctx.moveTo(mx, plotTop - 2);
    ctx.lineTo(mx, PLOT_HEIGHT_CSS - 1);
    ctx.stroke();
    ctx.setLineDash([]);
    const tw = ctx.measureText(label).width;
    let lx = Math.min(widthCss - tw - 1, Math.max(1, mx - tw / 2));
    if (lx < labelEnd + 3) lx = labelEnd + 3;
    if (lx + tw <= widthCss) {
      ctx.fillStyle = color;
      ctx.fillText(label, lx, 0);
      labelEnd = lx + tw;
    }
  }
  // Height of the tallest bar, top left.
  ctx.fillStyle = palette.muted;
  ctx.textAlign = 'left';
  const peak = h.weight === 'count' ? formatCount(top) : formatDurationShort(top);
  ctx.fillText(peak, 2, plotTop);

  // Duration axis.
  ctx.fillStyle = palette.muted;
  ctx.textBaseline = 'top';
  let lastEnd = -Infinity;
  for (const t of axisTicks(h, widthCss)) {
    const tx = x(t);
    if (tx < 0 || tx > widthCss) continue;
    const text = formatDurationShort(t);
    const tw = ctx.measureText(text).width;
    const lx = Math.min(widthCss - tw, Math.max(0, tx - tw / 2));
    if (lx < lastEnd + 6) continue;
    ctx.fillRect(Math.round(tx), PLOT_HEIGHT_CSS - 1, 1, 3);
    ctx.fillText(text, lx, PLOT_HEIGHT_CSS + 3);
    lastEnd = lx + tw;
  }
}

export function HistogramCanvas({
  histogram,
  summary,
  overlay,
  band,
  onBand,
  onBins,
}: {
  histogram: Histogram;
  summary: DistributionSummary;
  /** A second series on the same bins, outlined over the first (which is then filled and translucent). */
  overlay?: HistogramOverlay;
  band: BinBand | null;
  onBand(band: BinBand | null): void;
  onBins(bins: number): void;
}) {
  if (overlay && !sameBins(histogram, overlay.second.histogram)) {
    throw new Error('HistogramCanvas: an overlaid series must have the same bins as the first (see sharedDurationHistograms)');
  }
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  const [drag, setDrag] = useState<{ x0: number; x1: number } | null>(null);
  const [hoverBin, setHoverBin] = useState<number | null>(null);
  const theme = useEffectiveTheme();

  useLayoutEffect(() => {
    const box = boxRef.current!;
    const measure = () => setWidth(Math.floor(box.clientWidth));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    if (width > 0) onBins(binsForWidth(width));
  }, [width, onBins]);

  const shownBand = drag && width > 0 ? bandOfDrag(histogram, drag.x0, drag.x1, width) : band;
  useEffect(() => {
    if (width > 0 && canvasRef.current) draw(canvasRef.current, width, histogram, summary, overlay, shownBand, readPalette(canvasRef.current));
  }, [width, histogram, summary, overlay, shownBand?.first, shownBand?.last, theme]);

  const local = (e: ReactPointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return Math.min(width - 0.001, Math.max(0, e.clientX - r.left));
  };
  const hover = hoverBin !== null && hoverBin < histogram.values.length ? hoverBin : null;
  const what = histogram.weight === 'count' ? 'instances' : 'time';
  const valueText = (v: number) => (histogram.weight === 'count' ? formatCount(v) : formatDurationShort(v));
  const shareText = (h: Histogram, bin: number) => {
    const { value, percent } = binShare(h, bin);
    return `${valueText(value)}${histogram.weight === 'count' ? '' : ' total'} (${percent.toFixed(1)}%)`;
  };

  return (
    <div className="st-hist" ref={boxRef}>
      {overlay && (
        <p className="st-hist-legend" data-testid="histogram-legend">
          <span className="st-hist-key first" data-testid="histogram-legend-first">
            <span className="st-hist-swatch first" aria-hidden="true" />
            <strong>{overlay.first.tag}</strong> {overlay.first.name}
          </span>
          <span className="st-hist-key second" data-testid="histogram-legend-second">
            <span className="st-hist-swatch second" aria-hidden="true" />
            <strong>{overlay.second.tag}</strong> {overlay.second.name}
          </span>
        </p>
      )}
      <canvas
        ref={canvasRef}
        className="st-hist-canvas"
        style={{ width: width || '100%', height: HEIGHT_CSS }}
        role="img"
        aria-label={
          overlay
            ? `Duration histograms on one ${histogram.scale} axis, ${what} per bar: ${overlay.first.tag} (${overlay.first.name}) filled, ${overlay.second.tag} (${overlay.second.name}) outlined`
            : `Duration histogram, ${histogram.scale} axis, ${what} per bar`
        }
        data-testid="histogram"
        data-bins={binCount(histogram)}
        data-series={overlay ? 2 : 1}
        onPointerDown={(e) => {
          if (e.button !== 0) return;
          e.currentTarget.setPointerCapture(e.pointerId);
          const x = local(e);
          setDrag({ x0: x, x1: x });
        }}
        onPointerMove={(e) => {
          const x = local(e);
          setHoverBin(binAtX(histogram, x, width));
          if (drag) setDrag({ ...drag, x1: x });
        }}
        onPointerUp={(e) => {
          if (!drag) return;
          const x = local(e);
          setDrag(null);
          onBand(bandOfDrag(histogram, drag.x0, x, width));
        }}
        onPointerCancel={() => setDrag(null)}
        onPointerLeave={() => setHoverBin(null)}
      />
      {hover !== null && (
        // On the side away from the pointer, so it never covers the bar it describes.
        <p className={`st-hist-hover ${hover < binCount(histogram) / 2 ? 'right' : 'left'}${overlay ? ' overlaid' : ''}`} data-testid="histogram-hover">
          {formatDurationShort(histogram.edges[hover])} – {formatDurationShort(histogram.edges[hover + 1])}:{' '}
          {overlay ? (
            <>
              {overlay.first.tag} {shareText(histogram, hover)} · {overlay.second.tag} {shareText(overlay.second.histogram, hover)}
            </>
          ) : (
            <>
              {histogram.weight === 'count' ? `${formatCount(histogram.values[hover])} instances` : `${formatDurationShort(histogram.values[hover])} total`}{' '}
              ({binShare(histogram, hover).percent.toFixed(1)}%)
            </>
          )}
        </p>
      )}
    </div>
  );
}
