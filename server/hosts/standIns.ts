// Remote panes tiled in the local window (issue 26, decision 037): a stand-in is a
// local pane of body kind `remote` (server/model/bodies/remote.ts) whose attrs name
// HOST and N. The layout, focus, zoom, float and keys hold its local number; here its
// terminal requests go to the remote pane: its stream under the stand-in's number,
// its input through the host's ordered queue, its size from the local layout. Each
// heartbeat the stand-in follows its host's link (the tag's stale badge) and its
// remote pane (ended, or gone). Closing it removes only the stand-in.
import { bodyOf as providerOf } from '../model/bodies/registry';
import { faults, PaneFault } from '../../kits/protocol/error';
import { parsePaneRef, type PaneRef } from '../../kits/protocol/ids';
import type { MethodName, Params } from '../../kits/protocol/index';
import type { Pane, Session } from '../../kits/protocol/model';
import type { PaneAck } from '../../kits/protocol/pane';
import type { HandlerContext } from '../handlers/types';
import { followRemote, remoteOf, REMOTE_HOST_ATTR, REMOTE_LINK_ATTR, REMOTE_N_ATTR } from '../model/bodies/remote';
import { LINK_CUT_OFF } from '../../kits/protocol/standIn';
import { createPane } from '../model/lifecycle';
import { vocabularyFor } from '../model/vocabulary';
import { setAttrs, setTag, setVocabulary, syncFloatWord } from '../model/paneOps';
import * as model from '../model/session';
import { bodyOf, chromeOf } from '../../kits/layout/geometry';
import type { StreamSink } from '../pty/fanout';
import type { PaneServer } from '../paneServer';
import { readOnlyFault, type HostLink } from './hostLink';
import type { HostService } from './hostService';
import { paces, readerId } from './remoteStream';
import { clip } from '../../kits/protocol/shown';

/** Requests on a stand-in that reach its remote pane; every other request (focus, close, zoom, float, split, tag) is the local pane's. */
const TO_REMOTE = new Set<MethodName>(['pty/attach', 'pty/detach', 'pty/ack', 'pty/screen', 'pty/read', 'pty/resize', 'pane/input', 'pane/restart']);

/** What became of a remote pane, as the link's last pane list says. */
const GONE_ATTR = 'remote.gone';

/** The stand-ins of the server, and their routing to the hosts' links. */
export class StandIns {
  /** Per stand-in: the stream readers attached through it (detached when it closes), and the size last sent to the remote. */
  private readonly bound = new Map<number, { key: string; sinks: Set<string>; sent: string }>();
  /** The stand-ins' local numbers, kept as panes are made and closed: a layout change resizes them without a walk over every pane. */
  private readonly numbers = new Set<number>();
  private readonly stops: (() => void)[] = [];

  constructor(
    private readonly server: PaneServer,
    private readonly hosts: HostService,
  ) {
    this.stops.push(
      server.listen((event, data) => {
        if (event === 'layout/changed' || event === 'pane/changed') {
          if (this.numbers.size > 0) this.resizeAll();
        } else if (event === 'pane/closed') {
          this.numbers.delete((data as { pane: number }).pane);
          this.forget((data as { pane: number }).pane);
        } else if (event === 'pane/created') {
          const made = (data as { pane: Pane }).pane;
          if (!providerOf(made.kind).standIn) return;
          this.numbers.add(made.n);
          // Each heartbeat from now: the link's state on the tag, and the remote pane's fate.
          this.hosts.heartbeat.poke();
          // A stand-in brought back (a restored session, the journal) says its link's state now, not the saved one.
          queueMicrotask(() => {
            const p = server.panes.get(made.n);
            if (p && providerOf(p.kind).standIn) this.follow(p);
          });
        }
      }),
    );
  }

  stop(): void {
    for (const s of this.stops.splice(0)) s();
  }

  /** The stand-in a request's `pane` names (a local number, or this server's own HOST:N); undefined for any other. */
  of(ref: unknown): Pane | undefined {
    if (typeof ref !== 'number' && typeof ref !== 'string') return undefined;
    let n: number;
    try {
      const r = parsePaneRef(ref as PaneRef);
      if (r.host !== undefined && r.host !== this.server.host) return undefined;
      n = r.n;
    } catch {
      return undefined;
    }
    const p = this.server.panes.get(n);
    return p && providerOf(p.kind).standIn ? p : undefined;
  }

  /** Every stand-in now. */
  all(): Pane[] {
    const out: Pane[] = [];
    for (const n of this.numbers) {
      const p = this.server.panes.get(n);
      if (p && providerOf(p.kind).standIn) out.push(p);
      else this.numbers.delete(n);
    }
    return out;
  }

  /**
   * host/show: a stand-in for HOST:N beside a local pane (or floated). A remote pane
   * already shown is focused where it is, not shown twice (one stream, one number).
   */
  async show(p: Params<'host/show'>, ctx: HandlerContext): Promise<PaneAck> {
    if (ctx.client.checkAccess !== undefined) {
      throw new PaneFault('denied', `denied: host/show of ${p.remote}: an agent's .access names this server's panes only; other hosts' panes are the person's (decision 037)`, { reason: 'remote pane', subject: p.remote });
    }
    const { host, n } = parsePaneRef(p.remote);
    if (host === undefined || host === this.server.host) throw faults.badRequest(`${p.remote} is a pane of this server; host/show takes another host's pane as HOST:N`, 'remote');
    const link = this.joinedLink(host);
    let remote = link.panes.find((x) => x.n === n);
    if (!remote) {
      await link.refresh();
      remote = link.panes.find((x) => x.n === n);
    }
    if (!remote) throw new PaneFault('pane-not-found', `pane ${p.remote} not found: host ${host} has ${link.panes.map((x) => `${host}:${x.n}`).join(', ') || 'no panes'} (pane ls lists them)`, { subject: p.remote });
    const shown = this.shownAs(`${host}:${n}`);
    if (shown) {
      const s = this.server.sessionOf(shown);
      model.publish(this.server, model.isFloating(s, shown.n) ? model.focusFloat(s, shown.n) : model.focusPane(s, shown.n));
      return { session: s.id, pane: shown.n, id: this.server.address(shown.n) };
    }
    const at = p.pane === undefined ? undefined : this.server.pane(p.pane, p.session);
    const s: Session = at ? this.server.sessionOf(at) : this.server.session(p.session);
    const spec = this.specFor(link, remote, ctx.client.user);
    let pane: Pane;
    if (p.float) {
      const rect = model.defaultFloatRect(s);
      pane = createPane(this.server, s, spec, bodyOf(rect, chromeOf(s.viewport)));
      model.publish(this.server, model.addFloat(s, pane.n, rect));
      syncFloatWord(this.server, pane, true);
    } else {
      const anchor = model.splitAnchor(s, at?.n);
      const direction = p.direction ?? 'horizontal';
      pane = createPane(this.server, s, spec, model.roomySplitBody(s, anchor, direction, 50));
      model.publish(this.server, model.split(s, anchor, pane.n, direction, 50));
    }
    this.follow(pane);
    return { session: s.id, pane: pane.n, id: this.server.address(pane.n) };
  }

  /** The link of a joined host (connected, or stale and still held), or a refusal naming its state and the fix. */
  joinedLink(host: string): HostLink {
    const link = this.hosts.link(host);
    if (link.state !== 'connected' && link.state !== 'stale') {
      throw new PaneFault('failed', `host ${host} is ${link.state}${link.error ? ` (${link.error})` : ''}: join it first (pane host connect ${host})`, { subject: host });
    }
    return link;
  }

  /** The stand-in tiling remote pane `key` (HOST:N), wherever it is: a remote pane is tiled once (one stream, one size). */
  shownAs(key: string): Pane | undefined {
    return this.all().find((x) => remoteOf(x) === key);
  }

  /** What a stand-in for `remote` (a pane of `link`'s host, numbered as there) is made of. */
  specFor(link: HostLink, remote: Pane, creator: string) {
    const key = `${link.name}:${remote.n}`;
    return {
      kind: 'remote' as const,
      name: remote.tag.name,
      signature: 'com.pane.remote',
      // What the stand-in "runs", as views that print a program name say it (the exit line, pane ls).
      launch: { program: key, args: [] },
      attrs: { [REMOTE_HOST_ATTR]: link.name, [REMOTE_N_ATTR]: String(remote.n), [REMOTE_LINK_ATTR]: link.state },
      creator,
    };
  }

  /**
   * A request naming a stand-in: its answer from the remote pane, or undefined for a
   * request the local pane answers (layout, focus, tag, close). An agent reaches no
   * other host's pane through a stand-in, as through HOST:N.
   */
  route(method: MethodName, params: Record<string, unknown>, ctx: HandlerContext, pane: Pane): Promise<unknown> | undefined {
    if (!TO_REMOTE.has(method)) return undefined;
    const key = remoteOf(pane);
    if (ctx.client.checkAccess !== undefined) {
      throw new PaneFault('denied', `denied: ${method} on pane ${pane.n}: it stands in for ${key ?? 'a remote pane'}, and an agent's .access names this server's panes only (decision 037)`, { reason: 'remote pane', subject: String(pane.n) });
    }
    if (!key) throw faults.failed(`pane ${pane.n} stands in for a remote pane but its attrs do not name one (${REMOTE_HOST_ATTR}, ${REMOTE_N_ATTR}); close it and show the pane again (pane host show HOST:N)`);
    const { host, n } = parsePaneRef(key);
    const link = this.linkOf(pane, host as string, method);
    const here = pane.n;
    // The remote pane closed there: say so by the stand-in, not the remote's bare "pane N not found".
    const gone = pane.attrs[GONE_ATTR];
    if (typeof gone === 'string' && method !== 'pty/detach' && method !== 'pty/ack') {
      throw new PaneFault('failed', `${method} on pane ${here}: ${gone}; close this stand-in (pane close -t ${here})`, { subject: String(here) });
    }
    if (method === 'pty/attach' || method === 'pty/detach' || method === 'pty/ack') {
      return this.stream(method, params, link, n, ctx, pane);
    }
    if (method === 'pane/input') {
      if (link.entry.readOnly) throw this.readOnly(link, method, pane);
      return this.hosts.input(link, { ...params, pane: n }, ctx).then(() => ({ pane: here, bytes: Buffer.byteLength(String(params.data ?? ''), params.encoding === 'base64' ? 'base64' : 'utf8') }));
    }
    if (method === 'pty/resize' || method === 'pane/restart') {
      if (link.entry.readOnly) throw this.readOnly(link, method, pane);
      return link.call(method, { ...params, pane: n } as never).then((r) => ({ ...(r as object), pane: here, ...(method === 'pane/restart' ? { session: pane.session, id: this.server.address(here) } : {}) }));
    }
    // pty/screen, pty/read: the remote pane's, named by the stand-in's number.
    return link.call(method, { ...params, pane: n } as never).then((r) => ({ ...(r as object), pane: here }));
  }

  private linkOf(pane: Pane, host: string, method: MethodName): HostLink {
    const link = this.hosts.links.get(host);
    if (!link) throw new PaneFault('failed', `${method} on pane ${pane.n}: it stands in for ${remoteOf(pane)}, and there is no host ${host} (no ${host}.json in ${this.hosts.dir}); add it back, or close the stand-in`, { subject: host });
    return link;
  }

  private readOnly(link: HostLink, method: MethodName, pane: Pane): PaneFault {
    return readOnlyFault(link, method, String(pane.n), `pane ${pane.n} stands in for ${remoteOf(pane)} and host ${link.name}`);
  }

  /** The remote pane's stream for a window reading the stand-in: its frames and answers carry the stand-in's number. */
  private async stream(method: MethodName, params: Record<string, unknown>, link: HostLink, n: number, ctx: HandlerContext, pane: Pane): Promise<unknown> {
    const s = this.hosts.streams.get(link, n);
    const sink = ctx.client.sink;
    const b = this.bind(pane);
    // A reader per client AND stand-in: one window showing box:3 in two tiles (a restored session beside a live one) reads it twice, each at its own place.
    const id = readerId(sink.id, pane.n);
    if (method === 'pty/detach') {
      s.detach(id);
      b.sinks.delete(id);
      return { pane: pane.n };
    }
    if (method === 'pty/ack') return { pane: pane.n, unacked: s.ack(id, params.bytes as number) };
    if (link.state !== 'connected' && link.state !== 'stale') {
      throw new PaneFault('failed', `pane ${pane.n} stands in for ${remoteOf(pane)}, and host ${link.name} is ${link.state}${link.error ? ` (${link.error})` : ''}: the window attaches it again once ${link.name} is joined (pane host connect ${link.name})`, { subject: link.name });
    }
    const here = pane.n;
    const renamed: StreamSink = { id, sendOutput: (_p, offset, data) => sink.sendOutput(here, offset, data), buffered: () => sink.buffered() };
    const r = await s.attach(renamed, paces(params, ctx), params.mode === 'snapshot' ? 'snapshot' : 'from', params.from as number | undefined, params.atInput === true);
    b.sinks.add(id);
    return { ...r, pane: here, ...(r.snapshot ? { snapshot: { ...r.snapshot, pane: here } } : {}) };
  }

  private bind(pane: Pane): { key: string; sinks: Set<string>; sent: string } {
    const key = remoteOf(pane) ?? '';
    let b = this.bound.get(pane.n);
    if (!b || b.key !== key) {
      b = { key, sinks: new Set(), sent: '' };
      this.bound.set(pane.n, b);
    }
    return b;
  }

  /** A stand-in closed: its readers leave the remote stream (the remote pane runs on). */
  private forget(n: number): void {
    const b = this.bound.get(n);
    if (!b) return;
    this.bound.delete(n);
    const { host, n: rn } = parsePaneRef(b.key);
    const link = host === undefined ? undefined : this.hosts.links.get(host);
    // A stream already freed (its host left, its pane gone) is not made again just to be left.
    if (!link || !this.hosts.streams.has(b.key)) return;
    const s = this.hosts.streams.get(link, rn);
    for (const id of b.sinks) s.detach(id);
  }

  /** The remote pane takes the size its stand-in is laid out at (the last sizer wins: the remote's own window re-fits it at its next layout change). */
  private resizeAll(): void {
    for (const pane of this.all()) {
      const key = remoteOf(pane);
      if (!key) continue;
      const { host, n } = parsePaneRef(key);
      const link = this.hosts.links.get(host as string);
      if (!link || link.entry.readOnly || (link.state !== 'connected' && link.state !== 'stale')) continue;
      const b = this.bind(pane);
      const size = `${link.generation}:${pane.cols}x${pane.rows}`;
      if (b.sent === size) continue;
      b.sent = size;
      link.call('pty/resize', { pane: n, cols: pane.cols, rows: pane.rows }).catch(() => (b.sent = ''));
    }
  }

  /** Every stand-in follows its link and its remote pane (each heartbeat, and when a host changes). */
  sync(): void {
    for (const pane of this.all()) this.follow(pane);
    this.resizeAll();
    this.afterSync?.();
  }

  /** Run after each sync: the attached host sessions follow theirs (hostSessions.ts). */
  afterSync: (() => void) | undefined;

  private follow(pane: Pane): void {
    const key = remoteOf(pane);
    if (!key) return;
    const { host, n } = parsePaneRef(key);
    const link = this.hosts.links.get(host as string);
    // A cut link is not dialled again: its badge says so, not that output resumes by itself.
    const state = link ? (link.cutOff ? LINK_CUT_OFF : link.state) : 'no host file';
    setAttrs(this.server, pane, { [REMOTE_LINK_ATTR]: state });
    // The remote pane's fate is known only from a link that is up (a down link's list is empty, not news).
    if (!link || (link.state !== 'connected' && link.state !== 'stale')) return;
    const remote = link.panes.find((x) => x.n === n);
    if (!remote) {
      if (pane.attrs[GONE_ATTR] === undefined) {
        setAttrs(this.server, pane, { [GONE_ATTR]: `${key} is no longer on ${host}: closed there` });
        followRemote(this.server, pane, { code: null, signal: null, at: Date.now() });
      }
      return;
    }
    setAttrs(this.server, pane, { [GONE_ATTR]: null });
    followRemote(this.server, pane, remote.state === 'exited' ? (remote.exit ?? { code: null, signal: null, at: Date.now() }) : null);
    if (remote.tag.name !== pane.tag.name && remote.tag.name !== '') setTag(this.server, pane, { name: remote.tag.name });
    borrowWords(this.server, pane, remote, host as string);
  }
}

/**
 * Words of a remote pane's vocabulary that open views of that host's agent accounts
 * (agent/open there) or its diff review (a widget there): the view would open on the
 * host, out of sight here. An agent
 * across hosts is reached as NAME@HOST (pane finger ada@box) instead.
 */
const NOT_BORROWED = new Set(['finger', 'mail', 'write', 'plan', 'access', 'review']);

/**
 * A stand-in's vocabulary: its own words (close, zoom, split, kill…) and the remote
 * pane's words it lacks (a terminal's restart, an app's own words there), each run on
 * the remote pane (commandLine.ts forwards them as pane/exec to HOST:N). Kept as the
 * remote pane's words change, at each heartbeat and event.
 */
/**
 * Words borrowed from one remote pane. A terminal has about sixteen and an app a few
 * dozen; past this a host is sending a vocabulary no person reads, and every copy of it
 * costs this server (the tag, the window's state, the palette). The rest are left out.
 */
export const MAX_BORROWED_WORDS = 64;
/** A borrowed word's name, in characters: longer names are not words a person types (the rest of the word is left out). */
export const MAX_BORROWED_NAME = 40;
/** A borrowed word's doc, in characters (cut with …): one line in the palette. */
export const MAX_BORROWED_DOC = 200;
/** Arguments of one borrowed word: the built-in words take at most three. */
export const MAX_BORROWED_ARGS = 8;
/** An argument's name, doc or one of its values, in characters; and how many values an enum argument may list. */
const MAX_BORROWED_ARG_TEXT = 100;
const MAX_BORROWED_ARG_VALUES = 32;


export function borrowWords(server: PaneServer, pane: Pane, remote: Pane, host: string): void {
  const own = vocabularyFor('remote');
  const names = new Set(own.map((c) => c.name));
  // A host's words are its own: capped in count and size, their text escaped where shown.
  const borrowed = remote.vocabulary
    .filter((c) => !names.has(c.name) && !NOT_BORROWED.has(c.name) && c.name.length <= MAX_BORROWED_NAME)
    .slice(0, MAX_BORROWED_WORDS)
    .map((c) => ({
      name: c.name,
      doc: `${clip(c.doc, MAX_BORROWED_DOC)} (on ${host})`,
      args: c.args.slice(0, MAX_BORROWED_ARGS).map((a) => ({
        name: clip(a.name, MAX_BORROWED_ARG_TEXT),
        type: a.type,
        ...(a.values ? { values: a.values.slice(0, MAX_BORROWED_ARG_VALUES).map((v) => clip(v, MAX_BORROWED_ARG_TEXT)) } : {}),
        ...(a.optional !== undefined ? { optional: a.optional } : {}),
        ...(a.doc !== undefined ? { doc: clip(a.doc, MAX_BORROWED_ARG_TEXT) } : {}),
      })),
      ...(c.inTag !== undefined ? { inTag: c.inTag } : {}),
      remote: true,
    }));
  setVocabulary(server, pane, [...own, ...borrowed]);
}