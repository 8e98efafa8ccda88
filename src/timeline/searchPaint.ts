/**
 * Colors while a name search is active: matching styles keep their colors, the others fade toward
 * the background, so matches stand out without a second drawing pass (every renderer already
 * paints from a `StylePaint`).
 */
import { rgbToCss, stylePaint, type Rgb, type StylePaint } from './styleColors.ts';
import type { Model } from '../model/types.ts';

/** How far a non-matching fill moves toward the background (0 = unchanged, 1 = background). */
const FADE = 0.78;

function parseHex(css: string): Rgb | null {
  const m = /^#([0-9a-f]{6})$/i.exec(css.trim());
  if (!m) return null;
  const v = parseInt(m[1], 16);
  return { r: (v >> 16) & 0xff, g: (v >> 8) & 0xff, b: v & 0xff };
}

function fade(css: string, bg: Rgb, amount: number): string {
  const c = parseHex(css);
  if (!c) return css;
  const mix = (a: number, b: number) => Math.round(a + (b - a) * amount);
  return rgbToCss({ r: mix(c.r, bg.r), g: mix(c.g, bg.g), b: mix(c.b, bg.b) });
}

const cache = new WeakMap<Uint8Array, { model: Model; dark: boolean; bg: string; paint: StylePaint }>();

/** The style colors of `model` with the styles not in `match` (per style, 1 = match) faded. */
export function searchPaint(model: Model, dark: boolean, bgCss: string, match: Uint8Array): StylePaint {
  const hit = cache.get(match);
  if (hit && hit.model === model && hit.dark === dark && hit.bg === bgCss) return hit.paint;
  const base = stylePaint(model, dark);
  const bg = parseHex(bgCss) ?? (dark ? { r: 0x16, g: 0x19, b: 0x1d } : { r: 0xff, g: 0xff, b: 0xff });
  const paint: StylePaint = { fill: base.fill.slice(), text: base.text.slice() };
  for (let s = 0; s < paint.fill.length; s++) {
    if (match[s]) continue;
    paint.fill[s] = fade(base.fill[s], bg, FADE);
    // Labels of faded boxes fade with them, staying just readable.
    paint.text[s] = fade(base.text[s], parseHex(paint.fill[s]) ?? bg, 0.45);
  }
  cache.set(match, { model, dark, bg: bgCss, paint });
  return paint;
}
