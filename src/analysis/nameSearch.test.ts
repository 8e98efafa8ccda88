import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../model/builder.ts';
import type { Model } from '../model/types.ts';
import { captureFilter, NO_FILTERS, withHidden } from './eventFilters.ts';
import { eventStartNs } from './eventIds.ts';
import {
  buildMatchList,
  compileSearch,
  matchingEvents,
  matchingStyles,
  matchPosition,
  onRegexSearchResults,
  regexSearchState,
  searchStyleMask,
  setRegexRunner,
  stepMatch,
  type NameMatcher,
  type SearchQuery,
} from './nameSearch.ts';

function model(name: string, events: [string, number, number][], marks: [string, number][] = []): Model {
  const b = new ModelBuilder({ fileName: name, format: 'test', byteSize: 0 });
  // Keep the given times: the capture starts at 0, not at its first event.
  b.setCaptureSpan(0, 1000);
  const t = b.thread(1, 1, 'main');
  const other = b.thread(1, 2, 'other');
  for (const [n, s, e] of events) b.range(n.startsWith('io') ? other : t, s, e, { name: n, color: s % 2 ? 0xff0000 : 0 });
  for (const [n, at] of marks) b.mark(t, at, { name: n });
  return b.finish();
}

const q = (text: string, regex = false, matchCase = false): SearchQuery => ({ text, regex, matchCase });

function matcher(query: SearchQuery): NameMatcher {
  const m = compileSearch(query);
  if (typeof m !== 'function') throw new Error('expected a matcher');
  return m;
}

describe('compileSearch', () => {
  it('matches substrings case-insensitively by default, exactly with matchCase', () => {
    expect(matcher(q('GEMM'))('sgemm_kernel')).toBe(true);
    expect(matcher(q('GEMM', false, true))('sgemm_kernel')).toBe(false);
    expect(matcher(q('a.b'))('axb')).toBe(false);
  });

  it('compiles regular expressions and reports bad ones', () => {
    expect(matcher(q('^read|write$', true))('Read file')).toBe(true);
    expect(matcher(q('^read', true, true))('Read file')).toBe(false);
    expect(compileSearch(q('(', true))).toEqual({ error: expect.any(String) });
    expect(compileSearch(q(''))).toBeNull();
  });
});

describe('matchingStyles', () => {
  it('tests each distinct name once, whatever the number of styles sharing it', () => {
    const m = model('a', [
      ['copy', 1, 2],
      ['copy', 2, 3],
      ['draw', 4, 9],
      ['copy', 10, 11],
    ]);
    const seen: string[] = [];
    const styles = matchingStyles(m, (name) => {
      seen.push(name);
      return name === 'copy';
    });
    expect(seen.sort()).toEqual(['copy', 'draw']);
    expect(m.styles.name.length).toBeGreaterThan(2);
    for (let s = 0; s < styles.length; s++) expect(styles[s]).toBe(m.strings[m.styles.name[s]] === 'copy' ? 1 : 0);
  });

  it('is cached per model and query', () => {
    const m = model('a', [['copy', 1, 2]]);
    expect(searchStyleMask(m, q('co'))).toBe(searchStyleMask(m, q('co')));
    expect(searchStyleMask(m, q('co', true))).not.toBe(searchStyleMask(m, q('co')));
    expect(searchStyleMask(m, q('(', true))).toBeNull();
  });
});

describe('match list', () => {
  const a = model(
    'a',
    [
      ['load', 10, 20],
      ['io read', 5, 30],
      ['load', 40, 45],
      ['draw', 50, 60],
    ],
    [['load done', 46]],
  );
  const b = model('b', [['load', 0, 3]]);

  it('lists matching ranges and marks of all captures in shared-axis time order', () => {
    const list = buildMatchList([
      { id: 1, model: a, offsetNs: 0, styles: searchStyleMask(a, q('load')), filter: null },
      { id: 2, model: b, offsetNs: 42, styles: searchStyleMask(b, q('load')), filter: null },
    ]);
    expect(Array.from(list.timeNs)).toEqual([10, 40, 42, 46]);
    expect(Array.from(list.captureId)).toEqual([1, 1, 2, 1]);
    const names = Array.from(list.event, (e, k) => (list.captureId[k] === 1 ? eventStartNs(a, e) : eventStartNs(b, e) + 42));
    expect(names).toEqual([10, 40, 42, 46]);
    expect(matchPosition(list, 2, list.event[2], 42)).toBe(2);
    expect(matchPosition(list, 1, list.event[2], 42)).toBe(-1);
  });

  it('leaves filtered-out events out', () => {
    const filter = captureFilter(a, withHidden(NO_FILTERS, [{ kind: 'thread', pid: 1, tid: 2 }], true));
    const all = matchingEvents(a, searchStyleMask(a, q('read'))!, null);
    expect(all).toHaveLength(1);
    expect(matchingEvents(a, searchStyleMask(a, q('read'))!, filter)).toHaveLength(0);
  });

  it('steps forward and back with wrap-around, starting from a time when nothing is current', () => {
    const list = buildMatchList([{ id: 1, model: a, offsetNs: 0, styles: searchStyleMask(a, q('load')), filter: null }]);
    expect(list.count).toBe(3);
    expect(stepMatch(list, -1, 1, 30)).toBe(1);
    expect(stepMatch(list, -1, -1, 30)).toBe(0);
    expect(stepMatch(list, -1, 1, 100)).toBe(0);
    expect(stepMatch(list, -1, -1, 0)).toBe(2);
    expect(stepMatch(list, 2, 1, 0)).toBe(0);
    expect(stepMatch(list, 0, -1, 0)).toBe(2);
    expect(stepMatch(buildMatchList([]), -1, 1, 0)).toBe(-1);
  });
});

describe('regular expressions in a runner (the page: a worker with a time bound)', () => {
  it('are answered later, never run here; a timed-out expression matches nothing and says so', async () => {
    const m = model('r.test', [['step 1', 0, 10], ['io read', 0, 5], ['step 2', 20, 30]]);
    const asked: string[] = [];
    setRegexRunner(async (source, flags, names) => {
      asked.push(`${source}/${flags}: ${names.join('|')}`);
      if (source === '^(a+)+$') return { timedOut: true };
      return { matches: Uint8Array.from(names, (n) => (new RegExp(source, flags).test(n) ? 1 : 0)) };
    });
    let answered = 0;
    const stop = onRegexSearchResults(() => answered++);
    try {
      const query = q('^step', true);
      expect(searchStyleMask(m, query)).toBeNull();
      expect(regexSearchState(m, query)).toBe('pending');
      // The same query again does not ask twice.
      expect(searchStyleMask(m, query)).toBeNull();
      await Promise.resolve();
      await Promise.resolve();
      expect(answered).toBe(1);
      expect(regexSearchState(m, query)).toBe('done');
      const mask = searchStyleMask(m, query)!;
      expect(Array.from(m.styles.name, (id, s) => [m.strings[id], mask[s]])).toEqual([
        ['step 1', 1],
        ['io read', 0],
        ['step 2', 1],
      ]);
      const evil = q('^(a+)+$', true);
      expect(searchStyleMask(m, evil)).toBeNull();
      await Promise.resolve();
      await Promise.resolve();
      expect(regexSearchState(m, evil)).toBe('timed-out');
      expect(searchStyleMask(m, evil)).toBeNull();
      expect(asked).toEqual(['^step/iu: step 1|io read|step 2', '^(a+)+$/iu: step 1|io read|step 2']);
      // Substring searches stay here: they cannot backtrack.
      expect(searchStyleMask(m, q('io'))).not.toBeNull();
    } finally {
      stop();
      setRegexRunner(undefined);
    }
  });
});
