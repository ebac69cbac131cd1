// The pure parts of the HTTP front: reading a request target, a cookie and the
// Host allow-list without ever throwing, and the page's CSP. Every function here
// answers a value or a reason; none trusts what it is handed.

/** Longest request target considered; the renderer's own URLs are short. */
export const MAX_TARGET_LENGTH = 2048;

export interface Target {
  /** Percent-decoded, normalised path, always starting with `/`, no `..` left. */
  path: string;
  query: URLSearchParams;
}

/**
 * An origin-form request target (`/path?query`), decoded; or why it is refused.
 * Absolute forms (`http://[`), `*`, bad escapes (`/%`, `/%E0%A4%A`), NUL and
 * backslashes are all refusals, never exceptions.
 */
export function parseTarget(raw: string): Target | string {
  if (raw.length > MAX_TARGET_LENGTH) return `request target longer than ${MAX_TARGET_LENGTH} characters`;
  if (!raw.startsWith('/') || raw.startsWith('//')) return `request target ${JSON.stringify(raw.slice(0, 80))} is not a path`;
  const hash = raw.indexOf('#');
  const noHash = hash >= 0 ? raw.slice(0, hash) : raw;
  const q = noHash.indexOf('?');
  const rawPath = q >= 0 ? noHash.slice(0, q) : noHash;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return `request path ${JSON.stringify(rawPath.slice(0, 80))} has a bad percent escape`;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(decoded)) return 'request path holds a control character or a backslash';
  const parts: string[] = [];
  for (const seg of decoded.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) return 'request path climbs above the root';
      parts.pop();
    } else parts.push(seg);
  }
  const path = `/${parts.join('/')}${decoded.endsWith('/') && parts.length > 0 ? '/' : ''}`;
  // URLSearchParams replaces bad escapes with U+FFFD instead of throwing.
  return { path, query: new URLSearchParams(q >= 0 ? noHash.slice(q + 1) : '') };
}

/** The Host values a page on this port may send: the loopback names with the port (DNS rebinding brings any other). */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

/** The value of cookie `name` in a Cookie header, or null. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header || header.length > 8192) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/**
 * The renderer's Content-Security-Policy, the same for Electron (electron/security.ts
 * sets it on its session) and the Chromium window (the front sends it): scripts
 * only from this origin; sockets only to this server's own port; never framed.
 * Inline styles are allowed because xterm.js and react-rnd position by style.
 */
export function csp(port: number): string {
  return [
    "default-src 'none'",
    // 'wasm-unsafe-eval': the sixel decoder of the image addon is WebAssembly (renderer/src/term/images.ts); JS eval stays forbidden.
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
