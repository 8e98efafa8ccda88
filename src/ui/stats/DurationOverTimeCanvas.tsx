/**
 * Each instance's duration (y, from 0) against its start (x, capture time): how a row's instances
 * (training steps, iterations) change over the capture, with the P50 line. Where a pixel column
 * holds several instances it is drawn as a line from its shortest to its longest (see
 * `durationOverTime.ts`), so a draw costs one step per column. Hover reads an instance out; a
 * click selects it on the timeline, as a click in the instance list does.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import type { DistributionSummary } from '../../analysis/histogram.ts';
import type { GroupInstances } from '../../analysis/rangeStats.ts';
import { formatDurationShort, formatTimestamp } from '../../format/time.ts';
import { rangeName } from '../../model/query.ts';
import { useViewer } from '../../state/context.tsx';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import { useEffectiveTheme } from '../useTheme.ts';
import { chartContext } from './chartCanvas.ts';
import { columnX, durationY, mergeColumns, pointNear, reduceToColumns, type TimeColumns } from './durationOverTime.ts';

const PLOT_HEIGHT_CSS = 72;
const AXIS_HEIGHT_CSS = 14;
const HEIGHT_CSS = PLOT_HEIGHT_CSS + AXIS_HEIGHT_CSS;
const PLOT_TOP_CSS = 12;
/** How far (CSS px) from a point the pointer still picks it. */
const PICK_RADIUS_CSS = 6;
/** Room left and right of the plot, so points at the first and last start show whole. */
const PAD_CSS = 5;
/** Columns of the one pass over the instances: more than any panel is wide. */
const FINE_COLUMNS = 4096;

interface Palette {
  point: string;
  marker: string;
  selected: string;
  muted: string;
  grid: string;
}

function readPalette(el: Element): Palette {
  const s = getComputedStyle(el);
  const v = (name: string, fallback: string) => s.getPropertyValue(name).trim() || fallback;
  return {
    point: v('--accent', '#3f7d00'),
    marker: v('--info', '#2e6cd6'),
    selected: v('--warning', '#a86200'),
    muted: v('--fg-muted', '#5b6675'),
    grid: v('--grid', '#e8ecf1'),
  };
}

function draw(
  canvas: HTMLCanvasElement,
  widthCss: number,
  cols: TimeColumns,
  durations: Float64Array,
  summary: DistributionSummary,
  hovered: number,
  palette: Palette,
): void {
  const ctx = chartContext(canvas, widthCss, HEIGHT_CSS);
  if (!ctx) return;
  const baseY = PLOT_HEIGHT_CSS - 1;
  const plotW = Math.max(1, widthCss - 2 * PAD_CSS);
  const topNs = summary.maxNs;
  const y = (ns: number) => durationY(ns, topNs, PLOT_TOP_CSS, baseY);
  ctx.fillStyle = palette.grid;
  ctx.fillRect(0, baseY, widthCss, 1);

  // Points: a dot per column, or a line from its shortest to its longest instance.
  // Dots while instances are sparse (steps); columns only where they crowd.
  const dots = durations.length <= cols.columns;
  ctx.fillStyle = palette.point;
  ctx.strokeStyle = palette.point;
  for (let c = 0; c < cols.columns; c++) {
    const lo = cols.minAt[c];
    if (lo < 0) continue;
    const hi = cols.maxAt[c];
    const x = PAD_CSS + columnX(c, cols.columns, plotW);
    const y0 = y(durations[lo]);
    const y1 = y(durations[hi]);
    if (dots) {
      ctx.beginPath();
      ctx.arc(x, y1, 2.5, 0, 2 * Math.PI);
      if (hi !== lo) ctx.arc(x, y0, 2.5, 0, 2 * Math.PI);
      ctx.fill();
    }
    if (hi !== lo || !dots) ctx.fillRect(Math.floor(x), Math.min(y0, y1) - 0.5, 1, Math.max(1, Math.abs(y0 - y1) + 1));
  }
  if (hovered >= 0) {
    const c = hoveredColumn(cols, hovered);
    if (c >= 0) {
      ctx.strokeStyle = palette.selected;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.arc(PAD_CSS + columnX(c, cols.columns, plotW), y(durations[hovered]), 4.5, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.lineWidth = 1;
    }
  }

  ctx.font = '10px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  // The median: a dashed line across, labelled at its right end.
  const py = Math.round(y(summary.p50Ns)) + 0.5;
  ctx.strokeStyle = palette.marker;
  ctx.setLineDash([3, 2]);
  ctx.beginPath();
  ctx.moveTo(0, py);
  ctx.lineTo(widthCss, py);
  ctx.stroke();
  ctx.setLineDash([]);
  // Its label in the axis line, where it covers no point.
  ctx.fillStyle = palette.marker;
  ctx.textAlign = 'center';
  ctx.fillText(`P50 ${formatDurationShort(summary.p50Ns)}`, widthCss / 2, PLOT_HEIGHT_CSS + 2);
  // The longest duration, top left (the y axis runs from 0 to it).
  ctx.fillStyle = palette.muted;
  ctx.textAlign = 'left';
  ctx.fillText(formatDurationShort(topNs), 2, 0);
  // Time axis: first and last start.
  ctx.fillText(formatTimestamp(cols.fromNs), 0, PLOT_HEIGHT_CSS + 2);
  ctx.textAlign = 'right';
  ctx.fillText(formatTimestamp(cols.toNs), widthCss, PLOT_HEIGHT_CSS + 2);
  ctx.textAlign = 'left';
}

/** The column an instance position is drawn in (one scan of the columns: O(columns)). */
function hoveredColumn(cols: TimeColumns, position: number): number {
  for (let c = 0; c < cols.columns; c++) if (cols.minAt[c] === position || cols.maxAt[c] === position) return c;
  return -1;
}

export function DurationOverTimeCanvas({ capture, instances, summary }: { capture: LoadedCapture; instances: GroupInstances; summary: DistributionSummary }) {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  const [hovered, setHovered] = useState(-1);
  const theme = useEffectiveTheme();
  const revealEvent = useViewer((s) => s.revealEvent);
  const model = capture.model;

  useLayoutEffect(() => {
    const box = boxRef.current!;
    const measure = () => setWidth(Math.floor(box.clientWidth));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  // One pass over the instances per instance set, into fine columns; a width folds them, and
  // draws and hovers cost O(columns), so resizing a 10M-instance row stays smooth.
  const fine = useMemo(() => reduceToColumns(instances, model.ranges.startNs, FINE_COLUMNS), [instances, model]);
  const cols = useMemo(() => mergeColumns(fine, Math.max(1, width - 2 * PAD_CSS)), [fine, width]);
  useEffect(() => setHovered(-1), [cols]);
  useEffect(() => {
    if (width > 0 && canvasRef.current) draw(canvasRef.current, width, cols, instances.durations, summary, hovered, readPalette(canvasRef.current));
  }, [width, cols, instances, summary, hovered, theme]);

  const pick = (e: ReactMouseEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const yOf = (k: number) => durationY(instances.durations[k], summary.maxNs, PLOT_TOP_CSS, PLOT_HEIGHT_CSS - 1);
    return pointNear(cols, e.clientX - r.left - PAD_CSS, e.clientY - r.top, Math.max(1, width - 2 * PAD_CSS), yOf, PICK_RADIUS_CSS);
  };
  const range = hovered >= 0 ? instances.ranges[hovered] : -1;

  return (
    <div className="st-hist st-over-time" ref={boxRef}>
      <canvas
        ref={canvasRef}
        className="st-hist-canvas st-over-time-canvas"
        style={{ width: width || '100%', height: HEIGHT_CSS, cursor: hovered >= 0 ? 'pointer' : 'crosshair' }}
        role="img"
        aria-label="Duration of each instance over capture time, with the median line; click a point to select that instance"
        data-testid="duration-over-time"
        data-points={instances.ranges.length}
        data-columns={cols.columns}
        onPointerMove={(e) => setHovered(pick(e))}
        onPointerLeave={() => setHovered(-1)}
        onClick={(e) => {
          const k = pick(e);
          if (k >= 0) revealEvent({ kind: 'range', capture: capture.id, index: instances.ranges[k] });
        }}
      />
      {/* Under the plot, so it never covers a point. */}
      <p className="st-over-time-readout" data-testid="duration-over-time-hover">
        {range >= 0 ? (
          <>
            {rangeName(model, range)} · start {formatTimestamp(model.ranges.startNs[range])} · <strong>{formatDurationShort(instances.durations[hovered])}</strong>
          </>
        ) : (
          <span className="muted">Point at an instance to read it; a click selects it on the timeline.</span>
        )}
      </p>
    </div>
  );
}
