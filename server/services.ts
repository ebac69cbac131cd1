// What one running server is made of beside its state: the dispatcher every
// request goes through, the connections (the transport side's registry) and the
// services registered on it (namespace, config, agents, awareness, the hello
// token authority). startServer builds one and hands
// it to every connection; handlers reach it as ctx.services, never by a lookup.
import { PaneWaits } from './model/paneWait';
import path from 'node:path';
import type { Capability } from '../kits/protocol/method';
import type { AgentService } from './agents/service';
import type { AwarenessService } from './awareness/service';
import { ConfigService } from './config/configService';
import type { Dispatcher } from './handlers/registry';
import type { Namespace } from './namespace/namespace';
import type { PaneServer } from './paneServer';
import type { Persistence } from './persist/service';
import { PlumbService } from './plumb/service';
import type { Grant } from './transport/clientConn';
import type { GrantBook } from './grants/book';
import { ViewportBoard, type WindowSizePolicy } from './model/viewports';
import { ContextBoard } from './model/session/contexts';
import { Connections } from './transport/connections';
import { throttledLog } from './transport/admission';
import type { HookEndpoint } from './transport/hookListener';

/**
 * Asked before a transport's own policy: an agent's token (issue 5) names the agent
 * and brings its .access. Answers undefined for a token that is not its own, and the
 * transport decides as before.
 */
export type TokenAuthority = (hello: { token: string; capabilities: Capability[] }) => Grant | string | undefined;

export class Services {
  agents: AgentService | undefined;
  awareness: AwarenessService | undefined;
  tokenAuthority: TokenAuthority | undefined;
  /** The daemon's journal and snapshots, when this server keeps state (startServer's stateDir). */
  persistence: Persistence | undefined;
  /** The TCP hook door (its port the kernel's choice), when this server listens on a socket. */
  hooks: HookEndpoint | undefined;
  /** The TLS door (serve.json), when this server listens on a socket: its rule applied to live connections now. */
  tls: { recheck(): { door: boolean; closed: number } } | undefined;
  /** Each window's size per session, and which the session is laid out in (settings' windowSize). */
  readonly viewports = new ViewportBoard();
  /** Contexts: named views of a session with their own focus and zoom, and which each client follows (model/session/contexts.ts). */
  readonly contexts = new ContextBoard();
  /** The windowSize policy in force. */
  get windowSize(): WindowSizePolicy {
    return this.configService?.settings.settings.windowSize ?? 'latest';
  }
  /** Whether the HTTP front serves GET /metrics (settings' metricsScrape), read at each scrape. */
  get metricsScrape(): boolean {
    return this.config.settings.settings.metricsScrape;
  }
  /**
   * The log of hellos whose grant was refused, a few lines a second at most: a page may
   * relay made-up grants as fast as it connects (the bridge passes them on for the
   * daemon to check), and must not push every other line out of /pane/log.
   */
  readonly grantRefusals: (line: string) => void;
  /** The attach grants this server issued (grant/create), when it has one: a hello's grant is checked here. */
  grants: GrantBook | undefined;
  /** How every stream door admits a connection before hello (startServer's helloTimeoutMs; tests shorten it). */
  admission: { helloTimeoutMs?: number | undefined } = {};
  private configService: ConfigService | undefined;
  private plumber: PlumbService | undefined;
  /** Every connected client: subscribed to the server's bus, closed when it stops. */
  readonly connections: Connections;

  constructor(
    readonly server: PaneServer,
    readonly dispatcher: Dispatcher,
    readonly namespace: Namespace,
  ) {
    this.connections = new Connections(server);
    this.grantRefusals = throttledLog((line) => server.publish('client/refused', { door: 'grants', reason: line }));
  }

  /** Requests held until a pane reaches a state (pane/wait), started at the first. */
  get waits(): PaneWaits {
    return (this.paneWaits ??= new PaneWaits(this.server));
  }

  private paneWaits: PaneWaits | undefined;

  /** The plumber: rule files beside the config (plumbing), a project's .pane/plumbing, the ports under /pane/plumb/. */
  get plumb(): PlumbService {
    return (this.plumber ??= new PlumbService(this.server, path.dirname(this.config.keymapFile)));
  }

  /** The config service, started on first use with the user's config dir (attachConfig starts it early, or from other dirs). */
  get config(): ConfigService {
    return (this.configService ??= new ConfigService(this.server));
  }

  set config(s: ConfigService) {
    this.configService?.stop();
    this.configService = s;
  }
}
