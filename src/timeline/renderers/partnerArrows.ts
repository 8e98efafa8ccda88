/**
 * Arrows from a selected range's launching call to its GPU work (or to the selected work from its
 * call), drawn on the overlay over the dashed partner outlines: the link Perfetto draws for ac2g
 * flows, for every capture with correlated ranges (nsys exports and PyTorch profiler traces alike);
 * and the Chrome flow arrows (`Model.flows`) that start or end at the selected range.
 */
import type { Selection } from '../../state/viewerStore.ts';
import type { Canvas2D } from '../canvas2d.ts';
import { partnerArrows } from '../correlation.ts';
import { locateRange, type Frame } from '../frame.ts';
import { flowLinks } from '../../model/flows.ts';
import type { BoxCss } from './trackRenderer.ts';

const HEAD_CSS = 6;

/**
 * The arrows' end points in CSS px: from the point of the launching call nearest the work's start
 * (mid-height; usually the call's end: a call is often much longer than the view around its kernel)
 * to the work's start.
 */
export function arrowSegments(frame: Frame, selection: Selection): { x0: number; y0: number; x1: number; y1: number }[] {
  if (!selection || selection.kind !== 'range') return [];
  const capture = frame.layout.captures.find((c) => c.id === selection.capture);
  if (!capture || selection.index >= capture.model.ranges.startNs.length) return [];
  const boxes = new Map<number, BoxCss | null>();
  const box = (r: number) => {
    if (!boxes.has(r)) boxes.set(r, locateRange(frame, selection.capture, r));
    return boxes.get(r)!;
  };
  const out: { x0: number; y0: number; x1: number; y1: number }[] = [];
  for (const [from, to] of [...partnerArrows(capture.model, selection.index), ...flowLinks(capture.model, selection.index)]) {
    const a = box(from);
    const b = box(to);
    if (!a || !b) continue;
    out.push({ x0: Math.min(a.x1, Math.max(a.x0, b.x0)), y0: a.y + a.h / 2, x1: b.x0, y1: b.y + b.h / 2 });
  }
  return out;
}

export function drawPartnerArrows(ctx: Canvas2D, frame: Frame, selection: Selection, color: string): void {
  const segments = arrowSegments(frame, selection);
  if (segments.length === 0) return;
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineWidth = 1.5;
  for (const seg of segments) {
    // Far-off ends are moved along the line to the edge of a band around the view (huge
    // coordinates draw badly), keeping the arrow's direction.
    const s = clipSegment(seg, -frame.widthCss, 2 * frame.widthCss);
    if (!s) continue;
    const { x0, x1 } = s;
    ctx.beginPath();
    ctx.moveTo(x0, s.y0);
    ctx.lineTo(x1, s.y1);
    ctx.stroke();
    // Head at the target, along the line.
    const angle = Math.atan2(s.y1 - s.y0, x1 - x0);
    ctx.beginPath();
    ctx.moveTo(x1, s.y1);
    ctx.lineTo(x1 - HEAD_CSS * Math.cos(angle - 0.45), s.y1 - HEAD_CSS * Math.sin(angle - 0.45));
    ctx.lineTo(x1 - HEAD_CSS * Math.cos(angle + 0.45), s.y1 - HEAD_CSS * Math.sin(angle + 0.45));
    ctx.closePath();
    ctx.fill();
  }
}

/** The part of a segment with x in [lo, hi], or null when it has none. */
export function clipSegment(
  s: { x0: number; y0: number; x1: number; y1: number },
  lo: number,
  hi: number,
): { x0: number; y0: number; x1: number; y1: number } | null {
  if ((s.x0 < lo && s.x1 < lo) || (s.x0 > hi && s.x1 > hi)) return null;
  const at = (x: number) => s.y0 + ((x - s.x0) / (s.x1 - s.x0)) * (s.y1 - s.y0);
  const clip = (x: number): [number, number] | undefined => (x < lo ? [lo, at(lo)] : x > hi ? [hi, at(hi)] : undefined);
  const a = clip(s.x0);
  const b = clip(s.x1);
  return { x0: a ? a[0] : s.x0, y0: a ? a[1] : s.y0, x1: b ? b[0] : s.x1, y1: b ? b[1] : s.y1 };
}
