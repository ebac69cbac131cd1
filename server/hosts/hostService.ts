// The server's joined hosts: ~/.config/pane/hosts/ read and watched live (a bad
// file reported by file and field, the rest kept), one HostLink per host, and the
// forwarding of requests addressed to `HOST:N` over that host's link (decision 037).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { faults, PaneFault } from '../../kits/protocol/error';
import { MAX_WAIT_MS } from '../../kits/protocol/agentState';
import { shown } from '../../kits/protocol/shown';
import type { HostList } from '../../kits/protocol/host';
import { parsePaneRef, type PaneRef } from '../../kits/protocol/ids';
import { capabilityOf, type MethodName, type Params, type Result } from '../../kits/protocol/index';
import type { ConfigError } from '../../kits/protocol/keymap';
import type { Pane } from '../../kits/protocol/model';
import { TickWhileNeeded } from '../../kits/node/tickWhileNeeded';
import { watchTargets } from '../config/targetWatch';
import type { HandlerContext } from '../handlers/types';
import type { PaneServer } from '../paneServer';
import { sshExitArgv } from './hostArgv';
import { loadHosts, type HostEntry } from './hostFiles';
import { clean, HEARTBEAT_MS, HostLink, readOnlyFault, type DialHost } from './hostLink';
import type { ClientConn } from '../transport/clientConn';
import { paces, PROXY_PANE_BASE, RemoteStreams } from './remoteStream';
import { StandIns } from './standIns';
import { HostSessions, viewName } from './hostSessions';
import { killSession } from '../model/lifecycle';
import * as sessionModel from '../model/session';

/**
 * Bytes of input (pane/input) a joined host may have waiting while its link is
 * down, delivered in order once it is up again; past it input is refused by name,
 * never dropped. A minute of fast typing is ~1 KiB; 64 KiB holds a paste.
 */
export const REMOTE_INPUT_QUEUE = 64 << 10;

/** A joined host's pane/wait is asked in slices this long: each answered well within FORWARD_TIMEOUT_MS, over a slow link too. */
export const REMOTE_WAIT_SLICE_MS = 10_000;

/** Streaming requests on a remote pane, relayed through one upstream stream per pane (remoteStream.ts). */
const STREAMED = new Set<MethodName>(['pty/attach', 'pty/detach', 'pty/ack']);
/** Session requests that go to a joined host when their session is HOST:NAME. */
const SESSION_FORWARDED = new Set<MethodName>(['session/get', 'session/kill', 'session/rename', 'session/layout']);

/**
 * Requests forwarded to a joined host's pane when their `pane` is `HOST:N`.
 * Streaming (pty/attach, detach, ack) goes through remoteStream.ts instead, and
 * pane/input through the host's input queue. The rest refuse a remote pane by
 * name: agent, awareness and mail requests name local accounts (issue 26).
 */
export const FORWARDED = new Set<MethodName>([
  'pane/get',
  'pane/close',
  'pane/restart',
  'pane/zoom',
  'pane/focus',
  'pane/tag',
  'pane/attrs',
  'pane/exec',
  'pane/input',
  'pane/split',
  'pane/launch',
  'pane/resize',
  'pane/ratio',
  'pane/swap',
  'pane/float',
  'pane/move',
  'pane/wait',
  'session/layout',
  'pty/read',
  'pty/screen',
  'pty/grid',
  'pty/resize',
]);

/**
 * Remote panes remembered as refusing keys at once. Each is a pane someone typed into
 * whose program had ended (or whose input was full) and has not been typed into
 * successfully since; past this many, refusals are routed as before without being
 * remembered (the keys go on as binary frames, and a second typist there may not hear).
 */
const MAX_REFUSING_PANES = 1024;

/** A local client that typed keys into a remote pane, and the local number it typed at (a stand-in's, or the proxy's). */
interface Typist {
  client: ClientConn;
  pane: number;
}

export interface HostServiceOptions {
  /** The user's config dir; hosts are read from its hosts/ folder. */
  configDir: string;
  /** A private directory for ssh's control sockets (the server's runtime dir). */
  controlDir: string;
  dial: DialHost;
}

/** What the host service uses of the rest of the server: the state owner (its host name, its bus, its stop). */
export interface HostDeps {
  server: PaneServer;
}

export class HostService {
  readonly dir: string;
  readonly links = new Map<string, HostLink>();
  errors: ConfigError[] = [];
  private readonly stops: (() => void)[] = [];
  readonly streams = new RemoteStreams();
  /** What is run each heartbeat besides this service's own (the agents of joined hosts mirrored: remoteAwareness.ts), and whether it still needs beats of its own. */
  private readonly beats: { run: () => void; needed: () => boolean }[] = [];
  /**
   * Each heartbeat while a host is joined (or being dialled, or stale), a stand-in or a remote
   * stream is there, or what joined the beat still needs one: remote streams of gone panes,
   * left hosts and no reader freed (remoteStream.ts), every stand-in following its link and its
   * remote pane (standIns.ts), and what else joined the beat (a left host's agents let go).
   * With none of those (most daemons: no hosts/ folder at all; a host file never joined, or
   * left and cleaned up after) it makes no wakeups. A link redials on its own timer.
   */
  readonly heartbeat = new TickWhileNeeded(
    HEARTBEAT_MS,
    () => [...this.links.values()].some((l) => l.state !== 'disconnected') || this.standIns.all().length > 0 || this.streams.size > 0 || this.beats.some((b) => b.needed()),
    () => {
      this.sweepStreams();
      this.standIns.sync();
      for (const b of this.beats) b.run();
    },
  );
  /** Per host: input waiting for its link, in order, and its size. */
  private readonly inputs = new Map<string, { bytes: number; chain: Promise<unknown>; refused?: boolean }>();
  /** Remote panes tiled in local sessions through stand-in panes (standIns.ts). */
  readonly standIns: StandIns;
  /** Joined hosts' sessions attached here as local views (hostSessions.ts). */
  readonly sessions: HostSessions;
  /** Per host: the local client that last sent it keys as a binary frame, and the pane it named, to hear the host's refusal. */
  /** HOST:N of remote panes whose keys the host refused as binary frames and has not taken since: their keys go as requests. */
  private readonly refusing = new Set<string>();
  /** Per host: who last typed keys as a binary frame, into which local pane, by the remote pane's number (and the last of all, for a host whose refusal names none). */
  private readonly keysFrom = new Map<string, { last: Typist; byPane: Map<number, Typist> }>();

  constructor(
    private readonly deps: HostDeps,
    private readonly o: HostServiceOptions,
  ) {
    this.dir = path.join(o.configDir, 'hosts');
    this.standIns = new StandIns(deps.server, this);
    this.sessions = new HostSessions(deps.server, this.standIns, this.links);
    this.standIns.afterSync = () => this.sessions.sync();
    this.reload();
    this.stops.push(watchTargets([{ path: this.dir, kind: 'dir' }], () => this.reload()));
    deps.server.onStop(() => this.stop());
    this.stops.push(() => this.heartbeat.stop());
    this.stops.push(
      deps.server.listen((event, data) => {
        const d = data as { client?: string; pane?: number };
        if (event === 'client/detached' && d.pane === undefined && d.client) {
          this.streams.detachAll(d.client);
          for (const [host, k] of this.keysFrom) {
            for (const [n, t] of k.byPane) if (t.client.id === d.client) k.byPane.delete(n);
            if (k.last.client.id === d.client) this.keysFrom.delete(host);
          }
        }
      }),
    );
  }

  /** Reads the host files again: new hosts get a link, removed ones are left, changed ones dialled anew if they were joined. */
  reload(): void {
    const { hosts, errors } = loadHosts(this.dir);
    // HOST:N with this server's own name is this server's pane N: a host of that name could never be reached.
    const own = hosts.get(this.deps.server.host);
    if (own) {
      hosts.delete(own.name);
      errors.push({ file: own.file, field: '(file name)', message: `"${own.name}" is this server's own host name (HOST:N with it names this server's panes); rename the file` });
    }
    this.errors = errors;
    for (const e of errors) this.deps.server.publish('client/refused', { door: 'host files', reason: `${e.file}: ${e.field}: ${e.message}` });
    for (const [name, link] of this.links) {
      const next = hosts.get(name);
      if (next && JSON.stringify(next) === JSON.stringify(link.entry)) continue;
      const wasJoined = link.state !== 'disconnected';
      link.dispose();
      this.links.delete(name);
      if (next && wasJoined) this.add(next).connect().catch(() => undefined);
    }
    for (const [name, entry] of hosts) {
      if (this.links.has(name)) continue;
      const link = this.add(entry);
      if (entry.autoConnect) link.connect().catch(() => undefined);
    }
    this.changed();
  }

  private add(entry: HostEntry): HostLink {
    const link = new HostLink(
      entry,
      this.o.dial,
      () => this.changed(),
      (line) => {
        process.stderr.write(`pane: ${shown(line)}\n`);
        if (/cut off|not joined/.test(line)) this.deps.server.publish('client/refused', { door: `host ${entry.name}`, reason: line });
      },
      this.deps.server.instance,
    );
    link.output = (p, offset, data) => this.streams.output(link, p, offset, data);
    link.unanswered = (fault) => this.keysRefused(link, fault);
    // A remote pane's change, told here as it happens, named HOST:N (remoteEvents.ts).
    link.paneChanged = (c) =>
      this.deps.server.publish('host/pane', { host: link.name, event: c.event, id: `${link.name}:${c.n}`, ...(c.pane ? { pane: requalify(c.pane, link.remote?.host ?? '', link.name) } : {}) });
    this.links.set(entry.name, link);
    return link;
  }

  list(): HostList {
    return { hosts: [...this.links.values()].map((l) => l.info()), errors: this.errors };
  }

  /** The panes of every joined host, as HOST:N (HOST the file's name), asked of each now (a heartbeat's wait at most). */
  async freshPanes(): Promise<Pane[]> {
    await Promise.all([...this.links.values()].map((l) => l.refresh()));
    return this.remotePanes();
  }

  /** The sessions of every joined host (HOST the file's name), as last heard: what a remote pane's session id is called there. */
  remoteSessions(): { host: string; id: string; name: string }[] {
    return [...this.links.values()].flatMap((l) => (l.state === 'connected' || l.state === 'stale' ? l.sessions.map((s) => ({ host: l.name, ...s })) : []));
  }

  /** The panes of every joined host, as HOST:N (HOST the file's name), as last heard. */
  remotePanes(): Pane[] {
    return [...this.links.values()].flatMap((l) => (l.state === 'connected' || l.state === 'stale' ? l.panes : []));
  }

  /** The link of host `name`; a name not seen yet has the folder read again first (a file just written). */
  link(name: string): HostLink {
    if (!this.links.has(name)) this.reload();
    const l = this.links.get(name);
    // A file that is there but does not read is named with its error, not called missing.
    const bad = this.errors.find((e) => path.basename(e.file) === `${name}.json`);
    if (!l && bad) throw new PaneFault('not-found', `host ${name}'s file does not read: ${bad.file}: ${bad.field}: ${bad.message}; fix it (pane host ls lists every error)`, { subject: name });
    if (!l) throw new PaneFault('not-found', `no host ${name}: there is no ${path.join(this.dir, `${name}.json`)}; add it with pane host add ${name} ssh://[USER@]HOST`, { subject: name });
    return l;
  }

  /**
   * Frees the remote streams nobody can or does read (RemoteStreams.sweep): a link is live
   * while it is this service's and joined, or left by the person, whose readers (a window,
   * `pane output --follow`) go on where they were once it is joined again; a removed host
   * file, a cut for a lie, and REMOTE_STREAM_IDLE_MS with no reader free them.
   */
  sweepStreams(now = Date.now()): void {
    this.streams.sweep((s) => this.links.get(s.link.name) === s.link && (s.link.joined || (s.link.leftByPerson && s.subscribers > 0)), now);
  }

  /** Runs `fn` each heartbeat too; `needed` says when it needs beats that nothing else here needs (read at each poke and beat). */
  onBeat(fn: () => void, needed: () => boolean = () => false): void {
    this.beats.push({ run: fn, needed });
    this.heartbeat.poke();
  }

  private changed(): void {
    this.heartbeat.poke();
    this.sweepStreams();
    for (const l of this.links.values()) if (l.state === 'connected') this.streams.resume(l);
    this.standIns.sync();
    this.deps.server.publish('host/changed', this.list());
  }

  /**
   * A request whose `pane` is HOST:N of a host in hosts/: sent over that host's link
   * with the pane as the remote's own number, and its answer returned with its panes
   * named HOST:N. Undefined for a request that stays here (no pane, a local one, or an
   * unknown host, which the server's own resolution refuses by name).
   */
  forward(method: MethodName, params: Record<string, unknown>, ctx: HandlerContext): Promise<unknown> | undefined {
    // A session made on a joined host (a host with no pane left has no HOST:N to split from).
    if (method === 'session/new' && typeof params.host === 'string' && params.host !== this.deps.server.host) return this.newSessionOn(params.host, params, ctx);
    // A joined host's sessions, and one of them named HOST:NAME (pane session ls --host, pane session kill box:work).
    if (method === 'session/list' && typeof params.host === 'string' && params.host !== this.deps.server.host) return this.onHost(params.host, method, {}, ctx);
    if ((SESSION_FORWARDED.has(method) || method === 'session/attach') && typeof params.session === 'string') {
      const i = params.session.indexOf(':');
      const host = i > 0 ? params.session.slice(0, i) : '';
      if (host !== '' && host !== this.deps.server.host && this.links.has(host)) {
        const name = params.session.slice(i + 1);
        if (method === 'session/attach') return this.attachSession(host, name, params, ctx);
        return this.onHost(host, method, { ...params, session: name }, ctx).then((r) => this.viewFollows(host, name, method, params, r));
      }
    }
    // A local stand-in for a remote pane: its terminal requests go to that pane (standIns.ts), the rest stay here.
    const stand = this.standIns.of(params.pane);
    if (stand) return this.standIns.route(method, params, ctx, stand);
    let ref = params.pane as PaneRef | undefined;
    // A proxy number (a remote pane's number in this server's frames) names that remote pane.
    if (typeof ref === 'number' && ref >= PROXY_PANE_BASE) {
      const s = this.streams.proxy(ref);
      if (!s) throw new PaneFault('not-found', `pane ${ref} is not a remote pane streamed here (numbers from ${PROXY_PANE_BASE} name attached remote panes)`, { subject: String(ref) });
      ref = `${s.link.name}:${s.n}`;
    }
    // Only a string names another host (HOST:N); a number, or a method whose `pane` is not an address (session/new's spec), stays here.
    const { host, n } = typeof ref === 'string' ? parsePaneRef(ref) : { host: undefined, n: 0 };
    if (typeof ref !== 'string' || host === undefined || host === this.deps.server.host || !this.links.has(host)) {
      if (method === 'pane/move') this.movesHere(params);
      return undefined;
    }
    const link = this.link(host);
    if (ctx.client.checkAccess !== undefined) {
      throw new PaneFault('denied', `denied: ${method} on ${ref}: an agent's .access names this server's panes only; other hosts' panes are the person's (issue 26)`, { reason: 'remote pane', subject: String(ref) });
    }
    if (STREAMED.has(method)) return Promise.resolve(this.stream(method, params, link, n, ctx));
    if (method === 'pane/input' && !link.entry.readOnly) return this.input(link, { ...params, pane: n }, ctx);
    if (!FORWARDED.has(method)) {
      throw new PaneFault('bad-request', `${method} on ${ref}: this request is not forwarded to other hosts yet (issue 26); run it on ${host} itself, or use pane screen, send, tag, close`, { subject: method });
    }
    if (link.entry.readOnly && capabilityOf(method) !== 'read') {
      throw readOnlyFault(link, method, String(ref));
    }
    const out: Record<string, unknown> = { ...params, pane: n };
    delete out.session; // a session here names a local one
    if (method === 'pane/move') return this.moveThere(link, ref, out);
    if (method === 'pane/wait') return this.waitThere(link, out, ctx);
    if (params.with !== undefined) {
      const w = parsePaneRef(params.with as PaneRef);
      if (w.host !== host) throw new PaneFault('bad-request', `${method}: ${ref} and ${String(params.with)} are on different hosts; panes are swapped within one host`, { subject: method });
      out.with = w.n;
    }
    const remoteHost = link.remote?.host ?? '';
    return link.call(method, out as never).then((r: Result<MethodName>) => requalify(r, remoteHost, host));
  }

  /**
   * pane/move of a pane here: a session named HOST:NAME of a joined host is refused by
   * name (a program does not change machines), whether or not a view of it is open here.
   */
  private movesHere(params: Record<string, unknown>): void {
    const to = params.to;
    if (typeof to !== 'string') return;
    const i = to.indexOf(':');
    const host = i > 0 ? to.slice(0, i) : '';
    if (host === '' || host === this.deps.server.host || !this.links.has(host)) return;
    throw faults.failed(`session ${to} is on ${host}, and a program does not change machines: a pane here moves between this server's sessions (or --new for one of its own)`);
  }

  /**
   * pane/move of HOST:N: between that host's sessions only, so `to` must be HOST:NAME
   * of the same host (sent there as NAME); the answer's session name comes back as
   * HOST:NAME. A view of either session open here follows at the next sync.
   */
  private moveThere(link: HostLink, ref: string, out: Record<string, unknown>): Promise<unknown> {
    const host = link.name;
    if (typeof out.to === 'string') {
      const to = out.to;
      if (!to.startsWith(`${host}:`) || to.length === host.length + 1) {
        throw faults.failed(`pane ${ref} runs on ${host}, and a program does not change machines: it moves between ${host}'s sessions only; name one as ${host}:NAME (or --new)`);
      }
      out.to = to.slice(host.length + 1);
    }
    const remoteHost = link.remote?.host ?? '';
    return link.call('pane/move', out as never).then((r) => {
      const ack = requalify(r, remoteHost, host);
      return { ...ack, ...(ack.name !== undefined ? { name: viewName(host, ack.name) } : {}) };
    });
  }

  /**
   * pane/wait of HOST:N: asked of the host in slices of REMOTE_WAIT_SLICE_MS (each one
   * answered well within FORWARD_TIMEOUT_MS) until one is met or the caller's timeout
   * has passed; the host counts idle and quiet from the pane's own last output, so a
   * slice asked again loses nothing. It stops when the caller has gone.
   */
  private async waitThere(link: HostLink, out: Record<string, unknown>, ctx: HandlerContext): Promise<unknown> {
    const start = Date.now();
    const deadline = start + ((out.timeoutMs as number | undefined) ?? MAX_WAIT_MS);
    const remoteHost = link.remote?.host ?? '';
    let ran: string | undefined;
    for (let first = true; ; first = false) {
      const left = Math.max(0, deadline - Date.now());
      const r = await link.call('pane/wait', { ...(out as Params<'pane/wait'>), timeoutMs: Math.min(left, REMOTE_WAIT_SLICE_MS) });
      // What an earlier slice saw run is what finished, though it ended between two slices.
      ran = r.ran ?? ran;
      if (r.met || left <= REMOTE_WAIT_SLICE_MS || !ctx.services.connections.has(ctx.client)) return { ...requalify(r, remoteHost, link.name), already: first && r.already, ...(ran !== undefined ? { ran } : {}), waitedMs: Date.now() - start };
    }
  }

  /** session/attach of HOST:NAME: its local view made or brought up to date (hostSessions.ts), then attached as any local session. */
  private async attachSession(host: string, name: string, params: Record<string, unknown>, ctx: HandlerContext): Promise<unknown> {
    const a = await this.sessions.attach(host, name, ctx);
    const r = await ctx.dispatch('session/attach', { ...(params as Params<'session/attach'>), session: a.session.id });
    return { ...r, host, tiled: a.tiled, elsewhere: a.elsewhere };
  }

  /** After a host's session was killed or renamed from here, its local view (if open) ends or takes the new name. */
  private viewFollows(host: string, name: string, method: MethodName, params: Record<string, unknown>, r: unknown): unknown {
    const view = this.sessions.viewOf(host, (r as { name?: string }).name ?? name) ?? this.sessions.viewOf(host, name);
    if (!view) return r;
    if (method === 'session/kill') killSession(this.deps.server, view);
    else if (method === 'session/rename' && typeof params.name === 'string') {
      try {
        sessionModel.publish(this.deps.server, sessionModel.rename(this.deps.server, view, viewName(host, params.name)));
      } catch {
        // a local session has that name already: the view keeps its old one (the host's session was renamed all the same)
      }
    }
    return r;
  }

  /** A session request asked of joined host `name` (the person's only; a read-only host answers reads alone), its answer named as this server names it. */
  private onHost(name: string, method: MethodName, params: Record<string, unknown>, ctx: HandlerContext): Promise<unknown> {
    const link = this.link(name); // an unknown host is refused by name, with the fix
    if (ctx.client.checkAccess !== undefined) {
      throw new PaneFault('denied', `denied: ${method} on host ${name}: an agent's .access names this server's sessions only; other hosts are the person's`, { reason: 'remote session', subject: name });
    }
    if (link.entry.readOnly && capabilityOf(method) !== 'read') throw readOnlyFault(link, method, name);
    const remoteHost = link.remote?.host ?? '';
    return link.call(method, params as never).then((r: Result<MethodName>) => requalify(r, remoteHost, name));
  }

  /** session/new on host `name`: the person's (an agent's .access names this server's panes only), refused on a read-only host, the answer as that host gives it. */
  private newSessionOn(name: string, params: Record<string, unknown>, ctx: HandlerContext): Promise<unknown> {
    const link = this.link(name); // an unknown host is refused by name, with the fix
    if (ctx.client.checkAccess !== undefined) {
      throw new PaneFault('denied', `denied: session/new on host ${name}: an agent's .access names this server's panes only; other hosts are the person's (issue 26)`, { reason: 'remote pane', subject: name });
    }
    if (link.entry.readOnly) {
      throw readOnlyFault(link, 'session/new', name);
    }
    const out: Record<string, unknown> = { ...params };
    delete out.host; // there, it is made on its own host
    return link.call('session/new', out as never);
  }

  /** pty/attach, detach and ack of a remote pane: through its one upstream stream, under its proxy number. */
  private async stream(method: MethodName, params: Record<string, unknown>, link: HostLink, n: number, ctx: HandlerContext): Promise<unknown> {
    const s = this.streams.get(link, n);
    const id = ctx.client.sink.id;
    if (method === 'pty/detach') {
      s.detach(id);
      return { pane: s.proxy };
    }
    if (method === 'pty/ack') return { pane: s.proxy, unacked: s.ack(id, params.bytes as number) };
    return s.attach(ctx.client.sink, paces(params, ctx), params.mode === 'snapshot' ? 'snapshot' : 'from', params.from as number | undefined, params.atInput === true);
  }

  /**
   * pane/input to a remote pane: in order per host, through a queue that holds it
   * while the link is down (the answer comes once the remote took it); past
   * REMOTE_INPUT_QUEUE bytes waiting, or for a host not joined, refused by name.
   */
  input(link: HostLink, params: Record<string, unknown>, ctx?: HandlerContext): Promise<unknown> {
    const size = Buffer.byteLength(String(params.data ?? ''));
    const q = this.inputs.get(link.name) ?? { bytes: 0, chain: Promise.resolve() };
    this.inputs.set(link.name, q);
    const up = link.state === 'connected' || link.state === 'stale';
    // Keystrokes (a binary frame here) with nothing queued before them go on as a binary
    // frame: no JSON, schema check or answer on either end, and no answer travelling just
    // ahead of their echo. A refusal comes back as an error frame (keysRefused).
    // While the host refuses a pane's keys, they go as requests, each answered: the host says a
    // refusal of binary frames once a spell per connection, and the link is one connection for
    // every typist here, so a second typist's keys would be refused there in silence.
    const spell = `${link.name}:${String(params.pane)}`;
    if (ctx?.keys !== undefined && q.bytes === 0 && up && !this.refusing.has(spell)) {
      const bytes = Buffer.from(String(params.data ?? ''), params.encoding === 'base64' ? 'base64' : 'utf8');
      if (link.sendKeys(params.pane as number, bytes)) {
        const typist = { client: ctx.client, pane: ctx.keys };
        const k = this.keysFrom.get(link.name) ?? { last: typist, byPane: new Map<number, Typist>() };
        k.last = typist;
        // Bounded by the remote panes typed into since their typists left (deleted on client/detached).
        k.byPane.set(params.pane as number, typist);
        this.keysFrom.set(link.name, k);
        return Promise.resolve({ pane: params.pane, bytes: bytes.byteLength });
      }
    }
    if (!up && !link.joined) return link.call('pane/input', params as never); // refused: not joined, naming pane host connect
    if (q.bytes + size > REMOTE_INPUT_QUEUE) {
      const reason = `input to ${link.name}:${String(params.pane)} refused: ${q.bytes} bytes already wait for host ${link.name}'s link (${link.state}) and REMOTE_INPUT_QUEUE allows ${REMOTE_INPUT_QUEUE}; wait for pane host ls to show it connected, then send again`;
      // Typed keys never vanish in silence: the sender hears each refusal, and /pane/log the first of a run (not one line per key).
      if (!q.refused) this.deps.server.publish('client/refused', { door: `host ${link.name}'s input queue`, reason });
      q.refused = true;
      throw new PaneFault('failed', reason, { subject: link.name });
    }
    q.bytes += size;
    const remoteHost = (): string => link.remote?.host ?? '';
    // The chain orders the sending, not the answers: once the link is up each input is
    // sent at once (the link's one connection keeps them in order), so keys typed
    // faster than the link's round trip are not held one round trip apiece.
    let answer: Promise<Result<'pane/input'>> | undefined;
    const sent = q.chain.then(async () => {
      // Wait for the link (bounded: a person who leaves the host ends the wait with the refusal below).
      for (let i = 0; link.state !== 'connected' && link.state !== 'stale'; i++) {
        if (!link.joined) break;
        await new Promise((r) => setTimeout(r, 100));
        if (i > (RECONNECT_WAIT_MS / 100)) break;
      }
      answer = link.call('pane/input', params as never);
    });
    q.chain = sent.catch(() => undefined);
    return sent
      .then(async () => {
        const r = requalify(await (answer as Promise<Result<'pane/input'>>), remoteHost(), link.name);
        this.refusing.delete(spell); // taken: keys go as binary frames again
        return r;
      })
      .finally(() => {
        q.bytes -= size;
        q.refused = false;
      });
  }

  /**
   * An error host `link` sent about no request: its refusal of keys sent as a binary frame
   * (a full input queue, an ended program). It goes to the client that last typed there,
   * as that client's own refusal would (an error frame and a /pane/log line), naming the host.
   */
  private keysRefused(link: HostLink, fault: PaneFault): void {
    const reason = `host ${link.name} refused: ${clean(fault.message)}`;
    const k = this.keysFrom.get(link.name);
    if (!k) return this.deps.server.publish('client/refused', { door: `host ${link.name}`, reason });
    // The refusal names the remote pane whose keys it refuses (a host from before that names none: the last typist there).
    const n = fault.subject !== undefined && /^\d+$/.test(fault.subject) ? Number(fault.subject) : undefined;
    const t = (n === undefined ? undefined : k.byPane.get(n)) ?? k.last;
    if (n !== undefined && this.refusing.size < MAX_REFUSING_PANES) this.refusing.add(`${link.name}:${n}`);
    t.client.refuseKeys(t.pane, new PaneFault(fault.code, reason, { subject: `${link.name}:${n ?? '?'}` }));
  }

  /** Closes every link and stops ssh's shared masters (none outlives the server). */
  stop(): void {
    for (const s of this.stops.splice(0)) s();
    this.standIns.stop();
    for (const l of this.links.values()) {
      const how = l.entry.how;
      l.dispose();
      if (how.via === 'ssh') {
        const [cmd, ...args] = sshExitArgv(how, this.o.controlDir);
        try {
          spawn(cmd as string, args, { stdio: 'ignore', detached: false }).on('error', () => undefined);
        } catch {
          // no ssh: no master either
        }
      }
    }
  }
}

/** Longest a queued input waits for its host's link before it is refused (the backoff reaches 30 s between dials). */
export const RECONNECT_WAIT_MS = 120_000;

/** Deepest nesting requalify walks: results are a few levels deep (a pane in a list in a result). */
const MAX_REQUALIFY_DEPTH = 8;

/**
 * An id a host returned, as this server names it: always `ALIAS:…`. A host names only
 * its own panes, so `REMOTEHOST:N`, a bare `N` (a host that lies, or an old one) and
 * `OTHER:N` alike become `ALIAS:N`: an unqualified id from a host would name one of
 * the person's local panes to whoever acts on it next (a script's `pane send -t $P`).
 */
export function qualifyId(id: string, remoteHost: string, alias: string): string {
  if (remoteHost !== '' && id.startsWith(`${remoteHost}:`)) return `${alias}:${id.slice(remoteHost.length + 1)}`;
  const i = id.lastIndexOf(':');
  return `${alias}:${i < 0 ? id : id.slice(i + 1)}`;
}

/**
 * A remote's answer with its panes named as this server names them: `host` fields
 * become the host file's name, and every `id` is qualified with it (qualifyId).
 */
export function requalify<T>(v: T, remoteHost: string, alias: string, depth = 0): T {
  if (depth > MAX_REQUALIFY_DEPTH || v === null || typeof v !== 'object') return v;
  // Every forwarded answer and host event passes here: plain loops, and no call for a leaf
  // (a pane/get answer, 2.4 KB: 24-30 µs with Object.entries and map, 9 µs so).
  if (Array.isArray(v)) {
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      out[i] = x !== null && typeof x === 'object' ? requalify(x, remoteHost, alias, depth + 1) : x;
    }
    return out as T;
  }
  const o: Record<string, unknown> = {};
  const src = v as Record<string, unknown>;
  for (const k in src) {
    // A key named __proto__ (JSON.parse makes it an own key) would set the copy's prototype, and with it what every absent field reads as: no answer of ours has one.
    if (!Object.prototype.hasOwnProperty.call(src, k) || k === '__proto__') continue;
    const x = src[k];
    if (x !== null && typeof x === 'object') o[k] = requalify(x, remoteHost, alias, depth + 1);
    else if (k === 'host' && typeof x === 'string') o[k] = alias;
    else if (k === 'id' && typeof x === 'string') o[k] = qualifyId(x, remoteHost, alias);
    else o[k] = x;
  }
  return o as T;
}
