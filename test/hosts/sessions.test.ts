// A joined host's sessions, from here (issue 34, item 7): `pane session ls` lists this
// server's and then each joined host's as HOST:NAME, `--host HOST` that host's alone, and
// `pane session kill HOST:NAME` / `rename` act on that host's session. Through a real
// second daemon joined as a command host (`pane serve --stdio`).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOnce } from '../cli/harness';
import { binDirFor, eventually, startDaemon, type Daemon } from './remote';

let local: Daemon;
let box: Daemon;

beforeAll(async () => {
  buildOnce();
  local = await startDaemon('local');
  box = await startDaemon('box');
  const hosts = path.join(local.home, '.config', 'pane', 'hosts');
  fs.mkdirSync(hosts, { recursive: true });
  fs.writeFileSync(path.join(hosts, 'box.json'), JSON.stringify({ how: { via: 'command', argv: ['sh', '-c', `exec ${binDirFor(box)}/pane serve --stdio`] } }));
  await eventually('the host file read', () => /^box\s/m.test(local.pane(['host', 'ls']).stdout));
  expect(local.pane(['host', 'connect', 'box']).status).toBe(0);
  await eventually('box joined', () => /^box\s.*connected/m.test(local.pane(['host', 'ls']).stdout));
}, 120_000);
afterAll(async () => {
  await local?.stop();
  await box?.stop();
});

describe('sessions on a joined host', () => {
  it('lists them as HOST:NAME, alone with --host, and kills and renames them there', async () => {
    const made = box.pane(['new', '--session', 'work']);
    expect(made.status, made.stderr).toBe(0);
    const all = local.pane(['session', 'ls']);
    expect(all.status, all.stderr).toBe(0);
    expect(all.stdout).toMatch(/^main\s/m);
    expect(all.stdout).toMatch(/^box:work\s/m);
    const only = local.pane(['session', 'ls', '--host', 'box']);
    expect(only.stdout).toMatch(/^box:work\s/m);
    expect(only.stdout).not.toMatch(/^main\s/m);
    const renamed = local.pane(['session', 'rename', 'box:work', 'work2']);
    expect(renamed.status, renamed.stderr).toBe(0);
    expect(box.pane(['session', 'ls']).stdout).toMatch(/^work2\s/m);
    const killed = local.pane(['session', 'kill', 'box:work2']);
    expect(killed.status, killed.stderr).toBe(0);
    expect(box.pane(['session', 'ls']).stdout).not.toMatch(/work2/);
    // A name with no joined host in front is this server's, as before.
    expect(local.pane(['session', 'kill', 'nosuch:thing']).stderr).toMatch(/not found|no session/i);
  });
});
