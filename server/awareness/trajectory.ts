// Trajectories: a rolling window of an agent's last snapshots, and what it says
// about each topic — deepening, emerging, fading or stable — plus the agent's key
// topics weighted toward its latest turns.
import type { Snapshot, Trajectory } from '../../kits/protocol/awareness';

export interface WindowShape {
  window: number;
  recent: number;
  deepeningShare: number;
  topN: number;
}

/** Appends a snapshot, dropping the oldest past the window size. */
export function pushSnapshot(win: readonly Snapshot[], s: Snapshot, size: number): Snapshot[] {
  const next = [...win, s];
  return next.length > size ? next.slice(next.length - size) : next;
}

/**
 * Classifies every topic of the window. The four classes partition the topics:
 * - fading: seen in the older part, absent from the last `recent` snapshots;
 * - emerging: seen only in the last `recent` snapshots;
 * - deepening: in both parts and in at least `deepeningShare` of the window;
 * - stable: in both parts, below that share.
 * With no older part yet (a window of `recent` or fewer), everything is emerging.
 */
export function classify(win: readonly Snapshot[], shape: Pick<WindowShape, 'recent' | 'deepeningShare'>): Trajectory {
  const split = Math.max(0, win.length - shape.recent);
  const inOlder = new Set<string>();
  const inRecent = new Set<string>();
  const count = new Map<string, number>();
  const order: string[] = [];
  win.forEach((s, i) => {
    for (const t of new Set(s.topics)) {
      if (!count.has(t)) order.push(t);
      count.set(t, (count.get(t) ?? 0) + 1);
      (i < split ? inOlder : inRecent).add(t);
    }
  });
  const out: Trajectory = { deepening: [], emerging: [], fading: [], stable: [] };
  for (const t of order) {
    if (!inRecent.has(t)) out.fading.push(t);
    else if (!inOlder.has(t)) out.emerging.push(t);
    else if ((count.get(t) ?? 0) / win.length >= shape.deepeningShare) out.deepening.push(t);
    else out.stable.push(t);
  }
  return out;
}

/**
 * The agent's key topics: the top n of the window, each snapshot counting by its
 * place (the newest weighs `window` times the oldest), so a shift of subject shows
 * within a couple of prompts while one stray prompt does not take over.
 */
export function keyTopics(win: readonly Snapshot[], n: number): string[] {
  const score = new Map<string, number>();
  win.forEach((s, i) => {
    for (const t of new Set(s.topics)) score.set(t, (score.get(t) ?? 0) + i + 1);
  });
  return [...score.entries()]
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
    .slice(0, n)
    .map(([t]) => t);
}

/** Files touched across the window, newest first, without repeats. */
export function recentFiles(win: readonly Snapshot[]): string[] {
  const seen = new Set<string>();
  for (let i = win.length - 1; i >= 0; i--) for (const f of win[i]!.files) seen.add(f);
  return [...seen];
}
