// The `pane` entry point an agent pane's shims and sandbox run. Shared by panes.ts
// and sandbox.ts (a leaf, so neither imports the other for it); a command on PATH
// is found by kits/node/which.ts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentService } from './service';

/** The `pane` entry point the shims run: dist/pane.cjs beside the bundle (or the repo's, from source). */
export function paneEntry(svc: AgentService): string | null {
  if (svc.options.paneBin) return svc.options.paneBin;
  // This code runs from dist/pane.cjs, a dist/chunks/ chunk, another dist/ entry (start.mjs),
  // or the sources (server/agents/); a CommonJS bundle has no import.meta.url at all.
  let here: string | null = null;
  try {
    here = path.dirname(fileURLToPath(import.meta.url));
  } catch {
    here = null;
  }
  const argv1 = process.argv[1] ?? '';
  // The CommonJS bin, not dist/pane.mjs (which only runs it): a hook or a shim starts ~10 ms sooner (decision 020).
  const candidates = [argv1 ? path.join(path.dirname(argv1), 'pane.cjs') : '', ...(here ? [path.join(here, 'pane.cjs'), path.join(here, '..', 'pane.cjs'), path.join(here, '..', '..', 'dist', 'pane.cjs')] : [])];
  return candidates.find((c) => c && fs.existsSync(c)) ?? null;
}
