// The server's view of the user's config: the keymap, the settings and the app
// files, loaded once, watched live, and published as keymap/changed,
// settings/changed and apps/changed so every
// window applies an edit the moment it is saved. One per server.
import path from 'node:path';
import type { AppEntry, AppList } from '../../kits/protocol/app';
import type { KeymapState } from '../../kits/protocol/keymap';
import type { SettingsState } from '../../kits/protocol/settings';
import { configDir } from '../../kits/node/paths';
import type { PaneServer } from '../paneServer';
import type { Services } from '../services';
import { builtinAppsDir, findApp, loadApps, markInstalled } from './appFiles';
import { loadKeymap } from './keymapFile';
import { watchTargets } from './targetWatch';
import { loadSettings } from './settingsFile';

export interface ConfigPaths {
  /** The user's config dir (default: $XDG_CONFIG_HOME/pane or ~/.config/pane). */
  configDir?: string;
  /** The built-in apps/ dir (default: found beside the code). */
  appsDir?: string | null;
}

/** What the config service needs of the server: to publish its changes, stop with it, and read its PATH and HOME. */
export type ConfigHost = Pick<PaneServer, 'publish' | 'onStop' | 'env'>;

export class ConfigService {
  keymap: KeymapState;
  settings: SettingsState;
  /** The app files, read on first use or just after the server is ready, whichever comes first (see `apps`). */
  private appList: AppList | null = null;
  readonly keymapFile: string;
  readonly settingsFile: string;
  readonly userAppsDir: string;
  readonly appsDir: string | null;
  private readonly stops: (() => void)[] = [];

  constructor(
    private readonly server: ConfigHost,
    paths: ConfigPaths = {},
  ) {
    const dir = paths.configDir ?? configDir();
    this.keymapFile = path.join(dir, 'keymap.json');
    this.settingsFile = path.join(dir, 'settings.json');
    this.userAppsDir = path.join(dir, 'apps');
    this.appsDir = paths.appsDir === undefined ? builtinAppsDir() : paths.appsDir;
    this.keymap = loadKeymap(this.keymapFile, undefined);
    this.settings = loadSettings(this.settingsFile, undefined);
    // The app files are not on the way to the first prompt: reading and checking them (about
    // twenty zod-validated files, each program looked up on PATH) waits for the next turn of
    // the event loop, after the daemon is listening, unless someone asks for them sooner.
    const early = setImmediate(() => void this.apps);
    this.stops.push(() => clearImmediate(early));
    this.stops.push(watchTargets([{ path: this.keymapFile, kind: 'file' }], () => this.reloadKeymap()));
    this.stops.push(watchTargets([{ path: this.settingsFile, kind: 'file' }], () => this.reloadSettings()));
    const appDirs = [{ path: this.userAppsDir, kind: 'dir' as const }, ...(this.appsDir ? [{ path: this.appsDir, kind: 'dir' as const }] : [])];
    this.stops.push(watchTargets(appDirs, () => this.reloadApps()));
    server.onStop(() => this.stop());
  }

  /** Every app file, read now if they have not been yet. */
  get apps(): AppList {
    if (!this.appList) {
      this.appList = this.marked(loadApps(this.appsDir, this.userAppsDir));
      this.logAppErrors();
    }
    return this.appList;
  }

  set apps(list: AppList) {
    this.appList = list;
  }

  /** The app file errors /pane/log has been told of (said again only after they were fixed and came back). */
  private saidAppErrors = new Set<string>();

  reloadKeymap(): void {
    this.keymap = loadKeymap(this.keymapFile, this.keymap);
    this.server.publish('keymap/changed', this.keymap);
  }

  reloadSettings(): void {
    this.settings = loadSettings(this.settingsFile, this.settings);
    this.server.publish('settings/changed', this.settings);
  }

  /** The app `ref` names (id, signature or name); on a miss the app folders are read again once: a file dropped a moment ago, before their poll saw it, is found. */
  findApp(ref: string): AppEntry | undefined {
    const hit = findApp(this.apps, ref);
    if (hit) return hit;
    this.reloadApps();
    return findApp(this.apps, ref);
  }

  reloadApps(): void {
    this.apps = this.marked(loadApps(this.appsDir, this.userAppsDir));
    this.server.publish('apps/changed', this.apps);
    this.logAppErrors();
  }

  /** App file errors not said yet reach /pane/log (`- refused app files: FILE: FIELD: MESSAGE`), each once while it stands. */
  private logAppErrors(): void {
    const now = new Set<string>();
    for (const e of this.apps.errors) {
      const line = `${e.file}: ${e.field}: ${e.message}`;
      now.add(line);
      if (!this.saidAppErrors.has(line)) this.server.publish('client/refused', { door: 'app files', reason: line });
    }
    this.saidAppErrors = now;
  }

  /** Looks at PATH again (someone may have installed a program since); publishes when that changed anything. */
  recheckInstalled(): AppList {
    const next = this.marked(this.apps);
    if (next !== this.apps) {
      this.apps = next;
      this.server.publish('apps/changed', this.apps);
    }
    return this.apps;
  }

  private marked(list: AppList): AppList {
    return markInstalled(list, this.server.env.PATH ?? '', this.server.env.HOME ?? '/');
  }

  stop(): void {
    for (const s of this.stops.splice(0)) s();
  }
}

/** Starts watching config for a server now, optionally from given directories (tests); replaces the one running. */
export function attachConfig(services: Services, paths: ConfigPaths = {}): ConfigService {
  const s = new ConfigService(services.server, paths);
  services.config = s;
  return s;
}
