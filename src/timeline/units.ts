/**
 * Length units of the timeline. Layout, hit testing and drawing work in CSS pixels; only the
 * canvas backing store is sized in device pixels, through `cssToDevice`.
 */

/** A length or coordinate in CSS pixels. */
export type CssPx = number;
/** A length or coordinate in device pixels (canvas backing store). */
export type DevicePx = number;

/** Canvas backing-store size for a CSS length at a device pixel ratio. */
export function cssToDevice(lengthCss: CssPx, dpr: number): DevicePx {
  return Math.max(1, Math.round(lengthCss * dpr));
}

/** Snaps a CSS coordinate to the nearest device pixel boundary, so box edges stay crisp. */
export function snapCss(xCss: CssPx, dpr: number): CssPx {
  return Math.round(xCss * dpr) / dpr;
}
