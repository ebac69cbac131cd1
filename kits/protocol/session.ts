// Sessions (workspaces): new / kill / list / get, viewport, snapshot and restore.
import { z } from 'zod';
import { HostNameSchema, PaneRefSchema, SessionRefSchema } from './ids';
import { BoundedLaunchSpecSchema, ChromeSchema, PaneSchema, SessionSchema, ViewportSchema } from './model';
import { method } from './method';
import { NewPaneSpecSchema } from './pane';
import { lazySchema } from './lazySchema';
import { LAYOUT_PRESETS } from '../layout/presets';

export const SessionAckSchema = lazySchema(() => z.object({ session: z.string().uuid(), name: z.string() }));
/** A context's name: a word a person types (`pairing`, `review`), or a guest's own `grant:ID`. */
export const ContextNameSchema = lazySchema(() => z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/, 'a context is named by a word of letters, digits, ".", "_", ":" or "-" (64 at most)'));
export type SessionAck = z.infer<typeof SessionAckSchema>;

export const SessionSummarySchema = lazySchema(() => z.object({
  id: z.string().uuid(),
  name: z.string(),
  panes: z.number().int(),
  focused: z.number().int().nullable(),
  createdAt: z.number(),
}));

/** A saved session: the session plus its panes as they were, versioned for later readers. */
export const SessionSnapshotSchema = lazySchema(() => z.object({
  version: z.literal(1),
  session: SessionSchema,
  panes: z.array(PaneSchema.extend({
    /** The tag's name followed the pane's program (no one named it): restored, it follows the new one's. Absent: the name stays. */
    autoName: z.literal(true).optional(),
  })),
}));
export type SessionSnapshot = z.infer<typeof SessionSnapshotSchema>;

export const sessionMethods = {
  'session/new': method({
    params: lazySchema(() => z.object({
      name: z.string().min(1).max(100).optional(),
      cwd: z.string().optional(),
      /** The first pane's program; the user's shell when absent. */
      launch: BoundedLaunchSpecSchema.optional(),
      viewport: ViewportSchema.optional(),
      /** How the first pane is known: name, signature, kind, owner, attrs. */
      pane: NewPaneSpecSchema.omit({ launch: true, cwd: true }).optional(),
      /** A joined host (its host file's name): the session is made there, its cwd and program that host's; absent, or this server's own name: here. */
      host: HostNameSchema.optional(),
    })),
    result: SessionAckSchema,
    cap: 'write',
    doc: 'Creates a session with one terminal pane, here or on a joined host (`host`).',
  }),
  'session/kill': method({
    params: lazySchema(() => z.object({ session: SessionRefSchema })),
    result: SessionAckSchema,
    cap: 'write',
    doc: 'Ends a session and every pane in it.',
  }),
  'session/rename': method({
    params: lazySchema(() => z.object({ session: SessionRefSchema, name: z.string().trim().min(1).max(100) })),
    result: SessionAckSchema,
    cap: 'write',
    doc: 'Renames a session (names are unique: another session with that name is an error).',
  }),
  'session/layout': method({
    /** The session: the one `pane` is in, else `session`, else the first. */
    params: lazySchema(() => z.object({
      session: SessionRefSchema.optional(),
      pane: PaneRefSchema.optional(),
      layout: z.enum([...LAYOUT_PRESETS, 'spread', 'next']),
    })),
    result: lazySchema(() => SessionAckSchema.extend({ layout: z.enum([...LAYOUT_PRESETS, 'spread']) })),
    cap: 'write',
    doc: 'Lays a session’s tiles out in a preset, as tmux’s select-layout: even-horizontal (side by side), even-vertical (stacked), main-horizontal / main-vertical (the focused tile large on top / on the left, the rest sharing the other part), tiled (a grid); spread keeps the shape and gives the panes even shares; next takes the preset after the current one. Floats stay, a zoom ends, focus stays. A preset that would leave a tile smaller than MIN_SPLIT_BODY is refused (next passes over it). Answers what it laid out.',
  }),
  'session/list': method({
    /** host: a joined host's sessions, asked of it over its link (named as it names them). */
    params: lazySchema(() => z.object({ host: z.string().min(1).max(253).optional() })),
    result: lazySchema(() => z.object({ sessions: z.array(SessionSummarySchema) })),
    cap: 'read',
    doc: 'Lists sessions.',
  }),
  'session/get': method({
    params: lazySchema(() => z.object({ session: SessionRefSchema.optional() })),
    result: SessionSchema,
    cap: 'read',
    doc: 'One session: layout tree, floating layer, focus, zoom.',
  }),
  'session/viewport': method({
    params: lazySchema(() => z.object({ session: SessionRefSchema.optional(), cols: z.number().int(), rows: z.number().int(), chrome: ChromeSchema.optional() })),
    result: lazySchema(() => SessionAckSchema.extend({
      /** The size the session is laid out in now (its windowSize policy's pick among its windows). */
      viewport: z.object({ cols: z.number().int(), rows: z.number().int() }).optional(),
      /** This report was outside what a terminal holds: what was asked and what was taken. */
      clamped: z.string().optional(),
    })),
    cap: 'write',
    doc: 'Sets the size, in cells, that the session is laid out in, and what a pane frame costs in cells (the window sends both once per window or font change).',
  }),
  'session/snapshot': method({
    params: lazySchema(() => z.object({ session: SessionRefSchema.optional() })),
    result: SessionSnapshotSchema,
    cap: 'read',
    doc: 'The session as plain data, for saving.',
  }),
  'session/context': method({
    params: lazySchema(() => z.object({
      session: SessionRefSchema.optional(),
      /** The context to follow (made from the session's focus and zoom when new); null: the session's own again. Absent: a guest's own (grant:ID), else the session's own. */
      context: ContextNameSchema.nullable().optional(),
    })),
    result: lazySchema(() => z.object({ session: z.string().uuid(), context: z.string().nullable(), focused: z.number().int().nullable(), zoomed: z.number().int().nullable() })),
    cap: 'read',
    doc: 'Follows a context of a session: a named view with its own focus and zoom. This client’s focus and zoom then move the context, never the session’s own (what other windows show); a grant’s guest is always in one.',
  }),
  'session/attach': method({
    params: lazySchema(() => z.object({
      /** A session here (name or id), or a joined host's as HOST:NAME. */
      session: SessionRefSchema,
      /** The caller's pane: the windows showing its session switch to this one. Absent: no window is told, and a URL is made for one. */
      from: PaneRefSchema.optional(),
    })),
    result: lazySchema(() => SessionAckSchema.extend({
      /** Windows told to show it (those that showed the `from` pane's session). */
      windows: z.number().int(),
      /** A one-time URL opening a window on it, when no window was told and this server has an HTTP front (the person only). */
      url: z.string().optional(),
      /** For HOST:NAME: the host, how many of its panes this attach tiled, and those already tiled in another local session. */
      host: HostNameSchema.optional(),
      tiled: z.number().int().optional(),
      elsewhere: z.array(z.string()).optional(),
    })),
    cap: 'write',
    doc: 'Shows a session in a window, as tmux attach: the windows showing the caller\'s pane switch to it (or a one-time URL opens one). A joined host\'s session (HOST:NAME) is first made a local view: a session of stand-ins laid out as there, following it.',
  }),
  'session/restore': method({
    params: lazySchema(() => z.object({ snapshot: SessionSnapshotSchema, name: z.string().min(1).max(100).optional() })),
    result: SessionAckSchema,
    cap: 'write',
    doc: 'Recreates a session from a snapshot, relaunching each pane’s program.',
  }),
};
