// An attach grant over the TLS door (issue 36.1: a viewer on another machine): the real
// daemon's door from serve.json, real TLS. A peer with no client certificate gets
// through the handshake, and then in only with a grant's token, as that grant's guest
// held to its session: without one it is refused naming what it needs, a made-up
// token is refused by name, an agent's token is not looked at, and a revoked grant is
// refused at once. The person's paired machines keep mutual TLS as before (tls.test.ts).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../cli/harness';
import { eventually, freePort, startDaemon, type Daemon } from '../hosts/remote';

let d: Daemon;
let port: number;
let ca: string;
const listening = (p: number) =>
  new Promise<boolean>((res) => {
    const s = net.connect(p, '127.0.0.1', () => {
      s.destroy();
      res(true);
    });
    s.on('error', () => res(false));
  });

beforeAll(async () => {
  d = await startDaemon('tlsview');
  fs.mkdirSync(path.join(d.env.XDG_CONFIG_HOME!, 'pane'), { recursive: true });
  ca = path.join(d.env.XDG_STATE_HOME!, 'pane', 'tls', 'ca.pem');
  // A port free a moment ago may be taken by another test's listener before the door binds it: then another port.
  let up = false;
  for (let attempt = 0; attempt < 3 && !up; attempt++) {
    port = await freePort();
    fs.writeFileSync(path.join(d.env.XDG_CONFIG_HOME!, 'pane', 'serve.json'), JSON.stringify({ tls: { address: '127.0.0.1', port } }));
    await eventually('the TLS door to make its CA', () => fs.existsSync(ca), 15_000);
    for (let i = 0; i < 150 && !up; i++) {
      up = await listening(port);
      if (!up) await new Promise((r) => setTimeout(r, 100));
    }
  }
  expect(up, d.pane(['cat', '/log']).stdout.slice(-2000)).toBe(true);
}, 90_000);
afterAll(async () => {
  await d?.stop();
});

/** `pane ARGS` as from another machine: the door's address and its CA (to check the server), no certificate of its own. */
const afar = (env: Record<string, string>, args: string[]) => {
  const r = spawnSync(BIN, ['--socket', `tls://127.0.0.1:${port}?ca=${ca}`, ...args], { env: { ...d.env, ...env }, encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('a viewer over the TLS door', () => {
  it('gets in with a grant alone, as its guest held to its session; nothing without one, nor with an agent’s token', () => {
    expect(d.pane(['session', 'new', 'shared']).status).toBe(0);
    const g = JSON.parse(d.pane(['grant', 'new', '--json', '--session', 'shared']).stdout) as { id: string; token: string };
    const ls = afar({ PANE_GRANT: g.token }, ['session', 'ls']);
    expect(ls.status, ls.stderr).toBe(0);
    expect(ls.stdout).toMatch(/shared/);
    expect(ls.stdout.trim().split('\n')).toHaveLength(2); // the header and its session alone
    const send = afar({ PANE_GRANT: g.token }, ['send', 'echo from-afar']);
    expect(send.status).not.toBe(0);
    expect(send.stderr).toMatch(/needs the write capability/);
    // No grant: refused naming what a peer without a certificate needs.
    const bare = afar({}, ['ls']);
    expect(bare.status).not.toBe(0);
    expect(bare.stderr).toMatch(/no client certificate signed by this user's CA: a paired machine brings one \(pane host pair\), a viewer an attach grant/);
    // An agent's token is not looked at from a peer without a certificate.
    expect(d.pane(['agent', 'add', 'ada']).status).toBe(0);
    const agentToken = fs.readFileSync(path.join(d.env.XDG_DATA_HOME!, 'pane', 'agents', 'ada', '.token'), 'utf8').trim();
    const asAgent = afar({ PANE_AGENT: 'ada', PANE_TOKEN: agentToken }, ['ls']);
    expect(asAgent.status).not.toBe(0);
    expect(asAgent.stderr).toMatch(/no client certificate signed by this user's CA/);
    expect(afar({ PANE_GRANT: 'A'.repeat(32) }, ['ls']).stderr).toMatch(/no such grant/);
    expect(d.pane(['grant', 'revoke', g.id]).status).toBe(0);
    expect(afar({ PANE_GRANT: g.token }, ['ls']).stderr).toMatch(/no such grant/);
    // The daemon keeps serving the person.
    expect(d.pane(['ls']).status).toBe(0);
  });
});
