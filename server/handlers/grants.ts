// grant/create, grant/list, grant/revoke: the person's attach grants (server/grants/book.ts).
import { faults } from '../../kits/protocol/error';
import { MAX_GRANT_TTL_MS } from '../../kits/protocol/grantLimits';
import type { ClientConn } from '../transport/clientConn';
import type { Services } from '../services';
import type { HandlerTable } from './types';
import { frontUrl } from './client';

const book = (services: Services) => {
  if (!services.grants) throw faults.failed('this server issues no grants (it was started without its socket)');
  return services.grants;
};

/** The clients that came in with grant `id`. */
const guestsOf = (services: Services, id: string): ClientConn[] => [...services.connections].filter((c) => c.principal.kind === 'grant' && c.principal.id === id);

export const grantHandlers: HandlerTable = {
  'grant/create': async (p, { server, services }) => {
    if (p.mode !== 'metrics' && p.ttlMs > MAX_GRANT_TTL_MS) throw faults.badRequest(`an attach grant lives ${MAX_GRANT_TTL_MS / 86_400_000} days at most (asked for ${Math.ceil(p.ttlMs / 86_400_000)}); longer sharing is a paired machine (pane host pair)`);
    // A window's address to give: the front opened first if this daemon had none (a failure to open it leaves the grant without a URL).
    await frontUrl(server).catch(() => undefined);
    let made;
    try {
      made = book(services).create(p.mode, p.ttlMs, p.note);
    } catch (e) {
      throw faults.failed((e as Error).message);
    }
    const { record, token } = made;
    server.publish('grant/changed', { id: record.id, change: 'issued', mode: record.mode, expiresAt: record.expiresAt });
    // The token in the fragment: a browser never sends it to a server, nor keeps it in a Referer.
    // A metrics grant opens no window: its URL is the scrape path (the token goes in a header, never in it).
    const url = !server.frontOrigin ? undefined : record.mode === 'metrics' ? `${server.frontOrigin}/metrics` : `${server.frontOrigin}/#grant=${token}`;
    return { id: record.id, token, mode: record.mode, expiresAt: record.expiresAt, ...(url ? { url } : {}) };
  },
  'grant/list': (_p, { services }) => ({ grants: book(services).list((id) => guestsOf(services, id).length) }),
  'grant/revoke': (p, { server, services }) => {
    if (!book(services).revoke(p.id)) throw faults.failed(`no grant ${p.id} (pane grant ls lists those alive)`);
    const guests = guestsOf(services, p.id);
    for (const c of guests) c.closeSaying('unauthorized', `grant ${p.id} was revoked by the person`);
    server.publish('grant/changed', { id: p.id, change: 'revoked', closed: guests.length });
    return { id: p.id, closed: guests.length };
  },
};
