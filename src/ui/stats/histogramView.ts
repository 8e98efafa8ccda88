/**
 * The per-name duration histogram as geometry, and what a drag over it selects: pixel <-> duration
 * on a linear or logarithmic axis, bins under a drag, and the instances in those bins (a contiguous
 * run of the instances sorted by duration, found by binary search).
 */
import { scaleLinear, scaleLog } from 'd3-scale';
import type { Histogram } from '../../analysis/histogram.ts';
import { lowerBound } from '../../model/query.ts';

/**
 * Bins worth drawing for n instances: about 2√n (a few instances per bar on average, so the shape
 * shows instead of a comb of lone bars), at least 8, at most `maxBins` (what the width allows).
 */
export function binsForCount(n: number, maxBins: number): number {
  return Math.max(1, Math.min(maxBins, Math.max(8, Math.ceil(2 * Math.sqrt(n)))));
}

export function binCount(h: Histogram): number {
  return h.values.length;
}

/**
 * The bin a duration falls in, by the same arithmetic as `durationHistogram` (values outside the
 * axis go to the first or last bin), so a band holds exactly the instances its bars count.
 */
export function binOf(h: Histogram, ns: number): number {
  const bins = binCount(h);
  const lo = h.edges[0];
  const hi = h.edges[bins];
  let b: number;
  if (h.scale === 'log') {
    const ratio = Math.log(hi / lo);
    b = ns <= lo ? 0 : Math.floor((Math.log(ns / lo) / ratio) * bins);
  } else {
    b = Math.floor((ns - lo) / ((hi - lo) / bins));
  }
  return b < 0 ? 0 : b >= bins ? bins - 1 : b;
}

/** Duration <-> x over [0, widthCss]. */
export function histogramScale(h: Histogram, widthCss: number) {
  const domain: [number, number] = [h.edges[0], h.edges[binCount(h)]];
  return h.scale === 'log' ? scaleLog().domain(domain).range([0, widthCss]) : scaleLinear().domain(domain).range([0, widthCss]);
}

/** The bin under x (bins are equally wide in pixels on both axes). */
export function binAtX(h: Histogram, xCss: number, widthCss: number): number {
  const bins = binCount(h);
  const b = Math.floor((xCss / widthCss) * bins);
  return b < 0 ? 0 : b >= bins ? bins - 1 : b;
}

/** Bins b0..b1 (inclusive, either order). */
export interface BinBand {
  first: number;
  last: number;
}

export function bandOfDrag(h: Histogram, x0Css: number, x1Css: number, widthCss: number): BinBand {
  const a = binAtX(h, x0Css, widthCss);
  const b = binAtX(h, x1Css, widthCss);
  return { first: Math.min(a, b), last: Math.max(a, b) };
}

/** Duration interval a band covers: [edges[first], edges[last + 1]]. */
export function bandInterval(h: Histogram, band: BinBand): { fromNs: number; toNs: number } {
  return { fromNs: h.edges[band.first], toNs: h.edges[band.last + 1] };
}

/**
 * [begin, end) positions, among durations sorted ascending, of the instances in the band's bins.
 * Bin numbers never decrease along sorted durations, so the band is one contiguous run.
 */
export function bandPositions(h: Histogram, sorted: ArrayLike<number>, band: BinBand): [number, number] {
  const n = sorted.length;
  const firstAtLeast = (bin: number) => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (binOf(h, sorted[mid]) < bin) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return [firstAtLeast(band.first), band.last + 1 >= binCount(h) ? n : firstAtLeast(band.last + 1)];
}

/** The highest bar, for the vertical scale (at least 1 so an empty histogram still draws). */
export function tallestBin(h: Histogram): number {
  let max = 0;
  for (let b = 0; b < h.values.length; b++) if (h.values[b] > max) max = h.values[b];
  return max > 0 ? max : 1;
}

/** The highest bar of several histograms drawn on one vertical scale (at least 1). */
export function tallestBinOf(histograms: readonly Histogram[]): number {
  let max = 1;
  for (const h of histograms) max = Math.max(max, tallestBin(h));
  return max;
}

/** Height in CSS px of a bar holding v: 0 when empty, else at least 2 px so a lone instance still shows. */
export function barHeight(v: number, tallest: number, plotHeightCss: number): number {
  return v > 0 ? Math.max(2, (v / tallest) * plotHeightCss) : 0;
}

/**
 * The outline of a histogram drawn as steps (the overlaid series, so the filled one stays visible
 * under it): points [x0, y0, x1, y1, ...] from the baseline at the left edge, up or down to each
 * bin's top and across it, back to the baseline at the right edge. Bin b's part is the points
 * 2b .. 2b + 2 (its left riser and its top), so a band can dim bins outside it.
 */
export function stepOutline(h: Histogram, tallest: number, widthCss: number, baselineY: number, plotHeightCss: number): number[] {
  const bins = binCount(h);
  const barW = widthCss / bins;
  const out = [0, baselineY];
  for (let b = 0; b < bins; b++) {
    const y = baselineY - barHeight(h.values[b], tallest, plotHeightCss);
    out.push(b * barW, y, (b + 1) * barW, y);
  }
  out.push(widthCss, baselineY);
  return out;
}

/** A bin's value and its share (in %) of the histogram's total, for the hover readout. */
export function binShare(h: Histogram, bin: number): { value: number; percent: number } {
  let total = 0;
  for (let b = 0; b < h.values.length; b++) total += h.values[b];
  const value = h.values[bin] ?? 0;
  return { value, percent: total > 0 ? (100 * value) / total : 0 };
}

/** Position of the first duration >= ns among sorted durations (for markers and tests). */
export function rankOf(sorted: ArrayLike<number>, ns: number): number {
  return lowerBound(sorted, ns, 0, sorted.length);
}
