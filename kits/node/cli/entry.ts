// The CLI as one file (dist/cli.mjs, decision 020): what the `pane` bin loads for
// every command but `serve` and `start`. Node's ESM loader pays about a millisecond
// per module file, so the one-shot path is bundled whole, without chunks; only the
// heavy, rarely run parts (FUSE mount, MCP server) stay in separate files.
export { runCli } from './main';
export { hookMain } from './hookMain';
