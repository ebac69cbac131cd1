#!/usr/bin/env node
// The `pane` executable: the CLI from kits/node, with `serve` wired to this
// server and `start` to the desktop launcher (dist/start.mjs, electron/start.ts).
// It loads one file: the CLI bundle of the command's group (decision 020); the
// server code loads only for `serve`; bare `pane hook` skips the table.
import module from 'node:module';
import { fileURLToPath } from 'node:url';
import { requireCached } from '../kits/node/codeCache';
import { PANE_IMPORT } from '../kits/node/esmImport';
import { groupOf } from '../kits/node/cli/groups';

// Node ≥ 22.1 keeps the compiled code of the bundle loaded below on disk ($NODE_COMPILE_CACHE,
// else a directory under os.tmpdir()), so later runs skip compiling it; one it cannot
// write is skipped silently. Older Node has no such call: requireCached keeps a V8 code
// cache of its own for it (kits/node/codeCache.ts, decision 020).
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// The CLI bundle's import() of what must load as an ES module proper (kits/node/esmImport.ts):
// this file is run by Node itself, so its import() has Node's loader.
(globalThis as Record<string, unknown>)[PANE_IMPORT] = (specifier: string) => import(specifier);

const argv = process.argv.slice(2);
// The CLI bundle built for this command's group alone, or the whole one (help, unknown words): decision 020.
const cliFile = `./chunks/cli-${argv.length === 1 && argv[0] === 'hook' ? 'ns' : (groupOf(argv) ?? 'all')}.cjs`;
const cli = requireCached(fileURLToPath(new URL(cliFile, import.meta.url))) as unknown as typeof import('../kits/node/cli/entry');

async function main(): Promise<void> {
  if (argv.length === 1 && argv[0] === 'hook') {
    // Ends at its budget whatever else is open (its stdin, a silent server): stdout to a pipe is written synchronously on Linux, so nothing said is lost.
    process.exit(await cli.hookMain());
  }
  const code = await cli.runCli(argv, {
    serve: (args) => import('./serveCommand').then((m) => m.serve(args)),
    start: startDesktop,
  });
  exitFlushed(code);
}

/**
 * A command is done when runCli settles: end then, not when the loop drains (the
 * socket's close and the teardown after it cost every one-shot `pane` ~1 ms), but
 * only once what it wrote is out. stdout to a file or terminal is written at once;
 * to a socket (a parent's spawn with 'pipe' stdio is a socketpair) a big output can
 * still be queued, and exit would cut it off.
 */
function exitFlushed(code: number): void {
  const queued = [process.stdout, process.stderr].filter((s) => s.writableLength > 0 && !s.destroyed);
  let left = queued.length;
  if (left === 0) process.exit(code);
  // A write's callback runs once everything written before it has gone (or the stream failed).
  for (const s of queued) s.write('', () => --left === 0 && process.exit(code));
}
// No top-level await: the bin is CommonJS (dist/pane.cjs; decision 020).
void main();

/**
 * `pane start ARGS` is `npm start -- ARGS`: the launcher beside this bundle reads
 * its flags from process.argv and exits itself when the desktop ends. It is
 * loaded by URL, not bundled in, so server code never imports electron/.
 */
async function startDesktop(args: string[]): Promise<number> {
  const launcher = new URL('./start.mjs', import.meta.url);
  process.argv = [process.argv[0] as string, fileURLToPath(launcher), ...args];
  await import(launcher.href);
  // The launcher ends the process when the desktop ends; until then, wait.
  return new Promise<number>(() => undefined);
}
