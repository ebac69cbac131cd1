// Pane birth and death: allocate the model entry, spawn its terminal, wire the
// terminal's callbacks to events, and on close tear it all down; the session model
// (./session/) collapses the tree and moves focus.
import path from 'node:path';
import os from 'node:os';
import { faults } from '../../kits/protocol/error';
import { statOffMounts } from '../../kits/node/safeFile';
import type { BodyKind, LaunchSpec, Pane, Session } from '../../kits/protocol/model';
import type { PaneSpec } from '../../kits/protocol/pane';
import { Terminal } from '../pty/terminal';
import { ACK_STALL_MS, STALL_COOLDOWN_MS } from '../pty/fanout';
import type { PaneServer } from '../paneServer';
import { integrate } from '../shell/integration';
import { signalName } from './exited';
import { forgetPane, noteActivity, paneExited, paneRespawned, refreshPane, reportCwd, reportTitle, trackPane } from './paneTracker';
import { close, dropSession, publish } from './session';
import { bodyOf } from './bodies/registry';
import { tagWords, vocabularyFor } from './vocabulary';
import { setAttrs } from './paneOps';

/** A new pane as a request describes it (NewPaneSpecSchema), plus what only the server sets. */
export interface NewPaneSpec extends Omit<PaneSpec, 'kind'> {
  /** Any body kind: a request's spec is narrower (NewBodyKindSchema), the server's own may be a `remote` stand-in (server/hosts/standIns.ts). */
  kind?: BodyKind | undefined;
  /** Server-internal: the user of the connection that asked for the pane (never read from a request). */
  creator?: string | undefined;
  /** Server-internal: whose identity the pane's programs carry, decided by a contributor's `spec`. */
  identity?: PaneIdentity | undefined;
}

/** Whose identity a pane's programs carry, and the sandbox they were launched in (agents, issue 11). */
export interface PaneIdentity {
  agent: string;
  /** The agent's own (agent-kind) pane, whose state the observer follows. */
  agentPane: boolean;
  /** `bubblewrap`, or `unsandboxed: WHY`. */
  sandbox?: string;
  /** The sandbox settings it was launched with (an edited .access is pending until the next launch). */
  stamp?: string;
}

/**
 * Extension point for families that shape new panes (agents, issue 5): `spec` may
 * rewrite a spec before the pane exists (signature, cwd, args) or throw a typed
 * refusal; `env` adds variables to a terminal's environment when it starts.
 */
export interface PaneContributor {
  spec?(server: PaneServer, session: Session, spec: NewPaneSpec): NewPaneSpec;
  /**
   * What the pane inherits of the server's environment (the person's), before its launch's own
   * variables and pane's are added: undefined keeps it whole. An agent's pane inherits only
   * what it is granted (server/agents/agentEnv.ts).
   */
  inherit?(server: PaneServer, pane: Pane, env: Readonly<Record<string, string>>): Record<string, string> | undefined;
  env?(server: PaneServer, pane: Pane, env: Record<string, string>): Record<string, string>;
  /** Told once the model entry exists and before its program starts (records server-side facts about it). */
  created?(server: PaneServer, pane: Pane, spec: NewPaneSpec): void;
}

/** Creates the pane's model entry and starts its program; the caller places it in a layout. */
export function createPane(server: PaneServer, session: Session, given: NewPaneSpec, size: { cols: number; rows: number }): Pane {
  let spec = given;
  for (const c of server.paneContributors) spec = c.spec?.(server, session, spec) ?? spec;
  const kind = spec.kind ?? 'terminal';
  const body = bodyOf(kind);
  if (body.runsProgram && server.terminals.size >= server.maxTerminals) {
    // Each terminal holds a PTY, a process, a ring and a screen model (tens of MB when
    // full): a client that asks for thousands must not take the server down with it.
    throw faults.failed(`too many terminal panes (${server.maxTerminals}); close some first`);
  }
  const explicit = spec.launch !== undefined;
  const launch: LaunchSpec = spec.launch ?? { program: server.shell, args: [] };
  // Where the user is: the given cwd, else the focused pane's (as its shell reports it now), else $HOME.
  const cwd = resolveCwd(spec.launch?.cwd ?? spec.cwd ?? focusedCwd(server, session));
  const n = server.allocN();
  const vocabulary = vocabularyFor(kind);
  const pane: Pane = {
    n,
    uuid: server.newUuid(),
    host: server.host,
    session: session.id,
    signature: spec.signature ?? `com.pane.${kind}`,
    kind,
    tag: { name: spec.name ?? path.basename(launch.program), commands: tagWords(vocabulary), user: '' },
    vocabulary,
    owner: spec.owner ?? server.user,
    cwd,
    launch: { ...launch, cwd },
    pid: null,
    pgid: null,
    state: 'starting',
    exit: null,
    cols: Math.max(2, size.cols),
    rows: Math.max(1, size.rows),
    // Only a pane that runs the person's shell because none was named is marked so; a text or widget body runs nothing.
    attrs: { ...(spec.attrs ?? {}), ...(explicit || !body.runsProgram ? {} : { 'default-shell': '1' }) },
    createdAt: Date.now(),
  };
  server.panes.set(n, pane);
  for (const c of server.paneContributors) c.created?.(server, pane, spec);
  if (body.runsProgram) {
    trackPane(server, pane, spec.name === undefined);
    try {
      startTerminal(server, pane);
    } catch (e) {
      server.panes.delete(n);
      forgetPane(server, n);
      // The PTY's own words already name the program ("cannot start vimm: not found in PATH"); said once.
      const why = (e as Error).message;
      throw faults.failed(why.startsWith('cannot start') ? why : `cannot start ${launch.program}: ${why}`);
    }
  } else {
    pane.state = 'running';
  }
  server.publish('pane/created', { pane });
  return pane;
}

/** The cwd of the session's focused pane, read fresh (a `cd` a moment ago counts). */
export function focusedCwd(server: PaneServer, session: Session): string | undefined {
  const p = session.focused === null ? undefined : server.panes.get(session.focused);
  if (!p) return undefined;
  refreshPane(server, p);
  return p.cwd;
}

function resolveCwd(cwd: string | undefined): string {
  const dir = cwd ?? process.env.HOME ?? os.homedir();
  // On pane's own /pane mount the server cannot look (its stat would wait on itself);
  // the program's own chdir, in its own process, can.
  const r = statOffMounts(dir);
  if (r === 'mount') return dir;
  if (r === null) throw faults.failed(`working directory ${dir} does not exist`);
  if (!r.st.isDirectory()) throw faults.failed(`working directory ${dir} is not a directory`);
  return dir;
}

function startTerminal(server: PaneServer, pane: Pane): void {
  const launch = pane.launch!;
  let inherited: Readonly<Record<string, string>> = server.env;
  for (const c of server.paneContributors) inherited = c.inherit?.(server, pane, inherited) ?? inherited;
  const env: Record<string, string> = {
    ...inherited,
    ...(launch.env ?? {}),
    PANE_ID: server.address(pane.n),
    ...(server.socketPath ? { PANE_SOCKET: server.socketPath } : {}),
    TERM: 'xterm-256color',
    COLORTERM: 'truecolor',
  };
  for (const c of server.paneContributors) Object.assign(env, c.env?.(server, pane, env));
  // The shell as given, plus pane's integration (OSC 7); pane.launch keeps the argv the user asked for.
  const run = integrate(launch, env);
  const term = new Terminal({
    n: pane.n,
    launch: run.launch,
    cwd: pane.cwd,
    env: run.env,
    cols: pane.cols,
    rows: pane.rows,
    port: server.ptyPort,
    screen: server.screen,
    ...(server.ringBytes !== undefined ? { ringBytes: server.ringBytes } : {}),
    ...(server.ackStallMs !== undefined ? { ackStallMs: server.ackStallMs } : {}),
    onStall: (sinkId) => {
      // The transport side names the sink's holder (the model knows no connection).
      const reason = `${server.describeSink(sinkId) ?? `client ${sinkId}`} (${sinkId}) held the pane paused ${server.ackStallMs ?? ACK_STALL_MS} ms without acknowledging its output (the flow-control bound, ACK_STALL_MS); it no longer pauses the pane (for at least ${STALL_COOLDOWN_MS} ms); a client must pty/ack what it has parsed`;
      console.error(`pane server: pane ${pane.n}: ${reason}`);
      server.publish('client/refused', { door: `pane ${pane.n}'s output`, reason });
    },
    onEcho: (seconds) => server.latency.echo.observe(seconds),
    onOutput: (end) => {
      // One clock read per chunk, for both: the output event's throttle and the tracker's quiet time.
      // The tracker first: a pane wait looks at the output event and counts quiet from the tracker.
      const now = performance.now();
      noteActivity(server, pane.n, now);
      server.noteOutput(pane.n, end, now);
    },
    onSpawn: (pid) => {
      pane.pid = pid;
      pane.pgid = pid;
      pane.state = 'running';
      pane.exit = null;
      paneRespawned(server, pane.n);
      server.paneChanged(pane);
    },
    onCwd: (uri) => reportCwd(server, pane, uri),
    onExit: (s) => onTerminalExit(server, pane, s),
    onTitle: (title) => {
      if (setAttrs(server, pane, { title })) reportTitle(server, pane, title);
    },
    onBell: (via, text) => void setAttrs(server, pane, { bell: String(Date.now()), 'bell.via': via ?? 'bel', 'bell.text': text ?? null }),
  });
  server.terminals.set(pane.n, term);
  term.start();
}

function onTerminalExit(server: PaneServer, pane: Pane, s: { code: number | null; signal: number | null }): void {
  if (!server.panes.has(pane.n)) return;
  pane.state = 'exited';
  const name = s.signal !== null ? signalName(s.signal) : undefined;
  pane.exit = { code: s.code, signal: s.signal, at: Date.now(), ...(name ? { signalName: name } : {}) };
  pane.pid = null;
  pane.pgid = null;
  paneExited(server, pane);
  server.publish('pane/exited', { pane: pane.n, session: pane.session, exit: pane.exit });
  // A default shell that exits cleanly closes its pane (the user typed `exit`);
  // anything else stays so its last output can be read, restarted or closed.
  if (pane.attrs['default-shell'] === '1' && s.code === 0 && !pane.attrs.remain) {
    destroyPane(server, pane.n);
  } else {
    server.paneChanged(pane);
  }
}

/** Ends a pane: process, stream, model entry and its place in the layout (focus, if it had it, passes over `avoid`'s panes where it can: tiles.ts `close`). */
export function destroyPane(server: PaneServer, n: number, avoid?: (p: number) => boolean): void {
  const pane = server.panes.get(n);
  if (!pane) return;
  const session = server.sessions.get(pane.session);
  const term = server.terminals.get(n);
  server.terminals.delete(n);
  server.panes.delete(n);
  forgetPane(server, n);
  if (term) server.noteEnding(term.dispose());
  if (session) {
    // The tree collapses and focus moves (the model's rules); the close is said first.
    const events = close(session, n, avoid);
    server.publish('pane/closed', { pane: n, session: session.id, id: server.address(n) });
    publish(server, events);
  }
}

/** Ends a session: each of its panes (the tree collapsing as they go), then the session, said closed. */
export function killSession(server: PaneServer, s: Session): void {
  for (const p of server.panesOf(s)) destroyPane(server, p.n);
  publish(server, dropSession(server, s));
}
