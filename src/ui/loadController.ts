/**
 * Glue between files the user gives the page and the viewer store: each file goes to the load
 * client (one worker per file), progress and failures go to the store, finished models become
 * captures. The controller keeps each capture's file so that changing an NVTXT tick rate can
 * decode it again with the new rate.
 */
import type { LoadHandle, LoadRequest } from '../worker/load.client.ts';
import { LoadCancelledError } from '../worker/load.client.ts';
import type { Model } from '../model/types.ts';
import type { DecodeOptions } from '../import/importer.ts';
import { DEFAULT_QPC_HZ, DEFAULT_RDTSC_HZ } from '../import/nvtxt/timebase.ts';
import type { LoadedCapture, ViewerStore } from '../state/viewerStore.ts';
import { whenModelDrawn } from '../state/modelsDrawn.ts';

/** What the controller needs from `LoadClient` (a fake in tests). */
export interface CaptureLoader {
  load(request: LoadRequest): LoadHandle;
}

/** A file to load: a `File`, or any Blob with the name to show for it. */
export interface LoadSource {
  blob: Blob;
  name: string;
}

/** A capture at a URL, downloaded and decoded inside the load worker. */
export interface RemoteSource {
  /** Absolute URL. */
  url: string;
  name: string;
}

/** How one load ended (for callers that report back, e.g. the embedding API). */
export type LoadOutcome =
  | { ok: true; name: string; captureId: number }
  | { ok: false; name: string; message: string; cancelled: boolean };

/** The NVTXT time bases whose tick rate the file cannot tell; the user sets them in the page. */
export type AdjustableTimeBase = 'Qpc' | 'Rdtsc';

/**
 * Whether a model's timestamps depend on the given time base's tick rate. The NVTXT decoder names
 * the clock after the file's first time base (e.g. "Qpc@10MHz") and records a "Qpc rate" /
 * "Rdtsc rate" property for every tick time base the file used, since one file may mix them.
 */
export function usesTimeBase(model: Model, timeBase: AdjustableTimeBase): boolean {
  return model.capture.clock.startsWith(`${timeBase}@`) || model.capture.properties[`${timeBase} rate`] !== undefined;
}

/**
 * Decode options from the store's tick rates. A rate equal to the decoder's default is left out,
 * so that the decoder tells the user (in the load report) that it assumed the default.
 */
export function decodeOptions(rates: { qpcHz: number; rdtscHz: number }): DecodeOptions {
  return {
    qpcHz: rates.qpcHz === DEFAULT_QPC_HZ ? undefined : rates.qpcHz,
    rdtscHz: rates.rdtscHz === DEFAULT_RDTSC_HZ ? undefined : rates.rdtscHz,
  };
}

/** Captures in the order their files were opened (`LoadedCapture.openOrder`); captures without one after, in store order. */
export function byOpenOrder(a: Pick<LoadedCapture, 'openOrder'>, b: Pick<LoadedCapture, 'openOrder'>): number {
  return (a.openOrder ?? Number.MAX_SAFE_INTEGER) - (b.openOrder ?? Number.MAX_SAFE_INTEGER);
}

export class LoadController {
  private nextLoadId = 1;
  /** The file behind each capture, by capture id. */
  private readonly sources = new Map<number, LoadSource | RemoteSource>();
  /** Reloads in flight, by capture id (a newer tick-rate change cancels the older reload). */
  private readonly reloads = new Map<number, LoadHandle>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: ViewerStore,
    private readonly loader: CaptureLoader,
  ) {
    this.unsubscribe = store.subscribe((state, previous) => {
      const changed: AdjustableTimeBase[] = [];
      if (state.qpcHz !== previous.qpcHz) changed.push('Qpc');
      if (state.rdtscHz !== previous.rdtscHz) changed.push('Rdtsc');
      if (changed.length > 0) this.reloadTimeBases(changed);
      if (state.captures !== previous.captures) this.forgetRemoved();
    });
  }

  /** Starts loading every file; returns at once, with a promise of how each load ended. */
  open(files: Iterable<File | LoadSource>): Promise<LoadOutcome[]> {
    const outcomes: Promise<LoadOutcome>[] = [];
    for (const f of files) {
      const source = f instanceof Blob ? { blob: f, name: f.name } : f;
      outcomes.push(this.start(source, undefined));
    }
    return Promise.all(outcomes);
  }

  /**
   * Opens files to compare them (the "drop to compare" targets): the Compare tab opens at once and,
   * once they are loaded, compares the first file (A, the baseline) with the second (B), in the
   * order given (drop or picker order) whichever load finishes first. A single file is compared
   * (as B) with the baseline the Compare tab shows (A): the one picked, else the capture opened
   * first. Files past the second are only opened.
   */
  openToCompare(files: Iterable<File | LoadSource>): Promise<LoadOutcome[]> {
    const store = this.store;
    const before = store.getState();
    const whole = before.captures.filter((c) => !c.partial);
    const earlier = whole.find((c) => c.id === before.compare?.base) ?? [...whole].sort(byOpenOrder)[0];
    store.getState().setPanel('compare');
    return this.open(files).then((outcomes) => {
      const opened = outcomes.flatMap((o) => (o.ok ? [o.captureId] : []));
      const [base, candidate] = opened.length === 1 && earlier ? [earlier.id, opened[0]] : opened;
      const state = store.getState();
      const live = (id: number | undefined) => id !== undefined && state.captures.some((c) => c.id === id && !c.partial);
      if (live(base) && live(candidate) && base !== candidate) {
        state.setCompare({ base: base!, candidate: candidate!, groupBy: state.compare?.groupBy ?? 'name', row: null });
      }
      return outcomes;
    });
  }

  /**
   * Loads a capture from an absolute URL: the load worker fetches it (CORS) and decodes it while it
   * downloads; progress counts received bytes.
   */
  openRemote(source: RemoteSource): Promise<LoadOutcome> {
    return this.start(source, undefined);
  }

  /**
   * Fetches a capture by URL (relative to the page: the bundled demo) and loads it. The fetch
   * counts as a pending load, so the page is not idle while it runs.
   */
  openUrl(url: string, name: string, fetchImpl: typeof fetch = fetch): void {
    const store = this.store;
    const id = this.nextLoadId++;
    const abort = new AbortController();
    store.getState().startLoad({ id, name, bytesDone: 0, bytesTotal: 0, cancel: () => abort.abort() });
    fetchImpl(url, { signal: abort.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(`could not fetch ${url} (HTTP ${response.status})`);
        this.start({ blob: await response.blob(), name }, undefined);
      })
      .catch((e: unknown) => {
        if (abort.signal.aborted) return;
        const reason = e instanceof Error ? e.message : String(e);
        store.getState().failLoad({ id, name, message: `${name}: ${reason}` });
      })
      .finally(() => store.getState().endLoad(id));
  }

  /** Decodes again, with the current tick rates, every capture that used one of `timeBases`. */
  reloadTimeBases(timeBases: AdjustableTimeBase[]): void {
    for (const capture of this.store.getState().captures) {
      const source = this.sources.get(capture.id);
      if (source && timeBases.some((tb) => usesTimeBase(capture.model, tb))) this.start(source, capture.id);
    }
  }

  /** Stops listening to the store and cancels every pending load. */
  dispose(): void {
    this.unsubscribe();
    for (const load of this.store.getState().loads) load.cancel();
  }

  private start(source: LoadSource | RemoteSource, replaces: number | undefined): Promise<LoadOutcome> {
    const store = this.store;
    const id = this.nextLoadId++;
    if (replaces !== undefined) this.reloads.get(replaces)?.cancel();
    const handle = this.loader.load({
      file: 'url' in source ? { url: source.url } : source.blob,
      name: source.name,
      options: decodeOptions(store.getState()),
      onProgress: (bytesDone, bytesTotal) => store.getState().progressLoad(id, bytesDone, bytesTotal),
      onPartial: (model) => {
        // A big file's start, shown while the rest decodes; the whole model replaces it.
        if (replaces !== undefined || preview !== undefined) return;
        const state = store.getState();
        preview = { captureId: state.addCapture({ model, decodeMs: 0, partial: true, openOrder: id }), view: [0, 0] };
        const fitted = store.getState();
        preview.view = [fitted.viewStartNs, fitted.viewEndNs];
        return whenModelDrawn(model);
      },
    });
    let preview: { captureId: number; view: [number, number] } | undefined;
    if (replaces !== undefined) this.reloads.set(replaces, handle);
    const bytesTotal = 'url' in source ? 0 : source.blob.size;
    store.getState().startLoad({ id, name: source.name, bytesDone: 0, bytesTotal, cancel: handle.cancel });
    return handle.promise
      .then(({ model, decodeMs }): LoadOutcome => {
        const state = store.getState();
        if (replaces !== undefined && state.captures.some((c) => c.id === replaces)) {
          state.replaceCapture(replaces, { model, decodeMs });
          return { ok: true, name: source.name, captureId: replaces };
        }
        if (preview !== undefined && state.captures.some((c) => c.id === preview!.captureId)) {
          const untouched = state.viewStartNs === preview.view[0] && state.viewEndNs === preview.view[1];
          state.replaceCapture(preview.captureId, { model, decodeMs });
          // Still the view fitted to the preview: fit the whole capture.
          if (untouched && state.captures.length === 1) store.getState().zoomToFit();
          this.sources.set(preview.captureId, source);
          return { ok: true, name: source.name, captureId: preview.captureId };
        }
        const captureId = state.addCapture({ model, decodeMs, openOrder: id });
        this.sources.set(captureId, source);
        return { ok: true, name: source.name, captureId };
      })
      .catch((e: unknown): LoadOutcome => {
        const message = e instanceof Error ? e.message : String(e);
        // A preview of a load that did not finish goes with it.
        if (preview !== undefined) store.getState().removeCapture(preview.captureId);
        if (e instanceof LoadCancelledError) return { ok: false, name: source.name, message, cancelled: true };
        store.getState().failLoad({ id, name: source.name, message });
        return { ok: false, name: source.name, message, cancelled: false };
      })
      .finally(() => {
        if (replaces !== undefined && this.reloads.get(replaces) === handle) this.reloads.delete(replaces);
        // Last, so that an idle check never sees "no load pending" before the capture exists.
        store.getState().endLoad(id);
      });
  }

  private forgetRemoved(): void {
    const live = new Set(this.store.getState().captures.map((c) => c.id));
    for (const id of this.sources.keys()) if (!live.has(id)) this.sources.delete(id);
  }
}
