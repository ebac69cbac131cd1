// A pane that left its session (pane/move) takes with it what was held of it by
// right of that session. A grant's guest of the session it left loses its stream
// of the pane and its namespace handles under /N/ at once, and hears the pane as
// closed (to the guest it is gone; everyone else hears it moved). An agent whose
// .access names panes by session (session:NAME) has its streams and handles
// re-checked as when its file changes. Each request was checked when it was made;
// without this, a stream opened while the pane was shared would go on showing it
// in a session the guest was never given.
import type { Services } from '../services';
import { recheckAgents } from '../agents/recheck';
import { normalize } from '../namespace/resolve';
import { eventFrame } from '../../kits/protocol/frameSize';

/** The pane a namespace path lies under (`/N/...`), if any. */
function paneOfPath(path: string): number | undefined {
  const m = /^\/([0-9]+)(?:\/|$)/.exec(normalize(path));
  return m ? Number(m[1]) : undefined;
}

export function paneLeftSession(services: Services, n: number, from: string): void {
  const { server } = services;
  let closed: string | undefined;
  for (const c of [...services.connections]) {
    if (c.principal.kind === 'grant' && c.principal.session === from) {
      if (c.attached.delete(n)) {
        server.terminals.get(n)?.detach(c.sink.id);
        server.publish('client/detached', { client: c.id, name: c.name, pane: n });
      }
      for (const f of services.namespace.fidsOf(c.id)) if (paneOfPath(f.path) === n) services.namespace.closeFid(f);
      if (c.wantsEvent('pane')) c.sendRaw((closed ??= eventFrame('pane/closed', { pane: n, session: from, id: server.address(n) }, server.bus.rev)));
    }
  }
  if (services.agents) recheckAgents(services.agents);
}
