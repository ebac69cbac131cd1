// Where the server is and how to prove we may talk to it. In Electron the preload
// bridge answers (with the secret as the hello token). In a browser the page was
// opened through a one-time launch URL, which the server exchanged for an HttpOnly
// SameSite=Strict cookie: the WebSocket upgrade carries it, and no script (ours
// included) ever holds the secret. See docs/decisions/011-http-front.md.

export interface Endpoint {
  url: string;
  token: string | undefined;
  /** An attach grant's token the page was opened with (#grant=TOKEN): the window is that grant's guest. */
  grant?: string | undefined;
}

/** Where a tab keeps the grant it was opened with, so a reload or reconnect stays the same guest. */
const GRANT_KEY = 'pane.grant';

/**
 * The attach grant this window was opened with: `#grant=TOKEN` in the address (a
 * fragment, never sent to a server), taken out of the address bar and history at
 * once and kept for this tab alone (sessionStorage), so reloads stay its guest.
 */
export function takeGrant(): string | undefined {
  const m = /(?:^#|&)grant=([A-Za-z0-9_-]{1,200})(?:&|$)/.exec(window.location.hash);
  if (m) {
    try {
      window.sessionStorage.setItem(GRANT_KEY, m[1]!);
    } catch {
      // storage refused: the grant holds for this page load
    }
    const clean = new URL(window.location.href);
    clean.hash = '';
    window.history.replaceState(null, '', clean.toString());
    return m[1]!;
  }
  try {
    return window.sessionStorage.getItem(GRANT_KEY) ?? undefined;
  } catch {
    return undefined;
  }
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

/** Forgets the grant this tab kept; true when there was one. */
export function forgetGrant(): boolean {
  try {
    const had = window.sessionStorage.getItem(GRANT_KEY) !== null;
    window.sessionStorage.removeItem(GRANT_KEY);
    return had;
  } catch {
    return false;
  }
}

/** The server's socket: the preload bridge's in Electron, else `ws` beside the page (public/early-socket.js opens the same URL). */
export async function findEndpoint(): Promise<Endpoint> {
  const grant = takeGrant();
  if (window.paneHost) return { ...(await window.paneHost.endpoint()), grant };
  const ws = new URL('ws', window.location.href);
  ws.protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  ws.search = '';
  ws.hash = '';
  return { url: ws.toString(), token: undefined, grant };
}

/** The session named in the URL (?session=NAME), if any. */
export function wantedSession(): string | null {
  return new URL(window.location.href).searchParams.get('session');
}
