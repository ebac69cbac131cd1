// The `pane` executable: the CLI from kits/node, with `serve` wired to this
// server. The server code loads only for `serve`, keeping one-shot commands quick.
import { runCli } from '../kits/node/cli/main';

const code = await runCli(process.argv.slice(2), {
  serve: (argv) => import('./serveCommand').then((m) => m.serve(argv)),
});
process.exitCode = code;
if (process.argv[2] === 'serve') process.exit(code);
