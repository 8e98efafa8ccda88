/** The few viewer settings that survive a reload (theme, NVTXT tick rates), kept in localStorage. */
import type { ThemeChoice, ViewerState, ViewerStore } from '../state/viewerStore.ts';

/** index.html reads the theme under the same key before first paint. */
const KEY = 'nvtxview.preferences.v1';

type Preferences = Pick<ViewerState, 'theme' | 'qpcHz' | 'rdtscHz'>;

function isTheme(v: unknown): v is ThemeChoice {
  return v === 'system' || v === 'light' || v === 'dark';
}

function isRate(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0;
}

/** Saved preferences, ignoring anything malformed. */
export function loadPreferences(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): Partial<Preferences> {
  try {
    const raw = JSON.parse(storage?.getItem(KEY) ?? '{}') as Record<string, unknown>;
    const out: Partial<Preferences> = {};
    if (isTheme(raw.theme)) out.theme = raw.theme;
    if (isRate(raw.qpcHz)) out.qpcHz = raw.qpcHz;
    if (isRate(raw.rdtscHz)) out.rdtscHz = raw.rdtscHz;
    return out;
  } catch {
    return {};
  }
}

/** Saves preferences whenever they change; returns the unsubscriber. */
export function persistPreferences(
  store: ViewerStore,
  storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage,
): () => void {
  return store.subscribe((s, prev) => {
    if (s.theme === prev.theme && s.qpcHz === prev.qpcHz && s.rdtscHz === prev.rdtscHz) return;
    try {
      storage?.setItem(KEY, JSON.stringify({ theme: s.theme, qpcHz: s.qpcHz, rdtscHz: s.rdtscHz }));
    } catch {
      // Private mode or a full quota: preferences simply do not persist.
    }
  });
}
