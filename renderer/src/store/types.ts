// The slice pattern: each slice is a function of zustand's set/get over the whole
// store, so slices stay in their own files yet read each other through get().
import type { StoreApi } from 'zustand/vanilla';
import type { AppStore } from './index';

export type StateSlice<S> = (set: StoreApi<AppStore>['setState'], get: StoreApi<AppStore>['getState']) => S;
