// Events are past tense, carry the state they describe, and a monotonic `rev`:
// a subscriber applies them in order on top of the snapshot it was given.
import { z } from 'zod';
import { agentEventSchemas } from './agent';
import { appEventSchemas } from './app';
import { hostEventSchemas } from './host';
import { awarenessEventSchemas } from './awareness';
import { keymapEventSchemas } from './keymap';
import { settingsEventSchemas } from './settings';
import { ExitStatusSchema, PaneSchema, SessionSchema, TagSchema } from './model';
import { lazySchema } from './lazySchema';

const n = lazySchema(() => z.number().int().positive());

export const eventSchemas = {
  'pane/created': lazySchema(() => z.object({ pane: PaneSchema })),
  'pane/closed': lazySchema(() => z.object({ pane: n, session: z.string(), id: z.string() })),
  'pane/exited': lazySchema(() => z.object({ pane: n, session: z.string(), exit: ExitStatusSchema })),
  'pane/restarted': lazySchema(() => z.object({ pane: PaneSchema })),
  /** Any other field of a pane changed (pid, cwd, size, state...): the whole pane. */
  'pane/changed': lazySchema(() => z.object({ pane: PaneSchema })),
  'pane/tag-changed': lazySchema(() => z.object({ pane: n, tag: TagSchema })),
  'pane/attrs-changed': lazySchema(() => z.object({ pane: n, attrs: z.record(z.string(), z.string()) })),
  /** A command word was executed (tag, palette, ctl, cli): what the namespace's event file shows. */
  'pane/executed': lazySchema(() => z.object({ pane: n, line: z.string(), origin: z.string(), by: z.string() })),
  /** New output exists past `end`; for readers that poll by offset rather than attach. */
  'pane/output': lazySchema(() => z.object({ pane: n, end: z.number().int() })),
  'layout/changed': lazySchema(() => z.object({ session: SessionSchema })),
  /** `context`: a context's focus moved (session/context), not the session's own: only windows in that context follow it. */
  'focus/changed': lazySchema(() => z.object({ session: z.string(), focused: n.nullable(), zoomed: n.nullable(), context: z.string().optional() })),
  'session/created': lazySchema(() => z.object({ session: SessionSchema })),
  'session/closed': lazySchema(() => z.object({ session: z.string(), name: z.string() })),
  'session/renamed': lazySchema(() => z.object({ session: z.string(), name: z.string() })),
  /** session/attach: the windows showing session `from` switch to `session`. */
  'session/attached': lazySchema(() => z.object({ session: z.string(), name: z.string(), from: z.string() })),
  'client/attached': lazySchema(() => z.object({ client: z.string(), name: z.string(), pane: n.optional() })),
  'client/detached': lazySchema(() => z.object({ client: z.string(), name: z.string(), pane: n.optional() })),
  /** A grant's guest typed into a pane (the first time on its connection): `by` names the grant. */
  'client/typed': lazySchema(() => z.object({ client: z.string(), name: z.string(), by: z.string(), pane: n })),
  /** A door turned a connection away (its cap, its hello deadline, its byte limit before hello): /pane/log says which and why. */
  'client/refused': lazySchema(() => z.object({ door: z.string(), reason: z.string() })),
  /** An attach grant issued or revoked (grant/create, grant/revoke): /pane/log keeps who was let in, never the token. */
  /** A plumbed message fired a rule (plumb/send): which, what it did, as whom. /pane/log shows it. */
  'plumb/fired': lazySchema(() => z.object({ pane: z.number().int().optional(), rule: z.string(), action: z.string(), by: z.string() })),
  'grant/changed': lazySchema(() => z.object({ id: z.string(), change: z.enum(['issued', 'revoked']), mode: z.enum(['ro', 'rw', 'metrics']).optional(), expiresAt: z.number().optional(), closed: z.number().int().optional(), session: z.string().optional(), /** Who issued it (a principal key); absent: the person. An agent hears only of its own grants. */ by: z.string().optional() })),
  ...keymapEventSchemas,
  ...settingsEventSchemas,
  ...appEventSchemas,
  ...agentEventSchemas,
  ...awarenessEventSchemas,
  ...hostEventSchemas,
} as const;

export type EventName = keyof typeof eventSchemas;
export type EventData<E extends EventName> = z.infer<(typeof eventSchemas)[E]>;

/** The family of an event is the part before the slash (focus/changed → focus). */
export function eventFamily(name: string): string {
  const fam = name.slice(0, name.indexOf('/'));
  if (name === 'pane/output') return 'output';
  return fam === 'keymap' || fam === 'apps' || fam === 'settings' ? 'config' : fam;
}
