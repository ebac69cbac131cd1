// Where the shell integration files live: one content-addressed directory in the
// user's private runtime directory, shared by every server and left at stop (a
// killed server leaves nothing new), or, where that directory is refused, a private
// temp directory of the server's own, removed at stop.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { integrate, removeIntegrationFiles } from './integration';

const bash = { program: '/bin/bash', args: [] as string[] };
const rcfile = () => {
  const args = integrate(bash, {}).launch.args;
  expect(args[0]).toBe('--rcfile');
  return args[1]!;
};

let tmp: string;
const saved = { XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR, TMPDIR: process.env.TMPDIR };
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-integ-test-'));
  removeIntegrationFiles();
});
afterEach(() => {
  removeIntegrationFiles();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('shell integration files', () => {
  it('are written once into the runtime directory, named by their text, and outlive a server stop', () => {
    process.env.XDG_RUNTIME_DIR = tmp;
    const rc = rcfile();
    const dir = path.dirname(rc);
    expect(path.dirname(dir)).toBe(path.join(tmp, 'pane'));
    expect(path.basename(dir)).toMatch(/^shell-[0-9a-f]{16}$/);
    expect(fs.readFileSync(rc, 'utf8')).toContain('__pane_osc7');
    for (const f of ['zsh/.zshenv', 'pane.fish']) expect(fs.existsSync(path.join(dir, f)), f).toBe(true);
    // A server stops (or is killed) and the next starts: the same files, nothing else made.
    removeIntegrationFiles();
    expect(fs.existsSync(rc)).toBe(true);
    expect(rcfile()).toBe(rc);
    expect(fs.readdirSync(path.join(tmp, 'pane'))).toEqual([path.basename(dir)]);
  });

  it('are rewritten when a file of theirs went missing', () => {
    process.env.XDG_RUNTIME_DIR = tmp;
    const rc = rcfile();
    removeIntegrationFiles();
    fs.rmSync(path.join(path.dirname(rc), 'pane.fish'));
    expect(rcfile()).toBe(rc);
    expect(fs.existsSync(path.join(path.dirname(rc), 'pane.fish'))).toBe(true);
  });

  it('go to a private temp directory of the server’s own, removed at stop, when the runtime directory is refused', () => {
    if (typeof process.getuid !== 'function') return;
    delete process.env.XDG_RUNTIME_DIR;
    process.env.TMPDIR = tmp;
    // The temp-dir fallback for the runtime directory must be 0700: this one is not.
    const runtime = path.join(tmp, `pane-${process.getuid()}`);
    fs.mkdirSync(runtime, { mode: 0o755 });
    fs.chmodSync(runtime, 0o755);
    const rc = rcfile();
    expect(path.dirname(path.dirname(rc))).toBe(tmp);
    expect(path.basename(path.dirname(rc))).toMatch(/^pane-shell-/);
    expect(fs.readdirSync(runtime)).toEqual([]);
    removeIntegrationFiles();
    expect(fs.existsSync(path.dirname(rc))).toBe(false);
  });
});
