// Enforces an agent's .access on every request its connections make (the
// ClientConn.checkAccess hook): the command rules, then the pane each request
// touches, then namespace paths. A refusal is a typed `denied` error, a line in
// the agent's log and an agent/denied event.
import { PaneFault } from '../../kits/protocol/error';
import { AUTHORITY } from '../../kits/protocol/authority';
import { capabilityOf, isMethodName } from '../../kits/protocol/index';
import type { Capability } from '../../kits/protocol/method';
import type { Pane } from '../../kits/protocol/model';
import type { Grant } from '../transport/clientConn';
import { normalize } from '../namespace/resolve';
import { commandAllowed, paneMatches, pathMatches } from './access';
import type { AgentService } from './service';

/** Requests that make something new: no existing pane is touched, and the new one is the agent's. */
const CREATES = new Set(['pane/split', 'pane/launch', 'float/create', 'session/new', 'apps/launch', 'agent/launch']);
/** Listings show every pane: only an agent that may read all panes gets them whole. */
const LISTS = new Set(['pane/list', 'pane/geometry', 'session/get', 'session/snapshot', 'events/subscribe']);
/** Requests that act on the focused pane when they name none: the target is checked all the same. */
const DEFAULT_TARGET = new Set(['pane/focus', 'pane/close', 'pane/restart', 'pane/zoom', 'pane/float', 'pane/tag', 'pane/attrs', 'pane/exec', 'pane/input', 'pane/resize', 'pane/ratio', 'pane/swap']);
/** Requests whose handler lets an agent act only on itself (self-only inbox, plan): the principal table's `self` rows. */
const selfChecked = (method: string): boolean => isMethodName(method) && method !== 'hello' && AUTHORITY[method].agent === 'self';

/**
 * Refuses: a typed `denied` error that opens with the rule (`denied: ada's .access
 * panes.write does not include pane 1`), a line in the agent's log, and an
 * agent/denied event (which /pane/log shows).
 */
export function deny(svc: AgentService, name: string, method: string, reason: string, rule?: string): never {
  const at = Date.now();
  svc.store.log(name, `denied ${method}: ${reason}`);
  svc.server.publish('agent/denied', { name, method, reason: rule ? `${rule}: ${reason}` : reason, at });
  const lead = rule ? `denied: ${name}'s .access ${rule}; ` : 'denied: ';
  throw new PaneFault('denied', `${lead}agent ${name} may not ${reason} (see \`pane access ${name}\`)`, { reason, subject: method });
}

/** The checker set on an agent's connection; throws `denied` or returns to let the request run. */
export function accessChecker(svc: AgentService, name: string): (method: string, params: unknown) => void {
  return (method, raw) => {
    const { access, errors } = svc.access(name);
    const params = (raw ?? {}) as Record<string, unknown>;
    if (selfChecked(method)) return;
    if (errors.length > 0) deny(svc, name, method, `call ${method}: its .access is invalid (${errors[0]})`);
    if (!commandAllowed(access, method)) deny(svc, name, method, `call ${method} (.access commands)`, `commands do not allow ${method}`);
    if (isMethodName(method)) {
      const cap = capabilityOf(method);
      if (!access.capabilities.includes(cap)) deny(svc, name, method, `use the ${cap} capability for ${method} (.access capabilities)`, `capabilities do not include ${cap}`);
    }
    if (CREATES.has(method)) {
      // New panes belong to the agent that made them (so `self` covers them), whatever owner it asked for.
      if (method === 'session/new') params.pane = { ...((params.pane as object | undefined) ?? {}), owner: name };
      else if (method !== 'apps/launch' && method !== 'agent/launch') params.owner = name;
      return;
    }
    const session = typeof params.session === 'string' ? params.session : undefined;
    if (LISTS.has(method) && !access.panes.read.includes('*')) deny(svc, name, method, `list every pane with ${method} (panes.read is not *)`, 'panes.read is not *');
    const nsPath = namespacePath(method, params);
    if (nsPath !== null) {
      const own = [...svc.server.panes.values()].filter((p) => svc.owns(name, p)).map((p) => p.n);
      const writing = method === 'ns/write' || (method === 'ns/open' && params.mode !== 'r' && params.mode !== undefined) || (isMethodName(method) && capabilityOf(method) !== 'read' && !method.startsWith('ns/'));
      const globs = writing ? access.namespace.write : access.namespace.read;
      const rule = `namespace.${writing ? 'write' : 'read'} does not include ${nsPath}`;
      if (!pathMatches(globs, nsPath, own)) deny(svc, name, method, `${writing ? 'write' : 'read'} ${nsPath} (.access namespace)`, rule);
      // A pane's files are the pane: reading or writing them (opening `event` read-write
      // intercepts its commands) needs the same right on the pane itself.
      const n = /^\/pane\/([0-9]+)(?:\/|$)/.exec(nsPath)?.[1];
      const target = n === undefined ? undefined : svc.server.panes.get(Number(n));
      if (target) checkPane(svc, name, method, target, writing ? 'write' : 'read');
    }
    // Ending a session or resizing its viewport (every PTY in it) needs write on each of its panes.
    if (method === 'session/kill' || method === 'session/viewport') {
      let panes: Pane[] = [];
      try {
        panes = svc.server.panesOf(svc.server.session(session));
      } catch {
        return; // the handler reports the missing session
      }
      for (const p of panes) checkPane(svc, name, method, p, 'write');
      return;
    }
    if (!('pane' in params) && !DEFAULT_TARGET.has(method) && !method.startsWith('pty/') && !method.startsWith('float/')) return;
    let target: Pane;
    try {
      target = svc.server.pane(params.pane as string | number | undefined, session);
    } catch {
      return; // no such pane: the handler answers pane-not-found
    }
    const mode = isMethodName(method) && (capabilityOf(method) === 'read' || capabilityOf(method) === 'attach') ? 'read' : 'write';
    checkPane(svc, name, method, target, mode);
    if (method === 'pane/swap' && params.with !== undefined) {
      try {
        checkPane(svc, name, method, svc.server.pane(params.with as string | number), 'write');
      } catch (e) {
        if (e instanceof PaneFault && e.code === 'denied') throw e;
      }
    }
  };
}

/**
 * The /pane path a request touches: ns/* paths are relative to the mount (/3/ctl →
 * /pane/3/ctl), and the by-sig/by-owner/by-session views name the same pane files
 * (/by-sig/S/3/ctl → /pane/3/ctl), so one rule covers every way to a file.
 */
export function namespacePath(method: string, params: Record<string, unknown>): string | null {
  if (typeof params.path !== 'string') return null;
  let p = params.path;
  if (method.startsWith('ns/')) p = `/pane${normalize(p)}`;
  else if (!p.startsWith('/pane')) return null;
  else p = normalize(p);
  // Judged as the resolver will walk it: `/new/../1/event` is `/pane/1/event`.
  if (p === '/pane/') p = '/pane';
  return p.replace(/^\/pane\/by-(?:sig|owner|session)\/[^/]+\/([0-9]+)(?=\/|$)/, '/pane/$1');
}

/** Whether agent `name`'s .access gives it `mode` on pane `p` (no refusal, no log: for rights a request only may use). */
export function paneAllowed(svc: AgentService, name: string, p: Pane, mode: 'read' | 'write'): boolean {
  const { access } = svc.access(name);
  const sessionName = svc.server.sessions.get(p.session)?.name ?? '';
  const selectors = mode === 'read' ? access.panes.read : access.panes.write;
  // Writing implies reading what you write: a pane in panes.write is readable too.
  const own = (agent: string, q: Pane) => svc.owns(agent, q);
  return paneMatches(selectors, name, p, sessionName, svc.server.host, own) || (mode === 'read' && paneMatches(access.panes.write, name, p, sessionName, svc.server.host, own));
}

export function checkPane(svc: AgentService, name: string, method: string, p: Pane, mode: 'read' | 'write'): void {
  const { access } = svc.access(name);
  const selectors = mode === 'read' ? access.panes.read : access.panes.write;
  if (!paneAllowed(svc, name, p, mode)) deny(svc, name, method, `${mode} pane ${p.n} (${p.signature}) with ${method} (.access panes.${mode}: ${selectors.join(', ') || 'nothing'})`, `panes.${mode} does not include pane ${p.n}`);
}

/** What a connection acting as agent `name` gets: its .access capabilities (plus read and write), its identity, its checker. */
export function agentGrant(svc: AgentService, name: string, capabilities: Capability[]): Grant {
  const { access } = svc.access(name);
  // read and write stay so an agent can always report hooks and read its own mail;
  // every other use of a capability is checked against .access per request.
  const allowed = new Set<Capability>([...access.capabilities, 'read', 'write']);
  return { capabilities: capabilities.filter((c) => allowed.has(c)), user: name, principal: { kind: 'agent', name }, checkAccess: accessChecker(svc, name) };
}
