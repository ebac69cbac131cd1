// Notices changes to config files by polling a cheap fingerprint (names, sizes,
// mtimes). Polling, not fs.watch: editors save by rename, directories come and go,
// and inotify misses both in ways that differ per platform; a few stats every
// 400 ms cost nothing and always see the file as it finally is.
import fs from 'node:fs';
import path from 'node:path';

/** How often config files are checked: quick enough to feel live. */
export const POLL_MS = 400;

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

/** Calls `onChange` whenever any target's fingerprint changes; returns a stop function. */
export function pollTargets(targets: { path: string; kind: 'file' | 'dir' }[], onChange: () => void, intervalMs = POLL_MS): () => void {
  let last = targets.map((t) => fingerprint(t.path, t.kind)).join('\n');
  const timer = setInterval(() => {
    const now = targets.map((t) => fingerprint(t.path, t.kind)).join('\n');
    if (now === last) return;
    last = now;
    onChange();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
