/**
 * Searching range and mark names. A query is compiled once, tested once per distinct name of a
 * model (events share a handful of styles, so millions of events cost a few thousand string
 * tests), and the resulting per-style mask picks the matching events with one typed-array read
 * each. Matches of all captures are listed in time order on the shared axis for stepping.
 */
import { lowerBound } from '../model/query.ts';
import type { Model } from '../model/types.ts';
import type { CaptureFilter } from './eventFilters.ts';
import { eventsByStart } from './eventIds.ts';
import { sortOrder } from './sortOrder.ts';

export interface SearchQuery {
  text: string;
  /** The text is a regular expression (JavaScript syntax). */
  regex: boolean;
  /** Default: case-insensitive. */
  matchCase: boolean;
}

export const EMPTY_SEARCH: SearchQuery = { text: '', regex: false, matchCase: false };

export type NameMatcher = (name: string) => boolean;

/** A matcher for the query, null for an empty query, or the regular expression's error message. */
export function compileSearch(query: SearchQuery): NameMatcher | null | { error: string } {
  if (query.text === '') return null;
  if (query.regex) {
    let re: RegExp;
    try {
      re = new RegExp(query.text, query.matchCase ? 'u' : 'iu');
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
    return (name) => re.test(name);
  }
  if (query.matchCase) return (name) => name.includes(query.text);
  const needle = query.text.toLowerCase();
  return (name) => name.toLowerCase().includes(needle);
}

/** Per style of the model: 1 when the style's name matches. Each distinct name is tested once. */
export function matchingStyles(model: Model, match: NameMatcher): Uint8Array {
  const names = model.styles.name;
  const out = new Uint8Array(names.length);
  const tested = new Map<number, number>();
  for (let s = 0; s < names.length; s++) {
    let m = tested.get(names[s]);
    if (m === undefined) {
      m = match(model.strings[names[s]]) ? 1 : 0;
      tested.set(names[s], m);
    }
    out[s] = m;
  }
  return out;
}

function queryKey(q: SearchQuery): string {
  return `${q.regex ? 'r' : 's'}${q.matchCase ? 'c' : 'i'}:${q.text}`;
}

/**
 * Where a regular-expression search of a model stands when a runner (a worker) does it: 'pending'
 * until the runner answers, 'timed-out' when the expression ran past the runner's bound.
 */
export type RegexSearchState = 'pending' | 'timed-out' | 'done';

/** Per name: 1 when it matches; or the expression ran too long; or its error. */
export type RegexRunResult = { matches: Uint8Array } | { timedOut: true } | { error: string };

/** Tests an expression on names somewhere that can be stopped (the page: a worker with a time bound). */
export type RegexRunner = (source: string, flags: string, names: string[]) => Promise<RegexRunResult>;

let regexRunner: RegexRunner | undefined;
const resultListeners = new Set<() => void>();

/**
 * Hands regular-expression searches to `runner` (the page sets a worker: a user's expression,
 * from the search bar or a link, must never run on its thread). Without one (CLI, tests) they run here.
 */
export function setRegexRunner(runner: RegexRunner | undefined): void {
  regexRunner = runner;
}

/** Calls `listener` when a regular-expression search answered: ask for the masks again. */
export function onRegexSearchResults(listener: () => void): () => void {
  resultListeners.add(listener);
  return () => resultListeners.delete(listener);
}

interface CachedMask {
  key: string;
  styles: Uint8Array | null;
  state?: RegexSearchState;
}

const styleCache = new WeakMap<Model, CachedMask>();

/** The distinct names of a model's styles, and per style the position of its name among them. */
function styleNames(model: Model): { names: string[]; nameOfStyle: Uint32Array } {
  const ids = model.styles.name;
  const position = new Map<number, number>();
  const names: string[] = [];
  const nameOfStyle = new Uint32Array(ids.length);
  for (let s = 0; s < ids.length; s++) {
    let k = position.get(ids[s]);
    if (k === undefined) {
      k = names.length;
      position.set(ids[s], k);
      names.push(model.strings[ids[s]]);
    }
    nameOfStyle[s] = k;
  }
  return { names, nameOfStyle };
}

function runRegexAsync(model: Model, query: SearchQuery, entry: CachedMask, runner: RegexRunner): void {
  const { names, nameOfStyle } = styleNames(model);
  void runner(query.text, query.matchCase ? 'u' : 'iu', names).then((result) => {
    // A newer query replaced this one: its own run answers for it.
    if (styleCache.get(model) !== entry) return;
    if ('matches' in result) {
      const styles = new Uint8Array(nameOfStyle.length);
      for (let s = 0; s < styles.length; s++) styles[s] = result.matches[nameOfStyle[s]];
      entry.styles = styles;
      entry.state = 'done';
    } else {
      entry.state = 'timed-out';
    }
    for (const listener of resultListeners) listener();
  });
}

/**
 * The matching styles of a model for a query (null: no search, an invalid expression, or a regular
 * expression still running or given up in the runner), cached per model for the last query: the
 * timeline asks for it on every frame.
 */
export function searchStyleMask(model: Model, query: SearchQuery | null): Uint8Array | null {
  if (!query || query.text === '') return null;
  const key = queryKey(query);
  const hit = styleCache.get(model);
  if (hit && hit.key === key) return hit.styles;
  const matcher = compileSearch(query);
  if (typeof matcher === 'function' && query.regex && regexRunner) {
    const entry: CachedMask = { key, styles: null, state: 'pending' };
    styleCache.set(model, entry);
    runRegexAsync(model, query, entry, regexRunner);
    return null;
  }
  const styles = typeof matcher === 'function' ? matchingStyles(model, matcher) : null;
  styleCache.set(model, { key, styles });
  return styles;
}

/** How the regular-expression search of `model` for `query` stands; undefined when none runs in a runner. */
export function regexSearchState(model: Model, query: SearchQuery): RegexSearchState | undefined {
  const hit = styleCache.get(model);
  return hit && hit.key === queryKey(query) ? hit.state : undefined;
}

/** The matching events of one capture (see eventIds.ts), by start time (ties by index). */
export function matchingEvents(model: Model, styles: Uint8Array, filter: CaptureFilter | null): Uint32Array {
  const rangeStyle = model.ranges.style;
  const markStyle = model.marks.style;
  const r = rangeStyle.length;
  const byStart = eventsByStart(model);
  let n = 0;
  const out = new Uint32Array(byStart.length);
  for (let k = 0; k < byStart.length; k++) {
    const e = byStart[k];
    if (e < r) {
      if (styles[rangeStyle[e]] && (filter === null || filter.ranges.shown(e))) out[n++] = e;
    } else if (styles[markStyle[e - r]] && (filter === null || filter.marks.shown(e - r))) out[n++] = e;
  }
  return out.slice(0, n);
}

export interface SearchCapture {
  id: number;
  model: Model;
  offsetNs: number;
  /** Matching styles (searchStyleMask), or null: nothing of this capture matches. */
  styles: Uint8Array | null;
  filter: CaptureFilter | null;
}

/** Every match of every capture, ordered by start time on the shared axis (ties: capture, then index). */
export interface MatchList {
  count: number;
  captureId: Int32Array;
  event: Uint32Array;
  /** Start on the shared axis, ascending. */
  timeNs: Float64Array;
}

export function buildMatchList(captures: readonly SearchCapture[]): MatchList {
  const parts = captures.map((c) => (c.styles ? matchingEvents(c.model, c.styles, c.filter) : new Uint32Array(0)));
  const count = parts.reduce((n, p) => n + p.length, 0);
  const captureId = new Int32Array(count);
  const event = new Uint32Array(count);
  const time = new Float64Array(count);
  let k = 0;
  for (let ci = 0; ci < captures.length; ci++) {
    const c = captures[ci];
    const part = parts[ci];
    const { startNs } = c.model.ranges;
    const { timeNs } = c.model.marks;
    const r = startNs.length;
    for (let j = 0; j < part.length; j++) {
      const e = part[j];
      captureId[k] = c.id;
      event[k] = e;
      time[k] = (e < r ? startNs[e] : timeNs[e - r]) + c.offsetNs;
      k++;
    }
  }
  // Each capture's part is in time order already; several captures interleave on the shared axis.
  if (parts.filter((p) => p.length > 0).length <= 1) return { count, captureId, event, timeNs: time };
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  const sorted = sortOrder(order, time);
  const out = { count, captureId: new Int32Array(count), event: new Uint32Array(count), timeNs: new Float64Array(count) };
  for (let i = 0; i < count; i++) {
    const from = sorted[i];
    out.captureId[i] = captureId[from];
    out.event[i] = event[from];
    out.timeNs[i] = time[from];
  }
  return out;
}

/** Position of a match in the list, or -1. */
export function matchPosition(list: MatchList, captureId: number, event: number, timeNs: number): number {
  for (let k = lowerBound(list.timeNs, timeNs, 0, list.count); k < list.count && list.timeNs[k] === timeNs; k++) {
    if (list.captureId[k] === captureId && list.event[k] === event) return k;
  }
  return -1;
}

/**
 * The match to go to from `current` (a position, or -1 when none is current) in `direction`,
 * wrapping around; with no current match, the first one starting at or after `fromNs` (going
 * forward) or the last one before it (going back). -1 when the list is empty.
 */
export function stepMatch(list: MatchList, current: number, direction: 1 | -1, fromNs: number): number {
  if (list.count === 0) return -1;
  if (current >= 0 && current < list.count) return (current + direction + list.count) % list.count;
  const at = lowerBound(list.timeNs, fromNs, 0, list.count);
  if (direction === 1) return at < list.count ? at : 0;
  return at > 0 ? at - 1 : list.count - 1;
}
