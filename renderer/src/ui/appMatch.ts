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
