// Terminal streams: attach (snapshot, then output from its offset), read by
// offset, acknowledge parsed bytes (flow control), screen text, PTY size.
import { z } from 'zod';
import { ATTACH_HISTORY_MAX, MAX_GRID_ROWS } from './gridLimits';

export { MAX_GRID_ROWS } from './gridLimits';
import { PaneRefSchema } from './ids';
import { method } from './method';
import { lazySchema } from './lazySchema';

/** What a late attacher needs to draw the screen without replaying everything. */
export const ScreenSnapshotSchema = lazySchema(() => z.object({
  pane: z.number().int(),
  /** Stream offset the snapshot reflects: output resumes from exactly here. */
  offset: z.number().int().min(0),
  cols: z.number().int(),
  rows: z.number().int(),
  /** Plain text of scrollback + screen, trailing blanks trimmed. */
  text: z.string(),
  /** xterm serialize-addon state: replaying it into a fresh terminal redraws the screen. */
  serialized: z.string(),
  cursor: z.object({ x: z.number().int(), y: z.number().int() }),
  title: z.string(),
}));
export type ScreenSnapshot = z.infer<typeof ScreenSnapshotSchema>;

export const StreamWindowSchema = lazySchema(() => z.object({
  /** The oldest offset still held in the ring. */
  streamStart: z.number().int().min(0),
  /** One past the newest byte written. */
  streamEnd: z.number().int().min(0),
}));

export const OutputBatchSchema = lazySchema(() => StreamWindowSchema.extend({
  pane: z.number().int(),
  /** Offset of the first byte of `data`. */
  from: z.number().int(),
  /** Offset one past the last byte of `data`. */
  to: z.number().int(),
  /** True when the reader asked for bytes the ring had already dropped. */
  gap: z.boolean(),
  data: z.string(),
  encoding: z.enum(['utf8', 'base64']),
  /** The stream's end when the caller's own input (a key, a paste, `pane send`) last reached the program; absent before they sent any. What follows it is what that input brought; others' keys move it not. */
  inputAt: z.number().int().min(0).optional(),
}));
export type OutputBatch = z.infer<typeof OutputBatchSchema>;

const one = lazySchema(() => z.object({ pane: PaneRefSchema.optional() }));

export const ptyMethods = {
  'pty/attach': method({
    params: lazySchema(() => one.extend({
      /** snapshot: screen state first, then output from its offset; from: output from an offset. */
      mode: z.enum(['snapshot', 'from']).default('snapshot'),
      /** Mode `from`: the first offset wanted (default the oldest held); one past the stream's end means the end, so output starts with what the program prints next. */
      from: z.number().int().min(0).optional(),
      /** Whether this client acknowledges parsed bytes (pty/ack); only such clients pause the PTY, and only if they may write to the pane (a read-only viewer is never waited for), each for at most ACK_STALL_MS without acking. */
      flowControl: z.boolean().default(false),
      /**
       * Mode `from`, after an interrupt key (a window's Ctrl-C in a flood, decision 042):
       * start at the later of `from` and where this client's own last input reached the
       * program (pty/read's `inputAt`), so what that input brought (the ^C, the prompt
       * after it) is sent however soon it was printed, and what the program printed
       * before it is skipped. With no input of this client's there: the stream's end.
       */
      atInput: z.boolean().optional(),
      /**
       * The window a flow-controlled client starts with, before its ack rate is measured:
       * `min` (FLOW_HIGH_MIN; an unknown reader, maybe a slow page, whose Ctrl-C must show
       * soon) or `max` (FLOW_HIGH_MAX; a relay that buffers and acks as bytes arrive, a
       * host link: from the floor its window took ~13 acks to open, ~100 ms of a 20 ms
       * link's stream at 6 MB/s). Either way the window follows the measured rate after.
       * A server before this field ignores it (`min`).
       */
      flowStart: z.enum(['min', 'max']).default('min'),
      /**
       * Mode `snapshot`: rows of scrollback the snapshot carries besides the screen (at
       * most ATTACH_HISTORY, the default). A window on a slow or metered link asks 0: the
       * visible screen first, then only what is printed after.
       */
      history: z.number().int().min(0).max(ATTACH_HISTORY_MAX).optional(),
    })),
    result: lazySchema(() => StreamWindowSchema.extend({
      pane: z.number().int(),
      snapshot: ScreenSnapshotSchema.optional(),
      /** Output frames for this pane start at this offset. */
      from: z.number().int(),
      gap: z.boolean(),
    })),
    cap: 'attach',
    doc: 'Streams a pane’s output to this client as binary frames, after a snapshot when asked.',
  }),
  'pty/detach': method({
    params: one,
    result: lazySchema(() => z.object({ pane: z.number().int() })),
    cap: 'attach',
    doc: 'Stops streaming a pane to this client (and releases any pause it held).',
  }),
  'pty/ack': method({
    params: lazySchema(() => z.object({ pane: PaneRefSchema, bytes: z.number().int().min(0) })),
    result: lazySchema(() => z.object({ pane: z.number().int(), unacked: z.number().int() })),
    cap: 'attach',
    doc: 'Acknowledges bytes this client has parsed; the server pauses a PTY when too many are unacknowledged.',
  }),
  'pty/read': method({
    params: lazySchema(() => one.extend({
      from: z.number().int().min(0).optional(),
      maxBytes: z.number().int().min(1).max(16 << 20).default(1 << 20),
      encoding: z.enum(['utf8', 'base64']).default('utf8'),
    })),
    result: OutputBatchSchema,
    cap: 'read',
    doc: 'Reads a batch of output by stream offset; `gap` says bytes were dropped before `from`. A pane keeps its last 2 MiB of output, and once quiet for 10 s with every client caught up only its last 64 KiB (the whole history stays in `pty/screen` and the body).',
  }),
  'pty/screen': method({
    params: lazySchema(() => one.extend({
      /** `text`: the plain text alone (serialized is empty), with the whole history; a colour history's escape sequences may not fit one reply beside it. */
      form: z.enum(['both', 'text']).default('both'),
    })),
    result: ScreenSnapshotSchema,
    cap: 'read',
    doc: 'The screen model now: text and serialized state, each with as much history as fits one reply beside the other; `form: "text"` gives the text alone, with the whole history.',
  }),
  'pty/grid': method({
    params: lazySchema(() => one.extend({
      /** Rows wanted at most: a viewer on a slow link asks for what it shows. */
      rows: z.number().int().min(1).max(MAX_GRID_ROWS).default(50),
      /** The first row, counted from the oldest line of history (0); absent: the last `rows` rows (the bottom, where output lands). */
      top: z.number().int().min(0).optional(),
      /** The `offset` of the caller's last answer: unchanged since, the reply says so and carries no rows. */
      base: z.number().int().min(0).optional(),
      /**
       * Answer with the rows that differ from the caller's last answer (`changed`), not
       * all of them, when `base` is that answer's offset and the window is the same;
       * otherwise every row, with `desynced` set (the server no longer has that base).
       */
      delta: z.boolean().default(false),
    })),
    result: lazySchema(() => z.object({
      pane: z.number().int(),
      /** Stream offset these rows reflect (the next call's `base`). */
      offset: z.number().int().min(0),
      cols: z.number().int(),
      rows: z.number().int(),
      /** Rows of history and screen in all (trailing blank rows trimmed): a scrollbar's length. */
      total: z.number().int().min(0),
      /** The index of the first row given. */
      top: z.number().int().min(0),
      /** Plain text, one string a row, at most `rows` of them; empty when `unchanged`. */
      lines: z.array(z.string()),
      cursor: z.object({ x: z.number().int(), y: z.number().int() }),
      /** Nothing was printed since `base`: the caller's rows stand. */
      unchanged: z.boolean(),
      /** With `delta`: how many rows the window moved down since `base` (new output at the bottom); the caller drops that many from its top first. */
      shift: z.number().int().min(0).optional(),
      /** With `delta`: the rows that changed since `base`, after the shift, by their index in the window (0 = `top`); `lines` is then empty. */
      changed: z.array(z.object({ row: z.number().int().min(0), text: z.string() })).optional(),
      /** With `delta`: the server could not answer from `base` (another window, or a base it no longer keeps), so `lines` holds every row. */
      desynced: z.boolean().optional(),
    })),
    cap: 'read',
    doc: 'A window of a pane’s rows as plain text (history and screen): `rows` of them from `top`, or the last ones; with `base`, nothing when nothing changed. What a viewer on a slow link asks for instead of the whole screen and history.',
  }),
  'pty/resize': method({
    params: lazySchema(() => one.extend({ cols: z.number().int().min(2).max(1000), rows: z.number().int().min(1).max(1000) })),
    result: lazySchema(() => z.object({ pane: z.number().int(), cols: z.number().int(), rows: z.number().int() })),
    cap: 'write',
    doc: 'Sets the PTY size of a pane.',
  }),
};
