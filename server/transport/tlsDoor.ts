// The daemon's TLS door from config (issue 26): when ~/.config/pane/serve.json says
// `tls: {address, port}`, the daemon listens there on mutual TLS with the per-user
// CA and server certificate of $XDG_STATE_HOME/pane/tls (made by `pane host pair-serve`,
// which `pane host pair NAME` runs over ssh). The file is watched: pairing writes it
// and the running daemon opens the door; removing `tls` closes it. Default: no file, no door.
// A client whose certificate is missing or not signed by the CA fails the handshake;
// one signed by it but absent from the record of issued certificates (tls/clients.json),
// or revoked there, is refused after it with the reason (decision 038); the record is
// followed live, and a revocation closes that certificate's live connections at once.
// Each refusal is told in /pane/log (client/refused) and the server keeps serving.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TickWhileNeeded } from '../../kits/node/tickWhileNeeded';
import { clientsStamp, clientVerdict, readClients, CLIENTS_FILE, type ClientsRead } from '../../kits/node/tlsClients';
import { readCertFile, readServeConfig, tlsStateDir } from '../../kits/node/tlsFiles';
import type { TlsDoor } from '../../kits/protocol/serve';
import type { Services } from '../services';
import { throttledLog } from './admission';
import { listenTls, type TlsClientRule, type TlsListener } from './tlsServer';

/** Addresses that listen on every interface: no certificate name. */
const WILDCARD = new Set(['0.0.0.0', '::']);

/** How long a burst of writes to serve.json is let settle before the door is reopened (an editor writes a file in steps). */
const SERVE_CONFIG_SETTLE_MS = 150;
/** How soon a change to clients.json (a revocation) is applied to live connections: a write is one rename, so this only merges a burst. */
const CLIENTS_SETTLE_MS = 20;
/** How often live connections are checked against the record even with no change seen: a missed watch event, an expiry. One lstat. */
const CLIENTS_RECHECK_MS = 5_000;

/**
 * The TLS door's rule on a client certificate: in clients.json and not revoked. The
 * record is read again whenever its inode, size or mtime changed (one lstat a
 * connection), so a new connection always meets the file as it is now.
 */
function recordRule(dir: string): TlsClientRule {
  let stamp = '';
  let read: ClientsRead = { ok: false, missing: true, reason: '' };
  return (peer) => {
    const now = clientsStamp(dir);
    if (now !== stamp) {
      stamp = now;
      read = readClients(dir);
    }
    return clientVerdict(read, dir, peer.fingerprint, peer.name);
  };
}

export interface TlsDoorOptions {
  configDir: string;
  stateDir: string;
  helloTimeoutMs?: number;
}

/** Opens the TLS door serve.json asks for and follows the file; returns a stop function. */
export function attachTlsDoor(services: Services, o: TlsDoorOptions): () => void {
  const { server } = services;
  const say = (reason: string) => server.publish('client/refused', { door: 'TLS door', reason });
  let open: { door: TlsDoor; listener: TlsListener; cert: string | null } | null = null;
  let busy: Promise<void> = Promise.resolve();
  let stopped = false;

  // The record of issued client certificates: a revocation closes live connections at once.
  const recheck = () => open?.listener.recheck();
  // And when asked (server/tls-recheck, which pane host revoke sends): the same, answered with what it cut.
  services.tls = { recheck: () => (open ? { door: true, closed: open.listener.recheck() } : { door: false, closed: 0 }) };
  let clientsTimer: NodeJS.Timeout | undefined;
  let clientsWatcher: fs.FSWatcher | undefined;
  const watchClients = () => {
    if (clientsWatcher || stopped) return;
    try {
      clientsWatcher = fs.watch(tlsStateDir(o.stateDir), (_ev, name) => {
        if (name !== null && name !== CLIENTS_FILE) return;
        clearTimeout(clientsTimer);
        clientsTimer = setTimeout(recheck, CLIENTS_SETTLE_MS);
      });
      clientsWatcher.on('error', () => undefined);
    } catch {
      // No tls/ folder yet (no door): tried again at the next recheck.
    }
  };
  // Only while the door is open: a daemon without one makes no wakeups for it.
  const checks = new TickWhileNeeded(
    CLIENTS_RECHECK_MS,
    () => open !== null,
    () => {
      watchClients();
      recheck();
    },
  );

  const apply = async (): Promise<void> => {
    let want: TlsDoor | undefined;
    try {
      want = readServeConfig(o.configDir).tls;
    } catch (e) {
      say(`${(e as Error).message}; the TLS door stays as it was (fix the file)`);
      return;
    }
    let certNow: string | null = null;
    try {
      certNow = readCertFile(path.join(tlsStateDir(o.stateDir), 'server.pem'));
    } catch {
      // Named below when the door is opened with it.
    }
    if (open && want && open.door.address === want.address && open.door.port === want.port && open.cert === certNow) return;
    if (open) {
      await open.listener.close();
      open = null;
    }
    if (!want || stopped) return;
    try {
      const dir = tlsStateDir(o.stateDir);
      // Loaded here, not at the top: making certificates loads node-forge, which a daemon with no door never needs.
      const { ensureCa, ensureServerCert } = await import('../../kits/node/tlsCerts');
      // The certificates pairing made; a daemon whose serve.json was written by hand makes its own CA here.
      const ca = ensureCa(dir, `pane CA ${server.host ?? ''}`.trim());
      // Pairing issued it for the names clients dial; by hand, it names the address (or this machine when that is a wildcard).
      ensureServerCert(dir, ca, [], [WILDCARD.has(want.address) ? os.hostname() : want.address]);
      const listener = await listenTls(
        services,
        { kind: 'tls', host: want.address, port: want.port, cert: path.join(dir, 'server.pem'), key: path.join(dir, 'server.key'), ca: path.join(dir, 'ca.pem') },
        { clients: recordRule(dir), warn: say, ...(o.helloTimeoutMs !== undefined ? { helloTimeoutMs: o.helloTimeoutMs } : {}) },
      );
      const log = throttledLog((line: string) => server.publish('client/refused', { door: `TLS door ${want!.address}:${want!.port}`, reason: line }));
      listener.server.on('tlsClientError', (err: NodeJS.ErrnoException, sock) => log(`handshake from ${sock.remoteAddress ?? '?'} refused: ${err.code ?? err.message} (a client needs a certificate signed by this user's CA: pane host pair NAME on its machine)`));
      open = { door: want, listener, cert: readCertFile(path.join(dir, 'server.pem')) };
      watchClients();
      checks.poke();
    } catch (e) {
      say(`cannot open the TLS door ${want.address}:${want.port}: ${(e as Error).message}`);
    }
  };
  const schedule = () => {
    busy = busy.then(apply, apply);
  };

  schedule();
  let timer: NodeJS.Timeout | undefined;
  let watcher: fs.FSWatcher | undefined;
  try {
    fs.mkdirSync(o.configDir, { recursive: true, mode: 0o700 });
    watcher = fs.watch(o.configDir, (_ev, name) => {
      if (name !== null && name !== 'serve.json') return;
      clearTimeout(timer);
      timer = setTimeout(schedule, SERVE_CONFIG_SETTLE_MS);
    });
    watcher.on('error', () => undefined);
  } catch {
    // No watchable config dir: the door follows serve.json as it was at start.
  }
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    clearTimeout(clientsTimer);
    checks.stop();
    watcher?.close();
    clientsWatcher?.close();
    void busy.then(() => open?.listener.close());
  };
  server.onStop(stop);
  return stop;
}
