// The `pane` executable: the CLI from kits/node, with `serve` wired to this
// server. The server code loads only for `serve`, keeping one-shot commands quick;
// bare `pane hook` (run on every agent event) loads only the hook.
const argv = process.argv.slice(2);
if (argv.length === 1 && argv[0] === 'hook') {
  const { hookMain } = await import('../kits/node/cli/hookMain');
  process.exitCode = await hookMain();
} else {
  const { runCli } = await import('../kits/node/cli/main');
  const code = await runCli(argv, {
    serve: (args) => import('./serveCommand').then((m) => m.serve(args)),
  });
  process.exitCode = code;
  if (argv[0] === 'serve') process.exit(code);
}

export {};
