// The pane model as plain serializable data: what the server owns and every view
// projects. Sessions are saved and restored as exactly these objects.
import { z } from 'zod';
import { HostNameSchema } from './ids';
import { boundedArray, boundedRecord, boundedString, MAX_ARG_LENGTH, MAX_ARGS, MAX_ENV_ENTRIES, MAX_ENV_NAME_LENGTH, MAX_PATH_LENGTH } from './limits';
import { lazySchema } from './lazySchema';

/** Reverse-DNS app signature, e.g. com.pane.terminal. */
export const SignatureSchema = lazySchema(() => z
  .string()
  .min(3)
  .max(200)
  .regex(/^[a-z0-9-]+(\.[A-Za-z0-9_-]+)+$/, 'a signature is reverse-DNS, e.g. com.pane.terminal'));

export const BodyKindSchema = lazySchema(() => z.enum(['terminal', 'text', 'widgets', 'agent', 'remote']));
export type BodyKind = z.infer<typeof BodyKindSchema>;
/**
 * The kinds a request or an app file may ask a new pane to be. `remote` (a local
 * stand-in tiling a joined host's pane, decision 037) is made only by host/show,
 * which checks the host and the caller; a split cannot point one at any pane.
 */
export const NewBodyKindSchema = lazySchema(() => BodyKindSchema.exclude(['remote']));

/** One argument of a pane command. */
export const CommandArgSchema = lazySchema(() => z.object({
  name: z.string(),
  type: z.enum(['string', 'int', 'enum', 'text']),
  values: z.array(z.string()).optional(),
  optional: z.boolean().optional(),
  doc: z.string().optional(),
}));
export type CommandArg = z.infer<typeof CommandArgSchema>;

/** Longest text an app word types into its pane. */
export const MAX_WORD_INPUT = 4000;

/**
 * What a word an app file declares does (its `commands`): types text into its pane
 * (`input`, then Enter unless `submit` is false), or runs a program beside it
 * (`run`: argv, never a shell string). `{ARG}` stands for an argument's value: in
 * `input` anywhere, in `run` only as a whole argv element (a value starting with
 * `-` is refused there, never taken as an option). It runs as whoever runs the
 * word, through the same requests a person's keys and splits go through.
 */
export const InputActionShape = { input: lazySchema(() => z.string().min(1).max(MAX_WORD_INPUT)), submit: lazySchema(() => z.boolean().optional()) };
export const RunActionShape = {
  run: lazySchema(() => z.object({ program: z.string().min(1).max(4096), args: z.array(z.string().max(4096)).max(64).default([]) }).strict()),
  placement: lazySchema(() => z.enum(['split', 'float']).optional()),
};
export const WordActionSchema = lazySchema(() => z.union([z.object(InputActionShape).strict(), z.object(RunActionShape).strict()]));
export type WordAction = z.infer<typeof WordActionSchema>;

/** A word of a pane's command vocabulary: what the tag, palette, ctl and CLI share. */
export const PaneCommandSchema = lazySchema(() => z.object({
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*$/),
  doc: z.string(),
  args: z.array(CommandArgSchema),
  /** Shown as a word in the tag. */
  inTag: z.boolean().optional(),
  /** A stand-in's word borrowed from its remote pane's vocabulary: run there (pane/exec on HOST:N), not here. */
  remote: z.boolean().optional(),
  /** A word an app file added: what it does (absent for pane's own words). */
  action: WordActionSchema.optional(),
  /** A word the reader holding /N/event open read-write registered: offered to that reader when run, gone when it lets go. */
  reader: z.boolean().optional(),
}));
export type PaneCommand = z.infer<typeof PaneCommandSchema>;

/** acme-style tag: a name, then command words, then free user text. */
export const TagSchema = lazySchema(() => z.object({
  name: z.string().max(500),
  commands: z.array(z.string()),
  user: z.string().max(4000),
}));
export type Tag = z.infer<typeof TagSchema>;

export const PaneStateSchema = lazySchema(() => z.enum(['starting', 'running', 'exited']));
export type PaneState = z.infer<typeof PaneStateSchema>;

export const ExitStatusSchema = lazySchema(() => z.object({
  code: z.number().int().nullable(),
  signal: z.number().int().nullable(),
  at: z.number(),
  /** The signal's name on the server's OS (SIGKILL), so views need no table of numbers. */
  signalName: z.string().max(20).optional(),
}));
export type ExitStatus = z.infer<typeof ExitStatusSchema>;

/** argv launch spec — never a shell string. Kept so restart and restore can relaunch. */
/** A launch as the server holds it (its own launches, such as a sandbox's wrapping, may be longer than any asked for). */
export const LaunchSpecSchema = lazySchema(() => z.object({
  program: z.string().min(1),
  args: z.array(z.string()),
  cwd: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
}));
export type LaunchSpec = z.infer<typeof LaunchSpecSchema>;

/** A launch as asked for, in an app file or a request: argv and environment within the bounds of limits.ts. */
export const BoundedLaunchSpecSchema = lazySchema(() => z.object({
  program: boundedString(MAX_PATH_LENGTH, 'MAX_PATH_LENGTH').min(1),
  args: boundedArray(boundedString(MAX_ARG_LENGTH, 'MAX_ARG_LENGTH'), MAX_ARGS, 'MAX_ARGS', 'arguments'),
  cwd: boundedString(MAX_PATH_LENGTH, 'MAX_PATH_LENGTH').optional(),
  env: boundedRecord(boundedString(MAX_ARG_LENGTH, 'MAX_ARG_LENGTH'), MAX_ENV_ENTRIES, 'MAX_ENV_ENTRIES', 'environment entries', MAX_ENV_NAME_LENGTH, 'MAX_ENV_NAME_LENGTH').optional(),
}));

export const PaneSchema = lazySchema(() => z.object({
  n: z.number().int().positive(),
  uuid: z.string().uuid(),
  host: HostNameSchema,
  session: z.string().uuid(),
  signature: z.string(),
  kind: BodyKindSchema,
  tag: TagSchema,
  vocabulary: z.array(PaneCommandSchema),
  owner: z.string(),
  cwd: z.string(),
  launch: LaunchSpecSchema.nullable(),
  pid: z.number().int().nullable(),
  pgid: z.number().int().nullable(),
  state: PaneStateSchema,
  exit: ExitStatusSchema.nullable(),
  cols: z.number().int().positive(),
  rows: z.number().int().positive(),
  attrs: z.record(z.string(), z.string()),
  createdAt: z.number(),
}));
export type Pane = z.infer<typeof PaneSchema>;

export const SplitDirectionSchema = lazySchema(() => z.enum(['horizontal', 'vertical']));
/** horizontal = side by side (a vertical divider, like tmux -h); vertical = stacked. */
export type SplitDirection = z.infer<typeof SplitDirectionSchema>;

export const LeafSchema = lazySchema(() => z.object({ type: z.literal('leaf'), pane: z.number().int().positive() }));
export type LayoutLeaf = z.infer<typeof LeafSchema>;
export interface LayoutSplit {
  type: 'split';
  direction: SplitDirection;
  /** Percent of the space given to `a` (left or top), 10..90. */
  ratio: number;
  a: LayoutNode;
  b: LayoutNode;
}
export type LayoutNode = LayoutLeaf | LayoutSplit;
export const LayoutNodeSchema: z.ZodType<LayoutNode> = lazySchema(() => z.lazy(() =>
  z.union([
    LeafSchema,
    z.object({
      type: z.literal('split'),
      direction: SplitDirectionSchema,
      ratio: z.number().min(10).max(90),
      a: LayoutNodeSchema,
      b: LayoutNodeSchema,
    }),
  ]),
));

/** A floating pane's rectangle, in cells of the session viewport. */
export const FloatingSchema = lazySchema(() => z.object({
  pane: z.number().int().positive(),
  x: z.number().int().min(0).max(65535),
  y: z.number().int().min(0).max(65535),
  w: z.number().int().min(1).max(65535),
  h: z.number().int().min(1).max(65535),
  z: z.number().int(),
  layer: z.string().min(1).max(64),
  visible: z.boolean(),
  /** Hidden by the server so as not to cover this pane, the one the person's focus was on (decision 060): someone else's float, with no room beside that pane. Gone once it is shown again. */
  keptOff: z.number().int().positive().optional(),
}));
export type Floating = z.infer<typeof FloatingSchema>;

/**
 * Cells a pane's frame spends on its tag and borders, as the window measured them
 * with its font: a pane laid out in w×h cells has a terminal body of
 * (w − cols)×(h − rows). Without a window the tag is counted as one row.
 */
export const ChromeSchema = lazySchema(() => z.object({
  cols: z.number().int().min(0).max(16),
  rows: z.number().int().min(0).max(16),
  /** The window's cell in CSS pixels: how many rows an image a program prints covers in the server's screen model. */
  cell: z.object({ w: z.number().min(1).max(200), h: z.number().min(1).max(400) }).optional(),
}));
export type Chrome = z.infer<typeof ChromeSchema>;

export const ViewportSchema = lazySchema(() => z.object({
  cols: z.number().int().min(2).max(10000),
  rows: z.number().int().min(2).max(10000),
  /** What a frame costs, reported by the window; absent until one reports it. */
  chrome: ChromeSchema.optional(),
}));
export type Viewport = z.infer<typeof ViewportSchema>;

/** Which part of the session's view a pane occupies ("ada (top-left)"). */
export const QuadrantSchema = lazySchema(() => z.enum(['top-left', 'top-right', 'bottom-left', 'bottom-right', 'left', 'right', 'top', 'bottom', 'full']));
export type Quadrant = z.infer<typeof QuadrantSchema>;

/**
 * Where the server lays a pane out, computed from the tree, the floating layer,
 * zoom and the viewport: the frame in cells of the viewport, the terminal body
 * inside it (its PTY's size), and its quadrant. The window draws exactly this.
 */
export const PlacementSchema = lazySchema(() => z.object({
  pane: z.number().int().positive(),
  x: z.number().int().min(0),
  y: z.number().int().min(0),
  w: z.number().int().min(0),
  h: z.number().int().min(0),
  cols: z.number().int().positive(),
  rows: z.number().int().positive(),
  quadrant: QuadrantSchema,
  floating: z.boolean(),
  /** False for a tile behind a zoomed pane or a hidden float (it keeps its size). */
  shown: z.boolean(),
}));
export type Placement = z.infer<typeof PlacementSchema>;

/** Panes a session remembers focusing (Session.recent): enough to walk back through any working set, small to send. */
export const RECENT_FOCUS_MAX = 16;

export const SessionSchema = lazySchema(() => z.object({
  id: z.string().uuid(),
  name: z.string(),
  host: HostNameSchema,
  layout: LayoutNodeSchema.nullable(),
  floating: z.array(FloatingSchema),
  focused: z.number().int().positive().nullable(),
  zoomed: z.number().int().positive().nullable(),
  /**
   * The panes the session's own focus held before `focused`, the latest first (at most
   * RECENT_FOCUS_MAX): where closing the focused pane and `pane focus last` go back to, as
   * tmux's last pane. Only the person's focus moves write it (an agent's or a guest's move
   * their own context). Absent in a session no focus has left yet and in older state files.
   */
  recent: z.array(z.number().int().positive()).max(RECENT_FOCUS_MAX).optional(),
  viewport: ViewportSchema,
  /** Every pane's placement, recomputed by the server on each layout change (derived; a snapshot may omit it). */
  placements: z.array(PlacementSchema).default([]),
  createdAt: z.number(),
}));
export type Session = z.infer<typeof SessionSchema>;

/** A rectangle in cells; geometry the server computes from the tree. */
export const RectSchema = lazySchema(() => z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() }));
export type Rect = z.infer<typeof RectSchema>;
