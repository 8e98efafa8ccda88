/**
 * The duration histogram on a small canvas: bars (count or time per bin), P50/P90/P99 markers, a
 * duration axis, and a band the user drags (or clicks, for one bar) to pick instances by duration.
 */
import { useEffect, useLayoutEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import type { DistributionSummary, Histogram } from '../../analysis/histogram.ts';
import { formatCount } from '../../format/numbers.ts';
import { formatDurationShort } from '../../format/time.ts';
import { useEffectiveTheme } from '../useTheme.ts';
import { bandOfDrag, binAtX, binCount, histogramScale, tallestBin, type BinBand } from './histogramView.ts';

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
  };
}

function draw(canvas: HTMLCanvasElement, widthCss: number, h: Histogram, summary: DistributionSummary, band: BinBand | null, palette: Palette): void {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(widthCss * dpr));
  const hh = Math.round(HEIGHT_CSS * dpr);
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== hh) canvas.height = hh;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, widthCss, HEIGHT_CSS);
  const bins = binCount(h);
  const barW = widthCss / bins;
  const top = tallestBin(h);
  const plotTop = 12;
  const plotH = PLOT_HEIGHT_CSS - plotTop;

  if (band) {
    ctx.fillStyle = palette.band;
    ctx.fillRect(band.first * barW, 0, (band.last - band.first + 1) * barW, PLOT_HEIGHT_CSS);
  }
  ctx.fillStyle = palette.grid;
  ctx.fillRect(0, PLOT_HEIGHT_CSS - 1, widthCss, 1);
  for (let b = 0; b < bins; b++) {
    const v = h.values[b];
    if (v <= 0) continue;
    // At least 2 px, so a lone instance in a tall distribution still shows.
    const barH = Math.max(2, (v / top) * plotH);
    const inBand = !band || (b >= band.first && b <= band.last);
    ctx.fillStyle = inBand ? palette.bar : palette.barDim;
    ctx.globalAlpha = inBand ? 1 : 0.45;
    ctx.fillRect(b * barW + 0.5, PLOT_HEIGHT_CSS - 1 - barH, Math.max(1, barW - 1), barH);
  }
  ctx.globalAlpha = 1;

  const x = histogramScale(h, widthCss);
  ctx.font = '10px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  // Percentile markers, labels at the top, pushed apart when they would overlap.
  let labelEnd = -Infinity;
  const markers: [string, number][] = [
    ['P50', summary.p50Ns],
    ['P90', summary.p90Ns],
    ['P99', summary.p99Ns],
  ];
  for (const [name, ns] of markers) {
    const mx = Math.round(Math.min(widthCss - 1, Math.max(0, x(Math.max(ns, h.edges[0]))))) + 0.5;
    ctx.strokeStyle = palette.marker;
    ctx.setLineDash([3, 2]);
    ctx.beginPath();
    ctx.moveTo(mx, plotTop - 2);
    ctx.lineTo(mx, PLOT_HEIGHT_CSS - 1);
    ctx.stroke();
    ctx.setLineDash([]);
    const tw = ctx.measureText(name).width;
    let lx = Math.min(widthCss - tw - 1, Math.max(1, mx - tw / 2));
    if (lx < labelEnd + 3) lx = labelEnd + 3;
    if (lx + tw <= widthCss) {
      ctx.fillStyle = palette.marker;
      ctx.fillText(name, lx, 0);
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
  band,
  onBand,
  onBins,
}: {
  histogram: Histogram;
  summary: DistributionSummary;
  band: BinBand | null;
  onBand(band: BinBand | null): void;
  onBins(bins: number): void;
}) {
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
    if (width > 0 && canvasRef.current) draw(canvasRef.current, width, histogram, summary, shownBand, readPalette(canvasRef.current));
  }, [width, histogram, summary, shownBand?.first, shownBand?.last, theme]);

  const local = (e: ReactPointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return Math.min(width - 0.001, Math.max(0, e.clientX - r.left));
  };
  const total = histogram.values.reduce((a, b) => a + b, 0);
  const hover = hoverBin !== null && hoverBin < histogram.values.length ? hoverBin : null;

  return (
    <div className="st-hist" ref={boxRef}>
      <canvas
        ref={canvasRef}
        className="st-hist-canvas"
        style={{ width: width || '100%', height: HEIGHT_CSS }}
        role="img"
        aria-label={`Duration histogram, ${histogram.scale} axis, ${histogram.weight === 'count' ? 'instances' : 'time'} per bar`}
        data-testid="histogram"
        data-bins={binCount(histogram)}
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
        <p className={`st-hist-hover ${hover < binCount(histogram) / 2 ? 'right' : 'left'}`} data-testid="histogram-hover">
          <>
            {formatDurationShort(histogram.edges[hover])} – {formatDurationShort(histogram.edges[hover + 1])}:{' '}
            {histogram.weight === 'count'
              ? `${formatCount(histogram.values[hover])} instances`
              : `${formatDurationShort(histogram.values[hover])} total`}{' '}
            ({total > 0 ? ((100 * histogram.values[hover]) / total).toFixed(1) : '0'}%)
          </>
        </p>
      )}
    </div>
  );
}
