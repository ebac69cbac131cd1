// A real import() for the CLI bundles. They are CommonJS run from a vm.Script on
// Node < 22.1 (kits/node/codeCache.ts), where import() has no loader (Node 20 offers
// one only as an experimental option that warns on stderr), so scripts/build.mjs
// turns their import() into require(). That serves node: modules and pane's own ES
// chunks, but not what must load as an ES module proper: a file URL (the demo
// agent), or a package whose graph may await at its top. Those come here: the bin,
// loaded by Node itself, leaves its own import() on globalThis (PANE_IMPORT); under
// any other entry (the server's bundles, tests from source) this is import().
export const PANE_IMPORT = '__paneImport';

export function importEsm<T = Record<string, unknown>>(specifier: string): Promise<T> {
  const viaBin = (globalThis as Record<string, unknown>)[PANE_IMPORT] as ((s: string) => Promise<unknown>) | undefined;
  return (typeof viaBin === 'function' ? viaBin(specifier) : import(specifier)) as Promise<T>;
}
