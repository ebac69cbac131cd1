// Config the server reads from files and publishes: the keymap and the settings in
// force (with any error in the user's file) and the app files the launcher lists.
import type { StateSlice } from './types';
import { resolveKeymap, type KeymapState } from '../../../kits/protocol/keymap';
import type { AppList } from '../../../kits/protocol/app';
import { resolveSettings, type SettingsState } from '../../../kits/protocol/settings';

export interface ConfigSlice {
  keymap: KeymapState;
  settings: SettingsState;
  apps: AppList;
  setKeymap(k: KeymapState): void;
  setSettings(s: SettingsState): void;
  setApps(a: AppList): void;
}

export const createConfigSlice: StateSlice<ConfigSlice> = (set) => ({
  // Until the server answers (or if it cannot), the built-in defaults apply.
  keymap: resolveKeymap(undefined),
  settings: resolveSettings(undefined),
  apps: { apps: [], errors: [] },
  setKeymap: (keymap) => set({ keymap }),
  setSettings: (settings) => set({ settings }),
  setApps: (apps) => set({ apps }),
});
