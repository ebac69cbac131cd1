// Each window's size, per session, and the one the session is laid out in (tmux's
// window-size): the window last resized or typed in (`latest`, the default), the
// smallest or the largest of them (settings' windowSize). A window that closes no
// longer counts: the session takes the size of those left (and keeps its own when
// none is left). Before this, the last window to report won, so a small second
// window shrank the person's panes for good.
import type { Params } from '../../kits/protocol/index';
import type { Session } from '../../kits/protocol/model';
import type { PaneServer } from '../paneServer';
import * as model from './session';

export type WindowSizePolicy = 'latest' | 'smallest' | 'largest';
type Report = Omit<Params<'session/viewport'>, 'session'> & { at: number };

export class ViewportBoard {
  /** session id → client id → its window's last report, and when it was last active. */
  private readonly bySession = new Map<string, Map<string, Report>>();
  private tick = 0;

  /** A window's size for session `s`; returns the size the session should now have. */
  report(s: Session, client: string, v: Omit<Params<'session/viewport'>, 'session'>, policy: WindowSizePolicy): Omit<Params<'session/viewport'>, 'session'> {
    let m = this.bySession.get(s.id);
    if (!m) this.bySession.set(s.id, (m = new Map()));
    m.set(client, { ...v, at: ++this.tick });
    return this.chosen(m, policy)!;
  }

  /** The client typed into session `s`: under `latest`, its window's size is the session's again; the size to apply, or undefined. */
  touch(sessionId: string, client: string, policy: WindowSizePolicy): Omit<Params<'session/viewport'>, 'session'> | undefined {
    const m = this.bySession.get(sessionId);
    const r = m?.get(client);
    if (!m || !r || policy !== 'latest') return undefined;
    const newest = Math.max(...[...m.values()].map((x) => x.at));
    if (r.at === newest) return undefined;
    r.at = ++this.tick;
    return this.chosen(m, policy);
  }

  /** The client closed: per session it showed, the size the session should now have (none when no window is left). */
  gone(client: string, policy: WindowSizePolicy): { session: string; size: Omit<Params<'session/viewport'>, 'session'> }[] {
    const out: { session: string; size: Omit<Params<'session/viewport'>, 'session'> }[] = [];
    for (const [session, m] of this.bySession) {
      if (!m.delete(client)) continue;
      if (m.size === 0) {
        this.bySession.delete(session);
        continue;
      }
      out.push({ session, size: this.chosen(m, policy)! });
    }
    return out;
  }

  /** The clients whose windows show session `sessionId`: those whose latest size report was for it (a window reports the session it switches to). */
  clientsOf(sessionId: string): string[] {
    const m = this.bySession.get(sessionId);
    if (!m) return [];
    const later = (client: string, at: number) => [...this.bySession.entries()].some(([id, other]) => id !== sessionId && (other.get(client)?.at ?? 0) > at);
    return [...m.entries()].filter(([client, r]) => !later(client, r.at)).map(([client]) => client);
  }

  /** A session that is gone. */
  forget(sessionId: string): void {
    this.bySession.delete(sessionId);
  }

  private chosen(m: Map<string, Report>, policy: WindowSizePolicy): Omit<Params<'session/viewport'>, 'session'> | undefined {
    const all = [...m.values()];
    if (all.length === 0) return undefined;
    const latest = all.reduce((a, b) => (b.at > a.at ? b : a));
    const strip = ({ at: _at, ...v }: Report) => v;
    if (policy === 'latest') return strip(latest);
    const pick = policy === 'smallest' ? Math.min : Math.max;
    // The chrome (what a frame costs) is the latest window's: it follows its font.
    return { cols: pick(...all.map((r) => r.cols)), rows: pick(...all.map((r) => r.rows)), ...(latest.chrome ? { chrome: latest.chrome } : {}) };
  }
}

/** Lays session `id` out in `size` (if the session still exists and the size differs). */
export function applyViewport(server: PaneServer, id: string, size: Omit<Params<'session/viewport'>, 'session'> | undefined): void {
  if (!size) return;
  const s = server.sessions.get(id);
  if (s) model.publish(server, model.setViewport(s, size));
}
