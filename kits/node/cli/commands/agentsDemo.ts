// `pane agent demo`: finds the demo agent program (apps/demo-agent/agent.mjs,
// beside the bundle or the sources, or $PANE_APPS_DIR) and runs it in this process,
// telling it how to call this same `pane` for its hooks and replies.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CommandContext } from '../context';
import { OpError } from '../errors';
import { importEsm } from '../../esmImport';

export function demoAgentPath(env: Record<string, string | undefined>): string | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const roots = [env.PANE_APPS_DIR, path.join(here, '..', 'apps'), path.join(here, '..', '..', 'apps'), path.join(here, '..', '..', '..', '..', 'apps')];
  for (const r of roots) {
    if (!r) continue;
    const p = path.join(r, 'demo-agent', 'agent.mjs');
    if (fs.existsSync(p)) return p;
  }
  return null;
}

export async function runDemoAgent(ctx: CommandContext, o: { steps: number; delayMs: number; resume?: string }): Promise<number> {
  const file = demoAgentPath(ctx.io.env);
  if (!file) throw new OpError('cannot find apps/demo-agent/agent.mjs (set PANE_APPS_DIR to the apps/ directory)');
  const mod = await importEsm<{ main: (o: unknown) => Promise<number> }>(pathToFileURL(file).href);
  const entry = process.argv[1] ?? 'pane';
  return mod.main({
    ...o,
    pane: [process.execPath, entry, '--socket', ctx.socketPath],
    stdin: ctx.io.stdin,
    stdout: ctx.io.stdout,
    env: ctx.io.env,
  });
}
