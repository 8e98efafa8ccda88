/**
 * The statistics worker's kept comparison halves (`compareSide`), per capture and options: the
 * page asks for a capture's half ahead of time ('prepare', when a second capture is loaded), so
 * the first comparison only pairs the halves and tests the rows. A few per capture (the page's
 * grouping switches back and forth), dropped with the capture's model.
 */
import { compareSide, type CompareSide } from '../../analysis/compare/index.ts';
import { rangeStats, type RangeStatsOptions, type RangeStatsResult } from '../../analysis/rangeStats.ts';
import type { Model } from '../../model/types.ts';

/** Halves kept per capture: the default grouping plus the last two others. */
const PER_CAPTURE = 3;

/** A text that is equal for equal options (typed-array masks written out). */
export function optionsKey(options: RangeStatsOptions): string {
  const o: Record<string, unknown> = { ...options, groupBy: options.groupBy ?? 'name' };
  // The span mode means nothing without spans (the statistics panel always names one).
  if (!options.spans?.length) delete o.mode;
  // The same fields in one order, however the options object was built.
  const sorted = Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
  return JSON.stringify(sorted, (_k, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Uint8Array).join('') : v));
}

export class CompareSideCache {
  private readonly kept = new Map<number, { model: Model; key: string; side: CompareSide }[]>();
  hits = 0;

  /** The half of `capture` (whose model is `model`) for `options`, computed unless kept. */
  side(capture: number, model: Model, options: RangeStatsOptions): CompareSide {
    const key = optionsKey(options);
    const list = (this.kept.get(capture) ?? []).filter((e) => e.model === model);
    const found = list.findIndex((e) => e.key === key);
    if (found >= 0) {
      this.hits++;
      // Most recently used last.
      const [entry] = list.splice(found, 1);
      list.push(entry);
      this.kept.set(capture, list);
      return entry.side;
    }
    const side = compareSide(model, options);
    list.push({ model, key, side });
    if (list.length > PER_CAPTURE) list.shift();
    this.kept.set(capture, list);
    return side;
  }

  /**
   * A range table for the statistics panel, from a kept (or now kept) half when it is a whole-
   * capture table of the capture's own model: the panel's first table and the comparison's half
   * are then one computation. Span tables (one per drag step) are computed apart, so they never
   * push prepared halves out.
   */
  table(capture: number, held: Model, model: Model, options: RangeStatsOptions): RangeStatsResult {
    if (model !== held || options.spans?.length) return rangeStats(model, options);
    // Without the samples: they are the comparison's, and would be copied to the page with the table.
    const { samples: _samples, ...table } = this.side(capture, model, options).stats;
    return table;
  }

  drop(capture: number): void {
    this.kept.delete(capture);
  }
}
