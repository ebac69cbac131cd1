// The namespace's own state beside the server's: the event and log feeds (fed
// by server.listen, so they see every change however it was made), open
// handles per client, offered executions, text-pane bodies. Nothing here copies
// pane state; files are computed from the server on each read.
import { PaneFault } from '../../kits/protocol/error';
import type { Pane } from '../../kits/protocol/model';
import type { PaneServer } from '../paneServer';
import { setReaderWords } from '../model/appWords';
import { Feed } from './feed';
import type { Interceptor } from './intercept';
import { field, tagLine } from './lines';
import type { Fid, RemoteNs } from './types';

/**
 * Open namespace handles one connection may hold. A FUSE mount is one connection
 * for every program using it, and a handle on event or log holds a reader, so
 * the bound is generous (far more files than a desktop keeps open at once) but
 * stops a client that opens and never closes from growing the server forever.
 */
export const MAX_HANDLES_PER_CLIENT = 4096;

/** Bytes of recent log lines a path read (cat, tail -f) sees before the generation starts over. */
export const LOG_KEEP = 1 << 20;
/** The same for each pane's event file. */
export const EVENT_KEEP = 64 << 10;
/** Offered executions a pane remembers for write-back; older ones can no longer be performed. */
export const OFFERS_KEPT = 256;
/** A text pane's body is held in memory; past this, appends are refused. */
export const TEXT_MAX = 16 << 20;

export interface Offer {
  line: string;
  origin: string;
  by: string;
}

interface Seen {
  cols: number;
  rows: number;
  state: string;
  attrs: Record<string, string>;
}

export class Namespace {
  readonly log = new Feed(LOG_KEEP);
  readonly texts = new Map<number, Buffer>();
  /** Terminal bodies: the last snapshot's text, reused while the stream has not moved and the pane's size and exit (`shape`) are the same. */
  readonly bodies = new Map<number, { end: number; shape: string; text: Buffer; at: number }>();
  readonly offers = new Map<number, Map<number, Offer>>();
  private readonly events = new Map<number, Feed>();
  private readonly seqs = new Map<number, number>();
  private readonly seen = new Map<number, Seen>();
  private readonly focus = new Map<string, { focused: number | null; zoomed: number | null }>();
  private readonly fids = new Map<string, Map<number, Fid>>();
  private nextFid = 1;
  /** Who intercepts each pane's executions: the reader holding its event file open read-write. */
  private readonly interceptors = new Map<number, Interceptor>();
  /** The joined hosts' panes (/HOST:N/…), set by attachHosts; undefined on a server that joins none. */
  remote: RemoteNs | undefined;

  constructor(readonly server: PaneServer) {
    for (const p of server.panes.values()) this.remember(p);
    server.listen((event, data) => this.observe(event, data as Record<string, unknown>));
  }

  interceptorOf(pane: number): Interceptor | undefined {
    return this.interceptors.get(pane);
  }

  setInterceptor(pane: number, i: Interceptor | null): void {
    if (i !== null) return void this.interceptors.set(pane, i);
    this.interceptors.delete(pane);
    // The words that reader added go with it.
    const live = this.server.panes.get(pane);
    if (live && this.server.readerWords.has(pane)) setReaderWords(this.server, live, []);
    this.server.readerWords.delete(pane);
  }

  // ---- feeds ----------------------------------------------------------------

  eventFeed(n: number): Feed {
    let f = this.events.get(n);
    if (f) return f;
    f = new Feed(EVENT_KEEP);
    // A pane already gone gets an empty, unkept feed (a late read of a handle), not a leak.
    if (this.server.panes.has(n)) this.events.set(n, f);
    return f;
  }

  /** Appends "SEQ KIND ORIGIN BY TEXT" to a pane's event file; returns SEQ. */
  emit(n: number, kind: string, text: string, origin = '-', by = '-'): number {
    const seq = (this.seqs.get(n) ?? 0) + 1;
    this.seqs.set(n, seq);
    this.eventFeed(n).append(`${seq} ${kind} ${field(origin)} ${field(by)} ${text}`.trimEnd());
    return seq;
  }

  offer(n: number, o: Offer): number {
    const seq = this.emit(n, 'offered', o.line, o.origin, o.by);
    let m = this.offers.get(n);
    if (!m) this.offers.set(n, (m = new Map()));
    m.set(seq, o);
    if (m.size > OFFERS_KEPT) m.delete(m.keys().next().value as number);
    return seq;
  }

  sessionName(id: string): string {
    return this.server.sessions.get(id)?.name ?? id.slice(0, 8);
  }

  // ---- handles --------------------------------------------------------------

  /** Opens a handle for a client; refused (`busy`) past MAX_HANDLES_PER_CLIENT. */
  addFid(f: Omit<Fid, 'id'>): Fid {
    let m = this.fids.get(f.client);
    if (m && m.size >= MAX_HANDLES_PER_CLIENT) {
      f.reader?.close();
      throw new PaneFault('busy', `client ${f.client} has ${MAX_HANDLES_PER_CLIENT} namespace files open already; close some (ns/close) first`, { subject: f.path });
    }
    const fid: Fid = { ...f, id: this.nextFid++ };
    if (!m) this.fids.set(f.client, (m = new Map()));
    m.set(fid.id, fid);
    return fid;
  }

  fid(client: string, id: number): Fid | undefined {
    return this.fids.get(client)?.get(id);
  }

  closeFid(f: Fid): void {
    this.fids.get(f.client)?.delete(f.id);
    f.reader?.close();
    if (f.intercepting !== undefined) this.setInterceptor(f.intercepting, null);
  }

  /** The handles a connection holds open (access re-checks walk them). */
  fidsOf(client: string): Fid[] {
    return [...(this.fids.get(client)?.values() ?? [])];
  }

  openFids(): number {
    let n = 0;
    for (const m of this.fids.values()) n += m.size;
    return n;
  }

  private closeClient(client: string): void {
    for (const f of [...(this.fids.get(client)?.values() ?? [])]) this.closeFid(f);
    this.fids.delete(client);
  }

  // ---- what the server says happened -----------------------------------------

  private remember(p: Pane): void {
    this.seen.set(p.n, { cols: p.cols, rows: p.rows, state: p.state, attrs: { ...p.attrs } });
  }

  private observe(event: string, d: Record<string, unknown>): void {
    switch (event) {
      case 'pane/created': {
        const p = d.pane as Pane;
        this.remember(p);
        this.emit(p.n, 'created', `${field(this.sessionName(p.session))} ${p.signature}`);
        return this.logLine(p.n, 'new', `${field(this.sessionName(p.session))} ${p.signature} ${field(p.tag.name)}`);
      }
      case 'pane/closed': {
        const n = d.pane as number;
        this.emit(n, 'closed', '');
        this.logLine(n, 'close', field(this.sessionName(d.session as string)));
        this.forget(n);
        return;
      }
      case 'pane/exited': {
        const n = d.pane as number;
        const e = d.exit as { code: number | null; signal: number | null };
        const how = e.signal !== null ? `signal=${e.signal}` : `code=${e.code ?? '?'}`;
        this.emit(n, 'exited', how);
        return this.logLine(n, 'exit', how);
      }
      case 'pane/restarted': {
        const p = d.pane as Pane;
        this.emit(p.n, 'restarted', '');
        return this.logLine(p.n, 'restart', '');
      }
      case 'pane/executed': {
        const n = d.pane as number;
        this.emit(n, 'executed', d.line as string, d.origin as string, d.by as string);
        return this.logLine(n, 'exec', `${field(d.origin as string)} ${field(d.by as string)} ${d.line as string}`);
      }
      case 'pane/tag-changed': {
        const n = d.pane as number;
        const line = tagLine({ tag: d.tag as Pane['tag'] });
        this.emit(n, 'tag', line);
        return this.logLine(n, 'tag', line);
      }
      case 'pane/attrs-changed':
        return this.attrsChanged(d.pane as number, d.attrs as Record<string, string>);
      case 'pane/changed':
        return this.paneChanged(d.pane as Pane);
      case 'focus/changed':
        return this.focusChanged(d.session as string, d.focused as number | null, d.zoomed as number | null);
      case 'session/created': {
        const s = d.session as { name: string };
        return this.logLine(null, 'session-new', field(s.name));
      }
      case 'session/closed':
        this.focus.delete(d.session as string);
        return this.logLine(null, 'session-close', field(d.name as string));
      case 'agent/denied': {
        // Every refusal of an agent is a pane operation refused: one line, `- denied NAME METHOD REASON`.
        return this.logLine(null, 'denied', `${field(d.name as string)} ${d.method as string} ${d.reason as string}`);
      }
      case 'client/refused':
        // A door turning a connection away: `- refused DOOR: REASON`.
        return this.logLine(null, 'refused', `${d.door as string}: ${d.reason as string}`);
      case 'plumb/fired':
        return this.logLine((d.pane as number | undefined) ?? null, 'plumb', `${field(d.by as string)} ${d.rule as string} ${d.action as string}`);
      case 'grant/changed':
        // `- grant ID issued ro until ISO` / `- grant ID revoked (N closed)`.
        return this.logLine(null, 'grant', d.change === 'issued' ? `${d.id as string} issued ${d.mode as string} until ${new Date(d.expiresAt as number).toISOString()}` : `${d.id as string} revoked (${d.closed as number} closed)`);
      case 'client/typed':
        // `N typed grant G (read-write) CLIENT`: a guest's keys reached the pane (once a connection).
        return this.logLine(d.pane as number, 'typed', `${field(d.by as string)} ${d.client as string}`);
      case 'client/attached':
      case 'client/detached': {
        const verb = event === 'client/attached' ? 'attach' : 'detach';
        const pane = d.pane as number | undefined;
        // Connections come and go with every CLI command; only a client taking a pane's stream is a pane operation.
        if (pane !== undefined) this.logLine(pane, verb, `${field(d.name as string)} ${d.client as string}`);
        // A connection that ends takes its handles with it: an interceptor that
        // dies stops intercepting, and its blocked reads end.
        if (event === 'client/detached' && pane === undefined) this.closeClient(d.client as string);
        return;
      }
    }
  }

  private logLine(n: number | null, op: string, text: string): void {
    this.log.append(`${n === null ? '-' : n} ${op} ${text}`.trimEnd());
  }

  private attrsChanged(n: number, attrs: Record<string, string>): void {
    const s = this.seen.get(n);
    const before = s?.attrs ?? {};
    const diff: string[] = [];
    for (const [k, v] of Object.entries(attrs)) if (before[k] !== v) diff.push(`${k}=${v}`);
    for (const k of Object.keys(before)) if (!(k in attrs)) diff.push(`${k}=`);
    if (s) s.attrs = { ...attrs };
    if (diff.length > 0) this.emit(n, 'attrs', diff.map((x) => x.replace(/\s+/g, '_')).join(' '));
  }

  private paneChanged(p: Pane): void {
    const s = this.seen.get(p.n);
    if (!s) return this.remember(p);
    if (s.cols !== p.cols || s.rows !== p.rows) this.emit(p.n, 'resized', `${p.cols}x${p.rows}`);
    if (s.state !== p.state) this.emit(p.n, 'state', p.state);
    s.cols = p.cols;
    s.rows = p.rows;
    s.state = p.state;
  }

  private focusChanged(session: string, focused: number | null, zoomed: number | null): void {
    const before = this.focus.get(session) ?? { focused: null, zoomed: null };
    this.focus.set(session, { focused, zoomed });
    if (before.focused !== focused) {
      if (before.focused !== null && this.seen.has(before.focused)) this.emit(before.focused, 'focus', 'off');
      if (focused !== null) {
        this.emit(focused, 'focus', 'on');
        this.logLine(focused, 'focus', field(this.sessionName(session)));
      }
    }
    if (before.zoomed !== zoomed) {
      if (before.zoomed !== null && this.seen.has(before.zoomed)) this.emit(before.zoomed, 'zoom', 'off');
      if (zoomed !== null) {
        this.emit(zoomed, 'zoom', 'on');
        this.logLine(zoomed, 'zoom', 'on');
      }
    }
  }

  /** A closed pane: its readers get end of file, its buffers go. */
  private forget(n: number): void {
    this.events.get(n)?.end();
    this.events.delete(n);
    this.seqs.delete(n);
    this.seen.delete(n);
    this.texts.delete(n);
    this.bodies.delete(n);
    this.offers.delete(n);
    this.setInterceptor(n, null);
  }
}
