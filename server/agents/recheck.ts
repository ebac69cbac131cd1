// Re-checks what an agent's connections hold open when its .access changes:
// attached PTY streams and namespace handles (an `event` interceptor among them)
// that the new file no longer grants are ended, each with a refusal in the
// agent's log and /pane/log — a right taken away is gone at once, not at the next open.
import { TickWhileNeeded } from '../../kits/node/tickWhileNeeded';
import type { ParsedAccess } from './access';
import { accessChecker } from './accessCheck';
import type { AgentClient, AgentService } from './service';

/** How often open streams are compared with the .access in force: the service re-reads a changed file at most this often. */
export const ACCESS_RECHECK_MS = 500;

export function watchAccessChanges(svc: AgentService): () => void {
  const seen = new WeakMap<AgentClient, ParsedAccess>();
  const agentConnected = () => {
    for (const client of svc.deps.clients()) if (svc.agentCaller(client.user) !== null) return true;
    return false;
  };
  // Only while an agent is connected: a daemon with none makes no wakeups for this.
  const ticks = new TickWhileNeeded(ACCESS_RECHECK_MS, agentConnected, () => {
    for (const client of svc.deps.clients()) {
      const name = svc.agentCaller(client.user);
      if (name === null) continue;
      const parsed = svc.access(name);
      if (seen.get(client) === parsed) continue;
      seen.set(client, parsed);
      recheck(svc, name, client);
    }
  });
  // A connection said hello (its user is known then): an agent's starts the ticks.
  // A session renamed: what session:NAME covers changed, as if the file had.
  const unlisten = svc.server.listen((event, data) => {
    if (event === 'client/attached' && (data as { pane?: number }).pane === undefined) ticks.poke();
    if (event === 'session/renamed') recheckAgents(svc);
  });
  ticks.poke();
  return () => {
    unlisten();
    ticks.stop();
  };
}

/**
 * Every agent's connections re-checked now: what a selector covers changed without its
 * file changing (a session renamed, a pane moved to another session: session:NAME).
 */
export function recheckAgents(svc: AgentService): void {
  for (const client of svc.deps.clients()) {
    const name = svc.agentCaller(client.user);
    if (name !== null) recheck(svc, name, client);
  }
}

/** Ends the streams and handles of one connection that its agent's .access no longer allows. */
export function recheck(svc: AgentService, name: string, client: AgentClient): void {
  const check = accessChecker(svc, name);
  const allowed = (method: string, params: Record<string, unknown>) => {
    try {
      check(method, params);
      return true;
    } catch {
      return false; // the checker logged and published the refusal
    }
  };
  for (const n of [...client.attached]) {
    if (allowed('pty/attach', { pane: n })) continue;
    svc.server.terminals.get(n)?.detach(client.sink.id);
    client.attached.delete(n);
    svc.server.publish('client/detached', { client: client.id, name: client.name, pane: n });
  }
  const ns = svc.deps.namespace;
  for (const f of ns.fidsOf(client.id)) {
    if (!allowed('ns/open', { path: f.path, mode: f.mode })) ns.closeFid(f);
  }
}
