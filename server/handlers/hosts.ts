// Host handlers (issue 26): list the hosts of ~/.config/pane/hosts/ with their
// state and panes, join one, leave one. The links themselves are server/hosts/.
import type { HostService } from '../hosts/hostService';
import type { HandlerTable } from './types';

/** The host family's table, bound to the server's one HostService (attachHosts registers it). */
export function hostHandlers(hosts: HostService): HandlerTable {
  return {
    // Other hosts' panes are the person's: an agent's .access names this server's panes only (decision 037).
    'host/list': async (p, ctx) => ({ ...hosts.list(), ...(p.panes && ctx.client.checkAccess === undefined ? { panes: await hosts.freshPanes(), sessions: hosts.remoteSessions() } : {}) }),

    'host/connect': async (p) => {
      // The folder read again first: a file changed a moment ago (pair, unpair, an edit) is dialled as it is now, not as the watch last saw it.
      hosts.reload();
      const link = hosts.link(p.name);
      await link.connect();
      return link.info();
    },

    // A joined host's pane tiled here through a local stand-in (server/hosts/standIns.ts); agents are refused there.
    'host/show': (p, ctx) => hosts.standIns.show(p, ctx),

    'host/disconnect': (p) => {
      const link = hosts.link(p.name);
      link.disconnect();
      return link.info();
    },
  };
}
