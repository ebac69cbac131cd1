#!/usr/bin/env node
// The `pane` executable: the CLI from kits/node, with `serve` wired to this
// server and `start` to the desktop launcher (dist/start.mjs, electron/start.ts).
// It loads one file: the CLI bundle of the command's group (decision 020); the
// server code loads only for `serve`; bare `pane hook` skips the table.
import module from 'node:module';
import { fileURLToPath } from 'node:url';
import { groupOf } from '../kits/node/cli/groups';

// Node ≥ 22.1 keeps the compiled code of the chunks loaded below on disk ($NODE_COMPILE_CACHE,
// else a directory under os.tmpdir()), so later runs skip compiling them; one it cannot
// write is skipped silently. Older Node has no such call (decision 020).
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const argv = process.argv.slice(2);
// The CLI bundle built for this command's group alone, or the whole one (help, unknown words): decision 020.
const cliFile = `./chunks/cli-${argv.length === 1 && argv[0] === 'hook' ? 'ns' : (groupOf(argv) ?? 'all')}.mjs`;
const cli = (await import(new URL(cliFile, import.meta.url).href)) as typeof import('../kits/node/cli/entry');
if (argv.length === 1 && argv[0] === 'hook') {
  // Ends at its budget whatever else is open (its stdin, a silent server): stdout to a pipe is written synchronously on Linux, so nothing said is lost.
  process.exit(await cli.hookMain());
} else {
  const code = await cli.runCli(argv, {
    serve: (args) => import('./serveCommand').then((m) => m.serve(args)),
    start: startDesktop,
  });
  process.exitCode = code;
  if (argv[0] === 'serve') process.exit(code);
}

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
