// The one store, composed of slices; components read it through small selectors
// (React Flow's pattern) so a pane's output never re-renders its neighbours.
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { createConfigSlice, type ConfigSlice } from './configSlice';
import { createServerSlice, type ServerSlice } from './serverSlice';
import { createUiSlice, type UiSlice } from './uiSlice';

export type AppStore = ServerSlice & UiSlice & ConfigSlice;

export function makeStore() {
  return createStore<AppStore>()((set, get) => ({
    ...createServerSlice(set, get),
    ...createUiSlice(set, get),
    ...createConfigSlice(set, get),
  }));
}

export const store = makeStore();

/** Reads the store with a selector; re-renders only when the selected value changes. */
export function useApp<T>(selector: (s: AppStore) => T): T {
  return useStore(store, selector);
}

/** The session this window shows, if any. */
export const selectSession = (s: AppStore) => (s.sessionId ? s.sessions[s.sessionId] ?? null : null);
