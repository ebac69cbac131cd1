// Revocation and unpairing of a TLS-paired host (issue 26, decision 038), with real
// parts: OpenSSH's sshd on 127.0.0.1, two pane daemons, real mutual TLS. Pairing records
// the client certificate in the remote's tls/clients.json; `pane host revoke` there cuts
// the live link at once and the redial is refused with the reason (`pane host ls` here
// shows it); pairing again works; `pane host unpair` here revokes it there over ssh and
// gives the host file its ssh reach back, and says plainly when the remote was not
// reached. Attacks: a certificate the remote's CA signed but its record does not hold
// (made here with the CA key) is refused; so is every client when the record is gone or
// does not read (a certificate from before the record must pair again).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCsr, signClientCsr } from '../../kits/node/pki';
import { sshDaemons, type SshDaemons } from './pair';
import { eventually, freePort, type Daemon, type Sshd } from './remote';

let daemons: SshDaemons;
let remote: Daemon;
let local: Daemon;
let sshd: Sshd;
let n: string;
let port: number;

beforeAll(async () => {
  daemons = await sshDaemons({ remote: 'revremote', local: 'revlocal' }, 'REVOKE-MARK', false);
  ({ remote, local, sshd, n } = daemons);
  port = await freePort();
}, 120_000);

afterAll(async () => {
  await daemons?.stop();
});

const me = `${os.userInfo().username}@${os.hostname()}`.slice(0, 64);
const remoteTls = () => path.join(remote.env.XDG_STATE_HOME!, 'pane', 'tls');
const record = () => path.join(remoteTls(), 'clients.json');
const clients = () => (JSON.parse(fs.readFileSync(record(), 'utf8')) as { clients: { fingerprint: string; name: string; revokedAt?: string }[] }).clients;
const localTls = () => path.join(local.env.XDG_CONFIG_HOME!, 'pane', 'tls', 'box');
const hostFile = () => path.join(local.env.XDG_CONFIG_HOME!, 'pane', 'hosts', 'box.json');
const fpOf = (pem: string) => new crypto.X509Certificate(pem).fingerprint256;
const myFp = () => fpOf(fs.readFileSync(path.join(localTls(), 'client.pem'), 'utf8'));
/** `pane ls` straight at the remote's TLS door with a certificate and key. */
const lsAt = (cert: string, key: string) => local.pane(['--socket', `tls://127.0.0.1:${port}?ca=${localTls()}/ca.pem&cert=${cert}&key=${key}`, 'ls']);
const lsPaired = () => lsAt(`${localTls()}/client.pem`, `${localTls()}/client.key`);
const remoteLog = () => remote.pane(['cat', '/log']).stdout;
const hostRow = () => /^box\s.*$/m.exec(local.pane(['host', 'ls']).stdout)?.[0] ?? '';
const connected = () => /^box\s+tls \S+\s+connected\s/.test(hostRow());

function pair(): void {
  const p = local.pane(['host', 'pair', 'box', '--port', String(port), '--address', '127.0.0.1']);
  expect(p.status, `${p.stderr}\nsshd: ${sshd.log().slice(-1500)}`).toBe(0);
  expect(p.stdout).toContain(`it listens on 127.0.0.1:${port} there (loopback only: reach it through an ssh tunnel, or pair again with --address ADDR); this machine's certificate is ${myFp()}`);
}

async function join(): Promise<void> {
  await eventually('the host file to be read as tls', () => /^box\s+tls /m.test(local.pane(['host', 'ls']).stdout), 10_000);
  const c = local.pane(['host', 'connect', 'box']);
  expect(c.status, c.stderr).toBe(0);
  expect(local.pane(['ls']).stdout).toMatch(new RegExp(`^box:${n}\\s`, 'm'));
  expect(connected(), hostRow()).toBe(true);
}

describe('revoking and unpairing a TLS-paired host', () => {
  it('pairing records the certificate it issued (0600), and pane host clients lists it there', async () => {
    const add = local.pane(['host', 'add', 'box', `ssh://root@127.0.0.1:${sshd.port}`, '--ssh-config', sshd.clientConfig]);
    expect(add.status, add.stderr).toBe(0);
    pair();
    expect(fs.statSync(record()).mode & 0o777).toBe(0o600);
    expect(clients()).toEqual([expect.objectContaining({ fingerprint: myFp(), name: me })]);
    const ls = remote.pane(['host', 'clients']);
    expect(ls.status, ls.stderr).toBe(0);
    expect(ls.stdout).toMatch(/^FINGERPRINT\s+NAME\s+ISSUED\s+EXPIRES\s+REVOKED$/m);
    expect(ls.stdout).toContain(`the TLS door here listens on 127.0.0.1:${port} (loopback only)`);
    expect(ls.stdout).toMatch(new RegExp(`^${myFp().split(':').slice(0, 8).join(':')}\\s+${me.replace(/[.]/g, '\\.')}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\dZ\\s+\\d{4}-.*\\s-$`, 'm'));
    await join();
  }, 60_000);

  it('pane host revoke there cuts the live link at once; the redial is refused with the reason, shown by pane host ls here', async () => {
    const short = myFp().split(':').slice(0, 8).join(':');
    const r = remote.pane(['host', 'revoke', short]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^revoked ${short} \\(${me.replace(/[.]/g, '\\.')}, issued .*\\): the TLS door here refuses it and closes its live connections$`, 'm'));
    expect(clients()[0]!.revokedAt).toBeDefined();
    // Cut before the command returned, and said: the daemon was asked (server/tls-recheck), not left to its watcher.
    expect(r.stdout).toMatch(/^the TLS door here holds no live connection with it now( \(it closed 1 just now\))?$/m);
    expect(remoteLog()).toMatch(/closed a live connection: client certificate/);
    // Seen here: no box panes within a few seconds (the heartbeat alone would take DROP_AFTER_MS, 20 s).
    await eventually('the live link to be cut', () => !/^box\s+tls \S+\s+(connected|stale)\s/.test(hostRow()), 5_000);
    expect(local.pane(['ls']).stdout).not.toMatch(new RegExp(`^box:${n}\\s`, 'm'));
    expect(remoteLog()).toMatch(/^- refused TLS door 127\.0\.0\.1:\d+: closed a live connection: client certificate [0-9A-F:]{23} \(\S+\) refused: revoked here at \S+ \(pane host revoke \/ unpair\): pair that machine again, from it: pane host pair HOST \(HOST: the name this host has in its hosts\/\)$/m);
    // The link dials again by itself (it was up), is refused with the reason, and then waits for the person: every redial would be refused alike.
    await eventually('the refusal in pane host ls', () => /revoked here at .*pair that machine again, from it: pane host pair HOST/.test(hostRow()), 15_000);
    expect(hostRow()).toMatch(/not dialled again until you pane host connect box/);
    // No redial: over a backoff's first waits (1 s, 2 s) the host is never seen connecting again.
    const states = new Set<string>();
    for (const end = Date.now() + 3000; Date.now() < end; ) {
      states.add(/^box\s+tls \S+\s+(\S+)/.exec(hostRow())?.[1] ?? '?');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect([...states]).toEqual(['disconnected']);
    const direct = lsPaired();
    expect(direct.status).not.toBe(0);
    expect(direct.stdout).not.toMatch(new RegExp(`^${n}\\s`, 'm'));
    expect(direct.stderr).toMatch(/TLS door 127\.0\.0\.1:\d+: client certificate [0-9A-F:]{23} \(\S+\) refused: revoked here at/);
    expect(local.pane(['host', 'disconnect', 'box']).status).toBe(0);
  }, 60_000);

  it('pairs again: a new certificate is recorded, the revoked one stays revoked, and the host joins', async () => {
    const old = myFp();
    pair();
    expect(myFp()).not.toBe(old);
    const list = clients();
    expect(list.find((c) => c.fingerprint === old)?.revokedAt).toBeDefined();
    expect(list.find((c) => c.fingerprint === myFp())?.revokedAt).toBeUndefined();
    await join();
    expect(local.pane(['screen', '-t', `box:${n}`]).stdout).toContain('REVOKE-MARK-42');
    expect(local.pane(['host', 'disconnect', 'box']).status).toBe(0);
  }, 60_000);

  it('pairing again from the same machine revokes the certificate it replaces', () => {
    const old = myFp();
    pair();
    expect(clients().find((c) => c.fingerprint === old)?.revokedAt).toBeDefined();
    expect(lsAt(`${localTls()}/client.pem`, `${localTls()}/client.key`).status).toBe(0);
  }, 60_000);

  it('refuses a certificate the CA signed that the record does not hold (made here with the CA key); /pane/log names it', async () => {
    const ca = { certPem: fs.readFileSync(path.join(remoteTls(), 'ca.pem'), 'utf8'), keyPem: fs.readFileSync(path.join(remoteTls(), 'ca.key'), 'utf8') };
    const csr = makeCsr('mallory@stolen-ca-key');
    const dir = fs.mkdtempSync(path.join(local.home, 'unrecorded-'));
    const cert = signClientCsr(ca, csr.csrPem).certPem;
    fs.writeFileSync(path.join(dir, 'c.pem'), cert);
    fs.writeFileSync(path.join(dir, 'c.key'), csr.keyPem, { mode: 0o600 });
    const r = lsAt(`${dir}/c.pem`, `${dir}/c.key`);
    expect(r.status).not.toBe(0);
    expect(r.stdout).not.toMatch(new RegExp(`^${n}\\s`, 'm'));
    expect(r.stderr).toContain(`client certificate ${fpOf(cert).split(':').slice(0, 8).join(':')} (mallory@stolen-ca-key) refused: it is not in ${record()}`);
    // The paired certificate passes the same door: the refusal is the record's.
    const ok = lsPaired();
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(new RegExp(`^${n}\\s`, 'm'));
    await eventually('the refusal in the remote /pane/log', () => /^- refused TLS door 127\.0\.0\.1:\d+: refused a client from \S+: client certificate \S+ \(mallory@stolen-ca-key\) refused: it is not in /m.test(remoteLog()), 10_000);
  }, 60_000);

  it('fails closed: with no record (a certificate from before it) or one that does not read, every client is refused, naming the file and the fix', () => {
    const kept = fs.readFileSync(record(), 'utf8');
    try {
      fs.rmSync(record());
      const gone = lsPaired();
      expect(gone.status).not.toBe(0);
      expect(gone.stderr).toContain(`refused: there is no record of issued client certificates (${record()}); certificates issued before pane kept one are no longer honoured: pair that machine again, from it: pane host pair HOST (HOST: the name this host has in its hosts/)`);
      fs.writeFileSync(record(), '{"clients": [{"fingerprint": "nope"}]}\n', { mode: 0o600 });
      const bad = lsPaired();
      expect(bad.status).not.toBe(0);
      expect(bad.stderr).toMatch(/the record of issued client certificates does not read \(\S+clients\.json: clients\.0\.fingerprint: .*\); fix it, or remove it and pair every client again/);
      const revoke = remote.pane(['host', 'revoke', me]);
      expect(revoke.status).not.toBe(0);
      expect(revoke.stderr).toMatch(/clients\.json: clients\.0\.fingerprint: .*; fix it, or remove it/);
    } finally {
      fs.writeFileSync(record(), kept, { mode: 0o600 });
    }
    expect(lsPaired().status).toBe(0);
  }, 60_000);

  it('pane host unpair here revokes the certificate there over ssh, removes the local files and reaches the host by ssh again', async () => {
    await join();
    const fp = myFp();
    // A copy of the certificate and key, to try the door with after they are given up.
    const copy = fs.mkdtempSync(path.join(local.home, 'given-up-'));
    for (const f of ['client.pem', 'client.key', 'ca.pem']) fs.copyFileSync(path.join(localTls(), f), path.join(copy, f));
    const u = local.pane(['host', 'unpair', 'box']);
    expect(u.status, `${u.stderr}\nsshd: ${sshd.log().slice(-1500)}`).toBe(0);
    expect(u.stdout).toMatch(new RegExp(`^box: unpaired; certificate ${fp} revoked there \\(\\S+\\); removed ${localTls()}; ${hostFile()} reaches it by ssh again \\(root@127\\.0\\.0\\.1\\); it is left: join it again with pane host connect box$`, 'm'));
    expect(fs.existsSync(localTls())).toBe(false);
    expect(JSON.parse(fs.readFileSync(hostFile(), 'utf8')).how).toEqual({ via: 'ssh', destination: 'root@127.0.0.1', port: sshd.port, configFile: sshd.clientConfig });
    expect(clients().find((c) => c.fingerprint === fp)?.revokedAt).toBeDefined();
    expect(remote.pane(['host', 'clients']).stdout).toMatch(new RegExp(`^${fp.split(':').slice(0, 8).join(':')}\\s.*\\d\\dZ$`, 'm'));
    const after = local.pane(['--socket', `tls://127.0.0.1:${port}?ca=${copy}/ca.pem&cert=${copy}/client.pem&key=${copy}/client.key`, 'ls']);
    expect(after.status).not.toBe(0);
    expect(after.stderr).toMatch(/refused: revoked here at /);
    // Left before it was revoked: no panes of box here, nothing dialling with the removed files.
    expect(local.pane(['ls']).stdout).not.toMatch(/^box:/m);
  }, 60_000);

  it('unpair with the remote out of reach removes the local files and says the remote still honours the certificate until pane host revoke there', async () => {
    pair();
    const fp = myFp();
    // The ssh reach pairing used now points at a port nothing listens on.
    const host = JSON.parse(fs.readFileSync(hostFile(), 'utf8'));
    host.how.pairedVia.port = await freePort();
    fs.writeFileSync(hostFile(), JSON.stringify(host));
    const u = local.pane(['host', 'unpair', 'box']);
    expect(u.status).toBe(1);
    expect(u.stderr).toContain(`it still honours this machine's certificate until you run there: pane host revoke ${fp}`);
    expect(fs.existsSync(localTls())).toBe(false);
    expect(JSON.parse(fs.readFileSync(hostFile(), 'utf8')).how.via).toBe('ssh');
    expect(clients().find((c) => c.fingerprint === fp)?.revokedAt).toBeUndefined();
    // Revoked there by name: every live certificate issued to this machine.
    const r = remote.pane(['host', 'revoke', me]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`revoked ${fp.split(':').slice(0, 8).join(':')} (${me}`);
    expect(clients().every((c) => c.revokedAt !== undefined)).toBe(true);
  }, 60_000);
});
