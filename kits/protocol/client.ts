// Clients and the server itself: who is connected, per-client write permission,
// server info, and the event subscription (state first, then changes).
import { z } from 'zod';
import { CapabilitySchema, ClientKindSchema } from './hello';
import { method } from './method';
import { PaneSchema, SessionSchema } from './model';
import { lazySchema } from './lazySchema';

export const ClientInfoSchema = lazySchema(() => z.object({
  id: z.string(),
  name: z.string(),
  kind: ClientKindSchema,
  user: z.string(),
  transport: z.string(),
  capabilities: z.array(CapabilitySchema),
  canWrite: z.boolean(),
  attached: z.array(z.number().int()),
  connectedAt: z.number(),
  /** Who it speaks for: "the person", "agent ada", "grant g1a2b3c4d (read-only)". */
  principal: z.string().optional(),
}));

/** The whole state at one revision: what a subscriber sees before any event. */
export const StateSnapshotSchema = lazySchema(() => z.object({
  rev: z.number().int(),
  host: z.string(),
  sessions: z.array(SessionSchema),
  panes: z.array(PaneSchema),
}));
export type StateSnapshot = z.infer<typeof StateSnapshotSchema>;

export const EventFamilySchema = lazySchema(() => z.enum(['pane', 'layout', 'focus', 'session', 'client', 'output', 'config', 'agent', 'awareness', 'host']));
export type EventFamily = z.infer<typeof EventFamilySchema>;

export const clientMethods = {
  'events/subscribe': method({
    params: lazySchema(() => z.object({ families: z.array(EventFamilySchema).optional() })),
    result: StateSnapshotSchema,
    cap: 'read',
    doc: 'Returns the state now, then sends every change after it as events, with no gap.',
  }),
  'events/unsubscribe': method({ params: lazySchema(() => z.object({})), result: lazySchema(() => z.object({})), cap: 'read', doc: 'Stops events.' }),
  'client/list': method({
    params: lazySchema(() => z.object({})),
    result: lazySchema(() => z.object({ clients: z.array(ClientInfoSchema) })),
    cap: 'read',
    doc: 'Lists connected clients.',
  }),
  'client/permission': method({
    params: lazySchema(() => z.object({ client: z.string(), canWrite: z.boolean() })),
    result: lazySchema(() => z.object({ client: z.string(), canWrite: z.boolean() })),
    cap: 'admin',
    doc: 'Grants or revokes a client’s right to write to panes.',
  }),
  'server/info': method({
    params: lazySchema(() => z.object({})),
    result: lazySchema(() => z.object({
      host: z.string(),
      version: z.string(),
      protocol: z.number().int(),
      pid: z.number().int(),
      socket: z.string().nullable(),
      startedAt: z.number(),
      rev: z.number().int(),
      panes: z.number().int(),
      sessions: z.number().int(),
      clients: z.number().int(),
      memory: z.object({ rss: z.number(), heapUsed: z.number() }),
      /**
       * True once the files this server's code was loaded from were replaced while it ran (an update,
       * a rebuild): a client of the new code is talking to the old server. Absent from older servers.
       */
      codeReplaced: z.boolean().optional(),
    })),
    cap: 'read',
    doc: 'Version, counts and metrics, and whether an update replaced the running code on disk.',
  }),
  'server/stop': method({ params: lazySchema(() => z.object({})), result: lazySchema(() => z.object({})), cap: 'admin', doc: 'Stops the server.' }),
  'server/tls-recheck': method({
    params: lazySchema(() => z.object({})),
    result: lazySchema(() => z.object({
      /** Whether serve.json opens a TLS door here now. */
      door: z.boolean(),
      /** Live TLS connections it closed: their certificates are revoked (or no longer listed) in tls/clients.json. */
      closed: z.number().int().min(0),
    })),
    cap: 'admin',
    doc: 'Applies the TLS door’s rule (tls/clients.json) to its live connections now and closes those it refuses; `pane host revoke` asks it so it can say what it cut.',
  }),
  'server/launch-url': method({
    params: lazySchema(() => z.object({})),
    result: lazySchema(() => z.object({ url: z.string() })),
    cap: 'admin',
    doc: 'A fresh one-time URL that opens a window on this server’s HTTP front (spent on first use; never the secret). Refused to agents.',
  }),
};
