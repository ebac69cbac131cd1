// An agent's .access: parsed with the protocol's AccessSchema, each problem named
// by field; an invalid file grants nothing (fail closed) until it is fixed. The
// matchers here (pane selectors, namespace and command globs) are pure.
import { AccessSchema, DEFAULT_SANDBOX_DENY_READ, type Access } from '../../kits/protocol/agent';
import type { Pane } from '../../kits/protocol/model';
import { UNIX_SOCKETS_ALLOWED } from '../../kits/node/sandboxSockets';

export interface ParsedAccess {
  access: Access;
  errors: string[];
}

/** What an agent with a broken .access may do: nothing beyond speaking about itself. */
export const NOTHING: Access = {
  version: 1,
  capabilities: [],
  panes: { read: [], write: [] },
  namespace: { read: [], write: [] },
  commands: { allow: [], deny: ['*'] },
  sandbox: { write: [], read: [], appNetwork: false, denyRead: [...DEFAULT_SANDBOX_DENY_READ], network: [], unsandboxed: 'refuse', credentials: 'none', unixSockets: 'refuse' },
};

export function parseAccessText(text: string): ParsedAccess {
  if (text.trim() === '') return { access: AccessSchema.parse({}), errors: [] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { access: NOTHING, errors: [`(json): not valid JSON: ${(e as Error).message}`] };
  }
  const r = AccessSchema.safeParse(json);
  if (r.success) return { access: r.data, errors: [] };
  return {
    access: NOTHING,
    errors: r.error.issues.map((i) => `${i.path.length ? i.path.map(String).join('.') : '(top)'}: ${i.message}`),
  };
}

/** Glob → RegExp: `**` any run of characters, `*` any run without `/` (or `.` for signatures). */
export function globRe(glob: string, sep = '/'): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
    } else if (c === '*') re += `[^${sep === '/' ? '/' : '\\.'}]*`;
    else re += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Whether an agent counts a pane as its own: the server's record of who made it or whose identity it carries (never free-form attrs). */
export type OwnsPane = (agent: string, p: Pane) => boolean;

/** Whether any selector covers pane `p` for `agent`; `sessionName` resolves session:NAME. */
export function paneMatches(selectors: readonly string[], agent: string, p: Pane, sessionName: string, host: string, owns: OwnsPane): boolean {
  for (const s of selectors) {
    if (s === '*') return true;
    if (s === 'self' && owns(agent, p)) return true;
    if (/^[0-9]+$/.test(s) && Number(s) === p.n) return true;
    if (/^[^:]+:[0-9]+$/.test(s) && s === `${host}:${p.n}`) return true;
    if (s.startsWith('sig:') && globRe(s.slice(4), '.').test(p.signature)) return true;
    if (s.startsWith('session:') && (s.slice(8) === sessionName || s.slice(8) === p.session)) return true;
    if (s.startsWith('agent:') && owns(s.slice(6), p)) return true;
  }
  return false;
}

/** Whether a namespace path is covered; `/pane/self/...` globs cover the agent's own pane numbers. */
export function pathMatches(globs: readonly string[], path: string, ownPanes: readonly number[]): boolean {
  for (const g of globs) {
    if (globRe(g).test(path)) return true;
    if (g.startsWith('/pane/self')) {
      for (const n of ownPanes) if (globRe(g.replace('/pane/self', `/pane/${n}`)).test(path)) return true;
    }
  }
  return false;
}

/** Deny wins over allow; both are method names or globs (`pane/*`). */
export function commandAllowed(a: Access, method: string): boolean {
  const hit = (globs: readonly string[]) => globs.some((g) => g === '*' || g === method || globRe(g).test(method));
  return hit(a.commands.allow) && !hit(a.commands.deny);
}

/** One line per right, in words: what `pane access NAME` prints. */
export function summarize(a: Access, errors: readonly string[] = []): string[] {
  const words = (xs: readonly string[]) => (xs.length === 0 ? 'nothing' : xs.join(', '));
  const lines: string[] = [];
  for (const e of errors) lines.push(`INVALID .access (${e}): everything is refused until it is fixed`);
  lines.push(`capabilities: ${words(a.capabilities)}`);
  lines.push(`read panes:   ${words(a.panes.read)}`);
  lines.push(`write panes:  ${words(a.panes.write)}`);
  lines.push(`read paths:   ${words(a.namespace.read)}`);
  lines.push(`write paths:  ${words(a.namespace.write)}`);
  lines.push(`commands:     ${words(a.commands.allow)}${a.commands.deny.length ? ` except ${a.commands.deny.join(', ')}` : ''}`);
  lines.push(`sandbox:      its programs run under bubblewrap; they may write only their working directory (project or worktree), its home and its temp dir${a.sandbox.write.length ? `, and ${a.sandbox.write.join(', ')}` : ''}`);
  lines.push(`  hidden:     the person's home as a whole (only what is listed as visible is bound in), pane's own data, saved state (screens, daemon.log) and runtime files, other agents' homes, the person's pane socket, the machine's /tmp and /var/tmp (empty and its own inside)${UNIX_SOCKETS_ALLOWED ? '' : ", the machine's /run (its services' sockets and secrets, every session's runtime dir)"}${a.sandbox.denyRead.length ? `, ${a.sandbox.denyRead.join(', ')}` : ''}`);
  if (a.sandbox.read.length) lines.push(`  also reads: ${a.sandbox.read.join(', ')} (.access sandbox.read)`);
  lines.push(
    `  unix sockets: ${
      a.sandbox.unixSockets === 'allow' || UNIX_SOCKETS_ALLOWED
        ? `MAY BE MADE inside${a.sandbox.unixSockets === 'allow' ? ' (.access sandbox.unixSockets is "allow")' : ' (macOS: the runtime filters sockets on Linux only)'}: its programs may connect to every socket they can see: their own, and any in what is visible below${UNIX_SOCKETS_ALLOWED ? '' : " (the machine's services' are hidden with the rest of /run; .access sandbox.read grants one)"}`
        : 'none can be made inside (a seccomp filter), so no socket it can see answers it; its pane and hooks reach pane by relays'
    }`,
  );
  lines.push(`  network:    ${a.sandbox.network.length ? `only ${a.sandbox.network.join(', ')}` : 'none'}`);
  lines.push(`  pane:       reached only through its own socket in its home, which speaks as the agent`);
  lines.push(`  home:       HOME is its home inside the sandbox: its CLI's state, sessions and login stay there`);
  lines.push(`  login:      ${a.sandbox.credentials === 'copy' ? "a copy of the person's login file for its CLI (the app file names it), renewed at launch when the person's is newer, and the login variables (API keys) its app file names" : "none of the person's, file or variable: its CLI logs in itself"}`);
  lines.push(`  environment: of the person's, only PATH, locale, terminal, shell and editor names and CA bundles; no token, key or socket of theirs (SSH_AUTH_SOCK, DBUS_SESSION_BUS_ADDRESS, DISPLAY, XDG_RUNTIME_DIR: gone)`);
  lines.push(`  no sandbox: ${a.sandbox.unsandboxed === 'allow' ? 'where none can run, launches go on unsandboxed (said in the tag and /pane/log)' : 'where none can run, launches are refused'}`);
  return lines;
}
