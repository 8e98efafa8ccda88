/**
 * `window.__nvtxview`, the hook end-to-end tests drive the page through (see docs of the UI
 * contract): the store, and `idle()` which resolves once no load is pending and the timeline has
 * drawn the current state. The timeline adds its own `timeline` member to the same object.
 */
import type { ViewerStore } from '../state/viewerStore.ts';

export interface NvtxviewHooks {
  store: ViewerStore;
  idle(): Promise<void>;
  [member: string]: unknown;
}

type HookedWindow = Window & { __nvtxview?: Partial<NvtxviewHooks> };

/**
 * `window.__nvtxview.workerMinEvents`, set by a test before the page loads: the event count from
 * which the comparison runs in the statistics worker, so that tests of small captures exercise
 * the worker path too. Undefined (the service's default) when not set.
 */
export function workerMinEventsHook(): number | undefined {
  const value = (window as HookedWindow).__nvtxview?.workerMinEvents;
  return typeof value === 'number' && value >= 0 ? value : undefined;
}

/** Adds a member to `window.__nvtxview` (created when missing), e.g. `statsPending()`. */
export function exposeTestHook(name: string, value: unknown): void {
  const w = window as HookedWindow;
  (w.__nvtxview ??= {})[name] = value;
}

/** Frames in a row with no load pending and no new timeline draw before the page counts as idle. */
const QUIET_FRAMES = 2;

function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

/** Resolves when no load is pending and the timeline's frame counter stopped moving. */
export async function waitIdle(store: ViewerStore): Promise<void> {
  let lastFrame = document.body.dataset.timelineFrame;
  let quiet = 0;
  while (quiet < QUIET_FRAMES) {
    await nextFrame();
    const frame = document.body.dataset.timelineFrame;
    const busy = store.getState().loads.length > 0;
    quiet = !busy && frame === lastFrame ? quiet + 1 : 0;
    lastFrame = frame;
  }
}

/** Installs the hooks (keeping members others added); returns the uninstaller. */
export function installTestHooks(store: ViewerStore): () => void {
  const w = window as HookedWindow;
  const hooks = (w.__nvtxview ??= {});
  hooks.store = store;
  hooks.idle = () => waitIdle(store);
  return () => {
    if (hooks.store === store) {
      delete hooks.store;
      delete hooks.idle;
    }
  };
}
