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

declare global {
  interface Window {
    paneHost?: PaneHostBridge;
  }
}

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
