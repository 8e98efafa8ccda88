/**
 * The ranges whose `RangeFlag` bits are set (never ended, ended on another thread, overlapping the
 * parent), listed once with the model in the load worker. Such ranges are rare, and the health list
 * reads them on the page: walking the index there costs O(flagged) instead of a pass over every
 * range's flags (millions of bytes, tens of milliseconds on the page's thread at 10M ranges).
 */
import type { FlaggedRanges, Model } from './types.ts';

export type { FlaggedRanges };


export function buildFlaggedRanges(flags: Uint8Array): FlaggedRanges {
  let count = 0;
  for (let i = 0; i < flags.length; i++) if (flags[i] !== 0) count++;
  const index = new Int32Array(count);
  for (let i = 0, k = 0; k < count; i++) if (flags[i] !== 0) index[k++] = i;
  return { flags, index };
}

/** The model's flagged ranges, from its index when it has a valid one, else by a pass over the flags. */
export function flaggedRanges(model: Pick<Model, 'ranges' | 'flaggedRanges'>): Int32Array {
  const built = model.flaggedRanges;
  if (built !== undefined && built.flags === model.ranges.flags) return built.index;
  return buildFlaggedRanges(model.ranges.flags).index;
}
