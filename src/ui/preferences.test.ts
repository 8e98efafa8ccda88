import { describe, expect, it } from 'vitest';
import { createViewerStore } from '../state/viewerStore.ts';
import { loadPreferences, persistPreferences } from './preferences.ts';

/** An in-memory Storage stand-in. */
function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
  };
}

describe('preferences', () => {
  it('round-trips theme and tick rates through storage', () => {
    const storage = memoryStorage();
    const store = createViewerStore();
    persistPreferences(store, storage);
    store.getState().setTheme('dark');
    store.getState().setTickRates({ qpcHz: 24e6 });
    expect(loadPreferences(storage)).toEqual({ theme: 'dark', qpcHz: 24e6, rdtscHz: 1e9 });
  });

  it('ignores malformed or invalid saved values', () => {
    expect(loadPreferences(memoryStorage({ 'nvtxview.preferences.v1': '{not json' }))).toEqual({});
    const saved = JSON.stringify({ theme: 'purple', qpcHz: -1, rdtscHz: 3e9 });
    expect(loadPreferences(memoryStorage({ 'nvtxview.preferences.v1': saved }))).toEqual({ rdtscHz: 3e9 });
  });

  it('does not write when nothing it keeps changed', () => {
    const storage = memoryStorage();
    const store = createViewerStore();
    persistPreferences(store, storage);
    store.getState().setSpan({ startNs: 0, endNs: 1 });
    expect(storage.data.size).toBe(0);
  });
});
