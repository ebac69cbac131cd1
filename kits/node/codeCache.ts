// The CLI bundle's compiled code kept on disk, for runtimes without Node's own
// compile cache (Node < 22.1; decision 020). `pane ls` is a one-shot, and V8
// compiling its 85 KB bundle (the top level, then each function on its first call)
// is a few of the milliseconds it costs over `node -e 0`. A V8 code cache made after
// one run holds every function that run compiled, and the next run of the same
// bytes starts from it. The bundle is CommonJS for this: Node 20 compiles an ES
// module only through its loader, which takes no cache; vm.Script takes one.
//
// The cache is code the next run executes, so it lives only where no one else can
// write: $XDG_CACHE_HOME/pane/v8 (else ~/.cache/pane/v8), a directory of ours with
// no group or other write bit, files of ours written whole (a temporary file
// renamed). Anything else — another owner, a link, a bad mode, no home, a full
// disk — and the bundle loads as plain CommonJS, uncached, saying nothing. V8
// itself rejects a cache made by another V8 version or flags (cachedDataRejected);
// the file's name carries the bundle's size and mtime and the Node version, so a
// new build or runtime makes a new entry instead of reading a stale one.
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/** Entries kept per bundle name: older builds' caches beyond these are removed when a new one is written. */
export const CODE_CACHE_KEEP = 2;

type Loaded = Record<string, unknown>;

/** The private cache directory, made if missing; null when it is not safely ours. */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : env.HOME && path.isAbsolute(env.HOME) ? path.join(env.HOME, '.cache') : null;
  if (base === null) return null;
  const dir = path.join(base, 'pane', 'v8');
  try {
    // One lstat when it is there (every run after the first), not mkdir's walk of the path.
    const st = fs.lstatSync(dir, { throwIfNoEntry: false }) ?? (fs.mkdirSync(dir, { recursive: true, mode: 0o700 }), fs.lstatSync(dir));
    return ownPrivate(st, true) ? dir : null;
  } catch {
    return null;
  }
}

/** A directory or file of this user's, not a link, with no write bit for anyone else. */
function ownPrivate(st: fs.Stats, dir: boolean): boolean {
  const uid = typeof process.getuid === 'function' ? process.getuid() : -1;
  return (dir ? st.isDirectory() : st.isFile()) && st.uid === uid && (st.mode & 0o022) === 0;
}

/**
 * `require(file)` for a CommonJS bundle, with its V8 code cache where this runtime
 * has no compile cache of its own and a private cache directory is at hand.
 */
export function requireCached(file: string, cacheDir: string | null = codeCacheDir()): Loaded {
  const req = Module.createRequire(file);
  // Node ≥ 22.1 caches what require compiles once the bin turned its cache on.
  if (cacheDir === null || typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function') return req(file) as Loaded;
  let source: string;
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
    source = fs.readFileSync(file, 'utf8');
  } catch {
    return req(file) as Loaded;
  }
  const name = path.basename(file);
  const entry = path.join(cacheDir, `${name}.${st.size}.${Math.trunc(st.mtimeMs)}.${process.version}.v8`);
  let cached: Buffer | undefined;
  try {
    if (ownPrivate(fs.lstatSync(entry), false)) cached = fs.readFileSync(entry);
  } catch {
    cached = undefined;
  }
  // The bundle has no import() (scripts/build.mjs turns them into require), so the script needs no module loader of its own.
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData: cached });
  const mod = { exports: {} as Loaded };
  (script.runInThisContext() as (...a: unknown[]) => void).call(mod.exports, mod.exports, req, mod, file, path.dirname(file));
  // Made at exit, after the run: the cache then holds every function the command compiled, not only the top level.
  if (cached === undefined || script.cachedDataRejected) process.once('exit', () => writeEntry(cacheDir, entry, name, script));
  return mod.exports;
}

function writeEntry(dir: string, entry: string, name: string, script: vm.Script): void {
  const tmp = path.join(dir, `.${name}.${process.pid}.tmp`);
  try {
    fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600, flag: 'wx' });
    fs.renameSync(tmp, entry);
    // Older builds' entries of this bundle: the newest CODE_CACHE_KEEP stay.
    const mine = fs
      .readdirSync(dir)
      .filter((f) => f.startsWith(`${name}.`) && f.endsWith('.v8'))
      .map((f) => ({ f, t: fs.statSync(path.join(dir, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { f } of mine.slice(CODE_CACHE_KEEP)) fs.rmSync(path.join(dir, f), { force: true });
  } catch {
    fs.rmSync(tmp, { force: true });
  }
}
