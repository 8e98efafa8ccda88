/**
 * Readies a chart canvas of `widthCss` x `heightCss` CSS pixels for drawing at the screen's pixel
 * density: its backing store sized in device pixels (resized only when that changes), the context
 * scaled so drawing is in CSS pixels, and cleared. Null when the browser gives no 2D context.
 */
export function chartContext(canvas: HTMLCanvasElement, widthCss: number, heightCss: number): CanvasRenderingContext2D | null {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(widthCss * dpr));
  const h = Math.round(heightCss * dpr);
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, widthCss, heightCss);
  return ctx;
}
