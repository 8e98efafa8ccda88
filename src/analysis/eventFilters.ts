/**
 * Event filters: which domains, categories, processes, threads and names the user hid (or the
 * names the user kept alone: "Show only this name"). The filter
 * itself (`EventFilters`) names things the way the captures do (domain name, category id, pid,
 * tid, event name), so one filter applies to every loaded capture and survives a reload or a link.
 * `captureFilter` turns it into per-capture masks over the model's columns, which the timeline,
 * the statistics (`ScopeOptions.includeStyles / includeThreads / tracks`), the events table, the
 * hierarchy and the search all read. Pure functions, no DOM.
 */
import type { Model } from '../model/types.ts';

/** One thing the user hid. Categories are per domain; id 0 is "no category". */
export type FilterItem =
  | { kind: 'domain'; domain: string }
  | { kind: 'category'; domain: string; id: number }
  | { kind: 'process'; pid: number }
  | { kind: 'thread'; pid: number; tid: number }
  | { kind: 'name'; domain: string; name: string }
  /** Everything but this name is hidden (the timeline's "Show only this name"); several add up. */
  | { kind: 'only'; domain: string; name: string };

export type FilterKind = FilterItem['kind'];

/** The hidden items. Immutable: every change makes a new object (so masks can be cached by identity). */
export interface EventFilters {
  readonly hidden: readonly FilterItem[];
}

export const NO_FILTERS: EventFilters = { hidden: [] };

export function filterItemKey(item: FilterItem): string {
  switch (item.kind) {
    case 'domain':
      return `d:${esc(item.domain)}`;
    case 'category':
      return `c:${esc(item.domain)}:${item.id}`;
    case 'process':
      return `p:${item.pid}`;
    case 'thread':
      return `t:${item.pid}:${item.tid}`;
    case 'name':
      return `n:${esc(item.domain)}:${esc(item.name)}`;
    case 'only':
      return `o:${esc(item.domain)}:${esc(item.name)}`;
  }
}

export function isHidden(filters: EventFilters, item: FilterItem): boolean {
  const key = filterItemKey(item);
  return filters.hidden.some((h) => filterItemKey(h) === key);
}

/** The filters with `items` hidden (or shown again), duplicates dropped, order of first hiding kept. */
export function withHidden(filters: EventFilters, items: readonly FilterItem[], hidden: boolean): EventFilters {
  const keys = new Set(items.map(filterItemKey));
  const kept = filters.hidden.filter((h) => !keys.has(filterItemKey(h)));
  if (!hidden) return kept.length === filters.hidden.length ? filters : { hidden: kept };
  const seen = new Set(kept.map(filterItemKey));
  const added: FilterItem[] = [];
  for (const item of items) {
    const key = filterItemKey(item);
    if (!seen.has(key)) {
      seen.add(key);
      added.push(item);
    }
  }
  return { hidden: [...kept, ...added] };
}

// ---------------------------------------------------------------- text form (URL hash `filter=`)

/** Inside an item, `%`, `,` and `:` are percent-escaped so that any domain or event name fits. */
function esc(text: string): string {
  return text.replace(/%/g, '%25').replace(/,/g, '%2C').replace(/:/g, '%3A');
}

function unesc(text: string): string {
  return text.replace(/%(25|2C|3A)/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The filters as text: items joined by ',', each `d:<domain>`, `c:<domain>:<category id>`,
 * `p:<pid>`, `t:<pid>:<tid>`, `n:<domain>:<name>` or `o:<domain>:<name>` (only that name) ('' is the default domain). '' when nothing
 * is hidden.
 */
export function encodeFilters(filters: EventFilters): string {
  return filters.hidden.map(filterItemKey).join(',');
}

const INTEGER = /^-?\d{1,15}$/;

/** Reads `encodeFilters` text; unreadable items are skipped and named in `problems`. */
export function decodeFilters(text: string): { filters: EventFilters; problems: string[] } {
  const problems: string[] = [];
  const items: FilterItem[] = [];
  if (text.trim() === '') return { filters: NO_FILTERS, problems };
  for (const raw of text.split(',')) {
    const parts = raw.split(':');
    const kind = parts[0];
    const f = parts.slice(1).map(unesc);
    const int = (s: string | undefined) => (s !== undefined && INTEGER.test(s) ? Number(s) : undefined);
    let item: FilterItem | undefined;
    if (kind === 'd' && f.length === 1) item = { kind: 'domain', domain: f[0] };
    else if (kind === 'c' && f.length === 2 && int(f[1]) !== undefined) item = { kind: 'category', domain: f[0], id: int(f[1])! };
    else if (kind === 'p' && f.length === 1 && int(f[0]) !== undefined) item = { kind: 'process', pid: int(f[0])! };
    else if (kind === 't' && f.length === 2 && int(f[0]) !== undefined && int(f[1]) !== undefined) {
      item = { kind: 'thread', pid: int(f[0])!, tid: int(f[1])! };
    } else if (kind === 'n' && f.length === 2) item = { kind: 'name', domain: f[0], name: f[1] };
    else if (kind === 'o' && f.length === 2) item = { kind: 'only', domain: f[0], name: f[1] };
    if (item) items.push(item);
    else problems.push(`ignored the filter item "${raw}"`);
  }
  return { filters: items.length === 0 ? NO_FILTERS : withHidden(NO_FILTERS, items, true), problems };
}

// ---------------------------------------------------------------- per-capture masks

/**
 * Which of n rows are shown, as prefix counts, so that drawing can ask "is anything shown in
 * [lo, hi)" and "where is the next shown row" in O(1) / O(log n) instead of walking the rows:
 * the timeline's per-pixel merging jumps over thousands of ranges at a time.
 */
export class ShownIndex {
  /** prefix[i] = number of shown rows in [0, i); length n + 1. */
  readonly prefix: Uint32Array;

  constructor(shown: Uint8Array) {
    const prefix = new Uint32Array(shown.length + 1);
    let sum = 0;
    for (let i = 0; i < shown.length; i++) {
      prefix[i] = sum;
      sum += shown[i];
    }
    prefix[shown.length] = sum;
    this.prefix = prefix;
  }

  get size(): number {
    return this.prefix.length - 1;
  }

  shown(i: number): boolean {
    return this.prefix[i + 1] !== this.prefix[i];
  }

  /** Shown rows in [lo, hi). */
  count(lo: number, hi: number): number {
    return this.prefix[hi] - this.prefix[lo];
  }

  /** First shown row in [i, hi), or hi. */
  next(i: number, hi: number): number {
    const p = this.prefix;
    if (i >= hi || p[hi] === p[i]) return hi;
    // Smallest m in (i, hi] with p[m] > p[i]; the row is m - 1.
    const target = p[i];
    let lo = i + 1;
    let up = hi;
    while (lo < up) {
      const mid = (lo + up) >>> 1;
      if (p[mid] > target) up = mid;
      else lo = mid + 1;
    }
    return lo - 1;
  }

  /** Last shown row in [lo, j), or lo - 1. */
  last(lo: number, j: number): number {
    const p = this.prefix;
    if (j <= lo || p[j] === p[lo]) return lo - 1;
    // Smallest m in (lo, j] with p[m] = p[j]; the row is m - 1.
    const target = p[j];
    let a = lo + 1;
    let b = j;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (p[mid] >= target) b = mid;
      else a = mid + 1;
    }
    return a - 1;
  }
}

/** What a filter means for one capture. */
export interface CaptureFilter {
  /** Per style: 1 shown, 0 hidden (`ScopeOptions.includeStyles`). */
  includeStyles: Uint8Array;
  /** Per thread: 1 shown, 0 hidden (`ScopeOptions.includeThreads`). */
  includeThreads: Uint8Array;
  /** Per track: 1 when the row leaves the timeline (hidden itself, or everything on it is). */
  hiddenTracks: Uint8Array;
  /** Tracks still shown, ascending (`ScopeOptions.tracks`). */
  shownTracks: number[];
  /** Per range (`Model.ranges` row). */
  ranges: ShownIndex;
  /** Per mark (`Model.marks` row). */
  marks: ShownIndex;
  /** Per entry of `Model.markRefs` (marks shown on category rows). */
  markRefs: ShownIndex;
}

/** Scope options with a capture's filter applied (statistics: pass them on to rangeStats & co). */
export function filteredScope<T extends { includeStyles?: Uint8Array; includeThreads?: Uint8Array; tracks?: readonly number[] }>(
  filter: CaptureFilter | null,
  options: T,
): T {
  if (!filter) return options;
  const tracks = options.tracks ? options.tracks.filter((t) => filter.hiddenTracks[t] === 0) : filter.shownTracks;
  return { ...options, includeStyles: filter.includeStyles, includeThreads: filter.includeThreads, tracks };
}

const cache = new WeakMap<Model, { filters: EventFilters; filter: CaptureFilter | null }>();

/**
 * The masks of `filters` over `model`, or null when the filters hide nothing of it. Cached per
 * model for the last filters object, so every panel and every frame shares one computation.
 */
export function captureFilter(model: Model, filters: EventFilters): CaptureFilter | null {
  if (filters.hidden.length === 0) return null;
  const hit = cache.get(model);
  if (hit && hit.filters === filters) return hit.filter;
  const filter = computeCaptureFilter(model, filters);
  cache.set(model, { filters, filter });
  return filter;
}

/** Categories hidden directly or through an ancestor (AddChildCategory hierarchy). */
export function hiddenCategories(model: Model, filters: EventFilters): Uint8Array {
  const keys = new Set(filters.hidden.filter((h) => h.kind === 'category').map(filterItemKey));
  const n = model.categories.length;
  const direct = new Uint8Array(n);
  for (let c = 0; c < n; c++) {
    const info = model.categories[c];
    const domain = model.domains[info.domain]?.name ?? '';
    if (keys.has(filterItemKey({ kind: 'category', domain, id: info.id }))) direct[c] = 1;
  }
  const out = new Uint8Array(n);
  for (let c = 0; c < n; c++) {
    // Bounded walk: a malformed capture could link categories in a cycle.
    for (let a = c, steps = 0; a >= 0 && steps <= n; a = model.categories[a].parent, steps++) {
      if (direct[a]) {
        out[c] = 1;
        break;
      }
    }
  }
  return out;
}

function computeCaptureFilter(model: Model, filters: EventFilters): CaptureFilter | null {
  const byKind = (kind: FilterKind) => new Set(filters.hidden.filter((h) => h.kind === kind).map(filterItemKey));
  const domainKeys = byKind('domain');
  const nameKeys = byKind('name');
  // "Only these names": the same keys as hidden names, so that one lookup tests both.
  const onlyKeys = new Set(filters.hidden.filter((h) => h.kind === 'only').map((h) => filterItemKey({ ...h, kind: 'name' })));
  const processKeys = byKind('process');
  const threadKeys = byKind('thread');
  const domainName = (d: number) => model.domains[d]?.name ?? '';

  const hiddenDomain = Uint8Array.from(model.domains, (d) => (domainKeys.has(filterItemKey({ kind: 'domain', domain: d.name })) ? 1 : 0));
  const hiddenCategory = hiddenCategories(model, filters);
  // "No category" (id 0) can be hidden per domain too.
  const noCategoryHidden = Uint8Array.from(model.domains, (d) =>
    filters.hidden.some((h) => h.kind === 'category' && h.id === 0 && h.domain === d.name) ? 1 : 0,
  );

  const styles = model.styles;
  const styleCount = styles.name.length;
  const includeStyles = new Uint8Array(styleCount);
  // Names repeat across colors and categories: test each (domain, name) once.
  const nameHidden = new Map<number, boolean>();
  for (let s = 0; s < styleCount; s++) {
    const d = styles.domain[s];
    const c = styles.category[s];
    if (hiddenDomain[d] || (c >= 0 ? hiddenCategory[c] : noCategoryHidden[d])) continue;
    const nameKey = styles.name[s] * model.domains.length + d;
    let hidden = nameHidden.get(nameKey);
    if (hidden === undefined) {
      const key = filterItemKey({ kind: 'name', domain: domainName(d), name: model.strings[styles.name[s]] });
      hidden = nameKeys.has(key) || (onlyKeys.size > 0 && !onlyKeys.has(key));
      nameHidden.set(nameKey, hidden);
    }
    if (!hidden) includeStyles[s] = 1;
  }

  const hiddenProcess = Uint8Array.from(model.processes, (p) => (processKeys.has(filterItemKey({ kind: 'process', pid: p.pid })) ? 1 : 0));
  const includeThreads = Uint8Array.from(model.threads, (t) => {
    const pid = model.processes[t.process]?.pid ?? -1;
    return hiddenProcess[t.process] || threadKeys.has(filterItemKey({ kind: 'thread', pid, tid: t.tid })) ? 0 : 1;
  });

  // Rows hidden for what they are: a hidden thread, process, domain or category.
  const tracks = model.tracks;
  const hiddenTracks = new Uint8Array(tracks.length);
  for (let t = 0; t < tracks.length; t++) {
    const tr = tracks[t];
    if (
      (tr.thread >= 0 && !includeThreads[tr.thread]) ||
      (tr.process >= 0 && hiddenProcess[tr.process]) ||
      (tr.domain >= 0 && hiddenDomain[tr.domain]) ||
      (tr.category >= 0 && hiddenCategory[tr.category])
    ) {
      hiddenTracks[t] = 1;
    }
  }

  const { style: rangeStyle, thread: rangeThread } = model.ranges;
  const rangeShown = new Uint8Array(rangeStyle.length);
  const markShown = new Uint8Array(model.marks.style.length);
  for (let t = 0; t < tracks.length; t++) {
    if (hiddenTracks[t]) continue;
    const tr = tracks[t];
    for (let i = tr.rangeBegin; i < tr.rangeEnd; i++) {
      const th = rangeThread[i];
      if (includeStyles[rangeStyle[i]] && (th < 0 || includeThreads[th])) rangeShown[i] = 1;
    }
    for (let i = tr.markBegin; i < tr.markEnd; i++) {
      const th = model.marks.thread[i];
      if (includeStyles[model.marks.style[i]] && (th < 0 || includeThreads[th])) markShown[i] = 1;
    }
  }
  const refShown = new Uint8Array(model.markRefs.length);
  for (let t = 0; t < tracks.length; t++) {
    if (hiddenTracks[t]) continue;
    for (let k = tracks[t].markRefBegin; k < tracks[t].markRefEnd; k++) refShown[k] = markShown[model.markRefs[k]];
  }
  const ranges = new ShownIndex(rangeShown);
  const marks = new ShownIndex(markShown);
  const markRefs = new ShownIndex(refShown);
  if (
    ranges.count(0, ranges.size) === ranges.size &&
    marks.count(0, marks.size) === marks.size &&
    !hiddenTracks.includes(1) &&
    !includeThreads.includes(0) &&
    !includeStyles.includes(0)
  ) {
    return null;
  }

  // Rows whose every event is hidden leave too (a row of one name, a thread's marks...).
  const shownTracks: number[] = [];
  for (let t = 0; t < tracks.length; t++) {
    const tr = tracks[t];
    const hasEvents = tr.rangeEnd > tr.rangeBegin || tr.markEnd > tr.markBegin || tr.markRefEnd > tr.markRefBegin;
    const hasCounters = tr.counterEnd > tr.counterBegin;
    if (
      !hiddenTracks[t] &&
      hasEvents &&
      !hasCounters &&
      ranges.count(tr.rangeBegin, tr.rangeEnd) + marks.count(tr.markBegin, tr.markEnd) + markRefs.count(tr.markRefBegin, tr.markRefEnd) === 0
    ) {
      hiddenTracks[t] = 1;
    }
    if (!hiddenTracks[t]) shownTracks.push(t);
  }
  return { includeStyles, includeThreads, hiddenTracks, shownTracks, ranges, marks, markRefs };
}

/** Whether a range / mark passes a (possibly absent) capture filter. */
export function rangeShown(filter: CaptureFilter | null, range: number): boolean {
  return filter === null || filter.ranges.shown(range);
}

export function markShown(filter: CaptureFilter | null, mark: number): boolean {
  return filter === null || filter.marks.shown(mark);
}
