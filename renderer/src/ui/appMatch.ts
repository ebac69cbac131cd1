// How the launcher matches apps: names, keywords and file ids are keys (an exact or
// prefix match on them ranks first); descriptions and signatures only ever match as
// text, so "top" finds System monitor (keyword top) before Terminal (letters of its description).
import type { AppEntry } from '../../../kits/protocol/app';
import { rank } from './fuzzy';

export const appKeys = (a: AppEntry): string[] => [a.name, ...(a.keywords ?? []), a.id];
/** The name first: pickers highlight hits in it. */
export const appText = (a: AppEntry): string[] => [a.name, a.description ?? '', a.signature];

export function rankApps(query: string, apps: AppEntry[]) {
  return rank(query, apps, appText, appKeys);
}

/**
 * What a newcomer sees first in the launcher (nothing typed yet): apps that run here
 * before apps to install (issue 34: 10 of 15 rows said "not installed", the terminal and
 * the demo agent buried among them); among those that run, the ones to start with
 * (FIRST_APPS), then by name; those to install after, by name, each with its how.
 */
export const FIRST_APPS = ['terminal', 'demo-agent', 'scratch', 'top'] as const;

export function launcherOrder(apps: readonly AppEntry[]): { runs: AppEntry[]; toInstall: AppEntry[] } {
  const first = (a: AppEntry) => {
    const i = (FIRST_APPS as readonly string[]).indexOf(a.id);
    return i < 0 ? FIRST_APPS.length : i;
  };
  const byName = (a: AppEntry, b: AppEntry) => a.name.localeCompare(b.name);
  return {
    runs: apps.filter((a) => a.installed !== false).sort((a, b) => first(a) - first(b) || byName(a, b)),
    toInstall: apps.filter((a) => a.installed === false).sort(byName),
  };
}
