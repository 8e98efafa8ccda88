/** The statistics options one side of the page's comparison runs with: its grouping and the event filters. */
import type { EventFilters } from '../../analysis/eventFilters.ts';
import { captureFilter } from '../../analysis/eventFilters.ts';
import type { GroupBy } from '../../analysis/groups.ts';
import type { RangeStatsOptions } from '../../analysis/rangeStats.ts';
import type { Model } from '../../model/types.ts';

export function compareOptions(model: Model, filters: EventFilters, groupBy: GroupBy): RangeStatsOptions {
  const f = captureFilter(model, filters);
  return f ? { groupBy, includeStyles: f.includeStyles, includeThreads: f.includeThreads, tracks: f.shownTracks } : { groupBy };
}
