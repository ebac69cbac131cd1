// `pane host pair NAME` and its remote half `pane host pair-serve` (issue 26): a host
// reached by ssh gets a TLS reach. Here a key and a certificate request are made (the
// key never leaves this machine); over the system ssh (the host's own argv, connection
// reuse) the remote's `pane host pair-serve` makes its per-user CA and server
// certificate if it has none, turns on its TLS door (serve.json), signs the request and
// answers the CA, the client certificate, the port and the server's fingerprint. The
// host file then says how: tls, pinned to that CA, keeping the ssh reach for pairing again.
// node-forge and zod are loaded inside run(): the other commands start without them.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HostFile, HostHow } from '../../../protocol/host';
import type { PairReply } from '../../../protocol/serve';
import { int, str } from '../args';
import type { CommandSpec } from '../command';
import { OpError, UsageError } from '../errors';
import { configDir, defaultSocketPath, stateDir } from '../../paths';
import { readBelow, writeBelow } from '../../safeFile';

/** The hosts folder (as hosts.ts has it; not imported from there, which imports this). */
export function hostsDir(): string {
  return path.join(configDir(), 'hosts');
}

/** The daemon's ssh control sockets (beside its unix socket; the default one's when --socket names no path): pairing and install share its connection. */
export function sshControlDir(socketPath: string): string {
  const dir = path.join(path.dirname(path.isAbsolute(socketPath) ? socketPath : defaultSocketPath()), 'hosts-ssh');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** The line pair-serve prints its answer on, so anything a login shell prints before it is skipped. */
const PAIR_MARK = 'PANE-PAIR ';
/** How long the whole ssh round trip may take (login, key making on the remote, the door opening). */
const PAIR_TIMEOUT_MS = 60_000;
/** Bytes of pair-serve's answer kept: two certificates and a fingerprint are ~4 KiB; a chatty login adds a little. */
const MAX_PAIR_OUTPUT = 256 * 1024;
/** Bytes of the request pair-serve reads on stdin: a certificate request is ~1 KiB. */
const MAX_PAIR_INPUT = 64 * 1024;
/** How long pair-serve waits for the daemon there to open its TLS door after serve.json changed. */
const PAIR_DOOR_WAIT_MS = 5_000;

/** Where a paired host's client key, certificate and pinned CA are kept: ~/.config/pane/tls/NAME/ (0700; the key 0600). */
export function clientTlsDir(name: string): string {
  return path.join(configDir(), 'tls', name);
}

async function readStdin(s: NodeJS.ReadableStream, max: number): Promise<string> {
  let n = 0;
  const chunks: Buffer[] = [];
  for await (const c of s as AsyncIterable<Buffer | string>) {
    const b = typeof c === 'string' ? Buffer.from(c) : c;
    n += b.length;
    if (n > max) throw new UsageError(`the pairing request is over ${max} bytes`, 'host pair-serve');
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Runs argv with `input` on stdin; its stdout (bounded) and stderr tail, or why it failed; SIGTERM after `timeoutMs`. */
export function runOnce(argv: string[], input: string | Buffer, timeoutMs = PAIR_TIMEOUT_MS): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const [cmd, ...args] = argv as [string, ...string[]];
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.stdout.on('data', (b: Buffer) => {
      if (out.length < MAX_PAIR_OUTPUT) out += b.toString('utf8');
    });
    child.stderr.on('data', (b: Buffer) => (err = (err + b.toString('utf8')).slice(-2048)));
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/** Whether host:port answers TLS with the server certificate whose SHA-256 is `fp` (the door reopened with it). */
async function servesCert(host: string, port: number, fp: string): Promise<boolean> {
  const tls = await import('node:tls');
  return new Promise((resolve) => {
    // Not trusting anything here: only reading which certificate the door shows.
    const s = tls.connect({ host, port, rejectUnauthorized: false });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1000, () => done(false));
    s.once('secureConnect', () => done(s.getPeerCertificate().fingerprint256 === fp));
    s.once('error', () => done(false));
  });
}

/** The SHA-256 of the client certificate in `file`, or undefined when it is gone or does not read. */
function currentFingerprint(file: string, fingerprint: (pem: string) => string): string | undefined {
  try {
    const pem = readBelow(path.dirname(file), path.basename(file));
    return pem === null ? undefined : fingerprint(pem);
  } catch {
    return undefined;
  }
}

/** The host part of an ssh destination (user@host, [v6]). */
function sshHostOf(destination: string): string {
  return destination.replace(/^.*@/, '').replace(/^\[|\]$/g, '');
}

/** Where a TLS door listens when pairing names no address: this machine only (issue 33; decision 038's 0.0.0.0 default is gone). */
export const DEFAULT_TLS_ADDRESS = '127.0.0.1';

export const hostPairCommands: CommandSpec[] = [
  {
    command: 'host pair',
    summary: 'give an ssh host a TLS reach: a client certificate from its per-user CA, the CA pinned here',
    flags: [
      { name: 'port', type: 'int', min: 1, max: 65535, value: 'PORT', doc: 'the TLS port the remote daemon listens on (default: what it has, else 7681)' },
      { name: 'address', type: 'string', value: 'ADDR', doc: 'the address it listens on there (default: what it has, else 127.0.0.1 only: see the notes)' },
    ],
    positionals: [{ name: 'NAME', required: true }],
    notes: [
      'NAME must be reached by ssh (pane host add NAME ssh://…). The key is made here and only a certificate request goes over ssh; the remote (`pane host pair-serve`) makes its CA and server certificate under its state dir if it has none, writes its ~/.config/pane/serve.json so its daemon listens on TLS, and signs the request.',
      'The client key, certificate and the remote CA are kept in ~/.config/pane/tls/NAME/ (the key 0600); the host file then says how: tls, verified against that CA only, and keeps the ssh reach so pairing again needs nothing more. Run it again after the remote was set up anew; pairing again revokes the certificate it replaces.',
      'The address the remote listens on is chosen here, never assumed: without --address (and where it had none) it listens on 127.0.0.1 only, reached from this machine through an ssh tunnel; name one LAN address (--address 192.0.2.7), or 0.0.0.0 for every interface, to let other machines dial it. Its door takes only a certificate its CA signed that its record of issued certificates holds, not revoked (pane host clients there says the address and lists them; pane host revoke there; pane host unpair NAME here).',
    ],
    async run(ctx, a) {
      const name = a.positionals[0] as string;
      const [{ HostFileSchema }, { PairReplySchema }, { makeCsr, fingerprint }, { sshArgv }] = await Promise.all([
        import('../../../protocol/host'),
        import('../../../protocol/serve'),
        import('../../pki'),
        import('../../sshArgv'),
      ]);
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new UsageError(`"${name}" cannot name a host`, 'host pair');
      const dir = hostsDir();
      const text = readBelow(dir, `${name}.json`);
      if (text === null) throw new OpError(`no host ${name}: add it first (pane host add ${name} ssh://[USER@]HOST)`);
      const parsed = HostFileSchema.safeParse(JSON.parse(text));
      if (!parsed.success) throw new OpError(`${path.join(dir, `${name}.json`)}: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
      const file: HostFile = parsed.data;
      const ssh = file.how.via === 'ssh' ? file.how : file.how.via === 'tls' ? file.how.pairedVia : undefined;
      if (ssh === undefined) throw new OpError(`host ${name} is reached by ${file.how.via}; pairing bootstraps over ssh: pane host rm ${name} && pane host add ${name} ssh://[USER@]HOST, then pane host pair ${name}`);
      const host = file.how.via === 'tls' ? file.how.host : sshHostOf(ssh.destination);
      const { csrPem, keyPem } = makeCsr(`${os.userInfo().username}@${os.hostname()}`.slice(0, 64));
      const port = int(a, 'port');
      const address = str(a, 'address');
      // The certificate held for it now, if any: the remote revokes it once the new one is recorded.
      const replaces = file.how.via === 'tls' && file.how.cert !== undefined ? currentFingerprint(file.how.cert, fingerprint) : undefined;
      const request = { csr: csrPem, names: [host], ...(port !== undefined ? { port } : {}), ...(address !== undefined ? { address } : {}), ...(replaces !== undefined ? { replaces } : {}) };
      // The daemon's ssh control sockets: a pairing shares its connection when one is up.
      const controlDir = sshControlDir(ctx.socketPath);
      const r = await runOnce(sshArgv(ssh, controlDir, ['host', 'pair-serve']), `${JSON.stringify(request)}\n`);
      const line = r.out.split('\n').find((l) => l.startsWith(PAIR_MARK));
      if (line === undefined) {
        const why = r.err.trim().split('\n').slice(-3).join(' / ') || `exit ${r.code}`;
        throw new OpError(`host ${name}: the remote did not pair (${why}); it needs pane there (pane host install ${name}) and ssh working (ssh ${ssh.destination} pane --version)`);
      }
      let reply: PairReply;
      try {
        reply = PairReplySchema.parse(JSON.parse(line.slice(PAIR_MARK.length)));
      } catch (e) {
        throw new OpError(`host ${name}: the remote's pairing answer does not read (${(e as Error).message}); is it an older pane? (pane host install ${name})`);
      }
      const tlsDir = clientTlsDir(name);
      fs.mkdirSync(tlsDir, { recursive: true, mode: 0o700 });
      fs.chmodSync(tlsDir, 0o700);
      writeBelow(tlsDir, 'client.key', keyPem, { mode: 0o600, durable: true });
      writeBelow(tlsDir, 'client.pem', reply.cert, { mode: 0o600 });
      writeBelow(tlsDir, 'ca.pem', reply.ca, { mode: 0o600 });
      const how: HostHow = { via: 'tls', host, port: reply.port, cert: path.join(tlsDir, 'client.pem'), key: path.join(tlsDir, 'client.key'), ca: path.join(tlsDir, 'ca.pem'), pairedVia: ssh };
      // Checked with the schema the server reads it with before it replaces the file.
      const next = HostFileSchema.parse({ ...(JSON.parse(text) as object), how });
      writeBelow(dir, `${name}.json`, `${JSON.stringify({ ...(JSON.parse(text) as object), how: next.how }, null, 2)}\n`, { mode: 0o600 });
      ctx.out(`${name}: paired; TLS ${host}:${reply.port}, server certificate SHA-256 ${reply.serverFingerprint}, CA ${fingerprint(reply.ca)}`);
      if (reply.address !== undefined) ctx.out(`  it listens on ${reply.address}:${reply.port} there${reply.address === DEFAULT_TLS_ADDRESS ? ' (loopback only: reach it through an ssh tunnel, or pair again with --address ADDR)' : ''}; this machine's certificate is ${fingerprint(reply.cert)} (pane host clients there lists it; pane host unpair ${name} gives it up)`);
      ctx.out(`  client key and certificate in ${tlsDir}; a joined host is dialled again over TLS now, else join it: pane host connect ${name}`);
      if (!reply.listening) ctx.err(`pane: host ${name}: no pane daemon there answered on port ${reply.port} yet; start it there (pane serve) — it opens the TLS door from its serve.json`);
      return 0;
    },
  },
  {
    command: 'host pair-serve',
    summary: 'the remote half of pane host pair (run over ssh): sign a client certificate request, open the TLS door',
    flags: [],
    notes: [
      'Reads one JSON request on stdin (a certificate request and the names the client dials), makes this user’s CA and server certificate under $XDG_STATE_HOME/pane/tls if missing (keys 0600), records the certificate it signs in $XDG_STATE_HOME/pane/tls/clients.json (revoking the one the request says it replaces), writes ~/.config/pane/serve.json so the daemon listens on TLS (mutual TLS: only certificates this CA signed that the record holds, not revoked), and prints the CA, the signed certificate, the port and the server certificate’s fingerprint on one line.',
    ],
    async run(ctx) {
      const [{ PairRequestSchema, DEFAULT_TLS_PORT }, tlsFiles, tlsCerts, { signClientCsr, fingerprint }, { issuedEntry, updateClients }] = await Promise.all([
        import('../../../protocol/serve'),
        import('../../tlsFiles'),
        import('../../tlsCerts'),
        import('../../pki'),
        import('../../tlsClients'),
      ]);
      const raw = await readStdin(ctx.io.stdin, MAX_PAIR_INPUT);
      let req;
      try {
        req = PairRequestSchema.parse(JSON.parse(raw));
      } catch (e) {
        throw new UsageError(`the pairing request does not read: ${(e as Error).message}`, 'host pair-serve');
      }
      const cfgDir = configDir();
      const cfg = tlsFiles.readServeConfig(cfgDir);
      const port = req.port ?? cfg.tls?.port ?? DEFAULT_TLS_PORT;
      // Chosen at pairing: loopback unless the person named an address (or one was chosen before).
      const address = req.address ?? cfg.tls?.address ?? DEFAULT_TLS_ADDRESS;
      const dir = tlsFiles.tlsStateDir(stateDir());
      const ca = tlsCerts.ensureCa(dir, `pane CA ${os.userInfo().username}@${os.hostname()}`.slice(0, 64));
      const server = tlsCerts.ensureServerCert(dir, ca, req.names);
      const { certPem, cn } = signClientCsr(ca, req.csr);
      // Recorded before it is handed out: the door takes only what this record holds (decision 038).
      const entry = issuedEntry(certPem, cn);
      await updateClients(dir, (clients) => ({
        clients: [...clients.map((c) => (c.fingerprint === req.replaces && c.revokedAt === undefined ? { ...c, revokedAt: entry.issuedAt } : c)), entry],
        result: undefined,
      }));
      // Written every time: the daemon's watcher reopens the door when the certificate changed.
      tlsFiles.writeServeConfig(cfgDir, { ...cfg, tls: { address, port } });
      const probe = address === '0.0.0.0' || address === '::' ? '127.0.0.1' : address;
      let listening = false;
      const deadline = Date.now() + PAIR_DOOR_WAIT_MS;
      const serverFp = fingerprint(server.certPem);
      while (!listening && Date.now() < deadline && fs.existsSync(defaultSocketPath(false))) {
        listening = await servesCert(probe, port, serverFp);
        if (!listening) await new Promise((r) => setTimeout(r, 100));
      }
      const reply: PairReply = { ca: ca.certPem, cert: certPem, serverFingerprint: serverFp, port, address, listening };
      ctx.out(`${PAIR_MARK}${JSON.stringify(reply)}`);
      return 0;
    },
  },
];
