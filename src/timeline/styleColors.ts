/**
 * Colors of ranges and marks: the capture's own (NVTX ARGB) when given, else a stable palette
 * color picked by hashing the name, so the same name has the same color in every capture and
 * every session. Label text is black or white, whichever contrasts more with the box.
 */
import type { Model } from '../model/types.ts';

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/**
 * RGB of an NVTX ARGB color, or null for 0 ("no color"). An alpha byte of 0 with a non-zero RGB is
 * taken as opaque: emitters commonly write 0xRRGGBB without alpha.
 */
export function argbToRgb(argb: number): Rgb | null {
  if (argb === 0) return null;
  return { r: (argb >>> 16) & 0xff, g: (argb >>> 8) & 0xff, b: argb & 0xff };
}

export function rgbToCss({ r, g, b }: Rgb): string {
  return `#${((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1)}`;
}

/** WCAG relative luminance, 0 (black) .. 1 (white). */
export function relativeLuminance({ r, g, b }: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrastRatio(a: Rgb, b: Rgb): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

const DARK_TEXT: Rgb = { r: 0x10, g: 0x12, b: 0x14 };
const LIGHT_TEXT: Rgb = { r: 0xff, g: 0xff, b: 0xff };

/** Label color for text on a box of color `box`. */
export function textColorOn(box: Rgb): string {
  return contrastRatio(box, DARK_TEXT) >= contrastRatio(box, LIGHT_TEXT) ? rgbToCss(DARK_TEXT) : rgbToCss(LIGHT_TEXT);
}

/** 32-bit FNV-1a of a string: stable across sessions and machines. */
export function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function hslToRgb(hueDeg: number, saturation: number, lightness: number): Rgb {
  const c = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const h = (((hueDeg % 360) + 360) % 360) / 60;
  const x = c * (1 - Math.abs((h % 2) - 1));
  const [r, g, b] = h < 1 ? [c, x, 0] : h < 2 ? [x, c, 0] : h < 3 ? [0, c, x] : h < 4 ? [0, x, c] : h < 5 ? [x, 0, c] : [c, 0, x];
  const m = lightness - c / 2;
  const to = (v: number) => Math.round((v + m) * 255);
  return { r: to(r), g: to(g), b: to(b) };
}

/** Hues of the name palette, ordered so that neighbouring entries differ strongly. */
const PALETTE_HUES = [212, 28, 140, 350, 262, 48, 186, 316, 92, 8, 236, 166, 296, 64, 200, 122];

/** The name palette for a theme: mid-tone on light backgrounds, deeper on dark ones. */
export function namePalette(dark: boolean): Rgb[] {
  return PALETTE_HUES.map((hue, i) => hslToRgb(hue, dark ? 0.45 : 0.58, (dark ? 0.42 : 0.6) + (i % 2 ? 0.04 : 0)));
}

/** Fill and label colors per style of a model (index = StyleIndex). */
export interface StylePaint {
  fill: string[];
  text: string[];
}

const paintCache = new WeakMap<Model, { dark: boolean; paint: StylePaint }>();

/** Colors of every style of `model` for the current theme, computed once per model and theme. */
export function stylePaint(model: Model, dark: boolean): StylePaint {
  const cached = paintCache.get(model);
  if (cached && cached.dark === dark) return cached.paint;
  const palette = namePalette(dark);
  const n = model.styles.name.length;
  const paint: StylePaint = { fill: new Array<string>(n), text: new Array<string>(n) };
  // Styles share few colors (the palette, the program's own): the label contrast, which takes
  // powers per channel, is worked out once per color, not per style (thousands at 10M events).
  const byColor = new Map<number, { fill: string; text: string }>();
  for (let s = 0; s < n; s++) {
    const rgb = argbToRgb(model.styles.color[s]) ?? palette[nameHash(model.strings[model.styles.name[s]]) % palette.length];
    const key = (rgb.r << 16) | (rgb.g << 8) | rgb.b;
    let colors = byColor.get(key);
    if (!colors) byColor.set(key, (colors = { fill: rgbToCss(rgb), text: textColorOn(rgb) }));
    paint.fill[s] = colors.fill;
    paint.text[s] = colors.text;
  }
  paintCache.set(model, { dark, paint });
  return paint;
}
