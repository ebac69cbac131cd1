// Finding a program on PATH without starting one (`which` is a process, ~6 ms from
// a Node process this size): the agent panes' launches and the sandbox helper's
// runtime settings look programs up this way.
import path from 'node:path';
import { statOffMounts } from './safeFile';

/** Finds a program on PATH (or as given, when it has a slash): its path when it is an executable file there, else null. */
export function which(program: string, pathVar: string | undefined): string | null {
  // Looked at without touching pane's own /pane mount, where a stat from this thread waits on itself.
  const ok = (p: string) => {
    const r = statOffMounts(p);
    return r !== null && r !== 'mount' && r.st.isFile() && (r.st.mode & 0o111) !== 0;
  };
  if (program.includes('/')) return ok(program) ? program : null;
  for (const dir of (pathVar ?? '').split(':')) if (dir && ok(path.join(dir, program))) return path.join(dir, program);
  return null;
}
