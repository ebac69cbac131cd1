// Attack class: code the next `pane` run executes, read from disk. On Node < 22.1
// the bin keeps a V8 code cache of its CLI bundle (kits/node/codeCache.ts) under
// $XDG_CACHE_HOME/pane/v8. Whoever can write there could hand every later `pane`
// (agents' hooks included) compiled code of their own; so pane uses only a directory
// of its user's that no one else may write, reads only its own regular files there
// (no links), writes whole files 0600, and falls back to no cache — silently, with
// the command's output unchanged — on anything else. A cache that V8 rejects (junk,
// another version) is replaced, never run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import Module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, root } from '../e2e/shell';

const PANE = path.join(root, 'dist/pane.cjs');
/** Node with a compile cache of its own skips ours (the bin turns Node's on instead). */
const nodeHasCache = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
let tmp: string;
let cache: string;

const env = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: path.join(tmp, 'home'), LANG: 'C.UTF-8', XDG_CACHE_HOME: cache, XDG_RUNTIME_DIR: tmp });
const pane = (...args: string[]) => spawnSync(process.execPath, [PANE, ...args], { env: env(), encoding: 'utf8', timeout: 20_000 });
const entries = () => (fs.existsSync(path.join(cache, 'pane', 'v8')) ? fs.readdirSync(path.join(cache, 'pane', 'v8')).filter((f) => f.endsWith('.v8')) : []);

beforeEach(() => {
  ensureBuilt();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-codecache-'));
  fs.mkdirSync(path.join(tmp, 'home'));
  cache = path.join(tmp, 'cache');
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.skipIf(nodeHasCache)('the CLI code cache (Node < 22.1)', () => {
  it('is written once, 0600 in a 0700 directory, and taken as it is by the next run', () => {
    const first = pane('--version');
    expect(first.status).toBe(0);
    const [entry] = entries();
    expect(entry, 'no cache entry written').toMatch(/^cli-ns\.cjs\..*\.v8$/);
    const file = path.join(cache, 'pane', 'v8', entry!);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const before = fs.statSync(file);
    const second = pane('--version');
    expect(second.stdout).toBe(first.stdout);
    // V8 took it: a rejected cache would have been written anew.
    const after = fs.statSync(file);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it('uses no directory another user owns, or one others may write', () => {
    const dir = path.join(cache, 'pane', 'v8');
    for (const [mode, owner] of [
      [0o777, process.getuid!()],
      [0o720, process.getuid!()],
      [0o700, 65534],
    ] as const) {
      fs.rmSync(cache, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      fs.chmodSync(dir, mode);
      if (owner !== process.getuid!()) fs.chownSync(dir, owner, owner);
      const r = pane('--version');
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(entries(), `mode ${mode.toString(8)} owner ${owner}`).toEqual([]);
    }
  });

  it('reads no link and no file others may write; junk V8 rejects is replaced, and the command is unchanged', () => {
    const clean = pane('--version');
    const [entry] = entries();
    const file = path.join(cache, 'pane', 'v8', entry!);
    // A link to a file elsewhere (an attacker's, in a place the attacker writes).
    const planted = path.join(tmp, 'planted.v8');
    fs.copyFileSync(file, planted);
    fs.rmSync(file);
    fs.symlinkSync(planted, file);
    let r = pane('--version');
    expect(r.stdout).toBe(clean.stdout);
    // Not followed: the link was replaced by a file of pane's own (rename over it), the planted file untouched.
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(false);
    // Group-writable: not read, so rewritten.
    fs.chmodSync(file, 0o660);
    const ino = fs.statSync(file).ino;
    r = pane('--version');
    expect(r.stdout).toBe(clean.stdout);
    expect(fs.statSync(file).ino).not.toBe(ino);
    // Junk of the right owner and mode: V8 rejects it; the run is unchanged and the entry replaced.
    fs.writeFileSync(file, Buffer.alloc(fs.statSync(file).size, 0x41), { mode: 0o600 });
    r = pane('--version');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(clean.stdout);
    expect(r.stderr).toBe('');
    expect(fs.readFileSync(file).every((b) => b === 0x41)).toBe(false);
  });
});
