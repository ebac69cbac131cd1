// A TLS door onto this server: mutual TLS for the person's paired machines (a client
// certificate signed by the endpoint's `ca`), then the door's `clients` rule on that certificate (the TLS door
// from serve.json: the record of issued certificates, decision 038), then admitted
// like every stream door (admission.ts: a cap, a hello deadline, a byte limit before
// hello). Not opened by default: a remote host's pairing (issue 26, `pane host pair`)
// or a test composes it; the certificate is the identity, so a connection that passed
// asks for what the person's socket may. A peer with no such certificate is a viewer:
// let in only with an attach grant's token in its hello, as that grant's guest (held to
// its session), and refused otherwise. `recheck()` applies the rule again to the
// connections already in, and closes those it now refuses (a revocation).
import type tls from 'node:tls';
import type { ListenEndpoint } from '../../kits/protocol/endpoint';
import { MAX_CLIENT_NAME } from '../../kits/protocol/serve';
import { listen, type Listener } from '../../kits/node/endpoint';
import type { StreamTransport } from '../../kits/node/streamTransport';
import type { Services } from '../services';
import { admitStream, ConnectionCap, throttledLog } from './admission';
import { ClientConn } from './clientConn';
import { shown } from '../../kits/protocol/shown';

/** TLS connections at once: remote views of this machine (a few windows, CLIs, mounts); the person's socket's 256 with room to spare is far more than needed. */
export const MAX_TLS_CONNECTIONS = 64;

/** A client certificate that passed the handshake: its SHA-256 fingerprint and common name. */
export interface TlsPeer {
  fingerprint: string;
  name: string;
}

/** A certificate's common name for a log line: bounded, and escaped as all text from a peer is (it is the client's own words). */
function clean(cn: string): string {
  return shown(cn.slice(0, MAX_CLIENT_NAME));
}

/** Why the door refuses this peer (named, with the fix), or null to let it in. */
export type TlsClientRule = (peer: TlsPeer) => string | null;

export interface TlsListener extends Listener {
  /** Applies the rule again to every live connection; closes, with the reason, those it refuses. Returns how many. */
  recheck(): number;
}

export interface ListenTlsOptions {
  helloTimeoutMs?: number;
  /**
   * Who among the CA's certificates may come in. Required, so no door forgets it: the
   * TLS door passes the record of issued certificates; a test with its own CA may pass `() => null`.
   */
  clients: TlsClientRule;
  /** Where the door says, once as it opens, what this machine cannot do for it. */
  warn?: (line: string) => void;
}

/** Listens on a TLS endpoint; refuses one without `ca`, whose door would take any client on the network. */
export async function listenTls(services: Services, e: Extract<ListenEndpoint, { kind: 'tls' }>, o: ListenTlsOptions): Promise<TlsListener> {
  if (e.ca === undefined) throw new Error(`tls://${e.host}:${e.port}: a TLS door needs ca= (the CA that signs its clients' certificates); without it anyone who reaches the port would be the person`);
  const { server } = services;
  const door = `TLS door ${e.host}:${e.port}`;
  const cap = new ConnectionCap(MAX_TLS_CONNECTIONS, door);
  const log = throttledLog((line: string) => server.publish('client/refused', { door, reason: line }));
  const live = new Map<StreamTransport, TlsPeer>();
  /** A peer without a certificate the CA signed: let in only with an attach grant's token in its hello, as that grant's guest (an agent's token is not looked at). */
  const viewer = (t: StreamTransport, cert: tls.PeerCertificate | undefined) => {
    const sock = t.input as tls.TLSSocket;
    const had = cert?.fingerprint256 ? 'one this user’s CA did not sign' : 'none';
    return new ClientConn(
      services,
      t,
      (h) => {
        if (h.grant !== undefined) return { capabilities: [] };
        log(`refused a client from ${sock.remoteAddress ?? '?'}: no certificate signed by this user's CA (${had}; a paired machine brings one: pane host pair NAME on its machine) and no attach grant`);
        return `${door}: no client certificate signed by this user's CA: a paired machine brings one (pane host pair), a viewer an attach grant (PANE_GRANT=TOKEN; pane grant new)`;
      },
      'grant',
    );
  };
  const listener = await listen(
    e,
    (t) => {
      const sock = t.input as tls.TLSSocket;
      // Read once: the viewer's refusal names what the peer showed; the person's path takes its fingerprint and name.
      const cert = sock.getPeerCertificate() as tls.PeerCertificate | undefined;
      if (!sock.authorized) {
        admitStream(t, [cap], (t) => viewer(t, cert), { timeoutMs: o.helloTimeoutMs, log });
        return;
      }
      if (cert === undefined) return refuse(t, 'no client certificate', `refused a client from ${sock.remoteAddress ?? '?'}: no client certificate`);
      const peer: TlsPeer = { fingerprint: cert.fingerprint256 ?? '', name: clean(String(cert.subject?.CN ?? '?')) };
      const why = peer.fingerprint === '' ? 'no client certificate' : o.clients(peer);
      if (why !== null) return refuse(t, why, `refused a client from ${sock.remoteAddress ?? '?'}: ${why}`);
      live.set(t, peer);
      t.onClose(() => live.delete(t));
      admitStream(t, [cap], (t) => new ClientConn(services, t, (h) => ({ capabilities: h.capabilities, principal: { kind: 'person', via: `tls:${peer.name}` } })), { timeoutMs: o.helloTimeoutMs, log });
    },
    { certOptional: true, ...(o.warn ? { warn: o.warn } : {}) },
  );
  /** Tells the client why in an `unauthorized` frame (a hello waiting for its welcome fails with it), logs it, and closes. */
  const refuse = (t: StreamTransport, why: string, line: string) => {
    log(line);
    t.send(JSON.stringify({ t: 'res', id: null, ok: false, error: { code: 'unauthorized', message: `${door}: ${why}` } }));
    t.pauseReading();
    t.close(why);
  };
  server.onDisconnect(() => void listener.close()); // as the stop begins, not waited for: see unixServer.ts
  return {
    ...listener,
    recheck() {
      let closed = 0;
      for (const [t, peer] of [...live]) {
        const why = o.clients(peer);
        if (why === null) continue;
        live.delete(t);
        closed++;
        refuse(t, why, `closed a live connection: ${why}`);
      }
      return closed;
    },
  };
}
