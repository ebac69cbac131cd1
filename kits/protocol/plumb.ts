// Plumbing: text a program or an agent printed, turned into an action by rules
// that are files (Plan 9's plumber, plumb(7)). A message is the text around a
// click with the click's offset, the pane's cwd and its host; the first rule whose
// patterns all match names what happens: the message goes to a port (a file under
// /pane/plumb/ that editors, agents and `pane plumb read PORT` listen on), a
// client pane takes it (pane's editor, the window's browser), or a program starts
// in a pane beside the one clicked. docs/plumbing.md is the guide.
import { z } from 'zod';
import { method } from './method';
import { PaneRefSchema } from './ids';
import { lazySchema } from './lazySchema';

/** The most text one message carries: a wrapped line of a wide terminal is far less; a paste of a log is refused, not cut. */
export const MAX_PLUMB_TEXT = 8192;
/** A port's name: a word, as the file /pane/plumb/PORT is named. */
export const PortNameSchema = lazySchema(() => z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, 'a port is a lowercase word (letters, digits, - and _), at most 32 characters'));

export const PlumbMessageParams = lazySchema(() => z.object({
  /** The pane the text came from: its cwd is the message's wdir, its session places what opens. */
  pane: PaneRefSchema.optional(),
  /** The text around the click (a whole logical line in the window), or the whole text to plumb. */
  text: z.string().min(1, 'nothing to plumb: the text is empty').max(MAX_PLUMB_TEXT, `a plumbed text is at most ${MAX_PLUMB_TEXT} characters`),
  /** Where in `text` the click was (UTF-16 offset): a rule's pattern must match around it. Without one, a pattern must match the whole text. */
  click: z.number().int().nonnegative().optional(),
  /** The directory relative paths are read in: default the pane's cwd, else the caller's. */
  wdir: z.string().max(4096).optional(),
  /** Where the message asks to go (plumb(7)'s dst): only rules that send to this port fire. */
  port: PortNameSchema.optional(),
}));

/** A rule file's error, by file and line: the rule set holding it is left out, the others keep working. */
export const PlumbErrorSchema = lazySchema(() => z.object({ file: z.string(), line: z.number().int(), message: z.string() }));
export type PlumbError = z.infer<typeof PlumbErrorSchema>;

/** What a message became. */
export const PlumbOutcomeSchema = lazySchema(() => z.object({
  /** Whether a rule fired. */
  fired: z.boolean(),
  /** The rule that fired (or would), as FILE:LINE of its first line. */
  rule: z.string().optional(),
  /** The text the rule took (the match around the click, or what `data set` made of it). */
  data: z.string().optional(),
  /** The message's attributes after the rule (line, col, url, …). */
  attrs: z.record(z.string(), z.string()).optional(),
  /** What happened (or, with plumb/test, would happen), in a sentence. */
  action: z.string(),
  /** The port it went to, when it went to one. */
  port: z.string().optional(),
  /** A reader took it; false when it is held for a reader to come. */
  delivered: z.boolean().optional(),
  /** The pane that now shows it (an editor reused or opened, a program started). */
  pane: z.number().int().optional(),
  /** A URL for the caller's window to open (the browser client): the server opens nothing on a screen. */
  open: z.string().optional(),
  /** Why each rule before it did not fire, for `pane plumb test` (rule: reason). */
  tried: z.array(z.string()).optional(),
  /** Errors in the rule files read for this message. */
  errors: z.array(PlumbErrorSchema),
}));
export type PlumbOutcome = z.infer<typeof PlumbOutcomeSchema>;

/** One rule as `plumb/rules` lists it; `pattern` is what the window underlines on hover. */
export const PlumbRuleInfoSchema = lazySchema(() => z.object({
  /** FILE:LINE of its first line. */
  at: z.string(),
  origin: z.enum(['shipped', 'user', 'project']),
  /** Its `data matches` pattern (JavaScript regular expression syntax), if it has one. */
  pattern: z.string().optional(),
  /** What it does, in its own words: `to edit, client editor`. */
  does: z.string(),
}));

export const plumbMethods = {
  'plumb/send': method({
    params: PlumbMessageParams,
    result: PlumbOutcomeSchema,
    cap: 'write',
    doc: 'Plumbs a text (with a click offset): the first rule that matches sends it to a port, hands it to a client or starts a program beside the pane, as the caller.',
  }),
  'plumb/test': method({
    params: PlumbMessageParams,
    result: PlumbOutcomeSchema,
    cap: 'read',
    doc: 'Which rule a text would fire and what it would do, without doing it; with why each earlier rule did not.',
  }),
  'plumb/rules': method({
    params: lazySchema(() => z.object({ pane: PaneRefSchema.optional(), wdir: z.string().max(4096).optional() })),
    result: lazySchema(() => z.object({ rules: z.array(PlumbRuleInfoSchema), errors: z.array(PlumbErrorSchema), ports: z.array(z.object({ port: z.string(), readers: z.number().int(), held: z.number().int() })) })),
    cap: 'read',
    doc: 'The plumbing rules that apply to a pane (the person’s, its project’s, the shipped ones, in that order: the first that matches fires), their errors, and the ports with their readers.',
  }),
};
