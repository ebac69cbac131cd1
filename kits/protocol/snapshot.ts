// The durable state file: what the daemon writes to $XDG_STATE_HOME/pane (snapshot
// generations + journal) and what `pane session save` prints, as versioned plain data,
// with migrations from older versions and the methods that list and go back to them.
import { z } from 'zod';
import { AgentStateSchema } from './agent';
import { method } from './method';
import { PaneSchema, SessionSchema } from './model';
import { SessionAckSchema, SessionSnapshotSchema } from './session';
import { STATE_VERSION } from './stateVersion';
import { lazySchema } from './lazySchema';

export { STATE_VERSION };

/** Most history block files one pane's saved history names (10,000 rows are ~40 blocks; 100,000 at most ~400). */
export const MAX_SCROLLBACK_BLOCKS = 1_000;

/**
 * A pane's saved history: files beside the snapshot, written by the screen worker.
 * `blocks` came with compact history (docs/decisions/021): files saved before it have
 * none and read as they always did, so the state version did not change.
 */
export const ScrollbackRefSchema = lazySchema(() => z.object({
  /** File name inside the state dir's scrollback/ folder (gzip of xterm-serialized text): the newest rows and the screen. */
  file: z.string().regex(/^[A-Za-z0-9._-]+$/),
  /**
   * Older rows, oldest first: each a gzip of one immutable block of compact rows (SGR
   * text, a row ending in \n, or \r when it wraps into the next), written once and
   * shared by every generation that names it.
   */
  blocks: z
    .array(z.string().regex(/^[A-Za-z0-9._-]+$/))
    .max(MAX_SCROLLBACK_BLOCKS)
    .optional(),
  savedAt: z.number(),
  lines: z.number().int().min(0),
  bytes: z.number().int().min(0),
}));
export type ScrollbackRef = z.infer<typeof ScrollbackRefSchema>;

/**
 * Largest pane number a saved state may bring back. Binary frames carry a pane as a
 * u32 (kits/protocol/binary.ts), and restored numbers are kept, with new panes numbered
 * after the largest: half the u32 range leaves two billion numbers after it. A file
 * naming a pane past it (2^53, say) is not pane's: it would make every new pane share
 * one number, past what the wire carries.
 */
export const MAX_SAVED_PANE = 2 ** 31 - 1;
const SavedPaneNumberSchema = lazySchema(() => z.number().int().positive().max(MAX_SAVED_PANE));

/** A pane as saved: the model's pane, its host-qualified address, and what resurrection needs. */
export const SavedPaneSchema = lazySchema(() => PaneSchema.extend({
  n: SavedPaneNumberSchema,
  /** `HOST:N`, so a saved pane is addressed the same everywhere. */
  address: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*:[1-9][0-9]*$/),
  scrollback: ScrollbackRefSchema.optional(),
  /** The agent conversation to resume (e.g. the session id Claude Code's hooks reported). */
  resume: z.object({ agent: z.string(), session: z.string().min(1).max(200) }).optional(),
  /**
   * The tag's name followed the pane's foreground (no one named the pane): restored, it
   * follows again. Absent (a name someone gave, or a file from before this field): the
   * saved name stays.
   */
  autoName: z.literal(true).optional(),
}));
export type SavedPane = z.infer<typeof SavedPaneSchema>;

/** The whole structural state of one daemon. */
export const StateFileSchema = lazySchema(() => z.object({
  version: z.literal(STATE_VERSION),
  savedAt: z.number(),
  host: z.string(),
  /** Placements are left out: they are derived, and the server lays each session out again. */
  sessions: z.array(SessionSchema.omit({ placements: true })),
  panes: z.array(SavedPaneSchema),
  /** State other families keep (agents' live state and last prompts, hook sessions, delivery queue), by family. */
  extra: z.record(z.string(), z.unknown()),
}));
export type StateFile = z.infer<typeof StateFileSchema>;

/**
 * Reads a state file of any known version: v1 (one session, as `session save` wrote
 * it) is migrated; a version newer than this build is refused naming both.
 */
export function migrateState(raw: unknown, where = 'snapshot'): StateFile {
  const v = typeof raw === 'object' && raw !== null ? (raw as { version?: unknown }).version : undefined;
  if (typeof v !== 'number') throw new Error(`${where} has no version number; is it a pane snapshot?`);
  if (v > STATE_VERSION) throw new Error(`${where} is version ${v}, newer than this pane, which reads versions 1 to ${STATE_VERSION}; update pane to read it`);
  if (v === 1) {
    const old = SessionSnapshotSchema.parse(raw);
    return {
      version: STATE_VERSION,
      savedAt: old.session.createdAt,
      host: old.session.host,
      sessions: [old.session],
      panes: old.panes.map((p) => ({ ...p, address: `${p.host}:${p.n}` })),
      extra: {},
    };
  }
  return StateFileSchema.parse(raw);
}

const ResumeSchema = lazySchema(() => z.object({ agent: z.string(), session: z.string().min(1).max(200) }));

/**
 * One journal line's record (after its checksum): a whole entity or its removal, so
 * replay is "last write wins". A line whose checksum holds but whose record fails
 * this schema is skipped with a warning, never applied.
 */
export const JournalRecordSchema = lazySchema(() => z.discriminatedUnion('k', [
  /**
   * The start of a whole-state dump: everything before it is replaced by what follows.
   * `records`: how many records the dump holds; a dump cut short (damage, a crash) is
   * not applied, so a torn dump never replaces a good state with part of one.
   */
  z.object({ k: z.literal('reset'), records: z.number().int().min(0).max(100_000_000).optional() }),
  z.object({ k: z.literal('session'), v: SessionSchema.omit({ placements: true }) }),
  z.object({ k: z.literal('session-gone'), id: z.string() }),
  z.object({ k: z.literal('pane'), v: PaneSchema.extend({ n: SavedPaneNumberSchema }), resume: ResumeSchema.optional(), autoName: z.literal(true).optional() }),
  z.object({ k: z.literal('pane-gone'), n: SavedPaneNumberSchema }),
  z.object({ k: z.literal('extra'), family: z.string().min(1).max(100), v: z.unknown() }),
  /** A pane's history as just flushed to disk (between snapshots): the files that now hold it. */
  z.object({ k: z.literal('history'), n: SavedPaneNumberSchema, uuid: z.string().uuid(), scrollback: ScrollbackRefSchema }),
]));
export type JournalRecord = z.infer<typeof JournalRecordSchema>;

/** One kept generation, as `pane restore --list` shows it. */
export const GenerationSchema = lazySchema(() => z.object({
  gen: z.number().int().min(1),
  savedAt: z.number(),
  sessions: z.number().int(),
  panes: z.number().int(),
  /** Bytes on disk: the snapshot plus its scrollback files. */
  bytes: z.number().int(),
  /** Bytes this save wrote (history blocks kept from earlier generations are not written again); when just written. */
  wrote: z.number().int().optional(),
  file: z.string(),
}));
export type Generation = z.infer<typeof GenerationSchema>;

/** Durability settings: config file durability.json. */
export const DurabilityConfigSchema = lazySchema(() => z
  .object({
    /** Bring sessions back when the daemon starts (default true). */
    resurrect: z.boolean().default(true),
    /** Lines of each terminal pane's history saved (0 turns scrollback saving off); the screen model keeps this many too when it is above its 10,000. */
    scrollbackLines: z.number().int().min(0).max(100_000).default(10_000),
    /** Programs restarted at once on resurrection (basenames); others wait behind "Enter to run". */
    restartAtOnce: z.array(z.string().min(1).max(100)).max(200).default(['vim', 'nvim', 'vi', 'nano', 'emacs', 'micro', 'hx', 'less', 'more', 'man', 'top', 'htop', 'btop', 'watch']),
    /** Most milliseconds between snapshots while something changed (the journal covers the gap). */
    snapshotEveryMs: z.number().int().min(1000).max(86_400_000).default(60_000),
  })
  .strict());
export type DurabilityConfig = z.infer<typeof DurabilityConfigSchema>;

export const stateMethods = {
  'state/generations': method({
    params: lazySchema(() => z.object({})),
    result: lazySchema(() => z.object({ dir: z.string().nullable(), generations: z.array(GenerationSchema) })),
    cap: 'read',
    doc: 'The snapshot generations kept on disk, newest first (empty when the server keeps no state).',
  }),
  'state/save': method({
    params: lazySchema(() => z.object({})),
    result: GenerationSchema,
    cap: 'write',
    doc: 'Writes a snapshot generation now (with scrollback) and returns it.',
  }),
  'state/restore': method({
    params: lazySchema(() => z.object({ gen: z.number().int().min(1).optional(), at: z.number().optional() })),
    result: lazySchema(() => z.object({ gen: z.number().int(), sessions: z.array(SessionAckSchema) })),
    cap: 'admin',
    doc: 'Recreates the sessions of a kept generation (by number, or the newest saved at or before `at`, ms since the epoch) beside the current ones.',
  }),
};

/** The agents' part of a state file: live runtimes (state, last prompt, hook sessions, mail waiting to be typed). */
export const SavedAgentsSchema = lazySchema(() => z.object({
  agents: z.array(
    z.object({
      name: z.string().min(1).max(100),
      state: AgentStateSchema,
      since: z.number(),
      lastPrompt: z.string().nullable(),
      lastPromptAt: z.number().nullable(),
      topics: z.array(z.string()),
      /** Mail waiting to be typed, and who sent it (a bare string: mail saved before senders were kept). */
      typeWhenWaiting: z.array(z.union([z.object({ line: z.string(), from: z.string().nullable() }), z.string().transform((line) => ({ line, from: null }))])),
      sessions: z.array(z.object({ id: z.string().min(1).max(200), cwd: z.string(), state: AgentStateSchema, since: z.number(), pane: z.number().int().positive().nullable() })),
    }),
  ),
  /** Hook session id → agent name. */
  hookSessions: z.record(z.string(), z.string()),
}));
export type SavedAgents = z.infer<typeof SavedAgentsSchema>;
