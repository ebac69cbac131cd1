// A stand-in: a local pane of body kind `remote` showing a joined host's pane HOST:N
// (decision 037). Its attrs name what it shows; the server (server/model/bodies/remote.ts)
// and every view that lists panes (the CLI's `pane ls`) read them here, zod-free.
import type { Pane } from './model';

/** The attrs a stand-in carries: its host, the remote number, and how its host's link is (the tag's badge). */
export const REMOTE_HOST_ATTR = 'remote.host';
export const REMOTE_N_ATTR = 'remote.n';
/** connected | stale | connecting | disconnected | cut off: the link's state, which the tag shows as a badge when not connected. */
export const REMOTE_LINK_ATTR = 'remote.link';
/** `remote.link` of a host cut off (a lie, a refusal of who we are): not dialled again until `pane host connect`. */
export const LINK_CUT_OFF = 'cut off';

/** HOST:N of the remote pane a stand-in shows; undefined for any other pane (or a stand-in whose attrs were lost). */
export function remoteOf(pane: Pick<Pane, 'kind' | 'attrs'>): string | undefined {
  if (pane.kind !== 'remote') return undefined;
  const host = pane.attrs[REMOTE_HOST_ATTR];
  const n = Number(pane.attrs[REMOTE_N_ATTR]);
  return host && Number.isSafeInteger(n) && n > 0 ? `${host}:${n}` : undefined;
}
