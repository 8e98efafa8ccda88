/** The viewer store reaches components through context: one store per viewer, a fresh one per test. */
import { createContext, useContext, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { createViewerStore, type ViewerActions, type ViewerState, type ViewerStore } from './viewerStore.ts';

const ViewerStoreContext = createContext<ViewerStore | null>(null);

export function ViewerStoreProvider({ store, children }: { store?: ViewerStore; children: ReactNode }) {
  const [value] = useState(() => store ?? createViewerStore());
  return <ViewerStoreContext.Provider value={value}>{children}</ViewerStoreContext.Provider>;
}

/** The store itself, for imperative subscriptions (the canvas) and actions. */
export function useViewerStore(): ViewerStore {
  const store = useContext(ViewerStoreContext);
  if (!store) throw new Error('useViewerStore outside ViewerStoreProvider');
  return store;
}

/** A selected slice of viewer state; re-renders when it changes. */
export function useViewer<T>(selector: (s: ViewerState & ViewerActions) => T): T {
  return useStore(useViewerStore(), selector);
}
