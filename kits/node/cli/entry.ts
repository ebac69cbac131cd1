// What each CLI bundle (dist/chunks/cli-GROUP.cjs, decision 020) gives the bin: the
// command line and the bare hook. scripts/build.mjs builds it once per group of
// groups.ts, the other groups' tables left out, and once whole (cli-all.cjs).
export { runCli } from './main';
export { hookMain } from './hookMain';
