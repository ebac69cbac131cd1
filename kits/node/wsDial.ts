// A WebSocket endpoint dialled (kits/node/endpoint.ts's ws kind). Apart from
// endpoint.ts so that ws (128 KB) is not in every one-shot CLI bundle: the CLI
// reaches a ws:// server rarely, and every `pane ls` would parse ws otherwise
// (scripts/build.mjs keeps this file out of the CLI bundles, as serveCommand).
import { WebSocket } from 'ws';
import type { Transport } from '../client/transport';
import { WsTransport } from './wsTransport';

/** Opens `url`; rejects with ws's own error (endpoint.ts names the endpoint). */
export function openWebSocket(url: string, handshakeTimeoutMs: number): Promise<Transport> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { handshakeTimeout: handshakeTimeoutMs });
    ws.once('open', () => {
      ws.removeAllListeners('error');
      resolve(new WsTransport(ws));
    });
    ws.once('error', reject);
  });
}
