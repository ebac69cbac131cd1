// Composition of a running pane server: the real PTY port, the screen worker, the
// one dispatcher with every family's handlers, the services (namespace, config,
// agents, awareness), the unix socket, optionally HTTP/WebSocket, and a first session.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkResults, Connection } from '../kits/client/index';
import { memoryPair } from '../kits/client/memoryTransport';
import type { Capability } from '../kits/protocol/method';
import { shedDaemonEnv } from '../kits/node/daemonEnv';
import { configDir, dataDir as defaultDataDir, defaultSocketPath, stateDir as defaultStateDir } from '../kits/node/paths';
import { attachAgents } from './agents/index';
import { attachAwareness } from './awareness/index';
import { attachHosts } from './hosts/index';
import { attachTlsDoor } from './transport/tlsDoor';
import { distDir, runningFromSource } from './distDir';
import { agentHandlers } from './handlers/agents';
import { awarenessHandlers } from './handlers/awareness';
import { builtinHandlers } from './handlers/dispatch';
import { GrantBook } from './grants/book';
import { refreshAppWords } from './model/appWords';
import type { AppList } from '../kits/protocol/app';
import { Dispatcher } from './handlers/registry';
import { sessionEnded } from './handlers/grants';
import { Namespace } from './namespace/namespace';
import { stateHandlers } from './handlers/stateSnapshots';
import { loadDurabilityConfig, Persistence } from './persist/service';
import { HeapTrimmer } from './heapTrimmer';
import { CodeOnDisk } from './codeOnDisk';
import { PaneServer } from './paneServer';
import { NodePtyPort } from './pty/nodePtyPort';
import type { PtyPort } from './pty/ptyPort';
import { SCREEN_SCROLLBACK, ScreenHost } from './pty/screenHost';
import { openAgentDoors } from './transport/agentSocket';
import { ClientConn } from './transport/clientConn';
import { listenUnix } from './transport/unixServer';
import type { HttpFront } from './transport/httpFront';
import { listenHttp } from './transport/wsServer';
import { removeIntegrationFiles } from './shell/integration';
import { listenHooks, type HookEndpoint } from './transport/hookListener';
import { Services } from './services';

export interface StartOptions {
  /** Unix socket path; null for none (in-memory only); default $XDG_RUNTIME_DIR/pane/default.sock. */
  socketPath?: string | null;
  host?: string;
  http?: { port?: number; staticDir?: string };
  /**
   * Without `http`: the renderer's files, served from an HTTP front opened on
   * 127.0.0.1 (any port) the first time the person asks for a window's URL (pane url,
   * session attach, grant new), so those work against any daemon.
   */
  frontOnDemand?: { staticDir: string };
  secret?: string;
  /** Create a first session `main` with a shell (default true). */
  initialSession?: boolean;
  shell?: string;
  env?: Record<string, string>;
  ringBytes?: number;
  maxTerminals?: number;
  ptyPort?: PtyPort;
  /** Path of the screen worker bundle; found next to this bundle by default. */
  workerPath?: string;
  /** Where agent homes and other server data live (default: $XDG_DATA_HOME/pane). */
  dataDir?: string;
  /** Where awareness.json and domains.json are read (default: the user's config dir). */
  configDir?: string;
  /** Time a connection has to say hello (default HELLO_TIMEOUT_MS; tests shorten it). */
  helloTimeoutMs?: number;
  /** Time a flow-controlled client may hold a pane paused without acking (default ACK_STALL_MS; tests shorten it). */
  ackStallMs?: number;
  /** How often the HTTP front pings a window's WebSocket, and how long one may leave a ping unanswered (default WS_PING_MS; tests shorten it). */
  wsPingMs?: number;
  /**
   * Keep state here (journal, snapshot generations, scrollback) and bring it back at
   * start; the daemon passes $XDG_STATE_HOME/pane. Absent: nothing is kept (tests, `pane serve`).
   */
  stateDir?: string;
  /** Told what persistence had to work around (a corrupt generation, a missing directory). */
  warn?: (message: string) => void;
}

export interface RunningServer {
  server: PaneServer;
  /** Sessions brought back from the state dir at start (empty without one). */
  restored: number;
  /** Its dispatcher and services (namespace, config, agents, awareness). */
  services: Services;
  socketPath: string | null;
  /** The HTTP front for windows: its origin, a fresh one-time launchUrl(), the hello secret. */
  http?: HttpFront;
  secret?: string;
  /** Where Claude Code's HTTP hooks post (only with a socket). */
  hooks?: HookEndpoint;
  /** An in-process client over the memory transport (tests, embedding). */
  connect(caps?: Capability[], name?: string): Promise<Connection>;
  stop(): Promise<void>;
}

/** Where dist/screenWorker.mjs is, when running from the bundle. */
function defaultWorkerPath(): string | undefined {
  return runningFromSource() ? undefined : path.join(distDir(), 'screenWorker.mjs');
}

export async function startServer(o: StartOptions = {}): Promise<RunningServer> {
  const socketPath = o.socketPath === undefined ? defaultSocketPath() : o.socketPath;
  const workerPath = o.workerPath ?? defaultWorkerPath();
  const cfgDir = o.configDir ?? configDir();
  const warn = o.warn ?? ((m: string) => process.stderr.write(`pane: state: ${m}\n`));
  // glibc and Node read the daemon's own settings at start; the panes' programs must not inherit them.
  shedDaemonEnv();
  const durability = o.stateDir ? loadDurabilityConfig(path.join(cfgDir, 'durability.json'), warn) : null;
  // The screen model keeps at least the history a durable session saves (durability.json's scrollbackLines), never less than its default.
  const scrollback = Math.max(SCREEN_SCROLLBACK, durability?.scrollbackLines ?? 0);
  const screen = new ScreenHost({ ...(workerPath ? { workerPath } : {}), scrollback });
  const server = new PaneServer({
    ...(o.host !== undefined ? { host: o.host } : {}),
    socketPath,
    ptyPort: o.ptyPort ?? new NodePtyPort(),
    screen,
    ...(o.shell !== undefined ? { shell: o.shell } : {}),
    ...(o.env !== undefined ? { env: o.env } : {}),
    ...(o.ringBytes !== undefined ? { ringBytes: o.ringBytes } : {}),
    ...(o.maxTerminals !== undefined ? { maxTerminals: o.maxTerminals } : {}),
    ...(o.ackStallMs !== undefined ? { ackStallMs: o.ackStallMs } : {}),
  });
  server.onStop(removeIntegrationFiles);
  // This file's text stands for all the server's code (server/codeOnDisk.ts): read now, before any update could replace it.
  server.code = new CodeOnDisk(fileURLToPath(import.meta.url));
  server.code.remember();
  // A daemon gives the heap a flood freed back to the system once it goes quiet (decision 051).
  if (socketPath) {
    const trimmer = new HeapTrimmer({ warn: (m) => process.stderr.write(`pane: ${m}\n`), others: () => screen.collect() });
    server.heapTrims = trimmer;
    server.onStop(() => trimmer.stop());
    // Work that makes garbage: output parsed and kept, a window pulling its screens.
    server.listen((event) => {
      if (event === 'pane/output' || event === 'client/attached') trimmer.poke();
    });
  }
  const dispatcher = new Dispatcher();
  for (const t of builtinHandlers) dispatcher.register(t);
  // The namespace listens from the start, so /pane/log and event files miss nothing.
  const services = new Services(server, dispatcher, new Namespace(server));
  // Live app words: when an app file changes, its panes take its words as the file now says.
  server.listen((event, data) => {
    if (event === 'apps/changed') refreshAppWords(server, (data as AppList).apps);
    // A grant shows one session: when it ends, so do the grant and its guests.
    if (event === 'session/closed') {
      const d = data as { session: string; name: string };
      sessionEnded(server, services, d.session, d.name);
      services.contexts.sessionGone(d.session);
    }
    // No context keeps a closed pane focused or zoomed.
    if (event === 'pane/closed') services.contexts.paneGone((data as { session: string }).session, (data as { pane: number }).pane);
  });
  // Attach grants: kept in the state dir by a server with a socket (a daemon), in memory otherwise.
  services.grants = new GrantBook(socketPath ? defaultStateDir() : undefined, (m) => process.stderr.write(`pane: ${m}\n`));
  const agents = attachAgents(services, { dataDir: o.dataDir ?? defaultDataDir() }, agentHandlers);
  // Each agent's own doors (its pane socket, its hook socket) are transports: opened from this side.
  openAgentDoors(services, agents);
  // After agents: awareness adds its part to their hook answers.
  attachAwareness(services, { dataDir: o.dataDir ?? defaultDataDir(), configDir: cfgDir }, awarenessHandlers);
  // Other hosts' daemons (issue 26): a server with a socket joins those its hosts/ files name.
  if (socketPath) attachHosts(services, { configDir: cfgDir });
  // Its TLS door for paired hosts, when serve.json asks for one (off by default; server/transport/tlsDoor.ts).
  if (socketPath) attachTlsDoor(services, { configDir: cfgDir, stateDir: defaultStateDir(), ...(o.helloTimeoutMs !== undefined ? { helloTimeoutMs: o.helloTimeoutMs } : {}) });
  // Claude Code's HTTP hooks: one loopback door per server (the kernel's port) and each sandboxed
  // agent's own socket. Before the state is restored, so restored agent panes get the URL and relay.
  const hooks: HookEndpoint | undefined = socketPath ? await listenHooks(services) : undefined;
  const limits = o.helloTimeoutMs !== undefined ? { helloTimeoutMs: o.helloTimeoutMs } : {};
  services.admission = limits;
  // The socket is in place before the state is restored: a restored agent's sandbox hides
  // the socket file, which a dead daemon's stale one, cleared at listen, would have left
  // missing under it mid-launch. Connections wait until the restore is done.
  let restoredNow!: () => void;
  const restoring = new Promise<void>((r) => (restoredNow = r));
  if (socketPath) await listenUnix(services, socketPath, limits, restoring);
  let restored = 0;
  try {
    if (o.stateDir && durability) {
      dispatcher.register(stateHandlers);
      try {
        const r = await Persistence.open(services, { dir: o.stateDir, config: durability, warn });
        restored = r.restored.length;
      } catch (e) {
        await server.stop();
        throw e;
      }
    }
  } finally {
    restoredNow();
  }
  let http: HttpFront | undefined;
  const ping = o.wsPingMs !== undefined ? { pingMs: o.wsPingMs } : {};
  if (o.http) http = await listenHttp(services, { ...o.http, ...limits, ...ping, ...(o.secret !== undefined ? { secret: o.secret } : {}) });
  else if (o.frontOnDemand) {
    const { staticDir } = o.frontOnDemand;
    let opening: Promise<unknown> | null = null;
    server.openFront = () => (opening ??= listenHttp(services, { port: 0, staticDir, ...limits, ...ping }).catch((e: Error) => {
      opening = null; // a failed bind is tried again at the next ask
      throw e;
    })).then(() => undefined);
  }
  const connect = async (caps: Capability[] = ['read', 'write', 'attach', 'admin'], name = 'in-process') => {
    const [a, b] = memoryPair();
    new ClientConn(services, b, (h) => ({ capabilities: h.capabilities }));
    const c = new Connection(a, { checkResult: checkResults });
    await c.hello({ client: { name, kind: 'test' }, capabilities: caps });
    return c;
  };
  if ((o.initialSession ?? true) && restored === 0) {
    // The first session is asked for as any client asks: through an in-process connection, closed after.
    const first = await connect(['read', 'write', 'attach', 'admin'], 'pane (first session)');
    try {
      await first.call('session/new', {});
    } finally {
      first.close();
    }
  }
  return {
    server,
    restored,
    services,
    socketPath,
    ...(http ? { http, secret: http.secret } : {}),
    ...(hooks ? { hooks } : {}),
    connect,
    stop: () => server.stop(),
  };
}
