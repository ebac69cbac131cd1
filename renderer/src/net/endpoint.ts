// Where the server is and how to prove we may talk to it. In Electron the preload
// bridge answers (with the secret as the hello token). In a browser the page was
// opened through a one-time launch URL, which the server exchanged for an HttpOnly
// SameSite=Strict cookie: the WebSocket upgrade carries it, and no script (ours
// included) ever holds the secret. See docs/decisions/011-http-front.md.

export interface Endpoint {
  url: string;
  token: string | undefined;
}

/** What electron/preload.ts exposes on window.paneHost. */
export interface PaneHostBridge {
  endpoint(): Promise<Endpoint>;
  /** A native notification; clicking it brings the window up and calls the click listener with `pane`. */
  notify(title: string, body: string, pane?: number): void;
  /** Listens for clicks on native notifications (the pane they were about). */
  onNotificationClick?(listener: (pane: number) => void): void;
  readonly platform: string;
}

/** A socket public/early-socket.js opened as the page loaded, and what arrived before the app took it. */
export interface EarlySocket {
  ws: WebSocket;
  queued: MessageEvent[];
  /** Stops queueing: the adopter listens from here on. */
  release(): void;
}

declare global {
  interface Window {
    paneHost?: PaneHostBridge;
    paneEarlySocket?: EarlySocket;
  }
}

/**
 * The page's early socket, once: null if there is none, or it is already closing
 * (refused, or a server gone meanwhile; a fresh socket then reports why).
 */
export function takeEarlySocket(): EarlySocket | null {
  const early = window.paneEarlySocket;
  if (!early) return null;
  delete window.paneEarlySocket;
  if (early.ws.readyState === WebSocket.CONNECTING || early.ws.readyState === WebSocket.OPEN) return early;
  early.release();
  return null;
}

/** The server's socket: the preload bridge's in Electron, else `ws` beside the page (public/early-socket.js opens the same URL). */
export async function findEndpoint(): Promise<Endpoint> {
  if (window.paneHost) return window.paneHost.endpoint();
  const ws = new URL('ws', window.location.href);
  ws.protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  ws.search = '';
  ws.hash = '';
  return { url: ws.toString(), token: undefined };
}

/** The session named in the URL (?session=NAME), if any. */
export function wantedSession(): string | null {
  return new URL(window.location.href).searchParams.get('session');
}
