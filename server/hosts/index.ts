// Attaches hosts to a running server (issue 26): the host files watched, a link per
// joined host dialled through kits/node/endpoint.ts (the system ssh or the file's
// argv, each to a remote `pane serve --stdio`), and HOST:N forwarded over it.
import fs from 'node:fs';
import path from 'node:path';
import { dial } from '../../kits/node/endpoint';
import { runtimeDir } from '../../kits/node/paths';
import { hostHandlers } from '../handlers/hosts';
import type { Services } from '../services';
import { hostArgv } from './hostArgv';
import type { DialHost } from './hostLink';
import { HostService } from './hostService';
import { forwardAgents } from './remoteAgents';
import { RemoteAwareness } from './remoteAwareness';
import { RemoteNamespace } from './remoteNamespace';
import { dialTlsHost } from './tlsDial';

export interface AttachHostsOptions {
  configDir: string;
  /** Overrides how a host is dialled (tests that stand in for a remote). */
  dial?: DialHost;
}

/** Where ssh's control sockets go: a 0700 folder beside the server's socket (its runtime dir). */
function controlDirOf(services: Services): string {
  const base = services.server.socketPath ? path.dirname(services.server.socketPath) : runtimeDir();
  const dir = path.join(base, 'hosts-ssh');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  return dir;
}

export function attachHosts(services: Services, o: AttachHostsOptions): HostService {
  const controlDir = controlDirOf(services);
  const dialHost: DialHost =
    o.dial ??
    (async (entry) => ({
      transport: entry.how.via === 'tls' ? await dialTlsHost(entry.name, entry.how, (line) => process.stderr.write(`pane: ${line}\n`)) : await dial({ kind: 'exec', argv: hostArgv(entry.how, controlDir) }),
    }));
  const hosts = new HostService({ server: services.server }, { configDir: o.configDir, controlDir, dial: dialHost });
  services.dispatcher.register(hostHandlers(hosts));
  services.dispatcher.forward = (method, params, ctx) => forwardAgents(hosts, method, params, ctx) ?? hosts.forward(method, params, ctx);
  services.namespace.remote = new RemoteNamespace({ server: services.server }, hosts);
  new RemoteAwareness({ server: services.server, awareness: () => services.awareness }, hosts); // joined hosts' agents mirrored into awareness as NAME@HOST
  return hosts;
}
