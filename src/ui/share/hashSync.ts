/**
 * Keeps the URL hash and the viewer store in step. The store writes the hash: panning and zooming
 * replace the current history entry (debounced), selecting a range or mark, a new span or opening a
 * panel add an entry, so Back steps through selections rather than through every wheel tick. Back,
 * Forward and edits of the hash apply the hash to the store.
 *
 * A link opened before its captures are loaded (a `?url=` load still running, or files the user
 * will drop) waits: the hash is left alone until no load is pending and a capture is there, then
 * the link's view is applied once.
 */
import { encodeFilters } from '../../analysis/eventFilters.ts';
import type { TrackArrangementState, ViewerState, ViewerStore } from '../../state/viewerStore.ts';
import { decodeViewHash, encodeViewHash, type ViewHashState } from './hashState.ts';
import { resolveViewHash, viewHashState, type CarriedFields } from './viewState.ts';

/** The browser history as the sync needs it (a fake in tests). */
export interface HistoryHost {
  /** The current hash without `#` ('' when none). */
  hash(): string;
  /** Replaces the current entry's hash ('' removes it). */
  replace(hash: string): void;
  /** Adds an entry with this hash. */
  push(hash: string): void;
  /** Calls `listener` after Back/Forward or a hash edit; returns the unsubscriber. */
  onNavigate(listener: () => void): () => void;
}

export function windowHistoryHost(win: Window = window): HistoryHost {
  const target = (hash: string) => (hash ? `#${hash}` : `${win.location.pathname}${win.location.search}`);
  return {
    hash: () => win.location.hash.replace(/^#/, ''),
    replace: (hash) => win.history.replaceState(win.history.state, '', target(hash)),
    push: (hash) => win.history.pushState(null, '', target(hash)),
    onNavigate(listener) {
      win.addEventListener('popstate', listener);
      win.addEventListener('hashchange', listener);
      return () => {
        win.removeEventListener('popstate', listener);
        win.removeEventListener('hashchange', listener);
      };
    },
  };
}

export interface HashSyncOptions {
  /** Quiet time after the last pan/zoom step before the entry is rewritten. */
  debounceMs?: number;
  /** Span changes closer together than this (a drag on the axis) make one history entry. */
  burstMs?: number;
  /** Something in a link could not be applied (malformed field, capture not loaded...). */
  onNotice?(message: string): void;
  now?(): number;
}

type State = ViewerState;

export class HashSync {
  /** A link's state waiting for its captures. */
  private pending: ViewHashState | null;
  private carried: CarriedFields = { extra: [] };
  /** The hash as last written or applied. */
  private current: string;
  private applying = false;
  private replaceTimer: ReturnType<typeof setTimeout> | undefined;
  private spanBurstUntil = -Infinity;
  private readonly debounceMs: number;
  private readonly burstMs: number;
  private readonly now: () => number;
  private readonly cleanups: (() => void)[] = [];

  constructor(
    private readonly store: ViewerStore,
    private readonly host: HistoryHost,
    private readonly options: HashSyncOptions = {},
  ) {
    this.debounceMs = options.debounceMs ?? 300;
    this.burstMs = options.burstMs ?? 1000;
    this.now = options.now ?? (() => performance.now());
    this.current = host.hash();
    this.pending = this.read(this.current);
    this.cleanups.push(store.subscribe((s, prev) => this.onStoreChange(s, prev)));
    this.cleanups.push(host.onNavigate(() => this.onNavigate()));
    this.applyPendingWhenReady(store.getState());
  }

  dispose(): void {
    clearTimeout(this.replaceTimer);
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }

  /** Writes any debounced change now (tests, and before the page is left). */
  flush(): void {
    if (this.replaceTimer === undefined) return;
    clearTimeout(this.replaceTimer);
    this.replaceTimer = undefined;
    this.replace(this.store.getState());
  }

  private read(hash: string): ViewHashState | null {
    const { state, problems } = decodeViewHash(hash);
    for (const p of problems) this.options.onNotice?.(`Link: ${p}.`);
    if (state) this.carried = { extra: state.extra };
    return state;
  }

  private encode(s: State): string {
    const state = viewHashState(s, this.carried);
    return state ? encodeViewHash(state) : '';
  }

  private onStoreChange(s: State, prev: State): void {
    if (this.applying) return;
    if (this.pending) {
      this.applyPendingWhenReady(s);
      return;
    }
    const capturesChanged = s.captures !== prev.captures;
    // Pinning, hiding or moving a row is a step Back undoes; typing the track filter or dragging a
    // row's height rewrites the entry, like panning.
    const rowsArranged =
      s.tracks !== prev.tracks &&
      (s.tracks.pinned !== prev.tracks.pinned || s.tracks.hidden !== prev.tracks.hidden || s.tracks.order !== prev.tracks.order);
    const discrete =
      s.selection !== prev.selection || s.panel !== prev.panel || s.filters !== prev.filters || s.flags !== prev.flags || s.compare !== prev.compare || rowsArranged;
    const spanChanged = s.span !== prev.span;
    // Typing a search rewrites the entry like panning: one entry per finished edit, not per key.
    const viewChanged = s.viewStartNs !== prev.viewStartNs || s.viewEndNs !== prev.viewEndNs || s.search !== prev.search || s.tracks !== prev.tracks;
    // Opening or closing files is not something Back can undo: rewrite the entry.
    if (capturesChanged) return this.scheduleReplace();
    const now = this.now();
    if (discrete || (spanChanged && now > this.spanBurstUntil)) {
      // The entry being left keeps the view it ended with (a pan just before the click).
      if (this.replaceTimer !== undefined) {
        clearTimeout(this.replaceTimer);
        this.replaceTimer = undefined;
        this.replace(prev);
      }
      this.push(s);
      if (spanChanged) this.spanBurstUntil = now + this.burstMs;
    } else if (spanChanged) {
      this.spanBurstUntil = now + this.burstMs;
      this.scheduleReplace();
    } else if (viewChanged) {
      this.scheduleReplace();
    }
  }

  private scheduleReplace(): void {
    clearTimeout(this.replaceTimer);
    this.replaceTimer = setTimeout(() => {
      this.replaceTimer = undefined;
      this.replace(this.store.getState());
    }, this.debounceMs);
  }

  private replace(s: State): void {
    const hash = this.encode(s);
    if (hash === this.current) return;
    this.current = hash;
    this.host.replace(hash);
  }

  private push(s: State): void {
    const hash = this.encode(s);
    if (hash === this.current) return;
    this.current = hash;
    this.host.push(hash);
  }

  private onNavigate(): void {
    const hash = this.host.hash();
    if (hash === this.current) return;
    this.current = hash;
    clearTimeout(this.replaceTimer);
    this.replaceTimer = undefined;
    const state = this.read(hash);
    if (!state) return;
    const s = this.store.getState();
    if (s.loads.length > 0 || s.captures.length === 0) this.pending = state;
    else this.apply(state);
  }

  private applyPendingWhenReady(s: State): void {
    if (!this.pending || s.loads.length > 0 || s.captures.length === 0) return;
    const state = this.pending;
    this.pending = null;
    this.apply(state);
    // The address stays the link as given (its capture order may differ from this load's) until
    // the view changes; from then on the store writes the hash.
  }

  private apply(state: ViewHashState): void {
    const s = this.store.getState();
    const view = resolveViewHash(state, s.captures);
    this.applying = true;
    try {
      for (const o of view.offsets) s.setCaptureOffset(o.capture, o.offsetNs);
      s.setFlags(view.flags);
      if (view.window) s.setView(view.window.startNs, view.window.endNs);
      s.setSpan(view.span);
      s.select(view.selection);
      s.setPanel(view.panel);
      // Same filters, same object: the per-capture masks are cached by identity.
      if (encodeFilters(view.filters) !== encodeFilters(s.filters)) s.setFilters(view.filters);
      s.setSearch(view.search);
      s.setCompare(view.compare);
      if (!sameArrangement(view.tracks, s.tracks)) s.setTrackArrangement(view.tracks);
    } finally {
      this.applying = false;
    }
    if (view.missing.length > 0) this.options.onNotice?.(`Link: ${view.missing.join('; ')}.`);
  }
}

/** Same arrangement (a link applied again keeps the store's object, so the layout is not rebuilt). */
function sameArrangement(a: TrackArrangementState, b: TrackArrangementState): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
