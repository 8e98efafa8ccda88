/**
 * The view state in the URL hash: a typed, versioned schema and its codec (pure functions, no
 * store, no DOM). Copying the address reproduces the view once the same files are loaded.
 *
 * Schema version 1, as URL search parameters after `#` (order does not matter):
 *
 *   v=1                      schema version (required)
 *   c=<file name>            the loaded captures, one `c` per capture, in viewer order; other
 *                            fields refer to captures by their position in this list
 *   t=<start>_<end>          visible window, integer ns relative to the time zero of capture 0
 *   span=<start>_<end>       selected time span, same reference
 *   sel=r_<c>_<track>_<level>_<startNs>   selected range: capture position, track index, level
 *                                          (stack depth or lane) and start time in the capture's own ns
 *   sel=m_<c>_<track>_<timeNs>            selected mark: capture position, marks track, time
 *   panel=<id>               open secondary panel (e.g. `report`, the load report)
 *   q=<text>                 name search text
 *   qo=<letters>             search options: `r` regular expression, `c` match case
 *   cmp=<a>_<b>_<group-by>  comparison: baseline and candidate capture positions, grouping
 *   cmprow=<row key>         comparison: the row whose details are open
 *   filter=<items>           hidden domains, categories, processes, threads and names, in the
 *                            text form of src/analysis/eventFilters.ts (`encodeFilters`)
 *   o=<c>_<ns>               a capture placed by hand (dragged, aligned on a range): its time zero
 *                            relative to capture 0's, integer ns; one `o` per capture after the
 *                            first, written when any capture was placed by hand
 *   f=<ns>_<note>            a flag on the time axis (same reference as `t`) and its note (may be
 *                            empty, may hold `_`); one `f` per flag
 *   pin=<row>                a track row pinned at the top, one `pin` per row, in pin order
 *   hide=<row>               a row the user hid (with everything below it), one `hide` per row
 *   ord=<row>|<label>|...    the order the user gave the children of a row: the parent, then the
 *                            children's labels first to last ('|' inside a label as `%7C`)
 *   rh=<px>_<row>            a counter row's height chosen by the user, CSS px
 *   tf=<text>                the track list's name filter
 *
 * A row is `<c>/<path>`: the capture's position in `c`, then the labels from the capture's root
 * down to the row as the track list keys them (src/timeline/trackLayout.ts `nodeKey`: labels
 * joined by '/', a '/' or '%' inside a label percent-escaped); `<c>` alone is the capture's row.
 *
 * Times are relative to capture 0 rather than the shared axis, because the axis depends on the
 * order files finish loading. A range is identified by where it sits (track, level, start), not by
 * its row index, so a link survives decoder changes that reorder rows within a level.
 *
 * Extending: add an optional field to `ViewHashState`, encode it in `encodeViewHash` and read it in
 * `decodeViewHash` (keep version 1 while old links keep their meaning; bump `HASH_VERSION` and
 * translate older versions in `decodeViewHash` when a field changes meaning). Keys this code does
 * not know are kept in `extra` and written back, so links from a newer build survive a round trip.
 */

export const HASH_VERSION = 1;

/** A time interval in ns, relative to the time zero of the first capture of `captures`. */
export interface HashInterval {
  startNs: number;
  endNs: number;
}

export interface RangeRef {
  kind: 'range';
  /** Position in `ViewHashState.captures`. */
  capture: number;
  track: number;
  level: number;
  /** Start time in the capture's own ns (exact, as the model holds it). */
  startNs: number;
}

export interface MarkRef {
  kind: 'mark';
  capture: number;
  track: number;
  timeNs: number;
}

export type SelectionRef = RangeRef | MarkRef;

export interface HashSearch {
  text: string;
  regex: boolean;
  matchCase: boolean;
}

export interface HashFlag {
  timeNs: number;
  note: string;
}

export interface CaptureOffset {
  /** Position in `ViewHashState.captures` (never 0: the others are placed relative to it). */
  capture: number;
  offsetNs: number;
}

/** A row of the track list: the capture's position in `captures` and its key path below it ('' for the capture's row). */
export interface RowRef {
  capture: number;
  path: string;
}

/** The user's arrangement of the track list (src/state/viewerStore.ts `TrackArrangementState`), by row. */
export interface HashTracks {
  pinned: RowRef[];
  hidden: RowRef[];
  /** A parent row and its children's labels (key path segments), first to last. */
  order: { parent: RowRef; children: string[] }[];
  heights: { row: RowRef; heightCss: number }[];
  nameFilter: string;
}

export interface ViewHashState {
  /** File names of the captures, in viewer order. */
  captures: string[];
  window?: HashInterval;
  span?: HashInterval;
  selection?: SelectionRef;
  panel?: string;
  search?: HashSearch;
  /** Event filters as `encodeFilters` text (read with `decodeFilters`). */
  filter?: string;
  /** Captures placed by hand: time zero relative to capture 0's. */
  offsets?: CaptureOffset[];
  /** Flags on the time axis, relative to capture 0's time zero. */
  flags?: HashFlag[];
  /** Comparison as `cmp` text (src/ui/compare/compareHash.ts) and its open row. */
  compare?: string;
  compareRow?: string;
  /** Pinned, hidden and reordered rows, row heights and the track name filter; absent when untouched. */
  tracks?: HashTracks;
  /** Parameters this version does not know, kept in order. */
  extra: [key: string, value: string][];
}

export interface DecodedHash {
  /** null when the hash holds no view state (empty, or another kind of hash). */
  state: ViewHashState | null;
  /** Fields that were present but malformed or of an unknown version, each ignored. */
  problems: string[];
}

const KNOWN = new Set(['v', 'c', 't', 'span', 'sel', 'panel', 'q', 'qo', 'filter', 'o', 'f', 'cmp', 'cmprow', 'pin', 'hide', 'ord', 'rh', 'tf']);

function rowText(row: RowRef): string {
  return row.path === '' ? String(row.capture) : `${row.capture}/${row.path}`;
}

function parseRow(text: string, captureCount: number): RowRef | undefined {
  const cut = text.indexOf('/');
  const capture = parseIndex(cut < 0 ? text : text.slice(0, cut));
  if (capture === undefined || capture >= captureCount) return undefined;
  const path = cut < 0 ? '' : text.slice(cut + 1);
  if (cut >= 0 && path === '') return undefined;
  return { capture, path };
}

/** '|' separates the parts of `ord`: inside a label it is written `%7C` (keys write a '%' as `%25`, so this reads back unambiguously). */
const escapeBar = (text: string) => text.replace(/\|/g, '%7C');
const unescapeBar = (text: string) => text.replace(/%7C/g, '|');

function parseOrder(text: string, captureCount: number): HashTracks['order'][number] | undefined {
  const [parentText, ...children] = text.split('|').map(unescapeBar);
  const parent = parseRow(parentText, captureCount);
  if (!parent || children.length === 0 || children.some((c) => c === '' || c.includes('/'))) return undefined;
  return { parent, children };
}

function parseHeight(text: string, captureCount: number): HashTracks['heights'][number] | undefined {
  const cut = text.indexOf('_');
  const heightCss = parseNumber(text.slice(0, cut));
  const row = cut < 0 ? undefined : parseRow(text.slice(cut + 1), captureCount);
  return row && heightCss !== undefined && heightCss > 0 ? { row, heightCss } : undefined;
}

function hasTracks(t: HashTracks): boolean {
  return t.pinned.length + t.hidden.length + t.order.length + t.heights.length > 0 || t.nameFilter !== '';
}

/** A finite number as the shortest text that reads back to the same value. */
function num(n: number): string {
  return Object.is(n, -0) ? '0' : String(n);
}

function interval(i: HashInterval): string {
  return `${num(Math.round(i.startNs))}_${num(Math.round(i.endNs))}`;
}

/** The hash text (without `#`) of a state. */
export function encodeViewHash(state: ViewHashState): string {
  const p = new URLSearchParams();
  p.append('v', String(HASH_VERSION));
  for (const name of state.captures) p.append('c', name);
  if (state.window) p.append('t', interval(state.window));
  if (state.span) p.append('span', interval(state.span));
  const sel = state.selection;
  if (sel) {
    p.append(
      'sel',
      sel.kind === 'range'
        ? ['r', sel.capture, sel.track, sel.level, num(sel.startNs)].join('_')
        : ['m', sel.capture, sel.track, num(sel.timeNs)].join('_'),
    );
  }
  if (state.panel) p.append('panel', state.panel);
  if (state.search && state.search.text !== '') {
    p.append('q', state.search.text);
    const options = `${state.search.regex ? 'r' : ''}${state.search.matchCase ? 'c' : ''}`;
    if (options) p.append('qo', options);
  }
  if (state.filter) p.append('filter', state.filter);
  for (const o of state.offsets ?? []) p.append('o', `${o.capture}_${num(Math.round(o.offsetNs))}`);
  for (const f of state.flags ?? []) p.append('f', `${num(Math.round(f.timeNs))}_${f.note}`);
  if (state.compare) p.append('cmp', state.compare);
  if (state.compareRow) p.append('cmprow', state.compareRow);
  const tracks = state.tracks;
  if (tracks) {
    for (const row of tracks.pinned) p.append('pin', rowText(row));
    for (const row of tracks.hidden) p.append('hide', rowText(row));
    for (const o of tracks.order) p.append('ord', [rowText(o.parent), ...o.children].map(escapeBar).join('|'));
    for (const h of tracks.heights) p.append('rh', `${num(Math.round(h.heightCss))}_${rowText(h.row)}`);
    if (tracks.nameFilter !== '') p.append('tf', tracks.nameFilter);
  }
  for (const [k, v] of state.extra) p.append(k, v);
  return p.toString();
}

function parseNumber(text: string): number | undefined {
  if (!/^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

function parseIndex(text: string): number | undefined {
  return /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}

function parseInterval(text: string): HashInterval | undefined {
  const parts = text.split('_');
  if (parts.length !== 2) return undefined;
  const a = parseNumber(parts[0]);
  const b = parseNumber(parts[1]);
  if (a === undefined || b === undefined || b < a) return undefined;
  return { startNs: a, endNs: b };
}

function parseSelection(text: string, captureCount: number): SelectionRef | undefined {
  const parts = text.split('_');
  const capture = parseIndex(parts[1] ?? '');
  const track = parseIndex(parts[2] ?? '');
  if (capture === undefined || track === undefined || capture >= captureCount) return undefined;
  if (parts[0] === 'r' && parts.length === 5) {
    const level = parseIndex(parts[3]);
    const startNs = parseNumber(parts[4]);
    if (level === undefined || startNs === undefined) return undefined;
    return { kind: 'range', capture, track, level, startNs };
  }
  if (parts[0] === 'm' && parts.length === 4) {
    const timeNs = parseNumber(parts[3]);
    if (timeNs === undefined) return undefined;
    return { kind: 'mark', capture, track, timeNs };
  }
  return undefined;
}

function parseOffset(text: string, captureCount: number): CaptureOffset | undefined {
  const parts = text.split('_');
  if (parts.length !== 2) return undefined;
  const capture = parseIndex(parts[0]);
  const offsetNs = parseNumber(parts[1]);
  if (capture === undefined || capture === 0 || capture >= captureCount || offsetNs === undefined) return undefined;
  return { capture, offsetNs };
}

/** Reads a hash (with or without the leading `#`). Malformed fields are dropped and named in `problems`. */
export function decodeViewHash(hash: string): DecodedHash {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  const problems: string[] = [];
  if (text === '') return { state: null, problems };
  const p = new URLSearchParams(text);
  const version = p.get('v');
  if (version === null) return { state: null, problems };
  if (version !== String(HASH_VERSION)) {
    problems.push(`the link's view state has version ${version}; this build reads version ${HASH_VERSION}`);
    return { state: null, problems };
  }
  const state: ViewHashState = { captures: p.getAll('c'), extra: [] };
  const field = <T>(key: string, parse: (v: string) => T | undefined, what: string): T | undefined => {
    const raw = p.get(key);
    if (raw === null) return undefined;
    const value = parse(raw);
    if (value === undefined) problems.push(`ignored ${what} "${raw}"`);
    return value;
  };
  state.window = field('t', parseInterval, 'the time window');
  state.span = field('span', parseInterval, 'the time span');
  state.selection = field('sel', (v) => parseSelection(v, state.captures.length), 'the selection');
  state.panel = p.get('panel') ?? undefined;
  const searchText = p.get('q');
  if (searchText) {
    const options = p.get('qo') ?? '';
    const valid = /^[rc]*$/.test(options);
    if (!valid) problems.push(`ignored the search options "${options}"`);
    state.search = { text: searchText, regex: valid && options.includes('r'), matchCase: valid && options.includes('c') };
  }
  state.filter = p.get('filter') ?? undefined;
  const offsets: CaptureOffset[] = [];
  for (const raw of p.getAll('o')) {
    const offset = parseOffset(raw, state.captures.length);
    if (offset) offsets.push(offset);
    else problems.push(`ignored the capture placement "${raw}"`);
  }
  if (offsets.length > 0) state.offsets = offsets;
  const flags: HashFlag[] = [];
  for (const raw of p.getAll('f')) {
    const cut = raw.indexOf('_');
    const timeNs = parseNumber(cut < 0 ? raw : raw.slice(0, cut));
    if (timeNs === undefined) problems.push(`ignored the flag "${raw}"`);
    else flags.push({ timeNs, note: cut < 0 ? '' : raw.slice(cut + 1) });
  }
  if (flags.length > 0) state.flags = flags;
  state.compare = p.get('cmp') ?? undefined;
  state.compareRow = p.get('cmprow') ?? undefined;
  const tracks: HashTracks = { pinned: [], hidden: [], order: [], heights: [], nameFilter: p.get('tf') ?? '' };
  const rows = <T>(key: string, parse: (v: string, n: number) => T | undefined, into: T[], what: string) => {
    for (const raw of p.getAll(key)) {
      const value = parse(raw, state.captures.length);
      if (value === undefined) problems.push(`ignored ${what} "${raw}"`);
      else into.push(value);
    }
  };
  rows('pin', parseRow, tracks.pinned, 'the pinned row');
  rows('hide', parseRow, tracks.hidden, 'the hidden row');
  rows('ord', parseOrder, tracks.order, 'the row order');
  rows('rh', parseHeight, tracks.heights, 'the row height');
  if (hasTracks(tracks)) state.tracks = tracks;
  for (const [k, v] of p) if (!KNOWN.has(k)) state.extra.push([k, v]);
  for (const key of ['window', 'span', 'selection', 'panel', 'search', 'filter'] as const) {
    if (state[key] === undefined) delete state[key];
  }
  return { state, problems };
}
