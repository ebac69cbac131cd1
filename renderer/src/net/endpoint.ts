// Where the server is and how to prove we may talk to it. In Electron the preload
// bridge answers; in a browser the page was opened as /?secret=S on the server's own
// origin. The secret is kept in sessionStorage (so a reload reconnects) and removed
// from the address bar (so it is not shown or bookmarked).

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

const KEY = 'pane.secret';

export async function findEndpoint(): Promise<Endpoint> {
  if (window.paneHost) return window.paneHost.endpoint();
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('secret');
  if (fromUrl) {
    sessionStorage.setItem(KEY, fromUrl);
    url.searchParams.delete('secret');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
  const ws = new URL('ws', window.location.href);
  ws.protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  ws.search = '';
  return { url: ws.toString(), token: sessionStorage.getItem(KEY) ?? undefined };
}

/** The session named in the URL (?session=NAME), if any. */
export function wantedSession(): string | null {
  return new URL(window.location.href).searchParams.get('session');
}
