/**
 * Statistics over a capture model: pure functions of a `Model` (no DOM), usable in the page, in a
 * worker and in Node. They read the columnar model directly (no object per range) and only visit
 * the ranges a scope can reach, two binary searches per track level.
 *
 * Scope (every statistic takes these `ScopeOptions`):
 *   spans?           time spans in ns from the capture start; their union is the scope; none = all
 *   mode?            'clip' (default): only the part of a range inside the spans counts;
 *                    'overlap': ranges meeting the spans count whole (nsys counts whole ranges);
 *                    'contain': only ranges entirely inside one span count (whole)
 *   tracks?          indices into `model.tracks` to restrict to (e.g. the selected rows)
 *   kinds?           range row kinds; default NVTX ranges ['pushpop', 'category']
 *   includeStyles?   Uint8Array per style, 0 = hidden (the page's name/category/domain filters)
 *   includeThreads?  Uint8Array per thread, 0 = hidden (thread/process filters)
 *
 * Range table:
 *   rangeStats(model, { ...scope, groupBy? }) -> { rows, rangeCount, totalNs, scopeNs }
 *     groupBy: 'name' (default; rows per style + domain + name, like nsys) | 'thread' | 'process'
 *              | 'category' | 'domain' | 'parent' (name of the enclosing range) | 'payload'
 *     rows (by total descending): key, label (`domain:name`, default domain without prefix),
 *     style (PushPop/StartEnd), count, totalNs, selfNs (total minus time covered by direct
 *     children on the same row), avgNs, medianNs (mean of the middle two for an even count),
 *     minNs, maxNs, stdDevNs (sample, n - 1; 0 for one instance), p90Ns, p99Ns, timePercent
 *     (share of the sum of the listed rows' totals), maxRange (the longest instance).
 *   rangeInstances(model, sameOptions, row.key) -> { ranges, durations } sorted by duration:
 *     feed `durations` to durationHistogram / summarizeSorted / durationBand; `ranges[i]` is the
 *     RangeIndex to select or highlight (jump targets: summarizeSorted(...).slowestIndex etc.).
 *
 * One range:  rangeDetails(model, range) -> name, category, thread/process, start, end,
 *             duration, self, depth, parent chain, child count, children by name
 *             (count, total, self, % of the range), color, payload, flags.
 * Marks:      markStats(model, { spans?, tracks?, groupBy?, include* }) -> counts per name.
 * Counters:   counterStats(model, { spans?, tracks? }) -> min, max, time-weighted average,
 *             first, last, delta, rate per second per counter row (step-function semantics).
 * Helpers:    durationHistogram (linear/log bins, count or time weighted), sharedDurationHistograms
 *             (several series on one axis, for overlaying), summarizeSorted,
 *             durationBand, quantiles / percentile / percentileSorted / quantilesInPlace
 *             (linear interpolation between closest ranks, NumPy's default), parseDuration.
 *
 * Two captures: src/analysis/compare/ (`compareCaptures(base, candidate, options)`), per group
 *             both sides' count, total, mean, median, P90, P99, their changes, added/removed, and
 *             a Mann-Whitney U noise verdict; `--fail-if` thresholds for the CLI.
 *
 * Durations are in ns (the model's unit) and exact integers whenever the inputs are; averages,
 * medians of even counts, percentiles and deviations may be fractional. Results are plain objects
 * and typed arrays, so they can be posted from a worker.
 */
export { counterStats, type CounterStatsOptions, type CounterStatsRow } from './counterStats.ts';
export { GROUP_BY_TITLE, GROUP_BY_VALUES, qualifiedName, type GroupBy, type GroupInfo, type RangeStyle } from './groups.ts';
export {
  durationBand,
  durationHistogram,
  sameBins,
  sharedDurationHistograms,
  summarizeSorted,
  type DistributionSummary,
  type Histogram,
  type HistogramOptions,
} from './histogram.ts';
export { markStats, type MarkStatsOptions, type MarkStatsResult, type MarkStatsRow } from './markStats.ts';
export { nearestRankIndex, percentile, percentileSorted, quantiles, quantilesInPlace } from './quantiles.ts';
export { rangeDetails, type ChildBreakdownRow, type RangeDetails, type ThreadRef } from './rangeDetails.ts';
export {
  rangeInstances,
  rangeStats,
  type GroupInstances,
  type RangeStatsOptions,
  type RangeStatsResult,
  type RangeStatsRow,
} from './rangeStats.ts';
export { mergeSpans, NVTX_RANGE_KINDS, type ScopeOptions, type SpanMode, type TimeSpan } from './scope.ts';
export { parseDuration } from './units.ts';
