import { describe, expect, it } from 'vitest';
import { rangeStats } from './rangeStats.ts';
import { ModelBuilder } from '../model/builder.ts';
import { rangeName } from '../model/query.ts';
import type { Model } from '../model/types.ts';
import {
  captureFilter,
  decodeFilters,
  encodeFilters,
  filteredScope,
  NO_FILTERS,
  ShownIndex,
  withHidden,
  type EventFilters,
  type FilterItem,
} from './eventFilters.ts';
import { seededRandom } from '../../testkit/gen/random.ts';

/**
 * Process 10 (threads 1 "main", 2 "io") and process 20 (thread 3). Categories of the default
 * domain: 1 "Compute" > 2 "Kernels" > 3 "Fused", and 4 "IO". Domain "net" on thread 1.
 */
function sample(): Model {
  const b = new ModelBuilder({ fileName: 'filters.test', format: 'test', byteSize: 0 });
  const main = b.thread(10, 1, 'main');
  const io = b.thread(10, 2, 'io');
  const other = b.thread(20, 3, 'other');
  const net = b.domain(10, 'net');
  b.nameCategory(0, 1, 'Compute');
  b.nameCategory(0, 2, 'Kernels');
  b.nameCategory(0, 3, 'Fused');
  b.nameCategory(0, 4, 'IO');
  b.addChildCategory(0, 1, 2);
  b.addChildCategory(0, 2, 3);
  b.push(main, 0, { name: 'frame' });
  b.push(main, 10, { name: 'update', category: 1 });
  b.pop(main, 20);
  b.push(main, 30, { name: 'gemm', category: 3 });
  b.pop(main, 40);
  b.pop(main, 100);
  b.push(main, 5, { name: 'send', domain: net });
  b.pop(main, 15, net);
  b.range(io, 0, 50, { name: 'read', category: 4 });
  b.range(io, 60, 90, { name: 'conv', category: 2 });
  b.mark(io, 55, { name: 'tick' });
  b.push(other, 0, { name: 'frame' });
  b.pop(other, 80);
  return b.finish();
}

function shownNames(model: Model, filters: EventFilters): string[] {
  const f = captureFilter(model, filters);
  const out: string[] = [];
  for (let i = 0; i < model.ranges.startNs.length; i++) if (!f || f.ranges.shown(i)) out.push(rangeName(model, i));
  return out.sort();
}

const hide = (...items: FilterItem[]) => withHidden(NO_FILTERS, items, true);

describe('captureFilter', () => {
  it('hides nothing without hidden items', () => {
    expect(captureFilter(sample(), NO_FILTERS)).toBeNull();
  });

  it('hides a category and, through the hierarchy, its children and grandchildren', () => {
    const model = sample();
    expect(shownNames(model, hide({ kind: 'category', domain: '', id: 1 }))).toEqual(['frame', 'frame', 'read', 'send']);
    expect(shownNames(model, hide({ kind: 'category', domain: '', id: 2 }))).toEqual(['frame', 'frame', 'read', 'send', 'update']);
    expect(shownNames(model, hide({ kind: 'category', domain: '', id: 3 }))).toEqual(['conv', 'frame', 'frame', 'read', 'send', 'update']);
  });

  it('hides "no category" of a domain, names, domains, threads and processes', () => {
    const model = sample();
    expect(shownNames(model, hide({ kind: 'category', domain: '', id: 0 }))).toEqual(['conv', 'gemm', 'read', 'send', 'update']);
    expect(shownNames(model, hide({ kind: 'name', domain: '', name: 'frame' }))).toEqual(['conv', 'gemm', 'read', 'send', 'update']);
    // The same name in another domain is another name.
    expect(shownNames(model, hide({ kind: 'name', domain: 'net', name: 'frame' }))).toHaveLength(7);
    expect(shownNames(model, hide({ kind: 'domain', domain: 'net' }))).not.toContain('send');
    expect(shownNames(model, hide({ kind: 'thread', pid: 10, tid: 2 }))).toEqual(['frame', 'frame', 'gemm', 'send', 'update']);
    expect(shownNames(model, hide({ kind: 'process', pid: 10 }))).toEqual(['frame']);
  });

  it('keeps only the names chosen with "only" items, and still applies the other filters', () => {
    const model = sample();
    const only = hide({ kind: 'only', domain: '', name: 'frame' });
    expect(shownNames(model, only)).toEqual(['frame', 'frame']);
    expect(shownNames(model, withHidden(only, [{ kind: 'only', domain: '', name: 'read' }], true))).toEqual(['frame', 'frame', 'read']);
    expect(shownNames(model, withHidden(only, [{ kind: 'process', pid: 20 }], true))).toEqual(['frame']);
    // Rows left without an event leave the timeline.
    expect(captureFilter(model, only)!.shownTracks.length).toBeLessThan(model.tracks.length);
    expect(decodeFilters(encodeFilters(only)).filters).toEqual(only);
    expect(encodeFilters(hide({ kind: 'only', domain: 'net', name: 'a:b,c' }))).toBe('o:net:a%3Ab%2Cc');
  });

  it('drops rows that are hidden themselves or whose every event is hidden', () => {
    const model = sample();
    const rows = (filters: EventFilters) => {
      const f = captureFilter(model, filters)!;
      return model.tracks.filter((_, t) => f.hiddenTracks[t] === 1).map((t) => `${t.kind}:${t.label}`);
    };
    const pushpopOf = (tid: number) => model.tracks.findIndex((t) => t.kind === 'pushpop' && model.threads[t.thread].tid === tid && t.domain === 0);
    // Thread 3 has one range: hiding its name empties its push/pop row.
    const byName = captureFilter(model, hide({ kind: 'name', domain: '', name: 'frame' }))!;
    expect(byName.hiddenTracks[pushpopOf(3)]).toBe(1);
    expect(byName.hiddenTracks[pushpopOf(1)]).toBe(0);
    expect(byName.shownTracks).not.toContain(pushpopOf(3));
    // A hidden thread takes its marks row along.
    expect(rows(hide({ kind: 'thread', pid: 10, tid: 2 })).some((r) => r.startsWith('marks'))).toBe(true);
    expect(captureFilter(model, hide({ kind: 'thread', pid: 10, tid: 2 }))!.marks.count(0, model.marks.timeNs.length)).toBe(0);
  });

  it('is what the statistics leave out when passed as scope options', () => {
    const model = sample();
    const filters = hide({ kind: 'category', domain: '', id: 2 });
    const f = captureFilter(model, filters);
    const stats = rangeStats(model, filteredScope(f, {}));
    expect(stats.rows.map((r) => r.label).sort()).toEqual(['frame', 'net:send', 'read', 'update']);
    expect(stats.rangeCount).toBe(5);
  });

  it('is cached per model for one filters object', () => {
    const model = sample();
    const filters = hide({ kind: 'process', pid: 20 });
    expect(captureFilter(model, filters)).toBe(captureFilter(model, filters));
    expect(captureFilter(model, hide({ kind: 'process', pid: 20 }))).not.toBe(captureFilter(model, filters));
  });
});

describe('ShownIndex', () => {
  it('answers count, next and last like a scan (property)', () => {
    const random = seededRandom(5);
    for (let round = 0; round < 200; round++) {
      const n = Math.floor(random() * 40);
      const density = random();
      const shown = Uint8Array.from({ length: n }, () => (random() < density ? 1 : 0));
      const index = new ShownIndex(shown);
      for (let q = 0; q < 20; q++) {
        const lo = Math.floor(random() * (n + 1));
        const hi = lo + Math.floor(random() * (n - lo + 1));
        let count = 0;
        let next = hi;
        let last = lo - 1;
        for (let i = lo; i < hi; i++) {
          if (!shown[i]) continue;
          count++;
          if (next === hi) next = i;
          last = i;
        }
        expect(index.count(lo, hi)).toBe(count);
        expect(index.next(lo, hi)).toBe(next);
        expect(index.last(lo, hi)).toBe(last);
        if (lo < n) expect(index.shown(lo)).toBe(shown[lo] === 1);
      }
    }
  });
});

describe('filter text', () => {
  it('round-trips every kind of item, with separators inside names', () => {
    const filters = hide(
      { kind: 'domain', domain: 'a:b,c%' },
      { kind: 'category', domain: '', id: 7 },
      { kind: 'process', pid: 1844 },
      { kind: 'thread', pid: 1844, tid: 4880 },
      { kind: 'name', domain: 'net', name: 'send, then: wait 100%' },
    );
    const text = encodeFilters(filters);
    expect(decodeFilters(text)).toEqual({ filters, problems: [] });
    expect(encodeFilters(NO_FILTERS)).toBe('');
    expect(decodeFilters('').filters).toBe(NO_FILTERS);
  });

  it('skips unreadable items and names them', () => {
    const { filters, problems } = decodeFilters('p:12,x:1,t:1,c:dom:notanumber');
    expect(filters.hidden).toEqual([{ kind: 'process', pid: 12 }]);
    expect(problems).toHaveLength(3);
  });

  it('keeps one entry per item and shows items again', () => {
    const a: FilterItem = { kind: 'process', pid: 1 };
    const b: FilterItem = { kind: 'name', domain: '', name: 'x' };
    const twice = withHidden(hide(a), [a, b], true);
    expect(twice.hidden).toEqual([a, b]);
    expect(withHidden(twice, [a], false).hidden).toEqual([b]);
  });
});
