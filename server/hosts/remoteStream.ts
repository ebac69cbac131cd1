// A joined host's pane streamed to local clients (issue 26, decision 037): ONE
// upstream pty/attach per remote pane over the host link, shared by every local
// subscriber; the bytes are held by the remote's own offsets, re-served to each
// local client with its own position and flow control, and acknowledged upstream
// only while the local backlog is small, so a slow local reader pauses that one
// remote pane (the remote's own flow control), never the link. A dropped link
// re-attaches from the last received offset: nothing lost or doubled; a gap only
// when the remote's ring moved past it (the local client sees the offset jump).
// A stream is freed when its remote pane is gone, its host left or removed, or no
// local reader has read it for REMOTE_STREAM_IDLE_MS. A remote whose offsets go
// backward (bytes it sent, again) is cut; a forward jump is a gap the readers are
// told of (decision 061: from here, an honest skip cannot be told from a dishonest one).
import { ACK_CHUNK, ACK_IDLE_MS, FLOW_HIGH_MAX } from '../../kits/protocol/flow';
import { PaneFault } from '../../kits/protocol/error';
import type { ScreenSnapshot } from '../../kits/protocol/pty';
import { DRAIN_POLL_MS, MAX_FRAME_BYTES, SINK_BUFFER_CAP, type StreamSink } from '../pty/fanout';
import type { HandlerContext } from '../handlers/types';
import type { HostLink } from './hostLink';

/**
 * Local numbers of remote panes in binary frames and pty/* answers start here.
 * Frames carry a u32 pane; local panes count up from 1 and would need two billion
 * panes to reach it, so a proxy number never names a local pane.
 */
export const PROXY_PANE_BASE = 0x8000_0000;
/**
 * Bytes of one remote pane's output held here for local readers (the oldest go
 * first; a reader that far behind sees a gap, as with a local pane's 2 MiB ring).
 * Twice FLOW_HIGH_MAX: the remote pauses its PTY at its high mark of bytes we have
 * not acknowledged, and we stop acknowledging at half of this.
 */
export const REMOTE_STREAM_BUFFER = 2 * FLOW_HIGH_MAX;
/** Unacknowledged bytes a flow-controlled local client may hold of a remote pane (a local pane's largest window). */
export const PROXY_WINDOW = FLOW_HIGH_MAX;
/**
 * How long a remote stream nobody here reads is kept (its bytes, up to
 * REMOTE_STREAM_BUFFER, and its proxy number): a window reloading or a follower
 * restarting within it resumes where it was; after it the stream is freed (a later
 * reader attaches anew, from the remote's own ring).
 */
export const REMOTE_STREAM_IDLE_MS = 30_000;
/**
 * How long a reader resuming at a remote pane's live end waits for the host to say
 * where that end is (one link round trip: a few ms, ~25 ms on a 10 ms link). Past it the
 * reader resumes at what arrived here, and draws what was still on its way.
 */
export const LIVE_END_WAIT_MS = 1_000;
/**
 * How far past what arrived here a host's word for its live end is believed: what can
 * be on its way is its flow window (FLOW_HIGH_MAX) and as much again of a stall skip. A
 * larger number is not taken (the reader resumes at what arrived, as if unanswered), so
 * a host cannot park a reader on bytes it will never send.
 */
export const LIVE_END_SLACK = REMOTE_STREAM_BUFFER;

interface Sub {
  sink: StreamSink;
  pos: number;
  flow: boolean;
  sent: number;
  acked: number;
  /** Waiting for the host's live end (resumeAtLiveEnd): nothing is sent to it meanwhile, and it holds back no ack. */
  held: boolean;
}

export class RemoteStream {
  private chunks: { offset: number; data: Buffer }[] = [];
  private held = 0;
  /** The next remote offset expected; null until the first upstream attach answered. */
  received: number | null = null;
  private readonly subs = new Map<string, Sub>();
  /** Bytes received and not yet acknowledged upstream. */
  private owed = 0;
  private ackTimer: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  /** The link connection (generation) the upstream attach was made on. */
  attachedOn = -1;
  private attaching: Promise<void> | null = null;
  /** When it was made, and since when nobody here reads it (null while someone does). */
  readonly createdAt = Date.now();
  idleSince: number | null = Date.now();

  constructor(
    readonly link: HostLink,
    readonly n: number,
    readonly proxy: number,
  ) {}

  get start(): number {
    return this.chunks[0]?.offset ?? this.received ?? 0;
  }

  get subscribers(): number {
    return this.subs.size;
  }

  /** Attaches upstream on the link's current connection unless done already; `from` only for the first. */
  ensureUpstream(from?: number): Promise<void> {
    if (this.attachedOn === this.link.generation) return this.attaching ?? Promise.resolve();
    const gen = this.link.generation;
    this.attachedOn = gen;
    const at = this.received ?? from;
    this.link.streaming.add(this.n);
    this.attaching = this.link
      // flowStart max: this end buffers REMOTE_STREAM_BUFFER and acks as bytes come, so the remote need not probe it from the smallest window.
      .call('pty/attach', { pane: this.n, mode: 'from', ...(at === undefined ? {} : { from: at }), flowControl: true, flowStart: 'max' })
      .then((r) => {
        const lie = attachLie(r, at);
        if (lie) {
          this.link.cut(`its pty/attach answer for pane ${this.n} ${lie} (a remote's offsets only go forward, and only past bytes its ring no longer holds)`);
          throw new PaneFault('failed', `host ${this.link.name} was cut off: its answer for pane ${this.n} ${lie}`, { subject: this.link.name });
        }
        if (this.received === null) this.received = r.from;
        else if (r.from > this.received) this.received = r.from; // the remote's ring moved past: a gap the readers see as a jump
        this.pumpAll();
      })
      .catch((e: unknown) => {
        if (this.attachedOn === gen) this.attachedOn = -1;
        throw e;
      })
      .finally(() => (this.attaching = null));
    return this.attaching;
  }

  /**
   * A frame from the remote for this pane. A backward offset is a lie and cuts the link.
   * A forward one is a gap its readers see as a jump: the remote's ring moved past us
   * (between its attach answer and its first frame, or while its fanout had stopped
   * pacing us after bytes waited on the way). From here that cannot be told from a
   * skip for no cause, and a host that wanted to hide output could as well send other
   * bytes (decision 061).
   */
  take(offset: number, data: Uint8Array): void {
    if (this.received !== null && offset < this.received) {
      this.link.cut(`it sent pane ${this.n}'s output at offset ${offset}, before ${this.received} it had already sent (a remote's offsets only go forward)`);
      return;
    }
    if (!Number.isSafeInteger(offset + data.byteLength)) {
      this.link.cut(`it sent pane ${this.n}'s output at offset ${offset}, past where any stream can reach (2^53 bytes)`);
      return;
    }
    if (data.byteLength === 0) return;
    this.chunks.push({ offset, data: Buffer.from(data) });
    this.held += data.byteLength;
    this.received = offset + data.byteLength;
    while (this.held > REMOTE_STREAM_BUFFER && this.chunks.length > 1) this.held -= (this.chunks.shift() as { data: Buffer }).data.byteLength;
    this.owed += data.byteLength;
    this.pumpAll();
  }

  /**
   * Adds a local reader from `from` (default: the oldest byte held); its answer names
   * the proxy number. A `from` past what arrived here means the live end, as for a local
   * pane: the end of the remote's stream now, asked of the host (resumeAtLiveEnd);
   * `atInput` asks the host the same question and resumes where the link's last keys
   * reached the program there instead, when that is past `from`.
   */
  async attach(sink: StreamSink, flow: boolean, mode: 'snapshot' | 'from', from?: number, atInput = false) {
    await this.ensureUpstream(from);
    let snapshot: ScreenSnapshot | undefined;
    if (mode === 'snapshot') {
      const s = await this.link.call('pty/screen', { pane: this.n });
      snapshot = { ...s, pane: this.proxy };
      from = s.offset;
    }
    const start = this.start;
    const end = this.received ?? start;
    const sub: Sub = { sink, pos: Math.min(end, Math.max(start, from ?? start)), flow, sent: 0, acked: 0, held: false };
    this.subs.set(sink.id, sub);
    this.idleSince = null;
    if (mode === 'from' && (atInput || (from !== undefined && from > end))) await this.resumeAtLiveEnd(sub, atInput);
    const pos = sub.pos;
    const now = this.received ?? start;
    this.pumpAll();
    return { pane: this.proxy, from: pos, gap: from !== undefined && from < start, streamStart: start, streamEnd: Math.max(now, pos), ...(snapshot ? { snapshot } : {}) };
  }

  /**
   * Puts `sub` at the remote's live end: a window's Ctrl-C in a flood (decision 042)
   * drops what waits here, and what is still on its way over the link too. The host is
   * asked where its stream ends now; the question goes after the keys typed before it
   * (the link keeps one order), so the end it names is past every byte the program
   * printed before the interrupt. The reader waits at that end while those bytes arrive
   * (other readers here get them: the upstream stream is theirs too, and is not skipped).
   * `atInput` (pty/attach's): the reader resumes where the link's last keys reached the
   * program there (the answer's `inputAt`), not at the end: the host may have read the
   * ^C's echo and the prompt after it before it answered, and those are drawn. A host
   * that names no such point leaves the reader at what arrived.
   * No answer within LIVE_END_WAIT_MS, or an end not believed (LIVE_END_SLACK): the
   * reader resumes at what arrived.
   */
  private async resumeAtLiveEnd(sub: Sub, atInput: boolean): Promise<void> {
    const base = sub.pos;
    sub.held = true;
    // The reader no longer holds the remote back: what it kept unacknowledged is acked now, beside the
    // question, not one link round trip after its answer. The host, paused at its window under a flood,
    // reads its PTY again at once, so the prompt that follows the interrupt is on its way while it answers.
    this.ackUpstream();
    let timer: NodeJS.Timeout | undefined;
    try {
      const r = await Promise.race([
        this.link.call('pty/read', { pane: this.n, from: Number.MAX_SAFE_INTEGER, maxBytes: 1 }),
        new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), LIVE_END_WAIT_MS);
          timer.unref();
        }),
      ]);
      const remoteEnd = atInput ? r?.inputAt : r?.streamEnd;
      if (this.subs.get(sub.sink.id) === sub && Number.isSafeInteger(remoteEnd) && (remoteEnd as number) <= base + LIVE_END_SLACK) {
        sub.pos = Math.max(sub.pos, remoteEnd as number);
      }
    } catch {
      // The host could not say (its link dropped, an old host): resume at what arrived.
    } finally {
      clearTimeout(timer);
      sub.held = false;
    }
  }

  detach(id: string): void {
    if (!this.subs.delete(id)) return;
    if (this.subs.size === 0) this.idleSince = Date.now();
    if (this.subs.size === 0 && this.attachedOn === this.link.generation && !this.attaching) {
      // Nobody reads it here any more: the remote stops sending it (a later reader attaches again from `received`).
      this.attachedOn = -1;
      this.link.streaming.delete(this.n);
      this.link.call('pty/detach', { pane: this.n }).catch(() => undefined);
      return;
    }
    this.pumpAll();
  }

  /** Client `id` went away: its reading as itself and through every stand-in (readerId). */
  detachClient(id: string): void {
    for (const k of [...this.subs.keys()]) if (k === id || k.startsWith(`${id}${READER_SEP}`)) this.detach(k);
  }

  ack(id: string, bytes: number): number {
    const s = this.subs.get(id);
    if (!s) return 0;
    s.acked += Math.min(s.sent - s.acked, Math.max(0, bytes));
    this.pumpAll();
    return s.sent - s.acked;
  }

  private pumpAll(): void {
    let blocked = false;
    for (const s of this.subs.values()) if (!s.held && !this.pump(s)) blocked = true;
    if (blocked && !this.poll) {
      this.poll = setInterval(() => this.pumpAll(), DRAIN_POLL_MS);
      this.poll.unref();
    } else if (!blocked && this.poll) {
      clearInterval(this.poll);
      this.poll = null;
    }
    this.ackUpstream();
  }

  /** Sends what the reader may take; false when its connection is full (checked again by the poll). */
  private pump(s: Sub): boolean {
    const end = this.received ?? 0;
    while (s.pos < end) {
      if (s.sink.buffered() > SINK_BUFFER_CAP) return false;
      if (s.flow && s.sent - s.acked > PROXY_WINDOW) return true; // its acks pump it again
      const c = this.chunks.find((x) => x.offset + x.data.byteLength > s.pos);
      if (!c) break;
      const at = Math.max(s.pos, c.offset);
      const data = c.data.subarray(at - c.offset, Math.min(c.data.byteLength, at - c.offset + MAX_FRAME_BYTES));
      try {
        s.sink.sendOutput(this.proxy, at, data);
      } catch {
        this.subs.delete(s.sink.id);
        if (this.subs.size === 0) this.idleSince = Date.now();
        return true;
      }
      s.pos = at + data.byteLength;
      if (s.flow) s.sent += data.byteLength;
    }
    return true;
  }

  /** Acknowledges upstream what was received while the slowest local reader is within half the buffer. */
  private ackUpstream(): void {
    // A pending idle ack does not hold back a full chunk: were it to, the remote would hear at most one ack per ACK_IDLE_MS and its window would stay at its floor (a 20 ms link streamed at 6.8 MB/s).
    if (this.owed === 0 || (this.ackTimer && this.owed < ACK_CHUNK)) return;
    const end = this.received ?? 0;
    let behind = 0;
    for (const s of this.subs.values()) if (!s.held) behind = Math.max(behind, end - s.pos + (s.flow ? s.sent - s.acked : 0));
    if (behind > REMOTE_STREAM_BUFFER / 2) return; // the remote pauses this pane until the local readers drain
    const send = (): void => {
      this.ackTimer = null;
      const bytes = this.owed;
      this.owed = 0;
      // A notification, as a window's acks are: a call per ACK_CHUNK cost the link a reply frame back through
      // the host, a timer and a pending entry here each time (a seventh of this daemon's busy time streaming through ssh).
      if (bytes > 0 && this.attachedOn === this.link.generation) this.link.notify('pty/ack', { pane: this.n, bytes });
    };
    if (this.owed >= ACK_CHUNK) {
      if (this.ackTimer) clearTimeout(this.ackTimer);
      send();
    } else {
      this.ackTimer = setTimeout(send, ACK_IDLE_MS);
      this.ackTimer.unref();
    }
  }

  /**
   * The link is connected: on a new connection nothing is owed to the old one, and the
   * stream attaches again from where it is if anyone reads. On the connection it is
   * attached on, nothing changes: the host service calls this at every change of its
   * hosts (a pane listed there, a stale link answering again), and forgetting what is
   * owed then left the host waiting for acks that never came. Under a flood that debt
   * passed half the host's window within seconds, and its PTY stayed paused until the
   * host gave up on this link (ACK_STALL_MS, 2 s): a Ctrl-C in the pane drew no prompt
   * for those 2 s (1 to 3 interrupts in 30 in the bench).
   */
  resume(): void {
    if (this.attachedOn === this.link.generation) return;
    this.owed = 0;
    if (this.subs.size > 0) this.ensureUpstream().catch(() => undefined);
  }

  dispose(): void {
    if (this.poll) clearInterval(this.poll);
    if (this.ackTimer) clearTimeout(this.ackTimer);
    this.subs.clear();
  }

  /** Frees it: the remote stops sending it if attached on the live connection, and nothing here holds its bytes. */
  free(): void {
    if (this.attachedOn === this.link.generation) {
      this.attachedOn = -1;
      this.link.streaming.delete(this.n);
      this.link.call('pty/detach', { pane: this.n }).catch(() => undefined);
    }
    this.dispose();
    this.chunks = [];
    this.held = 0;
  }
}

/**
 * What is false in a remote's pty/attach answer for a stream asked `at` (undefined:
 * from its oldest byte), in words, or null: a start past its own end, an answer from
 * before the asked offset (bytes we have, sent again), or past it while its ring
 * still holds it (bytes skipped for no cause).
 */
export function attachLie(r: { from: number; streamStart: number; streamEnd: number }, at: number | undefined): string | null {
  if (r.streamStart > r.streamEnd) return `names a stream starting at ${r.streamStart}, past its own end ${r.streamEnd}`;
  if (r.from > r.streamEnd) return `starts it at ${r.from}, past its own stream end ${r.streamEnd}`;
  // Asked past its end (a reader's live end, before anything arrived here): its end is the answer.
  if (at !== undefined && r.from < Math.min(at, r.streamEnd)) return `starts it at ${r.from}, before ${at} we asked from and already have`;
  if (at !== undefined && r.from > at && r.streamStart <= at) return `starts it at ${r.from}, past ${at} we asked from, though its ring still holds from ${r.streamStart}`;
  return null;
}

/** Every remote pane streamed here, by `HOST:N` and by proxy number. */
export class RemoteStreams {
  private readonly byKey = new Map<string, RemoteStream>();
  private readonly byProxy = new Map<number, RemoteStream>();
  private next = PROXY_PANE_BASE;

  get(link: HostLink, n: number): RemoteStream {
    const key = `${link.name}:${n}`;
    let s = this.byKey.get(key);
    if (s && s.link !== link) {
      this.free(s);
      s = undefined;
    }
    if (!s) {
      if (this.next > 0xffff_ffff) throw new PaneFault('failed', 'out of proxy pane numbers for remote streams (PROXY_PANE_BASE); restart the server');
      s = new RemoteStream(link, n, this.next++);
      this.byKey.set(key, s);
      this.byProxy.set(s.proxy, s);
    }
    return s;
  }

  /** Remote streams held. */
  get size(): number {
    return this.byKey.size;
  }

  proxy(n: number): RemoteStream | undefined {
    return this.byProxy.get(n);
  }

  /** The `HOST:N` of every remote stream held. */
  keys(): IterableIterator<string> {
    return this.byKey.keys();
  }

  /** Whether HOST:N's stream is held (not freed). */
  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** Frees one stream and its numbers (remoteStream.ts's header says when). */
  free(s: RemoteStream): void {
    s.free();
    if (this.byKey.get(`${s.link.name}:${s.n}`) === s) this.byKey.delete(`${s.link.name}:${s.n}`);
    if (this.byProxy.get(s.proxy) === s) this.byProxy.delete(s.proxy);
  }

  /**
   * Frees each stream whose link is no longer `live` (its host removed, or cut for a
   * lie; a host the person left keeps the streams still read, hostService.sweepStreams),
   * whose remote pane a list known whole since its making (HostLink.listAsOf) no
   * longer holds, or that nobody here
   * has read for REMOTE_STREAM_IDLE_MS.
   */
  sweep(live: (stream: RemoteStream) => boolean, now = Date.now()): void {
    for (const s of [...this.byKey.values()]) {
      const l = s.link;
      const up = l.state === 'connected' || l.state === 'stale';
      // Gone only by a list known whole since the stream was made (not merely a beat answered: events may have been dropped).
      const gone = up && l.listAsOf !== null && l.listAsOf > s.createdAt && !l.panes.some((p) => p.n === s.n);
      const idle = s.subscribers === 0 && s.idleSince !== null && now - s.idleSince >= REMOTE_STREAM_IDLE_MS;
      if (!live(s) || gone || idle) this.free(s);
    }
  }

  /** Output from `link`'s remote for its pane `n`. */
  output(link: HostLink, n: number, offset: number, data: Uint8Array): void {
    const s = this.byKey.get(`${link.name}:${n}`);
    if (s && s.link === link) s.take(offset, data);
  }

  /** The link is (again) connected: each stream read here attaches anew from its last received offset. */
  resume(link: HostLink): void {
    for (const s of this.byKey.values()) if (s.link === link) s.resume();
  }

  /** A client went away: it reads no remote pane any more. */
  detachAll(id: string): void {
    for (const s of this.byKey.values()) s.detachClient(id);
  }
}

/** Between a client's id and a stand-in's number in a reader id: no client id holds it (ids are hex). */
const READER_SEP = '@stand-in ';

/** The reader id of client `client` reading a remote pane through stand-in `pane`: one per tile, so two tiles of one remote pane in one window each keep their own place. */
export function readerId(client: string, pane: number): string {
  return `${client}${READER_SEP}${pane}`;
}

/** Whether a local reader of a remote pane asked for flow control and may have it: a read-only viewer is never waited for (server/handlers/pty.ts's mayPace; agents reach no remote pane at all). */
export function paces(params: Record<string, unknown>, ctx: HandlerContext): boolean {
  return params.flowControl === true && ctx.client.capabilities.has('write') && ctx.client.canWrite;
}
