// Revocation and unpairing of TLS-paired hosts (issue 26, decision 038). On the
// remote: `pane host clients` lists the client certificates pair-serve issued (the
// record in $XDG_STATE_HOME/pane/tls/clients.json), `pane host revoke` marks one
// revoked (the daemon there closes its live connections at once). On the client:
// `pane host unpair NAME` revokes its own certificate there over the ssh reach pairing
// used (`unpair-serve`), deletes ~/.config/pane/tls/NAME/ and gives the host file its
// ssh reach back. zod, the record and ssh are loaded inside run(), as hostPair.ts does.
import fs from 'node:fs';
import path from 'node:path';
import type { HostFile } from '../../../protocol/host';
import type { IssuedClient, UnpairReply } from '../../../protocol/serve';
import { bool } from '../args';
import { JSON_FLAG, type CommandSpec } from '../command';
import { OpError, UsageError } from '../errors';
import { table } from '../format';
import { configDir, stateDir } from '../../paths';
import { readBelow, writeBelow } from '../../safeFile';
import { clientTlsDir, hostsDir, runOnce, sshControlDir } from './hostPair';

/** The line unpair-serve answers on, so anything a login shell prints before it is skipped. */
const UNPAIR_MARK = 'PANE-UNPAIR ';
/** How long unpair's ssh round trip may take (a login, one small write there); past it the local files go anyway and it says so. */
const UNPAIR_TIMEOUT_MS = 30_000;
/** Bytes of the request unpair-serve reads on stdin: one fingerprint is ~100 bytes. */
const MAX_UNPAIR_INPUT = 4096;

const when = (iso: string | undefined) => (iso === undefined ? '-' : `${iso.slice(0, 16).replace('T', ' ')}Z`);

async function record() {
  const [{ readClients, clientsFilePath, matchClients, shortFingerprint, updateClients }, { tlsStateDir }] = await Promise.all([import('../../tlsClients'), import('../../tlsFiles')]);
  const dir = tlsStateDir(stateDir());
  return { dir, file: clientsFilePath(dir), readClients, matchClients, shortFingerprint, updateClients };
}

async function readStdin(s: NodeJS.ReadableStream, max: number, command: string): Promise<string> {
  let n = 0;
  const chunks: Buffer[] = [];
  for await (const c of s as AsyncIterable<Buffer | string>) {
    const b = typeof c === 'string' ? Buffer.from(c) : c;
    n += b.length;
    if (n > max) throw new UsageError(`the request is over ${max} bytes`, command);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Removes ~/.config/pane/tls/NAME: a link there is removed itself, never followed. */
function removeClientFiles(dir: string): boolean {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dir);
  } catch {
    return false;
  }
  if (st.isDirectory()) fs.rmSync(dir, { recursive: true, force: true });
  else fs.unlinkSync(dir);
  return true;
}

export const hostClientCommands: CommandSpec[] = [
  {
    command: 'host clients',
    summary: 'on a TLS host: list the client certificates pairing issued here (fingerprint, name, issued, expires, revoked)',
    flags: [JSON_FLAG],
    notes: [
      'Reads $XDG_STATE_HOME/pane/tls/clients.json, which `pane host pair-serve` writes as it signs. The TLS door takes a client only when its certificate is listed here and not revoked; a certificate issued before pane kept this record is refused (that machine pairs again). FINGERPRINT is the first 8 bytes of the certificate’s SHA-256; `pane host revoke` takes it (or the name).',
    ],
    async run(ctx, a) {
      const r = await record();
      const read = r.readClients(r.dir);
      if (!read.ok && !read.missing) throw new OpError(`${read.reason}; fix it, or remove it (every paired client then pairs again)`);
      const clients: IssuedClient[] = read.ok ? read.clients : [];
      if (bool(a, 'json')) {
        ctx.out(JSON.stringify({ file: r.file, clients }, null, 2));
        return 0;
      }
      const { readServeConfig } = await import('../../tlsFiles');
      let door = 'no TLS door is configured here (serve.json has no tls)';
      try {
        const tls = readServeConfig(configDir()).tls;
        if (tls) door = `the TLS door here listens on ${tls.address}:${tls.port}${tls.address === '127.0.0.1' || tls.address === '::1' ? ' (loopback only)' : tls.address === '0.0.0.0' || tls.address === '::' ? ' (every interface)' : ''}`;
      } catch (e) {
        door = `serve.json does not read: ${(e as Error).message}`;
      }
      ctx.out(door);
      if (clients.length === 0) {
        ctx.out(`no client certificates issued here (${r.file}); another machine pairs with: pane host pair NAME`);
        return 0;
      }
      ctx.out(table(['FINGERPRINT', 'NAME', 'ISSUED', 'EXPIRES', 'REVOKED'], clients.map((c) => [r.shortFingerprint(c.fingerprint), c.name, when(c.issuedAt), when(c.expires), when(c.revokedAt)])));
      return 0;
    },
  },
  {
    command: 'host revoke',
    summary: 'on a TLS host: revoke a client certificate pairing issued (by fingerprint or name); its live connections close at once',
    flags: [],
    positionals: [{ name: 'FINGERPRINT|NAME', required: true }],
    notes: [
      'FINGERPRINT is the certificate’s SHA-256 as `pane host clients` shows it, whole or its first 8 hex digits or more (colons optional); NAME (user@machine) revokes every certificate issued to that name. The record is changed under a lock and written whole; the daemon here follows it, and is asked to apply it at once (server/tls-recheck), so that certificate’s live TLS connections are closed before the command returns, and it says so. The client is refused from then on with the reason (its `pane host ls` shows it). It may pair again over ssh (pane host pair NAME there).',
    ],
    async run(ctx, a) {
      const q = a.positionals[0] as string;
      const r = await record();
      if (!fs.existsSync(r.dir)) throw new OpError(`no client certificates issued here (${r.file} does not exist)`);
      const now = new Date().toISOString();
      const hit = await r.updateClients(r.dir, (clients) => {
        const m = r.matchClients(clients, q);
        if (m.clients.length === 0) throw new OpError(`no client certificate here matches "${q}" (${r.file}; pane host clients lists them)`);
        if (m.by === 'fingerprint' && m.clients.length > 1) throw new OpError(`"${q}" begins ${m.clients.length} fingerprints (${m.clients.map((c) => r.shortFingerprint(c.fingerprint)).join(', ')}): give more of it`);
        const fps = new Set(m.clients.map((c) => c.fingerprint));
        return { clients: clients.map((c) => (fps.has(c.fingerprint) && c.revokedAt === undefined ? { ...c, revokedAt: now } : c)), result: m.clients };
      });
      for (const c of hit) {
        if (c.revokedAt !== undefined) ctx.out(`${r.shortFingerprint(c.fingerprint)} (${c.name}) was already revoked at ${c.revokedAt}`);
        else ctx.out(`revoked ${r.shortFingerprint(c.fingerprint)} (${c.name}, issued ${when(c.issuedAt)}): the TLS door here refuses it and closes its live connections`);
      }
      // The daemon follows the file by itself; asked now, the cut is done before this returns, and said.
      const cut = await ctx.connect().then(
        (c) => c.call('server/tls-recheck', {}),
        () => undefined,
      ).catch(() => undefined);
      if (cut === undefined) ctx.out('no pane daemon answered here: it refuses the certificate from its start');
      // Its watcher may have been first: what this call closed is said, and that none is left either way.
      else if (cut.door) ctx.out(`the TLS door here holds no live connection with it now${cut.closed > 0 ? ` (it closed ${cut.closed} just now)` : ''}`);
      return 0;
    },
  },
  {
    command: 'host unpair',
    summary: 'give up a TLS host’s pairing: revoke this machine’s certificate there (over ssh), delete it here, reach the host by ssh again',
    flags: [],
    positionals: [{ name: 'NAME', required: true }],
    notes: [
      'Leaves the host, then over the ssh reach pairing used (the host file’s pairedVia; the system ssh through the daemon’s control socket, as pair does) runs `pane host unpair-serve` there, which marks this machine’s certificate revoked in its record (its door closes any live connection with it). Then it deletes ~/.config/pane/tls/NAME/ and rewrites the host file to its ssh reach.',
      'When the remote cannot be reached the local files are removed all the same and it says so, exit 1: the remote honours the certificate until `pane host revoke FINGERPRINT` is run there (the fingerprint is printed).',
    ],
    async run(ctx, a) {
      const name = a.positionals[0] as string;
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new UsageError(`"${name}" cannot name a host`, 'host unpair');
      const [{ HostFileSchema }, { UnpairReplySchema }, { sshArgv }, crypto] = await Promise.all([import('../../../protocol/host'), import('../../../protocol/serve'), import('../../sshArgv'), import('node:crypto')]);
      const dir = hostsDir();
      const file = path.join(dir, `${name}.json`);
      const text = readBelow(dir, `${name}.json`);
      if (text === null) throw new OpError(`no host ${name} (${file} does not exist; pane host ls lists them)`);
      const raw = JSON.parse(text) as object;
      const parsed = HostFileSchema.safeParse(raw);
      if (!parsed.success) throw new OpError(`${file}: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
      const host: HostFile = parsed.data;
      if (host.how.via !== 'tls') throw new OpError(`host ${name} is reached by ${host.how.via}, not TLS: there is no pairing to give up`);
      const ssh = host.how.pairedVia;
      if (ssh === undefined) throw new OpError(`host ${name} was not paired by pane host pair (its file has no pairedVia): there is no ssh reach to revoke it by or to go back to; remove it (pane host rm ${name}) and its certificate files yourself`);
      let fp: string | undefined;
      const certFile = host.how.cert ?? path.join(clientTlsDir(name), 'client.pem');
      try {
        const pem = readBelow(path.dirname(certFile), path.basename(certFile));
        if (pem !== null) fp = new crypto.X509Certificate(pem).fingerprint256;
      } catch {
        // No readable certificate: nothing to revoke by fingerprint; the local files still go.
      }
      // Leave the host first: a joined link would dial again with the certificate being removed.
      try {
        const c = await ctx.connect();
        await c.call('host/disconnect', { name });
      } catch {
        // No daemon here, or it does not know the host: nothing is joined.
      }
      let reply: UnpairReply | undefined;
      let why = '';
      if (fp !== undefined) {
        try {
          const r = await runOnce(sshArgv(ssh, sshControlDir(ctx.socketPath), ['host', 'unpair-serve']), `${JSON.stringify({ fingerprint: fp })}\n`, UNPAIR_TIMEOUT_MS);
          const line = r.out.split('\n').find((l) => l.startsWith(UNPAIR_MARK));
          if (line === undefined) why = r.err.trim().split('\n').slice(-3).join(' / ') || `exit ${r.code}`;
          else reply = UnpairReplySchema.parse(JSON.parse(line.slice(UNPAIR_MARK.length)));
        } catch (e) {
          why = (e as Error).message;
        }
      }
      const tlsDir = clientTlsDir(name);
      const removed = removeClientFiles(tlsDir);
      const next = HostFileSchema.parse({ ...raw, how: ssh });
      writeBelow(dir, `${name}.json`, `${JSON.stringify({ ...raw, how: next.how }, null, 2)}\n`, { mode: 0o600 });
      const local = `${removed ? `removed ${tlsDir}` : `${tlsDir} was already gone`}; ${file} reaches it by ssh again (${ssh.destination}); it is left: join it again with pane host connect ${name}`;
      if (reply !== undefined) {
        const there = reply.found ? `revoked there${reply.revokedAt !== undefined ? ` (${reply.revokedAt})` : ''}` : 'the remote had no record of it (issued before pane kept one): its door refuses it already';
        ctx.out(`${name}: unpaired; certificate ${fp} ${there}; ${local}`);
        return 0;
      }
      ctx.out(`${name}: ${local}`);
      if (fp === undefined) {
        ctx.err(`pane: host ${name}: no readable client certificate at ${certFile}, so none was revoked there; if one was issued, it is listed by pane host clients on that machine and revoked with pane host revoke there`);
      } else {
        ctx.err(`pane: host ${name}: the remote was not reached over ssh (${why}); it still honours this machine's certificate until you run there: pane host revoke ${fp}`);
      }
      return 1;
    },
  },
  {
    command: 'host unpair-serve',
    summary: 'the remote half of pane host unpair (run over ssh): revoke the client certificate it names',
    flags: [],
    notes: ['Reads one JSON request on stdin ({"fingerprint": …}), marks that certificate revoked in $XDG_STATE_HOME/pane/tls/clients.json (the daemon closes its live connections), and prints whether the record held it on one line.'],
    async run(ctx) {
      const { UnpairRequestSchema } = await import('../../../protocol/serve');
      let req;
      try {
        req = UnpairRequestSchema.parse(JSON.parse(await readStdin(ctx.io.stdin, MAX_UNPAIR_INPUT, 'host unpair-serve')));
      } catch (e) {
        if (e instanceof UsageError) throw e;
        throw new UsageError(`the unpairing request does not read: ${(e as Error).message}`, 'host unpair-serve');
      }
      const r = await record();
      let reply: UnpairReply = { fingerprint: req.fingerprint, found: false };
      if (fs.existsSync(r.dir)) {
        const now = new Date().toISOString();
        reply = await r.updateClients(r.dir, (clients) => {
          const c = clients.find((x) => x.fingerprint === req.fingerprint);
          const revokedAt = c?.revokedAt ?? now;
          return { clients: clients.map((x) => (x === c ? { ...x, revokedAt } : x)), result: c === undefined ? { fingerprint: req.fingerprint, found: false } : { fingerprint: req.fingerprint, found: true, revokedAt } };
        });
      }
      ctx.out(`${UNPAIR_MARK}${JSON.stringify(reply)}`);
      return 0;
    },
  },
];
