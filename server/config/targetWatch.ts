// Notices changes to config files and directories (keymap, settings, app and host
// files, the domain map) without waking an idle daemon. What decides a change is a
// cheap fingerprint (names, sizes, mtimes), compared after the file system says
// something moved: each target's directory is watched (inotify on Linux), or, while
// it does not exist, its nearest existing ancestor, so a directory made later, a
// file saved by rename (how editors save) and a directory removed are all seen, and
// the watches follow the path as it comes and goes (decision 052). Where no watch
// can be set (the kernel's limit on watches, a file system without them), the
// target is polled every POLL_MS as before; and one slow poll for every target in
// the process catches what no event reports (a file changed by another machine on
// a network file system).
import fs from 'node:fs';
import path from 'node:path';

/** How often a target is polled where no watch can be set on it: quick enough to feel live. */
export const POLL_MS = 400;
/**
 * How long after an event the fingerprint is compared: an editor's save is a burst
 * (write a temporary, rename, chmod), and one comparison after it is enough.
 */
export const WATCH_SETTLE_MS = 40;
/**
 * How often every watched target is compared even with no event: what a watch cannot
 * see (a file changed on a network file system by another machine) is picked up
 * within this. One timer for the whole process, so an idle daemon wakes this seldom.
 */
export const SAFETY_POLL_MS = 30_000;

export interface WatchTarget {
  path: string;
  kind: 'file' | 'dir';
}

/** A fingerprint of a file or of a directory's *.json files; '' when absent. */
export function fingerprint(target: string, kind: 'file' | 'dir'): string {
  try {
    if (kind === 'file') {
      const st = fs.statSync(target);
      return `${st.size}:${st.mtimeMs}`;
    }
    const names = fs.readdirSync(target).filter((n) => n.endsWith('.json')).sort();
    return names
      .map((n) => {
        try {
          const st = fs.statSync(path.join(target, n));
          return `${n}:${st.size}:${st.mtimeMs}`;
        } catch {
          return `${n}:gone`;
        }
      })
      .join('|') || 'empty';
  } catch {
    return '';
  }
}

/**
 * The directories to watch for `t`, each with the entry names in it that matter
 * (null: any). A file: its directory, for its own name. A directory: itself, for any
 * entry, and its parent, for its own name (made, removed, renamed). A directory that
 * does not exist yet: its nearest existing ancestor, for the next name down the path.
 */
export function watchPlan(t: WatchTarget): Map<string, Set<string> | null> {
  const plan = new Map<string, Set<string> | null>();
  const add = (dir: string, name: string | null) => addToPlan(plan, dir, name === null ? null : [name]);
  const target = path.resolve(t.path);
  if (t.kind === 'dir' && isDir(target)) add(target, null);
  let child = target;
  for (let dir = path.dirname(target); ; child = dir, dir = path.dirname(dir)) {
    if (isDir(dir)) {
      add(dir, path.basename(child));
      break;
    }
    if (path.dirname(dir) === dir) break; // no ancestor exists at all: nothing to watch, the polls stand in
  }
  return plan;
}

/** Adds `names` in `dir` (null: any) to a plan, a directory watched for any name staying so. */
function addToPlan(plan: Map<string, Set<string> | null>, dir: string, names: Iterable<string> | null): void {
  const had = plan.get(dir);
  if (had === null) return;
  plan.set(dir, names === null ? null : new Set([...(had ?? []), ...names]));
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Every live watch set's comparison, run by the one safety poll. */
const safetyChecks = new Set<() => void>();
let safetyTimer: NodeJS.Timeout | null = null;

function joinSafetyPoll(check: () => void, everyMs: number): () => void {
  safetyChecks.add(check);
  if (!safetyTimer) {
    safetyTimer = setInterval(() => {
      for (const c of [...safetyChecks]) c();
    }, everyMs);
    safetyTimer.unref();
  }
  return () => {
    safetyChecks.delete(check);
    if (safetyChecks.size === 0 && safetyTimer) {
      clearInterval(safetyTimer);
      safetyTimer = null;
    }
  };
}

export interface WatchOptions {
  /** The fallback poll where no watch can be set (POLL_MS). */
  pollMs?: number;
  /** The comparison's delay after an event (WATCH_SETTLE_MS). */
  settleMs?: number;
  /** The process-wide safety poll (SAFETY_POLL_MS); the first watch set made decides it. */
  safetyMs?: number;
  /** fs.watch, replaceable by tests of the fallback. */
  watch?: typeof fs.watch;
}

/** Calls `onChange` whenever any target's fingerprint changes; returns a stop function. */
export function watchTargets(targets: WatchTarget[], onChange: () => void, o: WatchOptions = {}): () => void {
  const settleMs = o.settleMs ?? WATCH_SETTLE_MS;
  const pollMs = o.pollMs ?? POLL_MS;
  const watch = o.watch ?? fs.watch;
  const now = () => targets.map((t) => fingerprint(t.path, t.kind)).join('\n');
  let last = now();
  let stopped = false;
  /** Open watches by directory, with the names in each that matter (null: any). */
  const watches = new Map<string, { w: fs.FSWatcher; names: Set<string> | null }>();
  let settle: NodeJS.Timeout | null = null;
  let poll: NodeJS.Timeout | null = null;

  const compare = () => {
    if (stopped) return;
    if (settle) clearTimeout(settle);
    settle = null;
    arm(); // a directory made or removed moves the watches
    const fp = now();
    if (fp === last) return;
    last = fp;
    onChange();
  };
  const soon = () => {
    if (stopped || settle) return;
    settle = setTimeout(compare, settleMs);
    settle.unref();
  };
  const arm = () => {
    const plan = new Map<string, Set<string> | null>();
    for (const t of targets) for (const [dir, names] of watchPlan(t)) addToPlan(plan, dir, names);
    for (const [dir, open] of watches) {
      if (plan.has(dir)) continue;
      open.w.close();
      watches.delete(dir);
    }
    let failed = false;
    for (const [dir, names] of plan) {
      const open = watches.get(dir);
      if (open) {
        open.names = names;
        continue;
      }
      try {
        const w = watch(dir, { persistent: false }, (_event, name) => {
          const cur = watches.get(dir);
          if (cur?.w !== w) return;
          if (name !== null && cur.names !== null && !cur.names.has(String(name))) return;
          soon();
        });
        // A watched directory removed or made unreadable: compare, which re-arms on what is there now.
        w.on('error', () => {
          if (watches.get(dir)?.w === w) {
            w.close();
            watches.delete(dir);
          }
          soon();
        });
        watches.set(dir, { w, names });
      } catch {
        failed = true; // no watch here (ENOSPC: the kernel's limit; a file system without them)
      }
    }
    // Polled while any needed watch is missing, as the whole target set was before watches.
    if (failed && !poll && !stopped) {
      poll = setInterval(compare, pollMs);
      poll.unref();
    } else if (!failed && poll) {
      clearInterval(poll);
      poll = null;
    }
  };

  arm();
  const leave = joinSafetyPoll(compare, o.safetyMs ?? SAFETY_POLL_MS);
  return () => {
    stopped = true;
    leave();
    if (settle) clearTimeout(settle);
    if (poll) clearInterval(poll);
    for (const { w } of watches.values()) w.close();
    watches.clear();
  };
}
