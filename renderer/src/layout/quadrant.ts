// Quadrant awareness: which part of the window a pane occupies, reported to the
// server as the attr `quadrant` so agents and `pane ls` can say "ada (top-left)".
import type { FRect } from './geometry';

export type Quadrant = 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right' | 'left' | 'right' | 'top' | 'bottom' | 'full';

/** A pane wider (taller) than this fraction spans both halves of that axis. */
const SPAN = 0.75;

function side(start: number, size: number): 'first' | 'second' | 'both' {
  if (size > SPAN) return 'both';
  return start + size / 2 < 0.5 ? 'first' : 'second';
}

/** The quadrant of a rectangle given as fractions of the window. */
export function quadrantOf(r: FRect): Quadrant {
  const h = side(r.x, r.w);
  const v = side(r.y, r.h);
  if (h === 'both' && v === 'both') return 'full';
  if (h === 'both') return v === 'first' ? 'top' : 'bottom';
  if (v === 'both') return h === 'first' ? 'left' : 'right';
  return `${v === 'first' ? 'top' : 'bottom'}-${h === 'first' ? 'left' : 'right'}` as Quadrant;
}
