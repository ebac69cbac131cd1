// Attaches agents to a server: the service, its handlers, the pane contributor
// (agent panes, PATH shims), the token authority (agent tokens → identity and
// .access) and the observer. `agentsOf(server)` is how other families reach it
// (awareness adds hook contributors and topics through it).
import { registerHandlers } from '../handlers/registry';
import { agentHandlers } from '../handlers/agents';
import { paneContributors } from '../model/lifecycle';
import type { PaneServer } from '../paneServer';
import { tokenAuthorities } from '../transport/clientConn';
import { agentGrant } from './accessCheck';
import { TOKEN_PREFIX } from './accounts';
import { watchAgentPanes } from './observer';
import { watchAccessChanges } from './recheck';
import { agentPaneContributor } from './panes';
import { AgentService, type AgentServiceOptions } from './service';

export { AgentService } from './service';
export type { HookContribution, HookContributor, HookEventInfo } from './hookAnswer';

const services = new WeakMap<PaneServer, AgentService>();
let wired = false;

/** The server's agent service, if agents are attached. */
export function agentsOf(server: PaneServer): AgentService | undefined {
  return services.get(server);
}

/** The agent a connection acts as (its hello token named one), or null for the human. */
export function agentOfUser(server: PaneServer, user: string): string | null {
  return services.get(server)?.agentCaller(user) ?? null;
}

export function attachAgents(server: PaneServer, options: AgentServiceOptions): AgentService {
  if (!wired) {
    wired = true;
    registerHandlers(agentHandlers);
    paneContributors.push(agentPaneContributor((s) => services.get(s)));
  }
  const svc = new AgentService(server, options);
  services.set(server, svc);
  tokenAuthorities.set(server, ({ token, capabilities }) => {
    if (!token.startsWith(TOKEN_PREFIX)) return undefined;
    const name = svc.store.byToken(token);
    if (!name) return 'that agent token is not valid (was the agent removed?)';
    return agentGrant(svc, name, capabilities);
  });
  const unwatch = watchAgentPanes(svc);
  const unrecheck = watchAccessChanges(svc);
  server.onStop(() => {
    unwatch();
    unrecheck();
    services.delete(server);
  });
  return svc;
}
