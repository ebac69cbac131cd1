// One real server reached through every Endpoint the seam carries: its unix socket, a
// child's stdio (the built `pane serve --stdio`, started through its #! line as a user's
// shell or ssh runs it) and mutual TLS with certificates made by node-forge. Each gives
// the same answers. Then the stdio door's bounds: a login shell's junk before the
// preamble is skipped, junk past the bound is refused naming what it saw, a version
// range that does not meet is named with the fix, and a frame too large is refused.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { Connection } from '../../kits/client/connection';
import type { WireFrame } from '../../kits/client/transport';
import { connectCli } from '../../kits/node/cli/connect';
import { dial, DialError, MAX_TLS_HANDSHAKES_PER_ADDRESS, TLS_HANDSHAKE_TIMEOUT_MS, type Listener } from '../../kits/node/endpoint';
import { MAX_STREAM_FRAME } from '../../kits/node/framing';
import type { StreamTransport } from '../../kits/node/streamTransport';
import { MAX_JSON_FRAME } from '../../kits/protocol/binary';
import type { Endpoint } from '../../kits/protocol/endpoint';
import { formatEndpoint } from '../../kits/protocol/endpointForm';
import type { PaneFault } from '../../kits/protocol/fault';
import { MAX_STDIO_PREAMBLE_BYTES } from '../../kits/protocol/stdio';
import { listenTls } from '../../server/transport/tlsServer';
import { BIN, buildOnce, cleanEnv } from '../cli/harness';
import { harness, type Harness } from './harness';
import { socketPairStdio } from './socketPairStdio';

let h: Harness;
let tlsDoor: Listener;
let certs: Record<'ca' | 'serverCert' | 'serverKey' | 'clientCert' | 'clientKey' | 'strangerCert' | 'strangerKey', string>;

/**
 * A key pair and a certificate for `cn`, signed by `issuer` (or self-signed when none).
 * The key is OpenSSL's, as kits/node/pki.ts makes them: a key node-forge generates and
 * writes now and then has an integer OpenSSL refuses ("illegal padding": a CI run's
 * TLS listener failed to start on one).
 */
function certFor(cn: string, o: { issuer?: { cert: forge.pki.Certificate; key: forge.pki.rsa.PrivateKey }; ca?: boolean; ip?: string }) {
  const keyPem = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  const privateKey = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  const keys = { privateKey, publicKey: forge.pki.setRsaPublicKey(privateKey.n, privateKey.e) };
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = `0${forge.util.bytesToHex(forge.random.getBytesSync(8))}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 3600_000);
  cert.setSubject([{ name: 'commonName', value: cn }]);
  cert.setIssuer(o.issuer ? o.issuer.cert.subject.attributes : [{ name: 'commonName', value: cn }]);
  const ext: object[] = [{ name: 'basicConstraints', cA: o.ca === true }];
  if (o.ca) ext.push({ name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true });
  else ext.push({ name: 'extKeyUsage', serverAuth: true, clientAuth: true });
  if (o.ip) ext.push({ name: 'subjectAltName', altNames: [{ type: 7, ip: o.ip }] });
  cert.setExtensions(ext);
  cert.sign(o.issuer?.key ?? keys.privateKey, forge.md.sha256.create());
  return { cert, key: keys.privateKey, certPem: forge.pki.certificateToPem(cert), keyPem };
}

/** Runs a command to its end without blocking this process's loop; bounded by its own timeout. */
function run(cmd: string, args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (b) => (stdout += b));
    p.stderr.on('data', (b) => (stderr += b));
    p.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const stdioArgv = (socket: string) => [BIN, 'serve', '--stdio', '--socket', socket];
const client = { name: 'endpoint test', kind: 'test' as const };

beforeAll(async () => {
  buildOnce();
  h = await harness({ shell: '/bin/cat', http: { port: 0 }, secret: 'endpoint-test-secret' });
  const dir = path.join(h.dir, 'tls');
  fs.mkdirSync(dir, { mode: 0o700 });
  const ca = certFor('pane test CA', { ca: true });
  const server = certFor('127.0.0.1', { issuer: ca, ip: '127.0.0.1' });
  const me = certFor('me', { issuer: ca });
  const strangerCa = certFor('another CA', { ca: true });
  const stranger = certFor('stranger', { issuer: strangerCa });
  const files = { ca: ca.certPem, serverCert: server.certPem, serverKey: server.keyPem, clientCert: me.certPem, clientKey: me.keyPem, strangerCert: stranger.certPem, strangerKey: stranger.keyPem };
  certs = {} as typeof certs;
  for (const [k, v] of Object.entries(files)) {
    const f = path.join(dir, `${k}.pem`);
    fs.writeFileSync(f, v, { mode: 0o600 });
    certs[k as keyof typeof certs] = f;
  }
  // The CA alone admits here (no record of issued certificates: that rule is the serve.json door's, test/hosts/tlsRevoke.test.ts).
  tlsDoor = await listenTls(h.running.services, { kind: 'tls', host: '127.0.0.1', port: 0, cert: certs.serverCert, key: certs.serverKey, ca: certs.ca }, { clients: () => null });
}, 120_000);

afterAll(async () => {
  await h?.close();
});

function tlsPort(): number {
  const a = tlsDoor.server.address();
  if (a === null || typeof a === 'string') throw new Error('the TLS door has no port');
  return a.port;
}

describe('one server through every endpoint', () => {
  it('gives the same answers through its unix socket, a child `pane serve --stdio`, mutual TLS and its WebSocket', async () => {
    // A live process whose stdin and stdout are pipes, truly described: only the door decides.
    const holder = spawn('sh', ['-c', 'true | sleep 30 | cat > /dev/null'], { stdio: 'ignore' });
    let pipesPid = 0;
    for (let i = 0; i < 100 && !pipesPid; i++) {
      pipesPid = Number(spawnSync('pgrep', ['-P', String(holder.pid), '-x', 'sleep'], { encoding: 'utf8' }).stdout.trim()) || 0;
      if (!pipesPid) await new Promise((r) => setTimeout(r, 20));
    }
    onTestFinished(() => void holder.kill('SIGKILL'));
    const pipeOf = (pid: number, n: number) => {
      const st = fs.statSync(`/proc/${pid}/fd/${n}`, { bigint: true });
      return { dev: String(st.dev), ino: String(st.ino) };
    };
    const endpoints: Endpoint[] = [
      { kind: 'unix', path: h.socketPath },
      { kind: 'exec', argv: stdioArgv(h.socketPath) },
      { kind: 'tls', host: '127.0.0.1', port: tlsPort(), cert: certs.clientCert, key: certs.clientKey, ca: certs.ca },
      { kind: 'ws', url: `${h.running.http!.origin.replace('http:', 'ws:')}/ws` },
    ];
    const answers = [];
    for (const e of endpoints) {
      // The WebSocket's door wants the per-launch secret as the hello token; the others ignore a token from the person.
      const c = await connectCli(e, { client, ...(e.kind === 'ws' ? { token: 'endpoint-test-secret' } : {}) });
      const info = await c.call('server/info', {});
      const sessions = await c.call('session/list', {});
      const me = (await c.call('client/list', {})).clients.find((k) => k.id === c.welcome?.client);
      answers.push({ host: info.host, pid: info.pid, sessions: sessions.sessions.map((s) => s.name), features: c.welcome?.features });
      // The stdio relay's pipes (dial gives the child pipes) were taken over by the daemon; TLS is its own door.
      expect(me?.transport).toBe(e.kind === 'exec' ? 'stdio' : e.kind);
      if (e.kind === 'tls' || e.kind === 'ws') {
        // Only the person's socket hands pipes over: a paired machine or a page may not make this daemon open a local process's stdio.
        const refused = await c.call('stdio/adopt', { pid: pipesPid, stdin: pipeOf(pipesPid, 0), stdout: pipeOf(pipesPid, 1) }).then(() => null, (x: PaneFault) => x);
        expect(refused?.message).toBe(`denied: a ${e.kind} client may not hand over its stdio; only the person's own socket takes pipes over (stdio/adopt)`);
      }
      c.close();
    }
    expect(answers[0]).toEqual({ host: 'testhost', pid: process.pid, sessions: ['main'], features: ['version-range'] });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(answers[3]).toEqual(answers[0]);
  }, 60_000);

  it('runs the installed-style `pane` over stdio: --socket takes an exec: endpoint', async () => {
    // Not spawnSync: the server under test runs in this process and must go on answering.
    const r = await run(BIN, ['--socket', formatEndpoint({ kind: 'exec', argv: stdioArgv(h.socketPath) }), 'info', '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ host: 'testhost', pid: process.pid });
  }, 40_000);

  it('runs the installed-style `pane` over a ws:// endpoint (ws loaded apart from the CLI bundle, chunks/wsDial.mjs)', async () => {
    const url = `${h.running.http!.origin.replace('http:', 'ws:')}/ws`;
    const r = await run(BIN, ['--socket', url, 'info', '--json'], { PANE_TOKEN: 'endpoint-test-secret' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ host: 'testhost', pid: process.pid });
    // Without the secret the WebSocket's door refuses, named through the same dial.
    const refused = await run(BIN, ['--socket', url, 'info', '--json']);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).not.toBe('');
  }, 40_000);

  it('refuses a TLS client whose certificate another CA signed, and one with none, at its hello (such a peer gets in with an attach grant alone)', async () => {
    for (const who of [{ cert: certs.strangerCert, key: certs.strangerKey }, {}]) {
      const e = await connectCli({ kind: 'tls', host: '127.0.0.1', port: tlsPort(), ca: certs.ca, ...who }, { client, timeoutMs: 5000 }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(Error);
      expect((e as Error).message).toMatch(/no client certificate signed by this user's CA: a paired machine brings one \(pane host pair\), a viewer an attach grant/);
    }
    const names = (await (await h.connect(['read'])).call('client/list', {})).clients.map((k) => k.name);
    expect(names).not.toContain('endpoint test');
  }, 30_000);

  it('holds no connection in its handshake past TLS_HANDSHAKE_TIMEOUT_MS, and at most MAX_TLS_HANDSHAKES_PER_ADDRESS from one address, while a real client gets in', async () => {
    // 400 silent TCP connections, as a scanner or an attacker leaves them: no ClientHello ever.
    const silent: net.Socket[] = [];
    const closedAt = new Map<net.Socket, number>();
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: 400 }, () =>
        new Promise<void>((resolve) => {
          const s = net.connect(tlsPort(), '127.0.0.1', () => resolve());
          s.on('error', () => resolve());
          s.on('close', () => closedAt.set(s, Date.now() - t0));
          silent.push(s);
        }),
      ),
    );
    onTestFinished(() => silent.forEach((s) => s.destroy()));
    // Past the per-address cap they are closed at once, before any TLS work: well before the handshake deadline
    // would close them (under a loaded machine's scheduling, within 2 s rather than the half second it takes alone).
    const soon = Date.now() + 2_000;
    while (closedAt.size < 400 - MAX_TLS_HANDSHAKES_PER_ADDRESS && Date.now() < soon) await new Promise((r) => setTimeout(r, 50));
    expect(closedAt.size).toBeGreaterThanOrEqual(400 - MAX_TLS_HANDSHAKES_PER_ADDRESS);
    expect(Math.max(...closedAt.values())).toBeLessThan(TLS_HANDSHAKE_TIMEOUT_MS);
    // A real client still gets in: its handshake is not one of the held ones once they end, and the door was never wedged.
    const deadline = Date.now() + TLS_HANDSHAKE_TIMEOUT_MS + 5_000;
    while (closedAt.size < 400 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(closedAt.size).toBe(400);
    const late = [...closedAt.values()].sort((a, b) => b - a)[0]!;
    expect(late).toBeLessThan(TLS_HANDSHAKE_TIMEOUT_MS + 2_000);
    const c = await connectCli({ kind: 'tls', host: '127.0.0.1', port: tlsPort(), ca: certs.ca, cert: certs.clientCert, key: certs.clientKey }, { client, timeoutMs: 5000 });
    expect((await c.call('server/info', {})).host).toBe('testhost');
    c.close();
  }, 30_000);
});

/** Dials an exec endpoint whose command is a shell line. */
const sh = (line: string, o: Parameters<typeof dial>[1] = {}) => dial({ kind: 'exec', argv: ['sh', '-c', line] }, o);

describe('the stdio door: preamble and bounds', () => {
  it("skips a login shell's motd before the preamble and speaks after it", async () => {
    let seen: { version: string; skipped: number } | undefined;
    const motd = 'Welcome to box!\\n\\nLast login: Tue Nov 24 09:12:01 2026 from 10.0.0.2\\n\\033[1mnew mail\\033[0m\\n';
    const t = await sh(`printf '${motd}'; exec ${stdioArgv(h.socketPath).join(' ')}`, { onPreamble: (p) => (seen = p) });
    expect(seen?.skipped).toBeGreaterThan(40);
    expect(seen?.version).toMatch(/^\d+\.\d+\.\d+/);
    const c = new Connection(t);
    await c.hello({ client, capabilities: ['read'] });
    expect((await c.call('server/info', {})).host).toBe('testhost');
    c.close();
  }, 30_000);

  it(`refuses a command that prints more than MAX_STDIO_PREAMBLE_BYTES (${MAX_STDIO_PREAMBLE_BYTES}) without the preamble, naming what it printed`, async () => {
    const t0 = Date.now();
    const e = await sh(`yes 'this is no pane' | head -c ${MAX_STDIO_PREAMBLE_BYTES + 5000}; sleep 30`).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DialError);
    expect((e as Error).message).toMatch(/^cannot reach `sh -c .*`: it printed \d+ bytes without the pane preamble \(the bound is 65536\); it is no `pane serve --stdio`: is pane installed there/);
    expect((e as Error).message).toContain('It began: "this is no pane\\nthis is no pane');
    expect(Date.now() - t0).toBeLessThan(5000);
  }, 30_000);

  it('names a command that ends before the preamble, with its exit status and stderr', async () => {
    const e = await sh("echo 'sh: 1: pane: not found' >&2; exit 127").catch((x: unknown) => x);
    expect((e as Error).message).toMatch(/ended before the pane preamble \(exit 127; stderr: sh: 1: pane: not found\)/);
  }, 30_000);

  it("says an ssh that exits 255 before the preamble failed itself (host key, login, network), not that pane is missing there", async () => {
    // A real ssh to a port nobody listens on: connection refused, ssh's own exit 255.
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const e = await dial({ kind: 'exec', argv: ['ssh', '-F', '/dev/null', '-o', 'BatchMode=yes', '-p', String(port), '--', '127.0.0.1', 'pane', 'serve', '--stdio'] }).catch((x: unknown) => x);
    expect((e as Error).message).toMatch(/ended before the pane preamble \(exit 255; stderr: .*Connection refused\); exit 255 is ssh's own failure \(the host key, the login or the network\), before pane ran there: run that ssh by hand/);
    expect((e as Error).message).not.toContain('is pane installed there');
  }, 30_000);

  it('names both versions and the fix when the ranges do not meet, and still takes an old single-number hello', async () => {
    const c = new Connection(await dial({ kind: 'exec', argv: stdioArgv(h.socketPath) }));
    const e = await c.hello({ client: { ...client, version: '9.0.0' }, capabilities: ['read'], protocol: 9, protocols: [7, 9] }).then(() => null, (x: PaneFault) => x);
    expect(e?.code).toBe('version-mismatch');
    expect(e?.message).toMatch(/^client \(pane 9\.0\.0\) speaks protocol 7\.\.9; this server \(pane \S+ on testhost\) speaks 1: upgrade pane on testhost: from the client's machine, pane host install NAME \(NAME its host file there\), or install pane 9\.0\.0 on testhost as you installed it here$/);
    c.close();
    // A client from before ranges: one number, no features; its welcome has none either.
    const t = await dial({ kind: 'exec', argv: stdioArgv(h.socketPath) });
    const reply = new Promise<WireFrame>((r) => t.onFrame(r));
    t.send(JSON.stringify({ t: 'req', id: 1, method: 'hello', params: { protocol: 1, client, capabilities: ['read'] } }));
    const w = JSON.parse((await reply) as string) as { ok: boolean; result: Record<string, unknown> };
    expect(w.ok).toBe(true);
    expect(w.result.protocol).toBe(1);
    expect(w.result).not.toHaveProperty('features');
    t.close();
  }, 30_000);

  it(`refuses a frame over MAX_JSON_FRAME with too-large and keeps serving, and a length over MAX_STREAM_FRAME (${MAX_STREAM_FRAME}) with a message before closing`, async () => {
    const c = new Connection(await dial({ kind: 'exec', argv: stdioArgv(h.socketPath) }));
    await c.hello({ client, capabilities: ['read'] });
    // A frame the server cannot tie to a request: the refusal comes as an error frame (id null).
    const refused = new Promise<PaneFault>((r) => c.onError(r));
    c.notify('session/list', { pad: 'x'.repeat(MAX_JSON_FRAME) } as never);
    const big = await refused;
    expect(big.code).toBe('too-large');
    expect(big.message).toContain(`over the ${MAX_JSON_FRAME} limit`);
    expect((await c.call('server/info', {})).host).toBe('testhost');
    c.close();
    // The relay's own check: a relay over socket pairs, which the daemon cannot take over (stdioAdopt.test.ts has the adopted stream's).
    const { transport: t, child: relay } = await socketPairStdio(stdioArgv(h.socketPath));
    onTestFinished(() => void (relay.exitCode === null && relay.kill('SIGKILL')));
    const frames: WireFrame[] = [];
    t.onFrame((f) => frames.push(f));
    const closed = new Promise<string>((r) => t.onClose(r));
    const head = Buffer.alloc(4);
    head.writeUInt32BE(MAX_STREAM_FRAME + 1);
    t.output.write(head);
    await closed;
    expect(frames.length).toBe(1);
    const err = JSON.parse(frames[0] as string) as { error: { code: string; message: string } };
    expect(err.error.code).toBe('too-large');
    expect(err.error.message).toBe(`pane serve --stdio: a frame of ${MAX_STREAM_FRAME + 1} bytes is over the ${MAX_STREAM_FRAME}-byte limit (MAX_STREAM_FRAME); the connection is closed — a client of another pane version, or a stream that is no pane protocol`);
    // The daemon cut its side off too, and /pane/log says so.
    const reader = await h.connect(['read']);
    await expect
      .poll(async () => (await reader.call('ns/read', { path: '/log', count: 1 << 20 })).data, { timeout: 5000 })
      .toMatch(new RegExp(`refused unix client \\S*: closed: bad framing: a frame of ${MAX_STREAM_FRAME + 1} bytes is over the ${MAX_STREAM_FRAME}-byte limit \\(MAX_STREAM_FRAME\\)`));
  }, 30_000);
});

describe('pane serve --stdio and the daemon', () => {
  it('attaches to a unix socket only: another endpoint is refused by name, and no daemon is started for it', async () => {
    const r = await run(BIN, ['serve', '--stdio', '--socket', 'exec:ssh box pane serve --stdio']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('pane serve: `ssh box pane serve --stdio` is no unix socket; pane serve --stdio needs --socket PATH (or $PANE_SOCKET a path)\n');
    expect(r.stdout).toBe('');
  }, 30_000);

  it('starts the daemon when none runs, and the daemon (with its panes) outlives the connection', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-stdio-home-'));
    fs.mkdirSync(path.join(home, 'run'), { mode: 0o700 });
    const sock = path.join(home, 'run', 'd.sock');
    const env = [`HOME=${home}`, `XDG_RUNTIME_DIR=${path.join(home, 'run')}`, `XDG_STATE_HOME=${path.join(home, 'state')}`, `XDG_DATA_HOME=${path.join(home, 'data')}`, `XDG_CONFIG_HOME=${path.join(home, 'config')}`, 'SHELL=/bin/cat'];
    const argv = ['env', ...env, ...stdioArgv(sock)];
    let pid = 0;
    try {
      const c = await connectCli({ kind: 'exec', argv }, { client, timeoutMs: 30_000 });
      pid = (await c.call('server/info', {})).pid;
      expect(pid).not.toBe(process.pid);
      const before = (await c.call('session/list', {})).sessions.map((s) => s.name);
      c.close();
      const again = await connectCli({ kind: 'exec', argv }, { client, timeoutMs: 30_000 });
      expect((await again.call('server/info', {})).pid).toBe(pid);
      expect((await again.call('session/list', {})).sessions.map((s) => s.name)).toEqual(before);
      again.close();
    } finally {
      if (pid) {
        process.kill(pid, 'SIGTERM');
        for (let i = 0; i < 100; i++) {
          try {
            process.kill(pid, 0);
          } catch {
            break;
          }
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      fs.rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  }, 90_000);
});
