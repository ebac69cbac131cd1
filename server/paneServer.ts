// The pane server: owns the one state (sessions, panes, terminals), resolves
// addresses and publishes every change on its bus (model/bus.ts) with a monotonic
// rev. It knows no channel: the transport side subscribes to the bus and keeps its
// own connections (transport/connections.ts); startServer (main.ts) composes both.
import { LatencyBook } from './metrics/latency';
import crypto from 'node:crypto';
import os from 'node:os';
import { faults, PaneFault } from '../kits/protocol/error';
import type { EventData, EventName } from '../kits/protocol/events';
import { parsePaneRef, type PaneRef } from '../kits/protocol/ids';
import type { Pane, PaneCommand, Session, Viewport } from '../kits/protocol/model';
import type { HeapTrimCounts } from './heapTrimmer';
import type { StateSnapshot } from '../kits/protocol/client';
import { leaves } from '../kits/layout/tree';
import { EventBus, type BusListener } from './model/bus';
import type { PaneContributor } from './model/lifecycle';
import type { Track } from './model/paneTracker';
import { applyGeometry } from './model/relayout';
import type { PtyPort } from './pty/ptyPort';
import type { ScreenHost } from './pty/screenHost';
import type { Terminal } from './pty/terminal';
import { PendingSet } from '../kits/node/ending';
import type { CodeOnDisk } from './codeOnDisk';

export const DEFAULT_VIEWPORT: Viewport = { cols: 160, rows: 48 };

export interface PaneServerOptions {
  host?: string;
  socketPath?: string | null;
  ptyPort: PtyPort;
  screen: ScreenHost;
  /** Environment every pane starts from (defaults to the server's). */
  env?: Record<string, string>;
  /** Program a pane runs when none is given. */
  shell?: string;
  /** Bytes of output each terminal keeps for late readers. */
  ringBytes?: number;
  user?: string;
  /** Most terminal panes at once (default 512). */
  maxTerminals?: number;
  /** How long a flow-controlled client may hold a pane paused without acking (default ACK_STALL_MS). */
  ackStallMs?: number;
}

export class PaneServer {
  readonly host: string;
  readonly startedAt = Date.now();
  /** A random id of this run (the hello's server.instance): how a host link knows it reached this very daemon. */
  readonly instance = crypto.randomUUID();
  readonly sessions = new Map<string, Session>();
  readonly panes = new Map<number, Pane>();
  readonly terminals = new Map<number, Terminal>();
  /**
   * Each session's +Errors pane per principal (session id NUL principal key → pane number),
   * kept by model/execLine.ts: the server's own record of whose shell a line runs in, never
   * a pane's attrs (which an agent can set).
   */
  readonly errorsPanes = new Map<string, number>();
  /** Words the reader of each pane's event file registered (namespace/paneFiles.ts), by pane: part of its vocabulary while that reader holds the file. */
  readonly readerWords = new Map<number, PaneCommand[]>();
  /** Where every change is published; connections and in-process observers subscribe to it. */
  readonly bus = new EventBus();
  /** Echo, hook and request latency histograms (server/metrics/latency.ts), read by server/metrics. */
  readonly latency = new LatencyBook();
  /** A daemon's heap trims so far (server/heapTrimmer.ts), read by server/metrics; null where nothing trims (an in-process or --stdio server). */
  heapTrims: HeapTrimCounts | null = null;
  /** The file its code was loaded from, watched for an update replacing it (server/codeOnDisk.ts); null where none is known. */
  code: CodeOnDisk | null = null;
  readonly ptyPort: PtyPort;
  readonly screen: ScreenHost;
  readonly env: Record<string, string>;
  readonly shell: string;
  readonly ringBytes: number | undefined;
  readonly user: string;
  readonly maxTerminals: number;
  readonly ackStallMs: number | undefined;
  /** Mints a one-time window URL on this server's HTTP front; null without one (server/transport/wsServer.ts sets it). */
  launchUrl: ((query?: string) => string) | null = null;
  /** Opens the HTTP front now when the daemon started without one (main.ts' frontOnDemand); null when it cannot. */
  openFront: (() => Promise<void>) | null = null;
  /** The HTTP front's origin (http://127.0.0.1:PORT), when this server has one: where a grant's window URL points. */
  frontOrigin: string | null = null;
  socketPath: string | null;
  /** What extensions add to every new pane (agents: identity, shims, sandbox); asked by model/lifecycle.ts. */
  readonly paneContributors: PaneContributor[] = [];
  /** What model/paneTracker.ts follows of each terminal pane (cwd source, auto-naming, titles). */
  readonly tracks = new Map<number, Track>();
  /**
   * Names the holder of a stream sink in words for a refusal (model/lifecycle.ts names
   * a stalled one); the transport side, which knows its connections, sets it.
   */
  describeSink: (sinkId: string) => string | undefined = () => undefined;
  private nextN = 1;
  private lastOutputEvent = new Map<number, number>();
  private stopHooks: (() => void | Promise<void>)[] = [];

  constructor(o: PaneServerOptions) {
    this.host = o.host ?? os.hostname().replace(/[^A-Za-z0-9._-]/g, '-');
    this.socketPath = o.socketPath ?? null;
    this.ptyPort = o.ptyPort;
    this.screen = o.screen;
    this.env = o.env ?? Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === 'string'));
    this.shell = o.shell ?? process.env.SHELL ?? '/bin/bash';
    this.ringBytes = o.ringBytes;
    this.user = o.user ?? os.userInfo().username;
    this.maxTerminals = o.maxTerminals ?? 512;
    this.ackStallMs = o.ackStallMs;
  }

  /** A fresh pane number: unique for the server's life, never reused. */
  allocN(): number {
    return this.nextN++;
  }

  /** Makes the next allocN() return at least `n` (resurrection keeps pane numbers, hence addresses). */
  reserveN(n: number): void {
    if (n > this.nextN) this.nextN = n;
  }

  /** The number allocN() would give next. */
  get peekN(): number {
    return this.nextN;
  }

  newUuid(): string {
    return crypto.randomUUID();
  }

  address(n: number): string {
    return `${this.host}:${n}`;
  }

  // ---- resolution ----------------------------------------------------------

  /** A session by uuid or name; without a ref, the first session (or a typed error). */
  session(ref?: string): Session {
    if (ref === undefined) {
      const first = this.sessions.values().next();
      if (first.done) throw faults.sessionNotFound('(none: create one with session/new)');
      return first.value;
    }
    const byId = this.sessions.get(ref);
    if (byId) return byId;
    for (const s of this.sessions.values()) if (s.name === ref) return s;
    throw faults.sessionNotFound(ref);
  }

  /** A pane by address; without one, the focused pane of the (given or first) session. */
  pane(ref?: PaneRef, sessionRef?: string): Pane {
    if (ref === undefined) {
      const s = this.session(sessionRef);
      const n = s.focused ?? leaves(s.layout)[0] ?? s.floating[0]?.pane;
      const p = n === undefined ? undefined : this.panes.get(n);
      if (!p) throw new PaneFault('pane-not-found', `session ${s.name} has no panes`, { subject: s.name });
      return p;
    }
    const { host, n } = parsePaneRef(ref);
    if (host !== undefined && host !== this.host) {
      throw new PaneFault('pane-not-found', `pane ${String(ref)} not found: host ${host} is not joined to this server (${this.host})`, { subject: String(ref) });
    }
    const p = this.panes.get(n);
    if (!p) throw faults.paneNotFound(ref);
    return p;
  }

  sessionOf(p: Pane): Session {
    const s = this.sessions.get(p.session);
    if (!s) throw faults.sessionNotFound(p.session);
    return s;
  }

  terminal(p: Pane): Terminal {
    const t = this.terminals.get(p.n);
    // reason 'no terminal': `pane screen` reads such a pane's body instead (its widgets, its view).
    if (!t) throw new PaneFault('failed', `pane ${p.n} has no terminal (its body is ${p.kind})`, { reason: 'no terminal', subject: String(p.n) });
    return t;
  }

  /** Panes of a session in layout order, floating ones last. */
  panesOf(s: Session): Pane[] {
    const order = [...leaves(s.layout), ...s.floating.map((f) => f.pane)];
    return order.map((n) => this.panes.get(n)).filter((p): p is Pane => p !== undefined);
  }

  // ---- events --------------------------------------------------------------

  /** The rev of the last change published. */
  get rev(): number {
    return this.bus.rev;
  }

  /** Publishes a change on the bus, stamped with the next rev. */
  publish<E extends EventName>(event: E, data: EventData<E>): void {
    this.bus.publish(event, data);
  }

  /** In-process observers (namespace, agents): see every event, after the connections. */
  listen(cb: BusListener): () => void {
    return this.bus.subscribe(cb);
  }

  /** Output-available events, at most one per pane per 50 ms so floods don't flood the bus; `now` is performance.now() at the output. */
  noteOutput(n: number, end: number, now: number): void {
    const last = this.lastOutputEvent.get(n) ?? -Infinity;
    if (now - last < 50) return;
    this.lastOutputEvent.set(n, now);
    this.publish('pane/output', { pane: n, end });
  }

  paneChanged(p: Pane): void {
    this.publish('pane/changed', { pane: p });
  }

  /** Every layout change goes through here: placements recomputed and applied (PTYs resized once), then published. */
  layoutChanged(s: Session): void {
    applyGeometry(this, s);
    this.publish('layout/changed', { session: s });
  }

  focusChanged(s: Session): void {
    this.publish('focus/changed', { session: s.id, focused: s.focused, zoomed: s.zoomed });
  }

  snapshot(): StateSnapshot {
    return {
      rev: this.rev,
      host: this.host,
      sessions: [...this.sessions.values()],
      panes: [...this.sessions.values()].flatMap((s) => this.panesOf(s)),
    };
  }

  onStop(cb: () => void | Promise<void>): void {
    this.stopHooks.push(cb);
  }

  /** Runs first on stop, while panes and their screens still exist (the last snapshot). */
  onBeforeStop(cb: () => void | Promise<void>): void {
    this.beforeStopHooks.push(cb);
  }
  private beforeStopHooks: (() => void | Promise<void>)[] = [];

  /** Runs after onBeforeStop and before the terminals go: the transport side closes its connections here. */
  onDisconnect(cb: () => void): void {
    this.disconnectHooks.push(cb);
  }
  private disconnectHooks: (() => void)[] = [];
  private stopping: Promise<void> | null = null;

  stop(): Promise<void> {
    this.stopping ??= this.doStop();
    return this.stopping;
  }

  private async doStop(): Promise<void> {
    for (const h of this.beforeStopHooks) {
      try {
        await h();
      } catch (e) {
        process.stderr.write(`pane: before stopping: ${(e as Error).message}\n`);
      }
    }
    for (const h of this.disconnectHooks) h();
    for (const t of this.terminals.values()) this.noteEnding(t.dispose());
    this.terminals.clear();
    // Every program, a pane's closed just before included, has exited (or was killed past
    // KILL_GRACE_MS) before the stop goes on: none outlives the daemon that says it ended them.
    await this.ending.settled();
    for (const h of this.stopHooks.reverse()) await h();
    this.screen.dispose();
    for (const h of this.stoppedHooks) await h();
  }

  /** Programs on their way out (closed panes' and, at stop, every pane's): the stop waits for them. */
  private readonly ending = new PendingSet();

  /** Keeps a closed terminal's end in view until its programs exited. */
  noteEnding(ended: Promise<void>): void {
    this.ending.add(ended);
  }

  /** Runs last on stop, once every program ended and every stop hook ran: the connections that asked for the stop close here. */
  onStopped(cb: () => void | Promise<void>): void {
    this.stoppedHooks.push(cb);
  }
  private stoppedHooks: (() => void | Promise<void>)[] = [];
}

