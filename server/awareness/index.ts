// Attaches awareness to a server: its handlers on the server's dispatcher and one
// AwarenessService in its services. Attach after the agents service, so awareness
// joins its hook answers.
import type { HandlerTable } from '../handlers/types';
import type { Services } from '../services';
import { AwarenessService, type AwarenessServiceOptions } from './service';

export { AwarenessService } from './service';

/** Starts awareness on a server's services; `handlers` is the awareness family's table (server/handlers/awareness.ts). */
export function attachAwareness(services: Services, o: AwarenessServiceOptions, handlers: HandlerTable): AwarenessService {
  if (services.awareness) return services.awareness;
  const svc = new AwarenessService({ server: services.server, agents: () => services.agents }, o);
  services.awareness = svc;
  services.dispatcher.register(handlers);
  return svc;
}
