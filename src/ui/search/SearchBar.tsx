/**
 * The name search, a find bar over the timeline: `/` or Ctrl+F opens it, typing highlights the
 * matching ranges and marks on the timeline (the store's `search`; other events fade) and counts
 * them, Enter / Shift+Enter (or the arrows) select and reveal the next / previous match in time
 * order, Escape closes it and ends the highlighting but keeps the query: `/` or Ctrl+F brings it
 * back, selected, so Enter steps on and typing replaces it. Substring (case-insensitive unless Aa is on) or
 * regular expression (.*).
 */
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { eventOf, eventSelection } from '../../analysis/eventIds.ts';
import {
  buildMatchList,
  compileSearch,
  matchPosition,
  onRegexSearchResults,
  regexSearchState,
  searchStyleMask,
  stepMatch,
  type SearchQuery,
} from '../../analysis/nameSearch.ts';
import { REGEX_TIME_LIMIT_MS } from '../../worker/regex.client.ts';
import { useViewer, useViewerStore } from '../../state/context.tsx';
import { captureFilter } from '../../analysis/eventFilters.ts';
import { RULER_HEIGHT_CSS } from '../../timeline/renderers/ruler.ts';
import { formatCount } from '../../format/numbers.ts';
import './search.css';

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
}

/** Requests to open the bar from elsewhere (the header's button). */
const openRequests = new EventTarget();

export function SearchBar() {
  const store = useViewerStore();
  const search = useViewer((s) => s.search);
  const setSearch = useViewer((s) => s.setSearch);
  const captures = useViewer((s) => s.captures);
  const filters = useViewer((s) => s.filters);
  const selection = useViewer((s) => s.selection);
  const [open, setOpen] = useState(search.text !== '');
  const inputRef = useRef<HTMLInputElement>(null);
  /** The query the bar had when Escape closed it, restored when it opens again. */
  const lastQuery = useRef<SearchQuery | null>(null);

  // A search arriving from a link opens the bar.
  useEffect(() => {
    if (search.text !== '') setOpen(true);
  }, [search.text]);

  const focusInput = useCallback(() => {
    requestAnimationFrame(() => {
      inputRef.current?.focus();
      inputRef.current?.select();
    });
  }, []);

  const reopen = useCallback(() => {
    const last = lastQuery.current;
    if (last && store.getState().search.text === '') store.getState().setSearch(last);
    setOpen(true);
    focusInput();
  }, [store, focusInput]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const ctrlF = (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'f';
      const slash = e.key === '/' && !e.ctrlKey && !e.metaKey && !e.altKey && !isTyping(e.target) && !e.defaultPrevented;
      if (!ctrlF && !slash) return;
      if (store.getState().showShortcuts) return;
      e.preventDefault();
      reopen();
    };
    const onRequest = () => reopen();
    window.addEventListener('keydown', onKey);
    openRequests.addEventListener('open', onRequest);
    return () => {
      window.removeEventListener('keydown', onKey);
      openRequests.removeEventListener('open', onRequest);
    };
  }, [store, reopen]);

  // A regular expression answered in its worker: a new query object makes every view ask again.
  useEffect(() => onRegexSearchResults(() => store.setState((s) => ({ search: { ...s.search } }))), [store]);

  const compiled = useMemo(() => compileSearch(search), [search]);
  const error = compiled !== null && typeof compiled === 'object' ? compiled.error : '';
  const deferred = useDeferredValue(search);
  const list = useMemo(
    () =>
      buildMatchList(
        captures.map((c) => ({
          id: c.id,
          model: c.model,
          offsetNs: c.offsetNs,
          styles: searchStyleMask(c.model, deferred),
          filter: captureFilter(c.model, filters),
        })),
      ),
    [captures, filters, deferred],
  );
  // The current match: the selection, when it is one.
  const current = useMemo(() => {
    if (!selection) return -1;
    const c = captures.find((x) => x.id === selection.capture);
    if (!c) return -1;
    const e = eventOf(c.model, selection.kind, selection.index);
    const t = (selection.kind === 'range' ? c.model.ranges.startNs : c.model.marks.timeNs)[selection.index] + c.offsetNs;
    return matchPosition(list, c.id, e, t);
  }, [list, selection, captures]);

  const step = (direction: 1 | -1) => {
    const s = store.getState();
    const next = stepMatch(list, current, direction, s.viewStartNs);
    if (next < 0) return;
    const c = s.captures.find((x) => x.id === list.captureId[next]);
    if (c) s.revealEvent(eventSelection(c.model, c.id, list.event[next]));
  };

  const close = () => {
    setOpen(false);
    // The timeline stops fading non-matches; the query waits for the next `/` or Ctrl+F.
    lastQuery.current = search.text !== '' ? search : lastQuery.current;
    setSearch({ ...search, text: '' });
  };

  if (!open) return null;
  const update = (patch: Partial<SearchQuery>) => setSearch({ ...search, ...patch });
  const stale = deferred !== search;
  const regexStates = search.regex ? captures.map((c) => regexSearchState(c.model, search)) : [];
  let status: string;
  if (search.text === '') status = '';
  else if (error) status = 'Invalid expression';
  else if (regexStates.includes('timed-out')) status = `Too slow: stopped after ${REGEX_TIME_LIMIT_MS / 1000} s`;
  else if (regexStates.includes('pending')) status = '…';
  else if (list.count === 0) status = stale ? '…' : 'No matches';
  else status = current >= 0 ? `${formatCount(current + 1)} of ${formatCount(list.count)}` : `${formatCount(list.count)} match${list.count === 1 ? '' : 'es'}`;

  return (
    // Under the time axis, whose labels matter most while stepping through matches.
    <div className="search-bar" role="search" aria-label="Search names" data-testid="search-bar" style={{ top: RULER_HEIGHT_CSS + 6 }}>
      <input
        ref={inputRef}
        className="text-input search-input"
        type="text"
        placeholder="Search range and mark names"
        aria-label="Search range and mark names"
        aria-invalid={error !== ''}
        title={error || 'Enter: next match · Shift+Enter: previous · Esc: close (Ctrl+F brings the query back)'}
        value={search.text}
        autoFocus
        spellCheck={false}
        onChange={(e) => update({ text: e.target.value })}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            step(e.shiftKey ? -1 : 1);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            close();
          }
        }}
      />
      <button
        type="button"
        className="search-toggle"
        aria-pressed={search.matchCase}
        title="Match case"
        aria-label="Match case"
        onClick={() => update({ matchCase: !search.matchCase })}
      >
        Aa
      </button>
      <button
        type="button"
        className="search-toggle"
        aria-pressed={search.regex}
        title="Regular expression"
        aria-label="Regular expression"
        onClick={() => update({ regex: !search.regex })}
      >
        .*
      </button>
      <span className={`search-status${error || (search.text && list.count === 0 && !stale) ? ' none' : ''}`} data-testid="search-status" title={error || undefined}>
        {status}
      </span>
      <button type="button" className="search-step" onClick={() => step(-1)} disabled={list.count === 0} title="Previous match (Shift+Enter)" aria-label="Previous match">
        ↑
      </button>
      <button type="button" className="search-step" onClick={() => step(1)} disabled={list.count === 0} title="Next match (Enter)" aria-label="Next match">
        ↓
      </button>
      <button type="button" className="search-step" onClick={close} title="Close (Esc)" aria-label="Close the search">
        ×
      </button>
    </div>
  );
}

/** The header's button that opens the search bar (same as `/`). */
export function SearchButton() {
  return (
    <button
      type="button"
      className="button"
      title="Search range and mark names (/ or Ctrl+F)"
      onClick={() => openRequests.dispatchEvent(new Event('open'))}
    >
      Search
    </button>
  );
}
