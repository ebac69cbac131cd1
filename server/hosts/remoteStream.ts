// A joined host's pane streamed to local clients (issue 26, decision 037): ONE
// upstream pty/attach per remote pane over the host link, shared by every local
// subscriber; the bytes are held by the remote's own offsets, re-served to each
// local client with its own position and flow control, and acknowledged upstream
// only while the local backlog is small, so a slow local reader pauses that one
// remote pane (the remote's own flow control), never the link. A dropped link
// re-attaches from the last received offset: nothing lost or doubled; a gap only
// when the remote's ring moved past it (the local client sees the offset jump).
import { ACK_CHUNK, ACK_IDLE_MS, FLOW_HIGH_MAX } from '../../kits/protocol/flow';
import { PaneFault } from '../../kits/protocol/error';
import type { ScreenSnapshot } from '../../kits/protocol/pty';
import { DRAIN_POLL_MS, MAX_FRAME_BYTES, SINK_BUFFER_CAP, type StreamSink } from '../pty/fanout';
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

interface Sub {
  sink: StreamSink;
  pos: number;
  flow: boolean;
  sent: number;
  acked: number;
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
      .call('pty/attach', { pane: this.n, mode: 'from', ...(at === undefined ? {} : { from: at }), flowControl: true })
      .then((r) => {
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

  /** A frame from the remote for this pane; a backward offset is a lie and cuts the link. */
  take(offset: number, data: Uint8Array): void {
    if (this.received !== null && offset < this.received) {
      this.link.cut(`it sent pane ${this.n}'s output at offset ${offset}, before ${this.received} it had already sent (a remote's offsets only go forward)`);
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

  /** Adds a local reader from `from` (default: the oldest byte held); its answer names the proxy number. */
  async attach(sink: StreamSink, flow: boolean, mode: 'snapshot' | 'from', from?: number) {
    await this.ensureUpstream(from);
    let snapshot: ScreenSnapshot | undefined;
    if (mode === 'snapshot') {
      const s = await this.link.call('pty/screen', { pane: this.n });
      snapshot = { ...s, pane: this.proxy };
      from = s.offset;
    }
    const start = this.start;
    const end = this.received ?? start;
    const pos = Math.min(end, Math.max(start, from ?? start));
    this.subs.set(sink.id, { sink, pos, flow, sent: 0, acked: 0 });
    this.pumpAll();
    return { pane: this.proxy, from: pos, gap: from !== undefined && from < start, streamStart: start, streamEnd: end, ...(snapshot ? { snapshot } : {}) };
  }

  detach(id: string): void {
    if (!this.subs.delete(id)) return;
    if (this.subs.size === 0 && this.attachedOn === this.link.generation && !this.attaching) {
      // Nobody reads it here any more: the remote stops sending it (a later reader attaches again from `received`).
      this.attachedOn = -1;
      this.link.streaming.delete(this.n);
      this.link.call('pty/detach', { pane: this.n }).catch(() => undefined);
      return;
    }
    this.pumpAll();
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
    for (const s of this.subs.values()) if (!this.pump(s)) blocked = true;
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
        return true;
      }
      s.pos = at + data.byteLength;
      if (s.flow) s.sent += data.byteLength;
    }
    return true;
  }

  /** Acknowledges upstream what was received while the slowest local reader is within half the buffer. */
  private ackUpstream(): void {
    if (this.owed === 0 || this.ackTimer) return;
    const end = this.received ?? 0;
    let behind = 0;
    for (const s of this.subs.values()) behind = Math.max(behind, end - s.pos + (s.flow ? s.sent - s.acked : 0));
    if (behind > REMOTE_STREAM_BUFFER / 2) return; // the remote pauses this pane until the local readers drain
    const send = (): void => {
      this.ackTimer = null;
      const bytes = this.owed;
      this.owed = 0;
      if (bytes > 0 && this.attachedOn === this.link.generation) this.link.call('pty/ack', { pane: this.n, bytes }).catch(() => undefined);
    };
    if (this.owed >= ACK_CHUNK) send();
    else {
      this.ackTimer = setTimeout(send, ACK_IDLE_MS);
      this.ackTimer.unref();
    }
  }

  /** A new link connection: nothing is owed to the old one; attach again from where we are if anyone reads. */
  resume(): void {
    this.owed = 0;
    if (this.subs.size > 0 && this.attachedOn !== this.link.generation) this.ensureUpstream().catch(() => undefined);
  }

  dispose(): void {
    if (this.poll) clearInterval(this.poll);
    if (this.ackTimer) clearTimeout(this.ackTimer);
    this.subs.clear();
  }
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
      s.dispose();
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

  proxy(n: number): RemoteStream | undefined {
    return this.byProxy.get(n);
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
    for (const s of this.byKey.values()) s.detach(id);
  }
}
