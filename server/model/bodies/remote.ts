// The remote body: a local stand-in for a joined host's pane HOST:N (issue 26,
// decision 037). The stand-in is an ordinary pane of a local session, so the layout,
// focus, zoom, float and keys hold its local number; its attrs name the host and the
// remote number, and the hosts service (server/hosts/standIns.ts) streams, types and
// resizes through the host's link for it. No program runs here: closing it leaves
// the remote pane running; the `kill` word closes the remote pane itself.
import type { ExitStatus, Pane, PaneCommand } from '../../../kits/protocol/model';
import type { PaneServer } from '../../paneServer';
import { remoteOf } from '../../../kits/protocol/standIn';
import type { BodyProvider } from './provider';

export { REMOTE_HOST_ATTR, REMOTE_LINK_ATTR, REMOTE_N_ATTR, remoteOf } from '../../../kits/protocol/standIn';

const REMOTE_WORDS: readonly PaneCommand[] = [
  { name: 'interrupt', doc: 'Send Ctrl-C to the remote pane’s foreground program', args: [] },
  { name: 'send', doc: 'Type text followed by Enter into the remote pane', args: [{ name: 'text', type: 'text' }] },
  { name: 'kill', doc: 'Close the remote pane itself on its host (close removes only this stand-in)', args: [] },
];

export const remoteBody: BodyProvider<'remote'> = {
  kind: 'remote',
  runsProgram: false,
  agent: false,
  standIn: true,
  shellKind: 'remote',
  // `close` removes the stand-in only; the remote pane runs on.
  vocabulary: (common) => [
    ...common.map((c) => (c.name === 'close' ? { ...c, doc: 'Remove this stand-in from the layout (the remote pane runs on; kill ends it)' } : c)),
    ...REMOTE_WORDS,
  ],
  meaning: (pane, word) => {
    // The stand-in's own word: the remote pane itself is closed on its host (forwarded as HOST:N).
    if (word !== 'kill') return undefined;
    const remote = remoteOf(pane);
    return remote ? { method: 'pane/close', params: { pane: remote } } : `pane ${pane.n} names no remote pane to close`;
  },
  read: async (_io, pane) => Buffer.from(`${remoteOf(pane) ?? 'a remote pane'}: read /${remoteOf(pane) ?? 'HOST:N'}/body for its screen\n`),
  write: async (io, pane) => io.refuse(`it stands in for ${remoteOf(pane) ?? 'a remote pane'}; write to /${pane.n}/input to type into it`),
};

/**
 * A stand-in follows its remote pane's state as the host's heartbeat reports it:
 * running, or ended (`exit` set: the remote program ended, or the remote pane is gone).
 * Publishes pane/exited on the change to ended, pane/changed on any change.
 */
export function followRemote(server: PaneServer, pane: Pane, exit: ExitStatus | null): void {
  if (pane.kind !== 'remote') return;
  const ended = exit !== null;
  if (ended === (pane.state === 'exited') && (exit?.at ?? null) === (pane.exit?.at ?? null)) return;
  pane.state = ended ? 'exited' : 'running';
  pane.exit = exit;
  if (ended) server.publish('pane/exited', { pane: pane.n, session: pane.session, exit });
  server.paneChanged(pane);
}
