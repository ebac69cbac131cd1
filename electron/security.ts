// Electron's hardening in one place: a CSP header on every response, no navigation
// away from the renderer's origin, no new windows (links open in the system
// browser), no webviews, and a permission handler that grants only the clipboard
// write the terminal's copy needs (and notifications, which main shows itself).
import { shell, type Session, type WebContents } from 'electron';
import { csp as sharedCsp } from '../server/transport/httpRequest';

/** The renderer's CSP: the one the HTTP front sends the Chromium window (server/transport/httpRequest.ts). */
export function csp(origin: string): string {
  return sharedCsp(Number(new URL(origin).port));
}

const GRANTED = new Set(['clipboard-sanitized-write']);

export function hardenSession(ses: Session, origin: string): void {
  ses.webRequest.onHeadersReceived((details, cb) => {
    const headers = { ...details.responseHeaders };
    if (details.url.startsWith(origin)) headers['Content-Security-Policy'] = [csp(origin)];
    cb({ responseHeaders: headers });
  });
  ses.setPermissionRequestHandler((wc, permission, cb) => cb(GRANTED.has(permission) && wc.getURL().startsWith(origin)));
  ses.setPermissionCheckHandler((wc, permission) => GRANTED.has(permission) && (wc?.getURL() ?? '').startsWith(origin));
}

/** Applied to every web contents as it is created. */
export function hardenContents(contents: WebContents, origin: string): void {
  contents.on('will-navigate', (e, url) => {
    if (!url.startsWith(`${origin}/`)) e.preventDefault();
  });
  contents.on('will-redirect', (e, url) => {
    if (!url.startsWith(`${origin}/`)) e.preventDefault();
  });
  contents.on('will-attach-webview', (e) => e.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    // Links a terminal prints (web-links addon) go to the system browser, never a new Electron window.
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

/** An IPC message is trusted only from our window's main frame at our origin. */
export function trustedSender(frameUrl: string | undefined, sender: WebContents, win: WebContents | undefined, origin: string): boolean {
  return win !== undefined && sender === win && typeof frameUrl === 'string' && frameUrl.startsWith(`${origin}/`);
}
