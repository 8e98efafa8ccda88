/**
 * Costs of the navigation features on generated captures (no browser): building the events
 * table's per-model data, filtering and sorting its rows, computing filter masks, listing search
 * matches and flattening a thread's push/pop tree. Prints wall-clock ms per step.
 *
 *   node scripts/run-ts.mjs bench/run.ts event-table [ranges ...]      (default: 1000000)
 */
import { buildMatchList, searchStyleMask } from '../../src/analysis/nameSearch.ts';
import { captureFilter, NO_FILTERS, withHidden } from '../../src/analysis/eventFilters.ts';
import { syntheticCapture } from '../lib/syntheticCapture.ts';
import { flattenTree, noExpansion, pushPopTree } from '../../src/ui/hierarchy/hierarchy.ts';
import { DEFAULT_TABLE_QUERY, eventRows, eventTableData, type EventTableQuery } from '../../src/ui/events/eventTable.ts';

function time<T>(label: string, f: () => T): T {
  const t0 = performance.now();
  const out = f();
  console.log(`  ${label.padEnd(46)} ${(performance.now() - t0).toFixed(1).padStart(8)} ms`);
  return out;
}

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
for (const ranges of sizes.length > 0 ? sizes : [1_000_000]) {
  const model = syntheticCapture(ranges, 8);
  const n = model.ranges.startNs.length;
  console.log(`${n.toLocaleString('en')} ranges, ${model.tracks.length} tracks`);
  const data = time('events table data (kinds, processes, start order)', () => eventTableData(model));
  const q = (patch: Partial<EventTableQuery>): EventTableQuery => ({ ...DEFAULT_TABLE_QUERY, ...patch });
  time('rows, no filter, by start', () => eventRows(data, DEFAULT_TABLE_QUERY, null));
  time('rows sorted by duration (descending)', () => eventRows(data, q({ sort: { column: 'duration', descending: true } }), null));
  time('rows sorted by name', () => eventRows(data, q({ sort: { column: 'name', descending: false } }), null));
  time('rows sorted by thread', () => eventRows(data, q({ sort: { column: 'thread', descending: false } }), null));
  const text = time('rows filtered by text "name 1"', () => eventRows(data, q({ text: 'name 1' }), null));
  console.log(`    (${text.length.toLocaleString('en')} rows)`);
  const filters = withHidden(NO_FILTERS, [{ kind: 'name', domain: '', name: 'name 7' }, { kind: 'thread', pid: 1, tid: 3 }], true);
  const filter = time('filter masks (a name and a thread hidden)', () => captureFilter(model, filters));
  time('rows with the filter', () => eventRows(data, DEFAULT_TABLE_QUERY, filter));
  const styles = time('search styles for "name 1"', () => searchStyleMask(model, { text: 'name 1', regex: false, matchCase: false }));
  const list = time('search matches in time order', () => buildMatchList([{ id: 1, model, offsetNs: 0, styles, filter }]));
  console.log(`    (${list.count.toLocaleString('en')} matches)`);
  const track = model.tracks.findIndex((t) => t.kind === 'pushpop');
  const tree = time('push/pop tree of one thread', () => pushPopTree(model, track));
  time('flatten it, everything open', () => flattenTree(tree, noExpansion(tree).fill(1), null));
}
