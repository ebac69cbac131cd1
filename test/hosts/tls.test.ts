// A host paired over real OpenSSH and joined by mutual TLS (issue 26): `pane host add
// box ssh://…`, `pane host pair box` (a key and certificate request made here, signed
// there by the remote user's CA, which pair-serve makes under its state dir and whose
// TLS door it turns on in serve.json), then `pane host connect box` over TLS: box:N in
// `pane ls`, its screen read. Attacks: a client with no certificate, or one from another
// CA, is refused at the handshake (and the remote's /pane/log says so); a server whose
// certificate is not from the pinned CA (an impostor on its port) is refused by the client,
// naming `pane host pair box`; a CA key open to others or a link is not used.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueServerCert, makeCa, makeCsr, signClientCsr } from '../../kits/node/pki';
import { sshDaemons, type SshDaemons } from './pair';
import { eventually, freePort, type Daemon, type Sshd } from './remote';

let daemons: SshDaemons;
let remote: Daemon;
let local: Daemon;
let sshd: Sshd;
let n: string;
let port: number;

beforeAll(async () => {
  daemons = await sshDaemons({ remote: 'tlsremote', local: 'tlslocal' }, 'TLS-MARK');
  ({ remote, local, sshd, n } = daemons);
  port = await freePort();
}, 120_000);

afterAll(async () => {
  await daemons?.stop();
});

const mode = (f: string) => fs.statSync(f).mode & 0o777;
const remoteTls = () => path.join(remote.env.XDG_STATE_HOME!, 'pane', 'tls');
const localTls = () => path.join(local.env.XDG_CONFIG_HOME!, 'pane', 'tls', 'box');
const hostFile = () => path.join(local.env.XDG_CONFIG_HOME!, 'pane', 'hosts', 'box.json');

describe('a host paired over ssh and joined by mutual TLS', () => {
  it('pairs: the remote makes its CA and opens its TLS door; here the key stays and the CA is pinned', () => {
    const add = local.pane(['host', 'add', 'box', `ssh://root@127.0.0.1:${sshd.port}`, '--ssh-config', sshd.clientConfig]);
    expect(add.status, add.stderr).toBe(0);
    const pair = local.pane(['host', 'pair', 'box', '--port', String(port), '--address', '127.0.0.1']);
    expect(pair.status, `${pair.stderr}\nsshd: ${sshd.log().slice(-1500)}`).toBe(0);
    expect(pair.stdout).toMatch(new RegExp(`^box: paired; TLS 127\\.0\\.0\\.1:${port}, server certificate SHA-256 [0-9A-F:]{95}`));
    expect(pair.stderr).toBe('');
    // The remote's CA and server keys: 0600 under its state dir; serve.json turns the door on.
    for (const f of ['ca.key', 'server.key', 'ca.pem', 'server.pem']) expect(mode(path.join(remoteTls(), f)), f).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(path.join(remote.env.XDG_CONFIG_HOME!, 'pane', 'serve.json'), 'utf8'))).toEqual({ tls: { address: '127.0.0.1', port } });
    // Here: the client key (made here, never sent), its certificate and the pinned CA, 0600 in a 0700 folder.
    expect(mode(localTls())).toBe(0o700);
    expect(mode(path.join(localTls(), 'client.key'))).toBe(0o600);
    expect(fs.readFileSync(path.join(localTls(), 'ca.pem'), 'utf8')).toBe(fs.readFileSync(path.join(remoteTls(), 'ca.pem'), 'utf8'));
    const how = JSON.parse(fs.readFileSync(hostFile(), 'utf8')).how;
    expect(how).toMatchObject({ via: 'tls', host: '127.0.0.1', port, ca: path.join(localTls(), 'ca.pem'), pairedVia: { via: 'ssh', destination: 'root@127.0.0.1' } });
  }, 60_000);

  it('joins over TLS: box:N in pane ls, its screen read, input typed', async () => {
    await eventually('the host file change to be read', () => /^box\s+tls /m.test(local.pane(['host', 'ls']).stdout), 10_000);
    const c = local.pane(['host', 'connect', 'box']);
    expect(c.status, c.stderr).toBe(0);
    expect(c.stdout).toMatch(/^box: connected/);
    expect(local.pane(['ls']).stdout).toMatch(new RegExp(`^box:${n}\\s`, 'm'));
    const screen = local.pane(['screen', '-t', `box:${n}`]);
    expect(screen.status, screen.stderr).toBe(0);
    expect(screen.stdout).toContain('TLS-MARK-42');
    expect(local.pane(['send', '-t', `box:${n}`, 'typed-over-tls']).status).toBe(0);
    await eventually('the typed word on the remote pane', () => remote.pane(['screen', '-t', n]).stdout.includes('typed-over-tls'));
    expect(local.pane(['host', 'disconnect', 'box']).status).toBe(0);
  }, 60_000);

  it('refuses a client without a certificate, or with one another CA signed, unless it brings an attach grant; /pane/log says so', async () => {
    const ca = path.join(localTls(), 'ca.pem');
    const tmp = fs.mkdtempSync(path.join(local.home, 'stranger-'));
    // A stranger's CA, and a client certificate it signed (a real one, as pairing makes).
    const other = makeCa('stranger CA');
    const csr = makeCsr('mallory@elsewhere');
    fs.writeFileSync(path.join(tmp, 'c.pem'), signClientCsr(other, csr.csrPem).certPem);
    fs.writeFileSync(path.join(tmp, 'c.key'), csr.keyPem, { mode: 0o600 });
    const refusals = () => (remote.pane(['cat', '/log']).stdout.match(/^- refused TLS door 127\.0\.0\.1:\d+: refused a client from \S+: no certificate signed by this user's CA \((none|one this user’s CA did not sign); a paired machine brings one: pane host pair NAME on its machine\) and no attach grant$/gm) ?? []).length;
    const before = refusals();
    const at = (q: string) => ['--socket', `tls://127.0.0.1:${port}?ca=${ca}${q}`, 'ls'];
    const none = local.pane(at(''));
    expect(none.status).not.toBe(0);
    expect(none.stdout).not.toMatch(new RegExp(`^${n}\\s`, 'm'));
    const stranger = local.pane(at(`&cert=${tmp}/c.pem&key=${tmp}/c.key`));
    expect(stranger.status).not.toBe(0);
    expect(stranger.stdout).not.toMatch(new RegExp(`^${n}\\s`, 'm'));
    // The paired certificate passes the same door (the two refusals are the certificate's).
    const paired = local.pane(at(`&cert=${localTls()}/client.pem&key=${localTls()}/client.key`));
    expect(paired.status, paired.stderr).toBe(0);
    expect(paired.stdout).toMatch(new RegExp(`^${n}\\s`, 'm'));
    expect(none.stderr).toMatch(/no client certificate signed by this user's CA: a paired machine brings one \(pane host pair\), a viewer an attach grant/);
    expect(stranger.stderr).toMatch(/no client certificate signed by this user's CA/);
    // Neither is the person: a stranger's certificate is not looked at beyond its signature (test/security/grantTls.test.ts lets a grant's viewer in).
    await eventually('the two refused clients in the remote /pane/log', () => refusals() >= before + 2, 10_000);
  }, 60_000);

  it('refuses a server whose certificate is not from the pinned CA, naming pane host pair', async () => {
    // The remote's door closed (serve.json without tls) and an impostor on its port: a real
    // TLS server whose certificate names 127.0.0.1 but comes from another CA.
    const serve = path.join(remote.env.XDG_CONFIG_HOME!, 'pane', 'serve.json');
    const was = fs.readFileSync(serve, 'utf8');
    fs.writeFileSync(serve, '{}\n');
    await eventually('the TLS door to close', () => spawnSync('ss', ['-Htln', `sport = :${port}`], { encoding: 'utf8' }).stdout.trim() === '', 10_000);
    const impostor = issueServerCert(makeCa('impostor CA'), ['127.0.0.1']);
    // In a process of its own: the CLI runs synchronously here and would stall a server in this one.
    const dir = fs.mkdtempSync(path.join(local.home, 'impostor-'));
    fs.writeFileSync(path.join(dir, 'c.pem'), impostor.certPem);
    fs.writeFileSync(path.join(dir, 'c.key'), impostor.keyPem, { mode: 0o600 });
    const script = `const fs=require('fs');const s=require('tls').createServer({cert:fs.readFileSync('${dir}/c.pem'),key:fs.readFileSync('${dir}/c.key')},(c)=>c.destroy());s.on('tlsClientError',()=>{});s.listen(${port},'127.0.0.1',()=>console.log('up'))`;
    const fake = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => fake.stdout!.once('data', () => resolve()));
    try {
      const c = local.pane(['host', 'connect', 'box']);
      expect(c.status).not.toBe(0);
      expect(c.stderr).toMatch(/host box: the server at 127\.0\.0\.1:\d+ is not the one paired with \(its certificate is not signed by the CA pinned in \S+ca\.pem: \w+\); if that machine's pane was set up again, pair again: pane host pair box/);
    } finally {
      const gone = new Promise((r) => fake.once('exit', r));
      fake.kill('SIGTERM');
      await gone;
    }
    // The real door back: joined again.
    fs.writeFileSync(serve, was);
    await eventually('the TLS door to open again', () => spawnSync('ss', ['-Htln', `sport = :${port}`], { encoding: 'utf8' }).stdout.trim() !== '', 10_000);
    const again = local.pane(['host', 'connect', 'box']);
    expect(again.status, again.stderr).toBe(0);
    expect(local.pane(['screen', '-t', `box:${n}`]).stdout).toContain('TLS-MARK-42');
    expect(local.pane(['host', 'disconnect', 'box']).status).toBe(0);
  }, 60_000);

  it('refuses to use a CA key that is readable by others or a link (OpenSSH-style)', () => {
    const key = path.join(remoteTls(), 'ca.key');
    fs.chmodSync(key, 0o644);
    const r = local.pane(['host', 'pair', 'box', '--port', String(port), '--address', '127.0.0.1']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/ca\.key: the private key is readable by others \(mode 644\); chmod 600/);
    fs.chmodSync(key, 0o600);
    const real = path.join(remoteTls(), 'ca.key.real');
    fs.renameSync(key, real);
    fs.symlinkSync(real, key);
    const l = local.pane(['host', 'pair', 'box', '--port', String(port), '--address', '127.0.0.1']);
    expect(l.status).not.toBe(0);
    expect(l.stderr).toMatch(/ca\.key: a private key that is a symbolic link is not read/);
    fs.rmSync(key);
    fs.renameSync(real, key);
  }, 60_000);
});
