// Attach grants: what the person hands another person (or a second screen) to
// watch or share this desktop, in the runtime contract's terms (001: attach-session
// gives a grant {token, expires}; attach-open takes the token). A grant is a
// bearer token with a mode and an expiry; the server keeps only its hash, lists
// what it issued, and revoking one closes every client that came in with it.
// Anchors: Zellij's web tokens (stored hashed, read-only ones attach as watchers),
// tmux's `attach -r`, VS Code Live Share's read-only guests.
import { z } from 'zod';
import { method } from './method';
import { PaneRefSchema, SessionRefSchema } from './ids';
import { ContextNameSchema } from './session';
import { MAX_GRANT_NOTE, MAX_GRANTS, MAX_METRICS_GRANT_TTL_MS, MIN_GRANT_TTL_MS, DEFAULT_GRANT_TTL_MS } from './grantLimits';
import { lazySchema } from './lazySchema';

export * from './grantLimits';

/**
 * `ro`: screens and events, no typing; `rw`: types into and runs the words of the panes
 * it sees, no more; `metrics`: lets no client in at all — a scraper sends it as a bearer
 * token to the HTTP front's GET /metrics, and reads counts and sizes (docs/security.md).
 */
export const GrantModeSchema = lazySchema(() => z.enum(['ro', 'rw', 'metrics']));
export type GrantMode = z.infer<typeof GrantModeSchema>;
/** The modes that let a client in (a hello with the token). */
export type AttachMode = Exclude<GrantMode, 'metrics'>;

export const GrantIdSchema = lazySchema(() => z.string().regex(/^g[0-9a-f]{8}$/, 'a grant id is g and 8 hex digits (pane grant ls)'));

/** One grant as the person sees it: never its token (the server no longer has it). */
export const GrantInfoSchema = lazySchema(() => z.object({
  id: GrantIdSchema,
  mode: GrantModeSchema,
  note: z.string().max(MAX_GRANT_NOTE).optional(),
  /** An attach grant's session (its id): its guests see that session's panes and nothing beyond them. A metrics grant has none. */
  session: z.string().min(1).max(100).optional(),
  /** The context of that session its guests follow (shared with whoever else follows it); absent: one of their own, grant:ID. */
  context: ContextNameSchema.optional(),
  /** Who issued it when not the person: an agent (`agent:NAME`), within its .access. */
  by: z.string().max(200).optional(),
  createdAt: z.number(),
  expiresAt: z.number(),
  /** Hellos it let in. */
  uses: z.number().int().nonnegative(),
  lastUsedAt: z.number().optional(),
  /** Clients connected with it now. */
  clients: z.number().int().nonnegative(),
  /** Its session's name now (grant/list). */
  sessionName: z.string().optional(),
}));
export type GrantInfo = z.infer<typeof GrantInfoSchema>;

/** The grants file in the state dir (0600): each grant with the SHA-256 of its token, never the token. */
export const GrantRecordSchema = lazySchema(() => GrantInfoSchema.omit({ clients: true, sessionName: true }).extend({ hash: z.string().regex(/^[0-9a-f]{64}$/) }));
export type GrantRecord = z.infer<typeof GrantRecordSchema>;
export const GrantsFileSchema = lazySchema(() => z.object({ version: z.literal(1), grants: z.array(GrantRecordSchema).max(MAX_GRANTS) }));

/** What a client that came in with a grant is told in its welcome. */
export const GrantWelcomeSchema = lazySchema(() => z.object({ id: GrantIdSchema, mode: GrantModeSchema.exclude(['metrics']), expiresAt: z.number(), /** The session it shows (id): the only one its guest sees. */ session: z.string().optional() }));

export const grantMethods = {
  'grant/create': method({
    params: lazySchema(() => z.object({
      mode: GrantModeSchema.default('ro'),
      /** At most MAX_GRANT_TTL_MS for ro and rw (the handler says so), MAX_METRICS_GRANT_TTL_MS for metrics. */
      ttlMs: z.number().int().min(MIN_GRANT_TTL_MS).max(MAX_METRICS_GRANT_TTL_MS).default(DEFAULT_GRANT_TTL_MS),
      note: z.string().max(MAX_GRANT_NOTE).optional(),
      /** The session an attach grant shows (name or id). Absent: the session of the `from` pane, else the first session. */
      session: SessionRefSchema.optional(),
      /** The caller's pane (PANE_ID): its session is the one shared when none is named. */
      from: PaneRefSchema.optional(),
      /** A context of that session for its guests to follow (`pane grant new --context pair`, with the person's window on ?context=pair: one focus and zoom for both). */
      context: ContextNameSchema.optional(),
    })),
    result: lazySchema(() => z.object({
      id: GrantIdSchema,
      /** The bearer token, said once: the server keeps its hash. */
      token: z.string(),
      mode: GrantModeSchema,
      expiresAt: z.number(),
      /** A window URL (the token in its fragment, never sent to a server) when this server has an HTTP front. */
      url: z.string().optional(),
      /** An attach grant's session: its guests see it alone. */
      session: z.object({ id: z.string(), name: z.string() }).optional(),
    })),
    cap: 'admin',
    doc: 'Issues a grant: a token that lets one more window or client in to one session, read-only or read-write — or, a metrics grant, lets a scraper read GET /metrics on the HTTP front — until it expires or is revoked.',
  }),
  'grant/list': method({
    params: lazySchema(() => z.object({})),
    result: lazySchema(() => z.object({ grants: z.array(GrantInfoSchema) })),
    cap: 'admin',
    doc: 'Lists the grants alive: mode, expiry, uses and the clients connected with each.',
  }),
  'grant/revoke': method({
    params: lazySchema(() => z.object({ id: GrantIdSchema })),
    result: lazySchema(() => z.object({ id: GrantIdSchema, closed: z.number().int() })),
    cap: 'admin',
    doc: 'Revokes a grant: its token lets no one in again, and every client that came in with it is closed.',
  }),
};
