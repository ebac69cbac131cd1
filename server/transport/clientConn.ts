// One connected client: the handshake, its capabilities and write permission,
// its event subscription and attached streams. Every inbound frame is validated;
// a bad one gets a typed error and the server goes on serving everyone.
import { bodyOf } from '../model/bodies/registry';
import crypto from 'node:crypto';
import { BinaryKind, decodeBinary, MAX_JSON_FRAME } from '../../kits/protocol/binary';
import { checkRequestFrame } from '../../kits/protocol/frameCheck';
import { isMethodName } from '../../kits/protocol/index';
import { jsonFrameOver, tooLargeMessage } from '../../kits/protocol/frameSize';
import { PaneFault, type PaneError } from '../../kits/protocol/error';
import { HelloParamsSchema, PROTOCOL_VERSION, type Welcome } from '../../kits/protocol/hello';
import { negotiate } from '../../kits/protocol/negotiate';
import { MIN_PROTOCOL_VERSION, PROTOCOL_FEATURES } from '../../kits/protocol/version';
import type { Capability } from '../../kits/protocol/method';
import { sendBinary, type Transport, type WireFrame } from '../../kits/client/transport';
import { describeIssues } from '../handlers/registry';
import type { HandlerContext } from '../handlers/types';
import type { Services } from '../services';
import { runningVersion } from '../../kits/node/version';
import { typeInto } from '../model/input';
import type { PaneServer } from '../paneServer';
import type { AdoptRequest } from './stdioAdopt';
import type { StreamSink } from '../pty/terminal';
import { PROXY_PANE_BASE } from '../hosts/remoteStream';
import { PERSON, principalLabel, type Principal } from '../../kits/protocol/principal';
import { shown } from '../../kits/protocol/shown';
import { applyViewport } from '../model/viewports';
import { scopeChecker } from '../grants/scope';

/** What a hello earns: capabilities, who the connection acts as, and an optional per-request access check. */
export interface Grant {
  capabilities: Capability[];
  user?: string;
  /**
   * Who the connection speaks for, decided by the door from its own facts. Unset: an
   * agent when `user` names one (its socket, its token), else the person.
   */
  principal?: Principal;
  checkAccess?: (method: string, params: unknown) => void;
  /**
   * Set by a door that may take over its caller's stdio pipes (the person's socket only,
   * stdio/adopt): opens them and admits them through that door, as one more of its
   * connections tied to the caller's; the new client's id, or a fault.
   */
  adopt?: (p: AdoptRequest, relay: ClientConn) => string;
  /** An attach grant's end (epoch ms): the client is closed then. */
  expiresAt?: number;
}

/** Decides what a hello may have: the transport's policy (e.g. the WebSocket secret). */
export type Authorizer = (hello: { token?: string | undefined; capabilities: Capability[]; grant?: string }) => Grant | string;

/** A client that sends this many bad frames in a row is disconnected (it is not speaking pane). */
const MAX_CONSECUTIVE_ERRORS = 1000;
/**
 * Bytes queued to a client that is not reading them (replies, events, refusals)
 * past which the server stops reading that client's requests until it has read
 * half: a client that sends and never reads would otherwise grow the server by a
 * reply per request (a refused 1-byte input is a ~300-byte reply, so 5 MiB of them
 * had grown it by 74 MiB and counting). Twice SINK_BUFFER_CAP, so output a slow
 * window is still catching up on (held to that cap) plus a large reply never reach it.
 */
export const MAX_UNREAD_BACKLOG = 16 << 20;
/**
 * Replies and refusals queued to a client that has not read them, past which its
 * requests stop being read until it has read nearly all (UNREAD_LOW): small replies
 * cost Node far more than their bytes while queued (5 MiB of 1-byte inputs queued
 * 16 MiB of replies and ~90 MiB of RSS). A window sends its acks and keys without
 * replies, so only a client that floods requests and never reads meets this.
 */
export const MAX_UNREAD_REPLIES = 4096;
/** What a client stopped for its count of replies must have left unread before it is read again. */
const UNREAD_LOW = 64 << 10;
/** How often a client whose reading was stopped is checked for having read its backlog. */
const BACKLOG_POLL_MS = 50;

export class ClientConn {
  readonly id = crypto.randomUUID().slice(0, 8);
  name = '?';
  kind = 'other';
  user: string;
  /** Who every request of this connection speaks for (its door's grant decides, at hello). */
  principal: Principal = PERSON;
  capabilities = new Set<Capability>();
  canWrite = false;
  readonly attached = new Set<number>();
  readonly connectedAt = Date.now();
  /** Per-method access check, set for agents by their .access (issue 5). */
  checkAccess: ((method: string, params: unknown) => void) | undefined;
  /** From the door's grant, never a token's: takes this client's stdio pipes over (stdio/adopt); the new client's id. */
  adopt: ((p: AdoptRequest) => string) | undefined;
  private ready = false;
  /** pty/grid's last answer per pane, for its next delta (at most MAX_GRID_BASES, oldest forgotten first). */
  readonly gridBases = new Map<number, { offset: number; top: number; lines: string[] }>();
  /** A grant's guest: the timer that closes it when the grant expires. */
  private expiry: NodeJS.Timeout | undefined;
  private families: Set<string> | null = null;
  private consecutiveErrors = 0;
  /** While its backlog is over MAX_UNREAD_BACKLOG: the timer that resumes reading it. */
  private backlogTimer: NodeJS.Timeout | null = null;
  /** Replies sent since its queue was last seen nearly empty. */
  private unreadReplies = 0;
  /** Panes whose input refused this client's binary frames since its last accepted one: one refusal a spell, not one a frame. */
  private readonly inputRefused = new Set<number>();
  readonly sink: StreamSink;

  readonly server: PaneServer;
  /** What every request of this connection is handed: the state, this client, the services and the dispatcher. */
  readonly ctx: HandlerContext;

  constructor(
    readonly services: Services,
    readonly transport: Transport,
    private readonly authorize: Authorizer,
    /**
     * Which hello tokens this door looks at: an agent's token and an attach grant (the
     * person's doors); a grant alone (a TLS peer without a certificate: a viewer from
     * another machine); or none (an agent's own socket, whose authorizer alone says who connects).
     */
    private readonly tokens: 'agent-and-grant' | 'grant' | 'none' = 'agent-and-grant',
  ) {
    const server = services.server;
    this.server = server;
    this.ctx = { server, client: this, services, dispatch: (async (method: string, params: unknown) => services.dispatcher.dispatch(method, params, this.ctx)) as HandlerContext['dispatch'] };
    this.user = server.user;
    this.sink = {
      id: this.id,
      sendOutput: (pane, offset, data) => sendBinary(this.transport, { kind: BinaryKind.OUTPUT, pane, offset, data }),
      buffered: () => this.transport.buffered(),
    };
    services.connections.add(this);
    transport.onFrame((f) => this.receive(f));
    transport.onClose((why) => {
      // A stream that broke the framing (a length past MAX_STREAM_FRAME, an unknown kind) is cut off: say so in /pane/log.
      if (why.startsWith('bad framing')) this.server.publish('client/refused', { door: `${transport.kind} client ${this.name}`, reason: `closed: ${why}` });
      this.closed();
    });
  }

  /** Panes a grant's guest has typed into on this connection: each said once in /pane/log, under the grant's name. */
  private readonly typedInto = new Set<number>();

  /** A guest's keys reached pane `n`: the first time on this connection, /pane/log says which grant typed there (client/typed). */
  noteTyping(n: number): void {
    if (this.principal.kind !== 'grant' || this.typedInto.has(n)) return;
    this.typedInto.add(n);
    this.server.publish('client/typed', { client: this.id, name: this.name, by: principalLabel(this.principal), pane: n });
  }

  /** Methods the principal table refused this client, each logged once (refuseByPrincipal). */
  private readonly refusedMethods = new Set<string>();

  /** Whether a refusal of `method` is new for this client (to be logged); later ones are not. Bounded by the method count. */
  noteRefusal(method: string): boolean {
    if (this.refusedMethods.has(method)) return false;
    this.refusedMethods.add(method);
    return true;
  }

  /** A read-only client: its door granted it neither write nor admin (a viewer). `pane permit CLIENT ro` only stops its typing (canWrite). */
  get readOnly(): boolean {
    return !this.capabilities.has('write') && !this.capabilities.has('admin');
  }

  info() {
    return {
      id: this.id,
      name: this.name,
      kind: this.kind as 'cli',
      user: this.user,
      transport: this.transport.kind,
      capabilities: [...this.capabilities],
      canWrite: this.canWrite,
      attached: [...this.attached],
      connectedAt: this.connectedAt,
      principal: principalLabel(this.principal),
    };
  }

  /** Whether the hello succeeded (the admission guard watches this). */
  get helloed(): boolean {
    return this.ready;
  }

  wantsEvent(family: string): boolean {
    return this.families !== null && (this.families.size === 0 || this.families.has(family));
  }

  subscribe(families: string[] | undefined, on = true): void {
    this.families = on ? new Set(families ?? []) : null;
  }

  sendRaw(frame: WireFrame): void {
    this.transport.send(frame);
  }

  close(reason: string): void {
    this.transport.close(reason);
  }

  /** Tells the client why in an error frame (its onError), then closes it: a guest whose grant ended learns so, every client that the server was stopped. */
  closeSaying(fault: PaneFault): void {
    this.transport.send(JSON.stringify({ t: 'res', id: null, ok: false, error: fault.toError() }));
    this.transport.close(fault.message);
  }

  private reply(id: number | null | undefined, result: unknown, method: string): void {
    if (id === undefined || id === null) return;
    const frame = JSON.stringify({ t: 'res', id, ok: true, result });
    const over = jsonFrameOver(frame);
    this.unreadReplies++;
    if (over === null) return this.transport.send(frame);
    // Every client drops a frame past the limit unread: refuse it in words instead, and log it.
    const message = tooLargeMessage('reply', method, over);
    this.server.publish('client/refused', { door: `${this.transport.kind} client ${this.name}`, reason: message });
    this.fail(id, new PaneFault('too-large', message, { subject: method }));
  }

  private fail(id: number | null | undefined, e: unknown): void {
    const err: PaneError =
      e instanceof PaneFault ? e.toError() : { code: 'failed', message: `internal error: ${(e as Error)?.message ?? String(e)}`, reason: 'internal' };
    if (!(e instanceof PaneFault)) console.error('pane server: handler error', e);
    this.unreadReplies++;
    this.transport.send(JSON.stringify({ t: 'res', id: id ?? null, ok: false, error: err }));
  }

  private protocolError(id: number | null | undefined, code: PaneError['code'], message: string): void {
    this.fail(id, new PaneFault(code, message));
    if (++this.consecutiveErrors >= MAX_CONSECUTIVE_ERRORS) this.close(`too many bad frames (${MAX_CONSECUTIVE_ERRORS} in a row)`);
  }

  /** Stops reading a client that does not read what it is sent, until it has read half of it. */
  private holdReading(): void {
    if (this.backlogTimer) return;
    const queued = this.transport.buffered();
    if (queued <= UNREAD_LOW) this.unreadReplies = 0;
    const byReplies = this.unreadReplies > MAX_UNREAD_REPLIES;
    if (!byReplies && queued <= MAX_UNREAD_BACKLOG) return;
    const low = byReplies ? UNREAD_LOW : MAX_UNREAD_BACKLOG / 2;
    this.transport.pauseReading?.();
    this.backlogTimer = setInterval(() => {
      if (this.transport.buffered() > low && this.services.connections.has(this)) return;
      if (this.backlogTimer) clearInterval(this.backlogTimer);
      this.backlogTimer = null;
      this.unreadReplies = 0;
      this.transport.resumeReading?.();
    }, BACKLOG_POLL_MS);
    this.backlogTimer.unref();
  }

  private receive(frame: WireFrame): void {
    try {
      this.holdReading();
      if (typeof frame !== 'string') return this.receiveBinary(frame);
      if (frame.length > MAX_JSON_FRAME) return this.protocolError(null, 'too-large', `frame of ${frame.length} characters is over the ${MAX_JSON_FRAME} limit`);
      let raw: unknown;
      try {
        raw = JSON.parse(frame);
      } catch (e) {
        return this.protocolError(null, 'bad-request', `frame is not JSON: ${(e as Error).message}`);
      }
      const req = checkRequestFrame(raw);
      if (typeof req === 'string') {
        const id = typeof (raw as { id?: unknown })?.id === 'number' ? ((raw as { id: number }).id) : null;
        return this.protocolError(id, 'bad-request', `not a request frame: ${req}`);
      }
      const { id, method, params } = req;
      if (!this.ready) {
        if (method !== 'hello') return this.protocolError(id, 'not-ready', `"${method}" before hello: the first request must be hello`);
        return this.hello(id, params);
      }
      this.consecutiveErrors = 0;
      // Timed by method (the protocol's own names only: the histogram's labels stay bounded).
      const t0 = performance.now();
      const timed = () => {
        if (isMethodName(method)) this.server.latency.request(method, (performance.now() - t0) / 1000);
      };
      let result: unknown;
      try {
        result = this.services.dispatcher.dispatch(method, params, this.ctx);
      } catch (e) {
        timed();
        return this.fail(id, e);
      }
      if (result instanceof Promise)
        result.then(
          (r) => (timed(), this.reply(id, r, method)),
          (e) => (timed(), this.fail(id, e)),
        );
      else {
        timed();
        this.reply(id, result, method);
      }
    } catch (e) {
      this.fail(null, e);
    }
  }

  private receiveBinary(buf: Uint8Array): void {
    if (!this.ready) return this.protocolError(null, 'not-ready', 'binary frame before hello');
    const b = decodeBinary(buf);
    if (typeof b === 'string') return this.protocolError(null, 'bad-request', b);
    if (b.kind !== BinaryKind.INPUT) return this.protocolError(null, 'bad-request', 'clients may send only input binary frames');
    if (!this.capabilities.has('write') || !this.canWrite) return this.protocolError(null, 'denied', `client ${this.name} may not write to panes`);
    // A remote pane streamed here (its proxy number): pane/input through the dispatcher, which forwards it to its host in order (server/hosts/).
    if (b.pane >= PROXY_PANE_BASE) return this.remoteInput(b.pane, b.data);
    const pane = this.server.panes.get(b.pane);
    if (!pane) return this.protocolError(null, 'pane-not-found', `pane ${b.pane} not found`);
    // A stand-in for a remote pane (server/hosts/standIns.ts): the same path, to its host's ordered input queue.
    if (bodyOf(pane.kind).standIn) return this.remoteInput(b.pane, b.data);
    try {
      this.checkAccess?.('pane/input', { pane: b.pane });
    } catch (e) {
      return this.fail(null, e);
    }
    // Typing makes this window the latest (windowSize "latest"): the session takes its size again.
    applyViewport(this.server, pane.session, this.services.viewports.touch(pane.session, this.id, this.services.windowSize));
    try {
      typeInto(this.server, pane, principalLabel(this.principal), b.data); // pane/input's path too: one policy for a full queue and an ended program
    } catch (e) {
      if (!(e instanceof PaneFault)) throw e;
      // A binary frame has no reply: the refusal is an error frame (the kit's onError, the window's notice) and a /pane/log line.
      return this.refuseKeys(b.pane, e);
    }
    this.inputRefused.delete(b.pane);
    this.noteTyping(b.pane);
  }

  /** Keystrokes for a remote pane: checked and forwarded as its pane/input (queued while its link is down); a refusal is an error frame. */
  private remoteInput(pane: number, data: Uint8Array): void {
    const params = { pane, data: Buffer.from(data).toString('base64'), encoding: 'base64' };
    Promise.resolve()
      .then(() => this.services.dispatcher.dispatch('pane/input', params, { ...this.ctx, keys: pane }))
      .then(
        () => this.inputRefused.delete(pane),
        (e: unknown) => this.refuseKeys(pane, e),
      );
  }

  /**
   * Keystrokes this client sent to `pane` were refused (here, or by the remote host a
   * remote pane lives on): as for a local pane, an error frame and a /pane/log line,
   * once until a frame to that pane is taken again.
   */
  refuseKeys(pane: number, e: unknown): void {
    if (e instanceof PaneFault) {
      if (this.inputRefused.has(pane)) return;
      this.inputRefused.add(pane);
      this.server.publish('client/refused', { door: `pane ${pane}'s input`, reason: `${this.transport.kind} client ${this.name}: ${e.message}` });
      // A frame that answers no request names the pane whose keys it refuses (a host link routes it to that pane's typist by it).
      if (e.subject === undefined) return this.fail(null, new PaneFault(e.code, e.message, { ...(e.reason === undefined ? {} : { reason: e.reason }), subject: String(pane) }));
    }
    this.fail(null, e);
  }

  private hello(id: number | undefined, params: unknown): void {
    const h = HelloParamsSchema.safeParse(params);
    if (!h.success) return this.protocolError(id, 'bad-request', describeIssues('hello', h.error.issues));
    const agreed = negotiate(
      { protocol: h.data.protocol, protocols: h.data.protocols, features: h.data.features, version: h.data.client.version },
      { min: MIN_PROTOCOL_VERSION, max: PROTOCOL_VERSION, features: PROTOCOL_FEATURES, version: runningVersion(), host: this.server.host },
    );
    if (typeof agreed === 'string') return this.protocolError(id, 'version-mismatch', agreed);
    const byToken = h.data.token === undefined || this.tokens !== 'agent-and-grant' ? undefined : this.services.tokenAuthority?.({ token: h.data.token, capabilities: h.data.capabilities });
    const doorGrant = byToken ?? this.authorize({ token: h.data.token, capabilities: h.data.capabilities, ...(h.data.grant !== undefined ? { grant: h.data.grant } : {}) });
    // An attach grant's token makes this client its guest, whatever the door would have let it be.
    const grant = typeof doorGrant === 'string' || h.data.grant === undefined ? doorGrant : this.byAttachGrant(h.data.grant, h.data.capabilities, byToken !== undefined);
    if (typeof grant === 'string') {
      this.fail(id, new PaneFault('unauthorized', grant));
      if (h.data.grant !== undefined) this.services.grantRefusals(`${this.transport.kind} client ${shown(h.data.client.name.slice(0, 100))}: hello with a grant refused: ${grant}`);
      this.close(grant);
      return;
    }
    this.ready = true;
    this.name = h.data.client.name;
    this.kind = h.data.client.kind;
    if (grant.user) this.user = grant.user;
    this.principal = grant.principal ?? (grant.user ? { kind: 'agent', name: grant.user } : PERSON);
    if (grant.checkAccess) this.checkAccess = grant.checkAccess;
    // A door's own grant alone may carry it: a token's grant (byToken) is someone let in, not the person.
    const adopt = grant !== byToken ? grant.adopt : undefined;
    if (adopt) this.adopt = (p) => adopt(p, this);
    this.capabilities = new Set(grant.capabilities);
    this.canWrite = this.capabilities.has('write');
    const w: Welcome = {
      protocol: agreed.protocol,
      // Only to a client that offered features: an old client's welcome stays as it was.
      ...(h.data.features ? { features: agreed.features } : {}),
      server: { host: this.server.host, version: runningVersion(), pid: process.pid, instance: this.server.instance },
      client: this.id,
      capabilities: [...this.capabilities],
      user: this.user,
      ...(this.principal.kind === 'grant' && grant.expiresAt !== undefined ? { grant: { id: this.principal.id, mode: this.principal.mode, expiresAt: grant.expiresAt, session: this.principal.session } } : {}),
    };
    this.reply(id, w, 'hello');
    if (grant.expiresAt !== undefined) {
      // The grant's end is this client's: closed then, in words.
      this.expiry = setTimeout(() => this.closeSaying(new PaneFault('unauthorized', `grant ${this.principal.kind === 'grant' ? this.principal.id : ''} expired; ask the person for a new one`)), Math.max(0, grant.expiresAt - Date.now()));
      this.expiry.unref();
    }
    // Frames are handled as they arrive (binary input is copied into the PTY's queue), so reads may reuse one buffer.
    this.transport.reuseReadBuffer?.();
    this.server.publish('client/attached', { client: this.id, name: this.name });
  }

  /**
   * What an attach grant's token earns: its guest, with the capabilities asked for that
   * its mode allows (ro: read and attach; rw: write too; never admin), or why not.
   */
  private byAttachGrant(token: string, asked: readonly Capability[], withAgentToken: boolean): Grant | string {
    if (this.tokens === 'none') return 'an agent’s socket speaks as its agent; a grant is for someone the person lets in';
    if (withAgentToken) return 'a hello carries an agent’s token or a grant, not both';
    const book = this.services.grants;
    if (!book) return 'this server issues no grants';
    const r = book.check(token);
    if (!r.ok) return r.reason;
    if (r.grant.mode === 'metrics') return `grant ${r.grant.id} is a metrics grant: a scraper sends it to GET /metrics on the HTTP front; it lets no client in`;
    const allowed: Capability[] = r.grant.mode === 'ro' ? ['read', 'attach'] : ['read', 'write', 'attach'];
    const capabilities = asked.filter((c) => allowed.includes(c));
    if (capabilities.length === 0) return `grant ${r.grant.id} (${r.grant.mode}) allows ${allowed.join(', ')}; the hello asked for none of them`;
    const session = r.grant.session!; // book.check refuses an attach grant without one
    if (!this.server.sessions.has(session)) return `grant ${r.grant.id}'s session has ended; ask the person for a new one`;
    const principal = { kind: 'grant', id: r.grant.id, mode: r.grant.mode, session, ...(r.grant.context !== undefined ? { context: r.grant.context } : {}) } as const;
    // Every request is held to the grant's session (server/grants/scope.ts): its panes, its files, nothing beyond.
    return { capabilities, user: `grant ${r.grant.id}`, principal, expiresAt: r.grant.expiresAt, checkAccess: scopeChecker(this.server, session, principalLabel(principal)) };
  }

  private closed(): void {
    if (this.expiry) clearTimeout(this.expiry);
    // Its windows no longer count: each session it showed takes the size of the windows left.
    for (const g of this.services.viewports.gone(this.id, this.services.windowSize)) applyViewport(this.server, g.session, g.size);
    this.services.contexts.clientGone(this.id);
    if (this.backlogTimer) clearInterval(this.backlogTimer);
    this.backlogTimer = null;
    if (!this.services.connections.delete(this)) return;
    for (const n of this.attached) this.server.terminals.get(n)?.detach(this.sink.id);
    this.attached.clear();
    if (this.ready) this.server.publish('client/detached', { client: this.id, name: this.name });
  }
}
