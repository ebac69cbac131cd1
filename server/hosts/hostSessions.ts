// A joined host's session attached here (issue 34, item 7): `pane session attach
// box:work` makes a local session named `box:work` whose tiles are stand-ins
// (standIns.ts) for the panes of box's session `work`, laid out as box lays them out,
// and keeps it following that session: a pane opened there is tiled here at the next
// heartbeat or event, one closed there leaves, and when the session ends there the
// local one ends too. It is a view: closing a tile here leaves the remote pane running
// (and the tile stays closed until the next attach); `pane session kill box:work` ends
// the session on box (and so this view).
import { PaneFault } from '../../kits/protocol/error';
import type { Pane, Session } from '../../kits/protocol/model';
import type { SessionSnapshot } from '../../kits/protocol/session';
import { clip, shown } from '../../kits/protocol/shown';
import { leaves } from '../../kits/layout/tree';
import type { HandlerContext } from '../handlers/types';
import { bodyOf as providerOf } from '../model/bodies/registry';
import { remoteOf } from '../model/bodies/remote';
import { createPane, destroyPane, killSession } from '../model/lifecycle';
import * as model from '../model/session';
import type { PaneServer } from '../paneServer';
import type { HostLink } from './hostLink';
import type { StandIns } from './standIns';

/** A host's session name as the local view's name holds it, in characters: the protocol's own bound on a session name. */
const MAX_REMOTE_SESSION_NAME = 100;

/**
 * Tiles one view holds at most. A person's session has a handful of panes (tmux caps
 * nothing, but a window of more than this shows each too small to read); a host that
 * answers with thousands is lying, and each stand-in costs this server a pane.
 */
export const MAX_VIEW_TILES = 64;

/** What attaching made or found. */
export interface Attached {
  session: Session;
  /** Remote panes tiled by this attach (0 when the view already showed them all). */
  tiled: number;
  /** Remote panes of the session already tiled in another local session, as `HOST:N in SESSION`: a remote pane is tiled once. */
  elsewhere: string[];
}

/** The local name of host `host`'s session `name`: the name the CLI gives it, escaped (a host's words are data). */
export function viewName(host: string, name: string): string {
  return `${host}:${shown(clip(name, MAX_REMOTE_SESSION_NAME))}`;
}

export class HostSessions {
  /**
   * Per view (local session id): when attach last made or filled it, and the remote
   * panes it knew to be in that session there (a pane opened there later, or moved
   * into it, is not among them; one whose tile was closed here is, and stays closed).
   */
  private readonly views = new Map<string, { filledAt: number; seen: ReadonlySet<number> }>();

  constructor(
    private readonly server: PaneServer,
    private readonly standIns: StandIns,
    private readonly links: ReadonlyMap<string, HostLink>,
  ) {}

  /** The local view of `host`'s session `name`, if one is open. */
  viewOf(host: string, name: string): Session | undefined {
    const wanted = viewName(host, name);
    return [...this.server.sessions.values()].find((s) => s.name === wanted);
  }

  /**
   * session/attach of HOST:NAME: the local view of that session, made (its panes laid
   * out as there) or brought up to date (panes opened there since are tiled).
   */
  async attach(host: string, name: string, ctx: HandlerContext): Promise<Attached> {
    const link = this.standIns.joinedLink(host);
    const snap = (await link.call('session/snapshot', { session: name })) as SessionSnapshot;
    const wanted = [...leaves(snap.session.layout), ...snap.session.floating.map((f) => f.pane)];
    if (wanted.length > MAX_VIEW_TILES || snap.panes.length > MAX_VIEW_TILES) {
      throw new PaneFault('failed', `${host}:${name} has ${Math.max(wanted.length, snap.panes.length)} panes, more than a view holds (MAX_VIEW_TILES, ${MAX_VIEW_TILES}); tile the ones you want with pane host show ${host}:N`, { subject: `${host}:${name}` });
    }
    const view = this.viewOf(host, snap.session.name);
    const user = ctx.client.user;
    const there = snap.panes.map((p) => p.n);
    if (view) {
      const before = this.server.panesOf(view).length;
      const elsewhere = this.fill(view, link, snap.panes, user);
      const v = this.views.get(view.id);
      this.views.set(view.id, { filledAt: v?.filledAt ?? 0, seen: new Set([...(v?.seen ?? []), ...there]) });
      return { session: view, tiled: this.server.panesOf(view).length - before, elsewhere };
    }
    const s = model.makeSession(this.server, viewName(host, snap.session.name), snap.session.viewport);
    const map = new Map<number, Pane>();
    const elsewhere: string[] = [];
    const byN = new Map(snap.panes.map((p) => [p.n, p]));
    try {
      for (const n of wanted) {
        const remote = byN.get(n);
        if (!remote) continue; // a layout naming a pane its list lacks: the host's to mend; the rest are shown
        const other = this.standIns.shownAs(`${host}:${n}`);
        if (other) {
          elsewhere.push(`${host}:${n} in ${this.server.sessionOf(other).name}`);
          continue;
        }
        map.set(n, createPane(this.server, s, this.standIns.specFor(link, remote, user), { cols: remote.cols, rows: remote.rows }));
      }
      if (map.size === 0) {
        throw new PaneFault('failed', `${host}:${snap.session.name} has no pane to tile here${elsewhere.length > 0 ? `: every one is tiled already (${elsewhere.join(', ')})` : ''}`, { subject: `${host}:${name}` });
      }
    } catch (e) {
      for (const p of map.values()) destroyPane(this.server, p.n);
      model.dropSession(this.server, s); // never announced: its closing is not said
      throw e;
    }
    model.publish(this.server, model.restore(s, snap.session, (old) => map.get(old)?.n));
    this.views.set(s.id, { filledAt: Date.now(), seen: new Set(there) });
    return { session: s, tiled: map.size, elsewhere };
  }

  /**
   * Each heartbeat and host event: every open view follows its remote session as the
   * link last heard it. Panes opened or moved into it there are tiled (beside the
   * focused tile), tiles whose remote pane closed or moved out there leave, and a
   * view whose session ended there ends. Every view lets go first and fills after, so
   * a pane that moved between two sessions shown here leaves the one before it is
   * tiled in the other. A host that is down changes nothing (its list is empty, not news).
   */
  sync(): void {
    const open: { s: Session; link: HostLink; there: Pane[] }[] = [];
    for (const s of [...this.server.sessions.values()]) {
      const i = s.name.indexOf(':');
      if (i <= 0) continue;
      const link = this.links.get(s.name.slice(0, i));
      if (!link || (link.state !== 'connected' && link.state !== 'stale')) continue;
      // Only lists heard after the view was made or last filled say what is gone: a session or pane made there a moment ago is not yet in the last list.
      const since = this.views.get(s.id)?.filledAt ?? 0;
      const remote = link.sessions.find((r) => viewName(link.name, r.name) === s.name);
      const mine = this.server.panesOf(s);
      // Only a view: a local session of that name holding any pane of its own is the person's, left alone.
      if (mine.some((p) => !providerOf(p.kind).standIn || !remoteOf(p)?.startsWith(`${link.name}:`))) continue;
      if (!remote) {
        if (link.sessionsAt > since) killSession(this.server, s);
        continue;
      }
      const there = link.panes.filter((p) => p.session === remote.id);
      if ((link.listAsOf ?? 0) > since) {
        const live = new Set(there.map((p) => `${link.name}:${p.n}`));
        for (const p of mine) if (!live.has(remoteOf(p) ?? '')) destroyPane(this.server, p.n);
        if (this.server.panesOf(s).length === 0) {
          killSession(this.server, s);
          continue;
        }
      }
      open.push({ s, link, there });
    }
    for (const { s, link, there } of open) {
      if (!this.server.sessions.has(s.id)) continue;
      // Only panes new to this session there: a tile closed here stays closed until the next attach.
      const known = this.views.get(s.id)?.seen ?? new Set(there.map((p) => p.n));
      this.fill(s, link, there.filter((p) => !known.has(p.n)), undefined);
      this.views.set(s.id, { filledAt: this.views.get(s.id)?.filledAt ?? 0, seen: new Set(there.map((p) => p.n)) });
    }
    for (const id of this.views.keys()) if (!this.server.sessions.has(id)) this.views.delete(id);
  }

  /** Tiles each of `remotes` not tiled anywhere yet beside view `s`'s focused tile; returns those tiled elsewhere. */
  private fill(s: Session, link: HostLink, remotes: readonly Pane[], user: string | undefined): string[] {
    const elsewhere: string[] = [];
    for (const remote of remotes) {
      if (this.server.panesOf(s).length >= MAX_VIEW_TILES) break; // the rest stay on the host, reachable as HOST:N
      const key = `${link.name}:${remote.n}`;
      const other = this.standIns.shownAs(key);
      if (other) {
        if (other.session !== s.id) elsewhere.push(`${key} in ${this.server.sessionOf(other).name}`);
        continue;
      }
      this.views.set(s.id, { filledAt: Date.now(), seen: this.views.get(s.id)?.seen ?? new Set() });
      const anchor = model.splitAnchor(s, leaves(s.layout).at(-1));
      const pane = createPane(this.server, s, this.standIns.specFor(link, remote, user ?? this.server.user), model.splitBody(s, anchor, 'horizontal', 50));
      model.publish(this.server, model.split(s, anchor, pane.n, 'horizontal', 50));
    }
    return elsewhere;
  }
}
