// Pane operations of the runtime contract: split, launch, focus, resize, swap,
// close, restart, zoom, float/tile, tag, attrs, input, commands.
import { z } from 'zod';
import { PaneRefSchema, SessionRefSchema } from './ids';
import { AGENT_STATES, MAX_WAIT_MS } from './agentState';
import { BoundedLaunchSpecSchema, ExitStatusSchema, PaneSchema, SignatureSchema, SplitDirectionSchema, NewBodyKindSchema, RectSchema } from './model';
import { method } from './method';
import { lazySchema } from './lazySchema';
import { clip, shown } from './shown';
import { boundedString, MAX_ATTR_KEY_LENGTH, MAX_CLIENT_ATTRS, MAX_PANE_ATTR_VALUE_LENGTH } from './limits';

export const PaneAckSchema = lazySchema(() => z.object({
  session: z.string().uuid(),
  pane: z.number().int().positive(),
  /** Canonical HOST:n address. */
  id: z.string(),
}));
export type PaneAck = z.infer<typeof PaneAckSchema>;

/** The neighbours a focus or swap moves to: by geometry, then by order. */
export const FOCUS_DIRECTIONS = ['left', 'right', 'up', 'down', 'next', 'prev'] as const;
export const FocusDirectionSchema = lazySchema(() => z.enum(FOCUS_DIRECTIONS));
export const EdgeSchema = lazySchema(() => z.enum(['left', 'right', 'up', 'down']));
export type FocusDirection = z.infer<typeof FocusDirectionSchema>;
/** Where `pane/focus` may move: a direction, or `last`, back to the pane focused before (Session.recent, tmux's last-pane). */
export const FocusMoveSchema = lazySchema(() => z.enum([...FOCUS_DIRECTIONS, 'last']));
export type FocusMove = z.infer<typeof FocusMoveSchema>;
export type Edge = z.infer<typeof EdgeSchema>;

const target = { pane: lazySchema(() => PaneRefSchema.optional()), session: lazySchema(() => SessionRefSchema.optional()) };

export { MAX_WAIT_MS };
/** What pane/wait waits for (see its doc). */
export const WAIT_UNTIL = ['idle', 'exit', 'quiet', 'agent'] as const;
export type WaitUntil = (typeof WAIT_UNTIL)[number];

/** An attr key a client writes: letters, digits, "_", "." or "-", starting with a letter, digit or "_" (never read as an option where a key is shown or passed on). */
const ATTR_KEY = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/**
 * Attrs a client gives a pane: at most MAX_CLIENT_ATTRS, each key at most
 * MAX_ATTR_KEY_LENGTH characters and of ATTR_KEY's shape (a refusal quotes the key
 * clipped, never a megabyte of it), each value as `value` bounds it. A key given
 * null (a delete) is not held to the key rules: it adds nothing.
 */
function attrsOf<V extends z.ZodType>(value: V) {
  return z.record(z.string(), value).superRefine((o, ctx) => {
    const keys = Object.keys(o);
    if (keys.length > MAX_CLIENT_ATTRS) ctx.addIssue({ code: 'custom', message: `at most ${MAX_CLIENT_ATTRS} attrs on a pane (MAX_CLIENT_ATTRS); this gives ${keys.length}` });
    for (const k of keys) {
      // Deleting is always allowed: a key set before these bounds (state kept from an older pane) can still be removed.
      if (o[k] === null) continue;
      const named = shown(clip(k, 41));
      if (k.length > MAX_ATTR_KEY_LENGTH) ctx.addIssue({ code: 'custom', message: `attr key "${named}" is ${k.length} characters; a key is at most ${MAX_ATTR_KEY_LENGTH} (MAX_ATTR_KEY_LENGTH)` });
      else if (!ATTR_KEY.test(k)) ctx.addIssue({ code: 'custom', message: `attr key "${named}": keys are letters, digits, "_", "." or "-", and start with a letter, digit or "_"` });
    }
  });
}

/** What a new pane is: its program (argv), where, and how it is known. */
export const NewPaneSpecSchema = lazySchema(() => z.object({
  launch: BoundedLaunchSpecSchema.optional(),
  name: z.string().max(200).optional(),
  signature: SignatureSchema.optional(),
  kind: NewBodyKindSchema.optional(),
  owner: z.string().max(100).optional(),
  attrs: attrsOf(boundedString(MAX_PANE_ATTR_VALUE_LENGTH, 'MAX_PANE_ATTR_VALUE_LENGTH')).optional(),
  /** Working directory when no launch spec gives one (default: the neighbour's, else $HOME). */
  cwd: z.string().optional(),
}));
export type PaneSpec = z.infer<typeof NewPaneSpecSchema>;

export const paneMethods = {
  'pane/list': method({
    params: lazySchema(() => z.object({ session: SessionRefSchema.optional() })),
    result: lazySchema(() => z.object({ panes: z.array(PaneSchema) })),
    cap: 'read',
    doc: 'Lists panes, in layout order per session.',
  }),
  'pane/get': method({
    params: lazySchema(() => z.object({ pane: PaneRefSchema })),
    result: PaneSchema,
    cap: 'read',
    doc: 'One pane.',
  }),
  'pane/geometry': method({
    params: lazySchema(() => z.object({ session: SessionRefSchema.optional() })),
    result: lazySchema(() => z.object({ rects: z.record(z.string(), RectSchema) })),
    cap: 'read',
    doc: 'Each visible pane’s rectangle in cells, as the server lays it out.',
  }),
  'pane/split': method({
    params: lazySchema(() => z.object({
      ...target,
      direction: SplitDirectionSchema.default('horizontal'),
      /** Percent given to the existing pane; clamped to 10..90. */
      ratio: z.number().default(50),
      ...NewPaneSpecSchema.shape,
    })),
    result: PaneAckSchema,
    cap: 'write',
    doc: 'Splits a pane; the new pane runs the given program or the user’s shell. A split that would leave either side under 6×2 cells is refused (failed), naming the sizes.',
  }),
  'pane/launch': method({
    params: lazySchema(() => z.object({
      ...target,
      direction: SplitDirectionSchema.default('horizontal'),
      ratio: z.number().default(50),
      ...NewPaneSpecSchema.shape,
      launch: BoundedLaunchSpecSchema,
    })),
    result: PaneAckSchema,
    cap: 'write',
    doc: 'Launches a program (argv, never a shell string) in a new pane beside the target.',
  }),
  'pane/focus': method({
    params: lazySchema(() => z.object({ ...target, direction: FocusMoveSchema.optional() })),
    result: PaneAckSchema,
    cap: 'write',
    doc: 'Focuses a pane by id, or moves focus by direction (geometry) or order (next/prev).',
  }),
  'pane/resize': method({
    params: lazySchema(() => z.object({ ...target, direction: EdgeSchema, cells: z.number().int().min(1).max(10000) })),
    result: PaneAckSchema,
    cap: 'write',
    doc: 'Moves the pane’s edge in a direction by N cells.',
  }),
  'pane/ratio': method({
    params: lazySchema(() => z.object({ ...target, direction: SplitDirectionSchema, ratio: z.number() })),
    result: PaneAckSchema,
    cap: 'write',
    doc: 'Sets the ratio of the nearest enclosing split of that direction (divider drags).',
  }),
  'pane/swap': method({
    params: lazySchema(() => z.object({ ...target, with: PaneRefSchema.optional(), direction: FocusDirectionSchema.optional() })),
    result: PaneAckSchema,
    cap: 'write',
    doc: 'Swaps a pane with another, or with its neighbour in a direction.',
  }),
  'pane/wait': method({
    params: lazySchema(() => z
      .object({
        ...target,
        until: z.enum(WAIT_UNTIL),
        /** quiet: how long the pane must print nothing (ms). */
        quietMs: z.number().int().min(100).max(MAX_WAIT_MS).optional(),
        /** agent: the states that end the wait (default every one but working). */
        states: z.array(z.enum(AGENT_STATES)).min(1).max(6).optional(),
        /** Answer met: false after this long (default and at most MAX_WAIT_MS). */
        timeoutMs: z.number().int().min(0).max(MAX_WAIT_MS).optional(),
      })
      .refine((p) => (p.until === 'quiet') === (p.quietMs !== undefined), { error: 'quietMs goes with until: quiet, and quiet needs it' })
      .refine((p) => p.states === undefined || p.until === 'agent', { error: 'states go with until: agent' })),
    result: lazySchema(() => z.object({
      pane: z.number().int().positive(),
      /** False: the timeout came first. */
      met: z.boolean(),
      /** Met when asked: it was so already (nothing ran, the program had ended, the agent was there). */
      already: z.boolean(),
      /** until: idle: the program last seen running in the foreground, the command that finished (its own words: shown escaped). */
      ran: z.string().max(200).optional(),
      /** What was seen, in words: "at its prompt", "exited 2", "quiet for 5 s", "needs you", or what was still going at the timeout. */
      what: z.string().max(500),
      /** How the program ended, when it has. */
      exit: ExitStatusSchema.nullable(),
      /** The agent's state at the answer (until: agent). */
      state: z.enum(AGENT_STATES).optional(),
      /** The stream's end at the answer: output after it came after the wait. */
      offset: z.number().int().min(0),
      waitedMs: z.number().int().min(0),
    })),
    cap: 'read',
    doc: 'Waits until a pane is idle (nothing but its shell runs and it printed nothing for IDLE_SETTLE_MS: the line sent has finished), its program exits, it prints nothing for quietMs (tmux’s monitor-silence), or its agent reaches one of `states`; answers met: false at timeoutMs. An ended program ends every wait but quiet. The wait ends with its connection.',
  }),
  'pane/move': method({
    params: lazySchema(() => z
      .object({
        ...target,
        /** The session it joins (tmux's join-pane), beside that session's focused tile. */
        to: SessionRefSchema.optional(),
        /** A session made for it alone (tmux's break-pane), named `name` or the next free name. */
        newSession: z.boolean().optional(),
        name: z.string().trim().min(1).max(100).optional(),
        direction: SplitDirectionSchema.default('horizontal'),
      })
      .refine((p) => (p.to !== undefined) !== (p.newSession === true), { error: 'give to (a session it joins) or newSession (a session of its own), one of them' })
      .refine((p) => p.name === undefined || p.newSession === true, { error: 'name names a new session: give it with newSession' })),
    /** `name`: the session it is in now, as this server names it (HOST:NAME for a joined host's); absent from a host older than it. */
    result: lazySchema(() => PaneAckSchema.extend({ name: z.string().max(200).optional() })),
    cap: 'write',
    doc: 'Moves a pane, its program running on, into another session beside that session’s focused tile (tmux’s join-pane), or into a session of its own (break-pane). It takes the focus there; the session it left collapses around it, and ends if it was its last pane. A joined host’s pane (HOST:N) moves between that host’s sessions (to: HOST:NAME), forwarded there; a tile of a host’s session shown here stays where it is.',
  }),
  'pane/close': method({
    params: lazySchema(() => z.object({
      ...target,
      /**
       * Refuse with `busy` (naming the program) unless nothing but an idle shell runs
       * in the pane: the window sends this and asks the person; scripts leave it out.
       */
      unlessBusy: z.boolean().optional(),
    })),
    result: PaneAckSchema,
    cap: 'write',
    doc: 'Closes a pane, ending its process; the sibling takes the space.',
  }),
  'pane/restart': method({
    params: lazySchema(() => z.object(target)),
    result: PaneAckSchema,
    cap: 'write',
    doc: 'Relaunches the pane’s program in place.',
  }),
  'pane/zoom': method({
    params: lazySchema(() => z.object({ ...target, zoom: z.boolean().optional() })),
    result: PaneAckSchema,
    cap: 'write',
    doc: 'Zooms the pane to the whole session view (zoom true) or unzooms the session (false); toggles when zoom is omitted.',
  }),
  'pane/float': method({
    params: lazySchema(() => z.object({
      ...target,
      mode: z.enum(['toggle', 'float', 'tile']).default('toggle'),
      x: z.number().int().min(0).optional(),
      y: z.number().int().min(0).optional(),
      w: z.number().int().min(1).optional(),
      h: z.number().int().min(1).optional(),
    })),
    result: PaneAckSchema,
    cap: 'write',
    doc: 'Moves a pane between the tiled tree and the floating layer.',
  }),
  'pane/hide': method({
    params: lazySchema(() => z.object({
      ...target,
      /** true: minimise (a tile leaves the layout, a float is hidden); false: show it again where it was (a tile back in the tiling). */
      hidden: z.boolean().default(true),
    })),
    result: PaneAckSchema,
    cap: 'write',
    doc: 'Hides (minimises) a pane, tile or float, its program running on; shows a hidden one again (the dock lists them).',
  }),
  'pane/tag': method({
    params: lazySchema(() => z.object({
      pane: PaneRefSchema.optional(),
      name: z.string().max(500).optional(),
      user: z.string().max(4000).optional(),
      /** acme semantics: append to the user text instead of replacing it. */
      append: z.string().max(4000).optional(),
    })),
    result: PaneAckSchema,
    cap: 'write',
    doc: 'Sets the tag name or user text, or appends to the user text.',
  }),
  'pane/attrs': method({
    params: lazySchema(() => z.object({
      pane: PaneRefSchema.optional(),
      /** A null value deletes the key. */
      set: attrsOf(boundedString(MAX_PANE_ATTR_VALUE_LENGTH, 'MAX_PANE_ATTR_VALUE_LENGTH').nullable()),
    })),
    result: PaneAckSchema,
    cap: 'write',
    doc: 'Sets or deletes attrs (key → value).',
  }),
  'pane/exec': method({
    params: lazySchema(() => z.object({
      pane: PaneRefSchema.optional(),
      /** One command line: a word of the pane's vocabulary and its args. */
      line: z.string().min(1).max(4000),
      /** Where it came from, for the event stream (tag, palette, ctl, cli). */
      origin: z.string().max(40).optional(),
      /**
       * What a word outside the vocabulary does: `error` (ctl, scripts) fails;
       * `shell` (a word typed in the tag, as in acme) runs it as a shell command in
       * the pane's cwd, its output going to the session's +Errors pane.
       */
      fallback: z.enum(['error', 'shell']).default('error'),
      /**
       * The revision of the vocabulary the caller saw (vocabularyRevision): when the
       * pane's words changed since, the line is refused, never run with another meaning
       * nor sent to a shell. Absent: resolved against the vocabulary of the moment.
       */
      vocabulary: z.string().regex(/^[0-9a-f]{8}$/).optional(),
    })),
    result: lazySchema(() => z.object({
      pane: z.number().int(),
      done: z.boolean(),
      output: z.string().optional(),
      /** The pane the word opened (a split, a view of an agent), as pane/split names a new one: a script acts on it next. */
      opened: PaneAckSchema.optional(),
    })),
    cap: 'write',
    doc: 'Executes a command word of the pane’s vocabulary, as a tag click does; says which pane it opened, if it opened one.',
  }),
  'pane/input': method({
    params: lazySchema(() => z.object({
      pane: PaneRefSchema.optional(),
      data: z.string().max(1 << 20),
      encoding: z.enum(['utf8', 'base64']).default('utf8'),
      /**
       * Then press Enter as a keystroke of its own, once the program has taken the text
       * (its echo came and settled): what a person does, and what a TUI that reads a
       * burst as a paste needs to submit. The answer comes after the Enter.
       */
      submit: z.boolean().default(false),
    })),
    result: lazySchema(() => z.object({ pane: z.number().int(), bytes: z.number().int() })),
    cap: 'write',
    doc: 'Writes bytes to a pane’s PTY (direct input), as binary INPUT frames do; with submit, then Enter as its own keystroke once the program has taken them. To a pane whose program ended, Enter alone runs it again and any other input is refused, naming the pane and how to rerun or close it.',
  }),
};
