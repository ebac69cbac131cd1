// Attaches agents to a server: the service, its handlers (on the server's
// dispatcher), the pane contributor (agent panes, PATH shims), the token authority
// (agent tokens → identity and .access) and the observer. Other families reach
// the service as services.agents (awareness adds hook contributors and topics through it).
import type { HandlerTable } from '../handlers/types';
import type { Services } from '../services';
import { agentGrant } from './accessCheck';
import { TOKEN_PREFIX } from './accounts';
import { watchAgentPanes } from './observer';
import { sandboxUnavailable } from './sandbox';
import { watchAccessChanges } from './recheck';
import { agentPaneContributor } from './panes';
import { AgentService, type AgentServiceOptions } from './service';

export { AgentService } from './service';
export type { HookContribution, HookContributor, HookEventInfo } from './hookAnswer';

/** The agent a connection acts as, and the one rule on whom a request speaks for (server/agents/identity.ts). */
export { actingAgent, agentOfUser } from './identity';

/** How long after the daemon starts its sandbox helper is started (when agents exist): past the first requests a start serves. */
export const HELPER_WARM_DELAY_MS = 300;

/** Starts the agent service on a server's services; `handlers` is the agents family's table (server/handlers/agents.ts). */
export function attachAgents(services: Services, options: AgentServiceOptions, handlers: HandlerTable): AgentService {
  const { server } = services;
  const svc = new AgentService(
    {
      server,
      namespace: services.namespace,
      config: () => services.config,
      hooks: () => services.hooks,
      persistDir: () => services.persistence?.dir,
      clients: () => services.connections,
    },
    options,
  );
  services.agents = svc;
  services.dispatcher.register(handlers);
  server.paneContributors.push(agentPaneContributor(() => services.agents));
  services.tokenAuthority = ({ token, capabilities }) => {
    if (!token.startsWith(TOKEN_PREFIX)) return undefined;
    const name = svc.store.byToken(token);
    if (!name) return 'that agent token is not valid (was the agent removed?)';
    return agentGrant(svc, name, capabilities);
  };
  const unwatch = watchAgentPanes(svc);
  const unrecheck = watchAccessChanges(svc);
  // Agents exist: the sandbox helper starts now, off the start's path, so the first launch finds it warm.
  const warm = setTimeout(() => {
    if (svc.store.list().length > 0 && sandboxUnavailable(server.env.PATH ?? process.env.PATH) === null) svc.sandboxHelper();
  }, HELPER_WARM_DELAY_MS);
  warm.unref();
  server.onStop(async () => {
    clearTimeout(warm);
    unwatch();
    unrecheck();
    services.agents = undefined;
    await svc.stop();
  });
  return svc;
}
