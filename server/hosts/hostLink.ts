// One joined host: this server as a protocol client of the remote daemon, over the
// stdio of the process its file names (ssh, or any argv). A heartbeat keeps its
// list of panes fresh and marks it stale when it stops answering; a link that
// drops after it was up is dialled again with a bounded backoff. Everything the
// remote sends is untrusted: replies are checked against their schemas, frames
// are bounded by the framing, and a remote that sends what it was not asked for,
// or breaks the protocol, is cut off (it never reaches local panes).
import { checkResults, Connection } from '../../kits/client/index';
import type { Transport, WireFrame } from '../../kits/client/transport';
import { ErrorCodeSchema, isStoppedFault, PaneFault } from '../../kits/protocol/error';
import { shown } from '../../kits/protocol/shown';
import type { HostInfo, HostState } from '../../kits/protocol/host';
import type { MethodName, ParamsIn, Result } from '../../kits/protocol/index';
import type { Capability } from '../../kits/protocol/method';
import type { Pane } from '../../kits/protocol/model';
import { BinaryKind, decodeBinary } from '../../kits/protocol/binary';
import { describeHow, type HostEntry } from './hostFiles';
import { eventFamily } from '../../kits/protocol/events';
import { applyRemoteEvent, MAX_REMOTE_EVENT_BYTES, MAX_REMOTE_EVENT_BYTES_PER_BEAT, MAX_REMOTE_EVENTS, type RemotePaneChange } from './remoteEvents';

/** How often a joined host is asked whether it is there: the heartbeat (its pane list every FULL_LIST_BEATS, or at once when its events fell short). */
export const HEARTBEAT_MS = 2000;
/**
 * Heartbeats between two of the host's full pane lists while its pane events are
 * followed (remoteEvents.ts): the list is the truth that replaces what the events
 * built, kept for what no event tells (a pane's foreground process group). The other
 * beats ask server/info (~0.3 ms): a list of 100 panes is ~210 KB, 8 ms to answer
 * and ~5 ms more to check here, and every 2 s it held a keystroke's echo through
 * an ssh host 10 ms (the echo's p99 was 14× ssh's own, issue 35).
 */
export const FULL_LIST_BEATS = 15;
/** A host that has not answered for this long is shown stale (three heartbeats: one slow answer is not enough). */
export const STALE_AFTER_MS = 3 * HEARTBEAT_MS;
/** A host silent for this long has its link cut and dialled again (ssh's own ServerAlive would take 45 s by default). */
export const DROP_AFTER_MS = 10 * HEARTBEAT_MS;
/** How long one forwarded request may wait for the remote's answer before it fails (`pane screen` of a big history is well under a second). */
export const FORWARD_TIMEOUT_MS = 15_000;
/** How long the remote's hello may take once its `pane serve --stdio` answered the preamble. */
export const LINK_HELLO_TIMEOUT_MS = 10_000;
/** First wait before dialling a dropped link again; doubled each failure up to RECONNECT_MAX_MS. */
export const RECONNECT_BASE_MS = 500;
/**
 * A link that had been up this long when it dropped is dialled again at once (a
 * dropped ssh, a laptop's new network): the first wait is for a link that flaps,
 * one that drops again before a heartbeat has gone by.
 */
export const REDIAL_AT_ONCE_AFTER_MS = 2000;
/** Longest wait between two dials of a dropped link: bounded, and never given up (VS Code Remote's users lost work to a reconnect that gave up). */
export const RECONNECT_MAX_MS = 30_000;
/**
 * Frames a remote may send beyond one reply per request, in one heartbeat, past
 * which it is cut off (output of panes not attached, errors or replies to no
 * request). Events are bounded apart (MAX_REMOTE_EVENTS, remoteEvents.ts), and the
 * output of attached panes by their streams, so a pane daemon sends none of these
 * but the refusal of keys sent as a binary frame (an error with no id).
 */
export const MAX_UNSOLICITED_FRAMES = 256;
/** Characters of a remote's error message passed on to a local client (the frame bound allows 4 MiB). */
export const MAX_REMOTE_MESSAGE = 2000;
/** Quiet after a remote's pane events before the host's change is told here (stand-ins, host/changed): a burst of them is told once. */
export const REMOTE_EVENTS_SETTLE_MS = 20;
/** The head every event frame a pane daemon sends starts with, its name next (server/transport/connections.ts): how the link tells a subscribed event from any other frame without parsing it twice. */
const EVENT_FRAME_HEAD = '{"t":"evt","event":"';
/** The family the link subscribes to, and so the only events it takes unbudgeted by MAX_UNSOLICITED_FRAMES. */
const SUBSCRIBED_FAMILY = 'pane';

/** A host whose command reached this very daemon. */
class SelfJoin extends Error {
  constructor(name: string) {
    super(`${name} is this pane server itself, not another one: its command reached the daemon it runs in. A host is another machine's pane (pane host add ${name} ssh://HOST) or another daemon's (a command with --socket)`);
  }
}

/** Dials the process a host file names; resolves with a framed transport once its preamble came. */
export type DialHost = (host: HostEntry) => Promise<{ transport: Transport; close?: () => void }>;

export class HostLink {
  state: HostState = 'disconnected';
  error: string | null = null;
  remote: { host: string; version: string; codeReplaced?: boolean } | null = null;
  panes: Pane[] = [];
  /** The remote's sessions (id and name) as of the last heartbeat: its panes name their session by id. */
  sessions: { id: string; name: string }[] = [];
  /** When `sessions` was last heard (0: not yet on this link). */
  sessionsAt = 0;
  /** The connection a session/list is still unanswered on: one at a time, so a remote that never answers it holds one request, not one per heartbeat. */
  private sessionsAsking: Connection | null = null;
  private conn: Connection | null = null;
  private closeDial: (() => void) | undefined;
  private lastHeard: number | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private failures = 0;
  /** When the link last became connected (0 while it is not). */
  private upSince = 0;
  /** The person asked for it to be joined (host connect, autoConnect) and not left since. */
  private wanted = false;
  /** The person left it (pane host disconnect) and has not joined it since. */
  private left = false;
  private counted: CountedTransport | null = null;
  private dialing: Promise<void> | null = null;
  /** Counts the link's connections: a stream attached on an older one attaches again (remoteStream.ts). */
  generation = 0;
  /** Remote panes attached over this link: their output frames are asked for, not counted as unsolicited. */
  readonly streaming = new Set<number>();
  /** Where the remote's output frames go (RemoteStreams.output). */
  output: ((pane: number, offset: number, data: Uint8Array) => void) | null = null;
  /** Where a change a remote's pane event made goes (hostService.ts: re-published as host/pane). */
  paneChanged: ((change: RemotePaneChange) => void) | null = null;
  /** The remote's events taken in this heartbeat (at most MAX_REMOTE_EVENTS), and those dropped past it since the link was made. */
  private eventsThisBeat = 0;
  /** Bytes of the events taken in this heartbeat (at most MAX_REMOTE_EVENT_BYTES_PER_BEAT). */
  private eventBytesThisBeat = 0;
  private eventsDropped = 0;
  /** Events dropped for their size (over MAX_REMOTE_EVENT_BYTES, or the heartbeat's bytes) since the link was made: said once. */
  private bigEventsDropped = 0;
  /** The connection events/subscribe was sent on: events before it were not asked for. */
  private subscribedOn: Connection | null = null;
  /** The connection whose events/subscribe was answered: its pane events are followed, and most beats need no list. */
  private following: Connection | null = null;
  /** An event was dropped (too many, too big) since the last full list: the next beat lists. */
  private eventsMissed = false;
  /** Counts the drops of events: a beat asked before one and answered after it says nothing about the list. */
  private dropsSeen = 0;
  /** When `panes` was last known whole: the sending of a list, or of a beat answered with every event since followed (listAsOf). */
  private listWholeAt: number | null = null;
  /** Beats since the last full pane list. */
  private beatsSinceList = 0;
  private settleTimer: NodeJS.Timeout | null = null;
  /** Where an error the remote sent about no request goes: a refusal of keys sent by sendKeys (hostService.ts). */
  unanswered: ((fault: PaneFault) => void) | null = null;

  constructor(
    public entry: HostEntry,
    private readonly dial: DialHost,
    private readonly changed: () => void,
    private readonly log: (line: string) => void,
    /** This daemon's run (PaneServer.instance): a host that answers with it is this daemon itself. */
    private readonly self?: string,
  ) {}

  get name(): string {
    return this.entry.name;
  }

  info(): HostInfo {
    return {
      name: this.entry.name,
      file: this.entry.file,
      how: describeHow(this.entry.how),
      readOnly: this.entry.readOnly,
      state: this.state,
      error: this.error,
      remote: this.remote,
      panes: this.state === 'disconnected' ? 0 : this.panes.length,
      lastHeardMs: this.lastHeard === null ? null : Date.now() - this.lastHeard,
    };
  }

  /** Joins the host (once: a second call waits for the first); resolves when connected or failed. */
  connect(): Promise<void> {
    this.wanted = true;
    this.left = false;
    if (this.state === 'connected' || this.state === 'stale') return Promise.resolve();
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.dialing ??= this.open().finally(() => (this.dialing = null));
    return this.dialing;
  }

  /** Leaves the host: the link is closed and not dialled again; its panes run on there. */
  disconnect(reason = 'left by the person (pane host disconnect)'): void {
    this.wanted = false;
    this.left = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.drop(reason, false);
    this.error = null;
  }

  /**
   * Sends the remote a request it does not answer (an ack of streamed bytes): no reply
   * is waited for or timed, and a refusal comes back as an error with no id, which the
   * link takes as it takes a refused key. Dropped when the link is not up: what it said
   * is said again on the next connection (a stream re-attaches from where it is).
   */
  notify<M extends MethodName>(method: M, params: ParamsIn<M>): void {
    if (this.state === 'connected' || this.state === 'stale') this.conn?.notify(method, params);
  }

  /** Forwards one request to the remote, as its own pane numbers; rejects with the remote's fault, named as the host's. */
  async call<M extends MethodName>(method: M, params: ParamsIn<M>): Promise<Result<M>> {
    const c = this.conn;
    if (!c || (this.state !== 'connected' && this.state !== 'stale')) {
      throw new PaneFault('failed', `host ${this.name} is ${this.state}${this.error ? ` (${this.error})` : ''}: pane host connect ${this.name}`, { subject: this.name });
    }
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new PaneFault('failed', `host ${this.name} did not answer ${method} within ${FORWARD_TIMEOUT_MS} ms (FORWARD_TIMEOUT_MS)`, { subject: this.name })), FORWARD_TIMEOUT_MS);
    });
    try {
      return await Promise.race([c.call(method, params), deadline]);
    } catch (e) {
      // The link was cut while this request was on the wire: the remote may have done it (input typed while stale, then the 20 s cut).
      if (e instanceof PaneFault && this.conn !== c) {
        throw new PaneFault('failed', `host ${this.name}: the link was cut before ${this.name} answered ${method} (${this.error ?? clean(e.message)}); ${this.name} may have done it all the same: look (pane screen, pane ls) before you send it again`, { subject: this.name });
      }
      // The remote's code only if it is one of ours (a client maps codes to exit statuses), its words bounded.
      if (e instanceof PaneFault) throw new PaneFault(ErrorCodeSchema.safeParse(e.code).success ? e.code : 'failed', `host ${this.name}: ${clean(e.message)}`, { subject: this.name });
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  private async open(): Promise<void> {
    this.state = 'connecting';
    this.error = null;
    this.changed();
    let dialed: Awaited<ReturnType<DialHost>>;
    try {
      dialed = await this.dial(this.entry);
    } catch (e) {
      return this.failed(clean((e as Error).message));
    }
    if (!this.wanted) {
      dialed.close?.();
      dialed.transport.close('left while dialling');
      this.state = 'disconnected';
      this.changed();
      return;
    }
    // Every frame the remote sends is counted against the requests sent it (CountedTransport).
    // Told on a later tick: frames a remote sent before its hello are handed over while the Connection is being made.
    const counted = new CountedTransport(dialed.transport, () => queueMicrotask(() => this.conn === conn && this.unasked()), (f) => this.asked(f));
    this.counted = counted;
    const conn = new Connection(counted, { checkResult: checkResults });
    this.conn = conn;
    this.streaming.clear();
    conn.onOutput((p, offset, data) => this.conn === conn && this.output?.(p, offset, data));
    // The host's word that someone there stopped it (pane stop) is no refusal of anyone's keys: the connection
    // closes next, with those words as its reason (kits/client/connection.ts), and the link's error says them.
    conn.onError((fault) => this.conn === conn && !isStoppedFault(fault) && this.unanswered?.(fault));
    conn.onEvent((event, _rev, data) => this.conn === conn && this.remoteEvent(event, data));
    this.closeDial = dialed.close;
    conn.onClose((reason) => {
      if (this.conn === conn) this.drop(`the link closed: ${clean(reason)}`, this.wanted);
    });
    const caps: Capability[] = this.entry.readOnly ? ['read', 'attach'] : ['read', 'write', 'attach'];
    try {
      const welcome = await withDeadline(conn.hello({ client: { name: `host link ${this.name}`, kind: 'other' }, capabilities: caps }), LINK_HELLO_TIMEOUT_MS, `its hello did not come within ${LINK_HELLO_TIMEOUT_MS} ms (LINK_HELLO_TIMEOUT_MS)`);
      // Its command reached the daemon it runs in (`pane serve --stdio` here, with no ssh before it): its panes would
      // show twice, and every request to HOST:N would come back to this daemon. Refused, and not dialled again.
      if (this.self !== undefined && welcome.server.instance === this.self) throw new SelfJoin(this.name);
      this.remote = { host: String(welcome.server.host).slice(0, 253), version: String(welcome.server.version).slice(0, 100) };
      await withDeadline(this.beat(conn), LINK_HELLO_TIMEOUT_MS, `its first pane list did not come within ${LINK_HELLO_TIMEOUT_MS} ms of its hello (LINK_HELLO_TIMEOUT_MS)`);
    } catch (e) {
      // Cut off while saying hello (a flood, a lie): drop() has said why.
      if (this.conn !== conn) return;
      this.conn = null;
      conn.close();
      dialed.close?.();
      if (e instanceof SelfJoin) {
        this.wanted = false;
        return this.failed(e.message);
      }
      // The host refused who we are (a revoked or unrecorded certificate): every redial would be refused alike, so the link waits for the person.
      if (e instanceof PaneFault && e.code === 'unauthorized') {
        this.wanted = false;
        return this.failed(`${clean(e.message)}; not dialled again until you pane host connect ${this.name} (after pane host pair ${this.name}, if its owner revoked this machine)`);
      }
      return this.failed(clean((e as Error).message));
    }
    // The remote's own pane events from here on (remoteEvents.ts), not waited for: a remote that never answers is followed by the heartbeat alone.
    this.eventsThisBeat = 0;
    this.subscribedOn = conn;
    const subscribedAt = Date.now();
    conn
      .call(
        'events/subscribe',
        { families: [SUBSCRIBED_FAMILY] },
        {
          // Applied as the answer is read: an event right behind it (a pane opened there as we joined) applies to this list, not before it.
          inOrder: (state) => {
            if (this.conn !== conn) return;
            // The host's state as the subscription began (checked as any answer is): what changed since the first list,
            // which no event told, and the list the events apply to from here on.
            this.following = conn;
            this.listed(state.panes, subscribedAt);
            this.sessions = state.sessions.map((x) => ({ id: x.id, name: x.name }));
            this.sessionsAt = Date.now();
            this.changed();
          },
        },
      )
      .catch(() => undefined);
    this.failures = 0;
    this.upSince = Date.now();
    this.generation++;
    this.state = 'connected';
    this.log(`host ${this.name}: joined (${describeHow(this.entry.how)}; remote ${this.remote?.host} pane ${this.remote?.version})`);
    this.heartbeat = setInterval(() => void this.tick(conn), HEARTBEAT_MS);
    this.heartbeat.unref();
    this.changed();
  }

  /**
   * Keystrokes for remote pane `n` as a binary INPUT frame on the live connection, in
   * order with everything sent before; false when the link is not up. The remote answers
   * only a refusal, as an error frame (`unanswered`).
   */
  sendKeys(n: number, data: Uint8Array): boolean {
    const conn = this.conn;
    if (!conn || (this.state !== 'connected' && this.state !== 'stale')) return false;
    conn.sendInput(n, data);
    return true;
  }

  /** Asks the remote for its panes now (pane ls), within a heartbeat; the last answer stays on failure. */
  async refresh(): Promise<void> {
    const conn = this.conn;
    if (!conn || (this.state !== 'connected' && this.state !== 'stale')) return;
    await withDeadline(this.beat(conn, true), HEARTBEAT_MS, 'refresh').catch(() => undefined);
  }

  /**
   * One heartbeat: the remote's panes, host-qualified with this host's name (`list`, or
   * when its events may not have told everything: not yet followed, one dropped, or
   * FULL_LIST_BEATS since the last list); otherwise only that it answers.
   */
  private async beat(conn: Connection, list = false): Promise<void> {
    // The session names are for display (pane ls): asked alongside, never waited for, so a remote slow or silent on them is judged by its pane list alone.
    if (this.sessionsAsking !== conn) {
      this.sessionsAsking = conn;
      conn
        .call('session/list', {})
        .then(({ sessions }) => {
          if (this.conn !== conn) return;
          this.sessions = sessions.map((s) => ({ id: s.id, name: s.name }));
          this.sessionsAt = Date.now();
        })
        .catch(() => undefined)
        .finally(() => {
          if (this.sessionsAsking === conn) this.sessionsAsking = null;
        });
    }
    const sentAt = Date.now();
    if (!list && this.following === conn && !this.eventsMissed && ++this.beatsSinceList < FULL_LIST_BEATS) {
      const drops = this.dropsSeen;
      // Its answer comes after every event the host sent before it: with none of them dropped, the list is whole as of its asking.
      const info = await conn.call('server/info', {}, { inOrder: () => this.conn === conn && this.following === conn && this.dropsSeen === drops && this.wholeAt(sentAt) });
      if (this.conn !== conn) return;
      this.lastHeard = Date.now();
      // An update there that its daemon outlived (server/codeOnDisk.ts): `pane host ls` says so. A boolean, never the host's words.
      if (this.remote && info.codeReplaced === true && !this.remote.codeReplaced) this.remote = { ...this.remote, codeReplaced: true };
      return;
    }
    // Asked before the list: an event dropped while it is on its way is listed by the next beat.
    this.eventsMissed = false;
    this.beatsSinceList = 0;
    // Applied as the answer is read, in order with the events around it (an event right behind it is not undone by it).
    await conn.call('pane/list', {}, { inOrder: ({ panes }) => this.conn === conn && this.listed(panes, sentAt) });
  }

  /** The remote's whole pane list, just heard (a list or the subscription's answer, asked at `askedAt`): host-qualified, and the count of beats since it restarts. */
  private listed(panes: readonly Pane[], askedAt: number): void {
    this.lastHeard = Date.now();
    this.beatsSinceList = 0;
    this.panes = panes.map((p) => ({ ...p, host: this.name }));
    this.wholeAt(askedAt);
  }

  private wholeAt(at: number): void {
    if (this.listWholeAt === null || at > this.listWholeAt) this.listWholeAt = at;
  }

  /**
   * The latest moment `panes` is known to hold every pane the host had: a pane made
   * there before it and not listed was closed there (RemoteStreams.sweep frees its
   * stream). Not `heardAt`: a heartbeat answered while events were being dropped
   * says the host is there, not that the list is whole. Null before the first list
   * and after the link drops.
   */
  get listAsOf(): number | null {
    return this.listWholeAt;
  }

  private async tick(conn: Connection): Promise<void> {
    if (this.conn !== conn) return;
    this.counted?.newWindow();
    this.eventsThisBeat = 0;
    this.eventBytesThisBeat = 0;
    const silent = this.lastHeard === null ? 0 : Date.now() - this.lastHeard;
    if (silent > DROP_AFTER_MS) return this.drop(`it did not answer for ${Math.round(silent / 1000)} s (DROP_AFTER_MS)`, true);
    if (silent > STALE_AFTER_MS && this.state === 'connected') {
      this.state = 'stale';
      this.changed();
    }
    try {
      const before = this.panes.length;
      await withDeadline(this.beat(conn), HEARTBEAT_MS, 'heartbeat');
      if (this.state === 'stale' || before !== this.panes.length) {
        this.state = 'connected';
        this.changed();
      }
    } catch (e) {
      // A reply that fails its schema is a lie: that is not a slow host.
      if (e instanceof PaneFault && e.message.startsWith('server sent a malformed')) this.drop(`it answered pane/list with something that is not a pane list (${clean(e.message)})`, false);
    }
  }

  /** When the remote last answered a heartbeat (server/info, or its pane list), or null. */
  get heardAt(): number | null {
    return this.lastHeard;
  }

  /** Left by the person (pane host disconnect), not cut for a lie nor failed: joining it again picks up where its readers were. */
  get leftByPerson(): boolean {
    return this.left;
  }

  /** Down and not dialled again though the person did not leave it: cut for a lie, refused who we are, or joined to itself. */
  get cutOff(): boolean {
    return this.state === 'disconnected' && !this.wanted && !this.left && this.error !== null;
  }

  /** Whether the link will take the person's input for later: joined (wanted) though not up now. */
  get joined(): boolean {
    return this.wanted;
  }

  /** Cuts a remote that lied (remoteStream.ts: an offset going backward); not dialled again. */
  cut(reason: string): void {
    this.drop(reason, false);
  }

  /**
   * How a frame the remote sent is counted (CountedTransport): an output frame of a pane
   * this link attached is asked for (its bytes are bounded by REMOTE_STREAM_BUFFER); an
   * event is asked for (the link subscribed) up to MAX_REMOTE_EVENTS a heartbeat, and
   * dropped unread past it; anything else counts against the requests sent.
   */
  private asked(f: WireFrame): FrameCount {
    if (typeof f === 'string') {
      if (this.subscribedOn === null || this.subscribedOn !== this.conn || !f.startsWith(EVENT_FRAME_HEAD)) return 'counted';
      const end = f.indexOf('"', EVENT_FRAME_HEAD.length);
      if (end < 0 || eventFamily(f.slice(EVENT_FRAME_HEAD.length, end)) !== SUBSCRIBED_FAMILY) return 'counted';
      // Bounded in bytes as well as count: one event, and all of a heartbeat's.
      if (f.length > MAX_REMOTE_EVENT_BYTES || this.eventBytesThisBeat + f.length > MAX_REMOTE_EVENT_BYTES_PER_BEAT) {
        this.eventsMissed = true;
        this.dropsSeen++;
        if (this.bigEventsDropped++ === 0) this.log(`host ${this.name}: sent a pane event of ${f.length} bytes${f.length > MAX_REMOTE_EVENT_BYTES ? ` (over MAX_REMOTE_EVENT_BYTES, ${MAX_REMOTE_EVENT_BYTES})` : ` past the ${MAX_REMOTE_EVENT_BYTES_PER_BEAT} bytes of events a heartbeat may bring (MAX_REMOTE_EVENT_BYTES_PER_BEAT)`}; such events are dropped and its pane list catches up at the next heartbeat`);
        return 'drop';
      }
      this.eventBytesThisBeat += f.length;
      if (++this.eventsThisBeat <= MAX_REMOTE_EVENTS) return 'free';
      this.eventsMissed = true;
      this.dropsSeen++;
      if (this.eventsDropped++ === 0) this.log(`host ${this.name}: sent more than ${MAX_REMOTE_EVENTS} pane events within a heartbeat (MAX_REMOTE_EVENTS); the rest are dropped and its pane list catches up at the next heartbeat`);
      return 'drop';
    }
    const b = decodeBinary(f);
    return typeof b !== 'string' && b.kind === BinaryKind.OUTPUT && this.streaming.has(b.pane) ? 'free' : 'counted';
  }

  /** One of the remote's pane events: applied to `panes`, told on (paneChanged), and the host's change told once a burst settles; one that does not read cuts the link. */
  private remoteEvent(event: string, data: unknown): void {
    if (this.state !== 'connected' && this.state !== 'stale') return;
    const change = applyRemoteEvent(this.panes, this.name, event, data);
    if (change === null) return;
    if (typeof change === 'string') return this.drop(`${clean(change)}: a pane daemon's events follow its schemas`, false);
    this.paneChanged?.(change);
    if (this.settleTimer) return;
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      if (this.state === 'connected' || this.state === 'stale') this.changed();
    }, REMOTE_EVENTS_SETTLE_MS);
    this.settleTimer.unref();
  }

  private unasked(): void {
    this.drop(`it sent more than ${MAX_UNSOLICITED_FRAMES} frames it was not asked for (events, output, replies to nothing) within a heartbeat (MAX_UNSOLICITED_FRAMES); check what answers as pane on that host`, false);
  }

  private drop(reason: string, redial: boolean): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = null;
    const conn = this.conn;
    this.conn = null;
    this.counted = null;
    const wasUp = this.state === 'connected' || this.state === 'stale';
    const upFor = this.upSince > 0 ? Date.now() - this.upSince : 0;
    this.upSince = 0;
    conn?.close();
    this.closeDial?.();
    this.closeDial = undefined;
    if (!conn && this.state === 'disconnected') return;
    this.state = 'disconnected';
    this.error = reason;
    this.panes = [];
    this.listWholeAt = null;
    this.sessions = [];
    // The person leaving is no refusal: said as what it is (/pane/log files only cut-offs as refusals).
    this.log(this.left ? `host ${this.name}: left: ${reason}` : `host ${this.name}: cut off: ${reason}`);
    if (redial && wasUp) this.scheduleRetry(upFor >= REDIAL_AT_ONCE_AFTER_MS);
    else if (!redial) this.wanted = false;
    this.changed();
  }

  private failed(reason: string): void {
    this.state = 'disconnected';
    this.error = reason;
    this.panes = [];
    this.listWholeAt = null;
    this.sessions = [];
    this.log(`host ${this.name}: not joined: ${reason}`);
    // A link that was up once is dialled again; a first dial that fails waits for the person (a wrong file would only fail again).
    if (this.wanted && this.failures > 0) this.scheduleRetry();
    this.changed();
  }

  /** Dials again after the backoff's wait, or on the next turn for a link that was up a while (REDIAL_AT_ONCE_AFTER_MS). */
  private scheduleRetry(atOnce = false): void {
    if (this.retry || !this.wanted) return;
    const wait = atOnce ? 0 : Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.min(this.failures, 16));
    this.failures++;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.wanted) return;
      this.dialing ??= this.open().finally(() => (this.dialing = null));
    }, wait);
    this.retry.unref();
  }

  /** Ends the link for good (the server stops, or the file was removed). */
  dispose(): void {
    this.disconnect('the host file was removed, or the server is stopping');
  }
}

/**
 * The link's transport, counting: a remote may send one frame per request it was
 * sent (its reply) and MAX_UNSOLICITED_FRAMES more in a heartbeat's window; past
 * that (events, output, errors or replies to nothing, which the Connection would
 * drop unseen) `onExcess` is told once and nothing more is passed on.
 */
/** How CountedTransport takes a frame: not counted, counted against the requests sent, or dropped unread. */
export type FrameCount = 'free' | 'counted' | 'drop';

export class CountedTransport implements Transport {
  private asked = 0;
  private got = 0;
  private over = false;
  constructor(
    private readonly inner: Transport,
    private readonly onExcess: () => void,
    /** How each frame is taken (output of panes the link attached, and events it subscribed to, are not counted). */
    private readonly count: (frame: WireFrame) => FrameCount = () => 'counted',
  ) {}
  get kind(): string {
    return this.inner.kind;
  }
  /** Starts a new heartbeat's window (replies still owed carry over). */
  newWindow(): void {
    this.asked = Math.max(0, this.asked - this.got);
    this.got = 0;
  }
  send(frame: WireFrame): void {
    this.asked++;
    this.inner.send(frame);
  }
  onFrame(cb: (frame: WireFrame) => void): void {
    this.inner.onFrame((f) => {
      if (this.over) return;
      const how = this.count(f);
      if (how === 'drop') return;
      if (how === 'free') return cb(f);
      if (++this.got > this.asked + MAX_UNSOLICITED_FRAMES) {
        this.over = true;
        return this.onExcess();
      }
      cb(f);
    });
  }
  onClose(cb: (reason: string) => void): void {
    this.inner.onClose(cb);
  }
  close(reason?: string): void {
    this.inner.close(reason);
  }
  buffered(): number {
    return this.inner.buffered();
  }
}

/**
 * The one refusal of a change to a host joined read-only (its file's readOnly): `what`
 * would change it (a method, a write to a file). `about` names what the caller named, a
 * host or a stand-in of one; the fix is the file's flag.
 */
export function readOnlyFault(link: HostLink, what: string, subject: string, about = `host ${link.name}`): PaneFault {
  return new PaneFault('denied', `denied: ${about} is joined read-only (readOnly in ${link.entry.file}): ${what} would change it; set readOnly to false there to allow it`, { reason: 'read-only host', subject });
}

/** A remote's words, bounded and without control characters, for a local message. */
export function clean(s: string): string {
  // eslint-disable-next-line no-control-regex
  const t = shown(s);
  return t.length > MAX_REMOTE_MESSAGE ? `${t.slice(0, MAX_REMOTE_MESSAGE)}…` : t;
}

function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(what)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
