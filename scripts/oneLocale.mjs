// zod's classic API re-exports every one of its ~50 locales (`z.locales`), and a
// bundler cannot leave them out: code that imports `z` takes the whole namespace.
// They were 366 KB of the 1.6 MB the daemon parses at start. pane's messages are
// English, so in the server and CLI bundles (esbuild) `z.locales` holds `en` alone.
// Nothing in pane or its bundled dependencies reads another locale. (The window's
// Vite build already leaves them out: Rollup follows the namespace's uses.)
import path from 'node:path';

/** The module that stands in for zod's locales/index.js: English only. */
function localesModule(importer) {
  const en = path.join(path.dirname(importer), '..', 'locales', 'en.js');
  return `export { default as en } from ${JSON.stringify(en)};`;
}

const isZodLocales = (source, importer) => source === '../locales/index.js' && importer !== undefined && /[\\/]zod[\\/]v4[\\/]/.test(importer);

/** For esbuild's `plugins`. */
export const oneLocaleEsbuild = {
  name: 'zod-one-locale',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (a) => (isZodLocales(a.path, a.importer) ? { path: a.importer, namespace: 'zod-one-locale' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'zod-one-locale' }, (a) => ({ contents: localesModule(a.path), loader: 'js', resolveDir: path.dirname(a.path) }));
  },
};
