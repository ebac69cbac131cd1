// Reads app files: the built-in apps/ directory, then the user's
// ~/.config/pane/apps/ (a user file with the same name overrides a built-in one).
// Each bad file is reported by file and field and skipped; the rest still load.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppFileSchema, type AppEntry, type AppList } from '../../kits/protocol/app';
import { MAX_APPS_PER_DIR } from '../../kits/protocol/limits';
import { resolveProgram } from '../pty/nodePtyPort';
import { readJsonConfig } from './readConfig';
import { shadowedWords } from '../model/appWords';

/** Where the built-in apps/ directory is: $PANE_APPS_DIR, else beside the source or bundle. */
export function builtinAppsDir(): string | null {
  if (process.env.PANE_APPS_DIR) return process.env.PANE_APPS_DIR;
  const here = path.dirname(fileURLToPath(import.meta.url));
  const resources = (process as { resourcesPath?: string }).resourcesPath;
  const candidates = [path.join(here, '..', 'apps'), path.join(here, '..', '..', 'apps'), ...(resources ? [path.join(resources, 'apps')] : [])];
  return candidates.find((d) => fs.existsSync(path.join(d, 'terminal.json'))) ?? null;
}

function readDir(dir: string, source: AppEntry['source'], out: Map<string, AppEntry>, errors: AppList['errors']): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return; // no such directory: no apps from it
  }
  if (names.length > MAX_APPS_PER_DIR) {
    errors.push({ file: dir, field: '(directory)', message: `${names.length} app files, over the ${MAX_APPS_PER_DIR} one directory may hold (MAX_APPS_PER_DIR); only the first ${MAX_APPS_PER_DIR} by name are read: remove some` });
    names = names.slice(0, MAX_APPS_PER_DIR);
  }
  for (const name of names) {
    const file = path.join(dir, name);
    const app = readJsonConfig(file, AppFileSchema, errors);
    if (app === null) continue;
    const id = name.slice(0, -'.json'.length);
    out.set(id, { ...app, id, file, source });
  }
}

/** Every app, built-in first then the user's, sorted by name. */
export function loadApps(builtinDir: string | null, userDir: string): AppList {
  const out = new Map<string, AppEntry>();
  const errors: AppList['errors'] = [];
  if (builtinDir) readDir(builtinDir, 'builtin', out, errors);
  readDir(userDir, 'user', out, errors);
  for (const app of out.values()) errors.push(...shadowedWords(app));
  return { apps: [...out.values()].sort((a, b) => a.name.localeCompare(b.name)), errors };
}

/**
 * Marks each app whose program is not on PATH (installed: false), so the launcher
 * can say so before anyone tries; PATH is the one panes start with.
 */
export function markInstalled(list: AppList, pathEnv: string, cwd: string): AppList {
  const apps = list.apps.map((a) => {
    // `pane` itself is on every pane's PATH (the agents' shim directory puts it there).
    if (!a.launch || a.launch.program === 'pane') return a;
    let installed = true;
    try {
      resolveProgram(a.launch.program, pathEnv, a.launch.cwd ?? cwd);
    } catch {
      installed = false;
    }
    return a.installed === installed ? a : { ...a, installed };
  });
  return apps.every((a, i) => a === list.apps[i]) ? list : { ...list, apps };
}

/** Finds an app by id, then signature, then name (case-insensitive). */
export function findApp(list: AppList, ref: string): AppEntry | undefined {
  const low = ref.toLowerCase();
  return list.apps.find((a) => a.id === ref) ?? list.apps.find((a) => a.signature === ref) ?? list.apps.find((a) => a.name.toLowerCase() === low);
}
