// A joined host's own pane events, followed as they happen (issue 26, decision 037).
// The link subscribes to the remote's `pane` family; each event is checked against
// its schema (a remote is untrusted: one that fails is a lie and cuts the link, as a
// malformed reply does) and applied to the link's list of the host's panes, so a
// stand-in's badge and title, `pane ls`, the namespace's index and `/HOST:N/` follow
// a remote pane at once instead of at the next heartbeat. Here they are re-published
// as `host/pane` with the pane named HOST:N (the host file's name), never as the
// remote's bare number, which would name a local pane. The state the subscription
// answers with, and the full list a heartbeat asks every FULL_LIST_BEATS (or after
// a dropped event), stay the truth: each replaces whatever the events built.
import { eventSchemas } from '../../kits/protocol/events';
import { hostEventSchemas } from '../../kits/protocol/host';
import type { Pane } from '../../kits/protocol/model';

/** The remote events followed (host/pane's `event`): those that change a pane's entry in the link's list. */
export type RelayedEvent = (typeof hostEventSchemas)['host/pane']['shape']['event']['options'][number];
const relayed = new Set<string>(hostEventSchemas['host/pane'].shape.event.options);

/**
 * Events a remote may have applied in one heartbeat; past it the rest of that
 * heartbeat's are dropped unread (not a cut: a program retitling its window in a
 * loop is no lie) and the next heartbeat's list catches up. 500 a second is far more
 * than a person follows, and bounds the work a chatty or hostile remote buys.
 */
export const MAX_REMOTE_EVENTS = 1000;
/**
 * Bytes of one remote pane event. A pane as an event carries its tag, attrs and
 * vocabulary: a few KiB for a terminal, tens for an app with many words. Past this
 * the event is dropped unread (a pane that big is a host filling this server), and
 * the heartbeat's list, bounded apart, catches up.
 */
export const MAX_REMOTE_EVENT_BYTES = 64 << 10;
/**
 * Bytes of events a remote may have taken in one heartbeat, whatever their count:
 * 1000 events of 512 KiB held 144 MiB of this server's memory before this bound.
 * 1 MiB a heartbeat is hundreds of ordinary events; past it the rest are dropped
 * until the next heartbeat.
 */
export const MAX_REMOTE_EVENT_BYTES_PER_BEAT = 1 << 20;

/** What one remote event changed: the remote's pane number and, unless it closed, its entry now. */
export interface RemotePaneChange {
  event: RelayedEvent;
  n: number;
  pane?: Pane;
}

/**
 * Applies remote event `event` to `panes` (the link's list, its entries named with
 * `host`) in place. Null for an event not followed; a string naming the lie for data
 * that fails its event's schema.
 */
export function applyRemoteEvent(panes: Pane[], host: string, event: string, data: unknown): RemotePaneChange | null | string {
  if (!relayed.has(event)) return null;
  const name = event as RelayedEvent;
  const parsed = eventSchemas[name].safeParse(data);
  if (!parsed.success) return `its ${event} event does not read (${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? ''})`;
  const d = parsed.data as { pane: Pane | number; tag?: Pane['tag']; attrs?: Record<string, string>; exit?: Pane['exit'] };
  const n = typeof d.pane === 'number' ? d.pane : d.pane.n;
  const at = panes.findIndex((p) => p.n === n);
  if (name === 'pane/closed') {
    if (at >= 0) panes.splice(at, 1);
    return { event: name, n };
  }
  if (typeof d.pane === 'object') {
    const pane: Pane = { ...d.pane, host };
    if (at >= 0) panes[at] = pane;
    else panes.push(pane);
    return { event: name, n, pane };
  }
  // The rest change one field of a pane the list holds; one it does not hold yet waits for the heartbeat.
  const p = panes[at];
  if (!p) return { event: name, n };
  const next: Pane = name === 'pane/exited' ? { ...p, state: 'exited', exit: d.exit ?? null } : name === 'pane/tag-changed' ? { ...p, tag: d.tag ?? p.tag } : { ...p, attrs: d.attrs ?? p.attrs };
  panes[at] = next;
  return { event: name, n, pane: next };
}
