// The doors a sandboxed agent reaches pane through: its own pane socket and its own
// hook socket. They are transports, so the transport side opens them
// (server/transport/agentSocket.ts registers an AgentDoors on the service) and
// agents/ asks through this interface, importing no transport.
import path from 'node:path';
import { httpHook, type HookSpec } from '../../kits/node/cli/hookInstall';
import { PaneFault } from '../../kits/protocol/error';
import type { HookEndpoint } from '../transport/hookListener';
import type { AgentService } from './service';

/** What agents/ may ask of the transport side about an agent's own doors. */
export interface AgentDoors {
  /** Listens on agent `name`'s pane socket (once per agent per server); returns its path. */
  ensureSocket(name: string): string;
  /** Listens on agent `name`'s hook socket at `file` (once per agent per server); returns it. */
  ensureHookSocket(name: string, file: string): string;
}

/** Until the transport side registers its doors (startServer does, at once): a sandbox launch says so instead of running without them. */
export const NO_DOORS: AgentDoors = {
  ensureSocket: (name) => {
    throw new PaneFault('failed', `this server opens no agent sockets yet, so agent ${name} cannot be sandboxed (startServer registers them)`, { subject: name });
  },
  ensureHookSocket: (name) => {
    throw new PaneFault('failed', `this server opens no agent hook sockets yet, so agent ${name} cannot be sandboxed (startServer registers them)`, { subject: name });
  },
};

/** The agent's pane socket path: in its home, where its sandbox may reach it. */
export function endpointPath(svc: AgentService, name: string): string {
  return path.join(svc.store.home(name), 'pane.sock');
}

/** The HTTP hook for Claude Code launched by this server, when it has a hook endpoint and Claude Code takes them. */
export function httpHookFor(hooks: HookEndpoint | undefined): HookSpec | undefined {
  return hooks?.claudeHttp ? httpHook(hooks.url) : undefined;
}
