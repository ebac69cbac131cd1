// Attaches awareness to a server: its handlers (once per process) and one
// AwarenessService per server. Attach after the agents service, so awareness
// joins its hook answers.
import { registerHandlers } from '../handlers/dispatch';
import { awarenessHandlers } from '../handlers/awareness';
import type { PaneServer } from '../paneServer';
import { AwarenessService, awarenessOf, setAwareness, type AwarenessServiceOptions } from './service';

export { AwarenessService, awarenessOf } from './service';

let wired = false;

export function attachAwareness(server: PaneServer, o: AwarenessServiceOptions): AwarenessService {
  if (!wired) {
    wired = true;
    registerHandlers(awarenessHandlers);
  }
  const existing = awarenessOf(server);
  if (existing) return existing;
  const svc = new AwarenessService(server, o);
  setAwareness(server, svc);
  return svc;
}
