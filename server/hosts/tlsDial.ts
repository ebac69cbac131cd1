// Joining a host by mutual TLS (issue 26): its file's certificate, key and the CA
// pinned by `pane host pair NAME`. Node's tls checks the server's certificate against
// that CA only (not the system's roots) and its name; a failure is named with the fix.
import { dial, DialError } from '../../kits/node/endpoint';
import type { Transport } from '../../kits/client/transport';
import type { HostHow } from '../../kits/protocol/host';

/** OpenSSL's verdicts that mean "this server is not the one paired with". */
const NOT_PAIRED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_UNTRUSTED',
]);

/** `warn`: the daemon's log, told once what this machine cannot watch on a TLS link (endpoint.ts tcpStateAtFirstLook). */
export async function dialTlsHost(name: string, how: Extract<HostHow, { via: 'tls' }>, warn?: (line: string) => void): Promise<Transport> {
  if (how.ca === undefined || how.cert === undefined || how.key === undefined) {
    throw new Error(`host ${name} is reached by TLS but its file names no ${['ca', 'cert', 'key'].filter((k) => how[k as 'ca'] === undefined).join(', ')}: pair it first (pane host pair ${name}, over ssh), which writes them`);
  }
  try {
    return await dial({ kind: 'tls', host: how.host, port: how.port, cert: how.cert, key: how.key, ca: how.ca, ...(how.servername !== undefined ? { servername: how.servername } : {}) }, warn ? { warn: (line) => warn(`host ${name}: ${line}`) } : {});
  } catch (e) {
    if (e instanceof DialError && e.code !== undefined && NOT_PAIRED.has(e.code)) {
      throw new Error(`host ${name}: the server at ${how.host}:${how.port} is not the one paired with (its certificate is not signed by the CA pinned in ${how.ca}: ${e.code}); if that machine's pane was set up again, pair again: pane host pair ${name}`);
    }
    if (e instanceof DialError && /alert|handshake|certificate/i.test(e.reason)) {
      throw new Error(`host ${name}: the TLS handshake with ${how.host}:${how.port} failed (${e.reason}); if the remote's CA changed, pair again: pane host pair ${name}`);
    }
    throw e;
  }
}
