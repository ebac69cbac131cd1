// grant/create, grant/list, grant/revoke: attach grants (server/grants/book.ts). The
// person's; an agent's too where its .access lets it call them (admin and the
// grant/* commands), and then only within it: an agent shares a session only if its
// .access reaches every pane there (read for read-only, write for read-write), never
// opens the HTTP front, issues no metrics grant, and lists and revokes its own alone.
import { faults, PaneFault } from '../../kits/protocol/error';
import { MAX_GRANT_TTL_MS } from '../../kits/protocol/grantLimits';
import type { ClientConn } from '../transport/clientConn';
import type { Services } from '../services';
import type { PaneServer } from '../paneServer';
import type { HandlerTable } from './types';
import { frontUrl } from './client';
import { paneAllowed } from '../agents/accessCheck';
import { principalKey, principalLabel } from '../../kits/protocol/principal';
import type { GrantMode } from '../../kits/protocol/grant';
import type { Session } from '../../kits/protocol/model';

const book = (services: Services) => {
  if (!services.grants) throw faults.failed('this server issues no grants (it was started without its socket)');
  return services.grants;
};

/** The clients that came in with grant `id`. */
const guestsOf = (services: Services, id: string): ClientConn[] => [...services.connections].filter((c) => c.principal.kind === 'grant' && c.principal.id === id);

export const grantHandlers: HandlerTable = {
  'grant/create': async (p, { server, services, client }) => {
    if (p.mode !== 'metrics' && p.ttlMs > MAX_GRANT_TTL_MS) throw faults.badRequest(`an attach grant lives ${MAX_GRANT_TTL_MS / 86_400_000} days at most (asked for ${Math.ceil(p.ttlMs / 86_400_000)}); longer sharing is a paired machine (pane host pair)`);
    // A window's address to give: the front opened first if this daemon had none (a failure to open it leaves the grant without a URL).
    // An attach grant shows one session: the one named, else the caller's pane's, else the first.
    const session = p.mode === 'metrics' ? undefined : p.session !== undefined ? server.session(p.session) : p.from !== undefined ? server.sessionOf(server.pane(p.from)) : server.session();
    const who = client.principal;
    if (who.kind === 'agent') withinAccess(server, services, who.name, p.mode, session);
    // The front is opened for the person alone (an agent's ask opens no port: a URL only if one is open already).
    if (who.kind !== 'agent') await frontUrl(server).catch(() => undefined);
    let made;
    try {
      made = book(services).create(p.mode, p.ttlMs, p.note, session?.id, who.kind === 'agent' ? principalKey(who) : undefined, p.mode === 'metrics' ? undefined : p.context);
    } catch (e) {
      throw faults.failed((e as Error).message);
    }
    const { record, token } = made;
    server.publish('grant/changed', { id: record.id, change: 'issued', mode: record.mode, expiresAt: record.expiresAt, ...(session ? { session: session.id } : {}), ...(record.by !== undefined ? { by: record.by } : {}) });
    // The token in the fragment: a browser never sends it to a server, nor keeps it in a Referer.
    // A metrics grant opens no window: its URL is the scrape path (the token goes in a header, never in it).
    const url = !server.frontOrigin ? undefined : record.mode === 'metrics' ? `${server.frontOrigin}/metrics` : `${server.frontOrigin}/#grant=${token}`;
    return { id: record.id, token, mode: record.mode, expiresAt: record.expiresAt, ...(url ? { url } : {}), ...(session ? { session: { id: session.id, name: session.name } } : {}) };
  },
  // An agent lists and revokes the grants it issued, no other.
  'grant/list': (_p, { server, services, client }) => ({
    grants: book(services)
      .list((id) => guestsOf(services, id).length, (id) => server.sessions.get(id)?.name)
      .filter((g) => client.principal.kind !== 'agent' || g.by === principalKey(client.principal)),
  }),
  'grant/revoke': (p, { server, services, client }) => {
    const who = client.principal;
    const issued = book(services).issuer(p.id);
    const mine = issued !== null && (who.kind !== 'agent' || issued.by === principalKey(who));
    if (!mine || !book(services).revoke(p.id)) throw faults.failed(`no grant ${p.id}${who.kind === 'agent' ? ` issued by ${principalLabel(who)}` : ''} (pane grant ls lists those alive)`);
    return { id: p.id, closed: closeGuests(server, services, p.id, issued.by, `grant ${p.id} was revoked by ${principalLabel(who)}`) };
  },
};

/**
 * An agent grants only what it may do itself: every pane of the session within its
 * .access (read for a read-only grant, write for a read-write one), and no metrics
 * grant (a scraper's door is the person's to open).
 */
function withinAccess(server: PaneServer, services: Services, name: string, mode: GrantMode, session: Session | undefined): void {
  if (mode === 'metrics' || !session) throw faults.denied(`agent ${name} may not issue a metrics grant: a scraper's door is the person's to open`);
  const agents = services.agents;
  if (!agents) throw faults.denied(`agent ${name} may not issue grants here (no agents service)`);
  const need = mode === 'rw' ? 'write' : 'read';
  const beyond = server.panesOf(session).find((pane) => !paneAllowed(agents, name, pane, need));
  if (beyond) throw faults.denied(`agent ${name}'s .access panes.${need} does not include pane ${beyond.n} of session ${session.name}; an agent grants only what it may do itself (see \`pane access ${name}\`)`);
}

/** Closes grant `id`'s guests, saying why, and tells every subscriber the grant is gone; how many were closed. */
function closeGuests(server: PaneServer, services: Services, id: string, by: string | undefined, why: string): number {
  const guests = guestsOf(services, id);
  for (const c of guests) c.closeSaying(new PaneFault('unauthorized', why));
  server.publish('grant/changed', { id, change: 'revoked', closed: guests.length, ...(by !== undefined ? { by } : {}) });
  return guests.length;
}

/** A session ended: the grants that showed it are revoked (no other session is theirs to show) and their guests told. */
export function sessionEnded(server: PaneServer, services: Services, sessionId: string, name: string): void {
  const grants = services.grants;
  if (!grants) return;
  for (const id of grants.ofSession(sessionId)) {
    const by = grants.issuer(id)?.by;
    grants.revoke(id);
    closeGuests(server, services, id, by, `session ${name}, which grant ${id} showed, has ended`);
  }
}
