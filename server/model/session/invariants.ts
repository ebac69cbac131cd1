// What every session operation keeps true, checked in one place: the unit tests
// run it after each operation, and it names the first rule a session breaks.
import type { Session } from '../../../kits/protocol/model';
import { invalidity, leaves } from '../../../kits/layout/tree';
import { MAX_COLS, MAX_ROWS } from '../sizeLimits';
import { members } from './focus';

/** The first broken rule of `s`, or null when it holds them all. */
export function sessionInvalidity(s: Session): string | null {
  const all = members(s);
  const tiles = leaves(s.layout);
  const tree = invalidity(s.layout, new Set(tiles));
  if (tree) return tree;
  if (new Set(all).size !== all.length) return `a pane is both tiled and floating, or floats twice: ${all.join(',')}`;
  if (s.focused === null ? all.length > 0 : !all.includes(s.focused)) return `focus is on ${s.focused}, not on a pane of the session (${all.join(',') || 'none'})`;
  if (s.zoomed !== null && !all.includes(s.zoomed)) return `zoom is on ${s.zoomed}, not on a pane of the session`;
  const recent = s.recent ?? [];
  if (recent.some((p) => !all.includes(p) || p === s.focused) || new Set(recent).size !== recent.length) return `the focus history ${recent.join(',')} names a pane twice, the focused one, or one not in the session (${all.join(',') || 'none'})`;
  for (const f of s.floating) {
    const whole = [f.x, f.y, f.w, f.h, f.z].every(Number.isInteger);
    if (!whole || f.x < 0 || f.y < 0 || f.w < 1 || f.h < 1 || f.x >= MAX_COLS || f.y >= MAX_ROWS || f.w > MAX_COLS || f.h > MAX_ROWS) return `float ${f.pane}'s rectangle ${f.x},${f.y} ${f.w}x${f.h} z${f.z} is outside the limits`;
  }
  return null;
}
