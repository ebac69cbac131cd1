// Hosts what a window talks to: a pane server with HTTP + WebSocket on 127.0.0.1
// (and the config handlers), or, with --attach or when one already runs on the
// socket, a bridge to that server. Shared by the Chromium host and Electron's
// utility process so both windows meet exactly the same server.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveSocketPath } from '../kits/node/paths';
import { startBridge } from './bridge';

export interface HostOptions {
  socketPath?: string;
  attach?: string;
  port?: number;
  staticDir?: string;
  /** With `attach`: settles when that server answers (see BridgeOptions.upstream). */
  upstream?: Promise<unknown>;
}

export interface Hosted {
  mode: 'server' | 'bridge';
  /** http://127.0.0.1:PORT (no secret). */
  origin: string;
  wsUrl: string;
  /** The hello secret: only for Electron's preload, never put in a URL. */
  secret: string;
  /** A fresh one-time URL for a browser window (the token is exchanged for an HttpOnly cookie). */
  launchUrl(): string;
  socketPath: string;
  stop(): Promise<void>;
}

/** dist/renderer beside this bundle (dist/start.mjs or dist/electron/main.cjs). */
export function defaultStaticDir(): string {
  const here = typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, 'renderer'), path.join(here, '..', 'renderer'), path.join(here, '..', 'dist', 'renderer')];
  return candidates.find((d) => fs.existsSync(path.join(d, 'index.html'))) ?? candidates[0]!;
}

async function bridgeTo(socketPath: string, o: HostOptions, staticDir: string): Promise<Hosted> {
  const b = await startBridge(socketPath, { ...(o.port !== undefined ? { port: o.port } : {}), staticDir, ...(o.upstream ? { upstream: o.upstream } : {}) });
  return { mode: 'bridge', origin: b.origin, wsUrl: `ws://127.0.0.1:${b.port}/ws`, secret: b.secret, launchUrl: () => b.launchUrl(), socketPath, stop: b.close };
}

export async function host(o: HostOptions = {}): Promise<Hosted> {
  const staticDir = o.staticDir ?? defaultStaticDir();
  if (!fs.existsSync(path.join(staticDir, 'index.html'))) throw new Error(`no renderer build at ${staticDir}; run npm run build`);
  if (o.attach) return bridgeTo(o.attach, o, staticDir);
  const socketPath = resolveSocketPath(o.socketPath);
  // The server's code loads only here: a window attaching to the daemon never needs it.
  const [{ startServer }, { attachConfig }] = await Promise.all([import('../server/main'), import('../server/config/configService')]);
  let running;
  try {
    running = await startServer({ socketPath, http: { ...(o.port !== undefined ? { port: o.port } : {}), staticDir } });
  } catch (e) {
    // One server per socket: a window opened while one runs joins it instead.
    if (/already listening/.test((e as Error).message)) return bridgeTo(socketPath, o, staticDir);
    throw e;
  }
  attachConfig(running.services);
  const front = running.http!;
  return { mode: 'server', origin: front.origin, wsUrl: `ws://127.0.0.1:${front.port}/ws`, secret: front.secret, launchUrl: () => front.launchUrl(), socketPath, stop: () => running.stop() };
}
