// App files: declarative JSON in apps/ and ~/.config/pane/apps/ that the launcher
// lists and launches (drop a file to add an app, delete it to remove it), plus
// `apps/list`, `apps/launch` and `apps/changed`.
import { z } from 'zod';
import { AgentAppSchema } from './agent';
import { PaneRefSchema } from './ids';
import { ConfigErrorSchema } from './keymap';
import { method } from './method';
import { NewBodyKindSchema, BoundedLaunchSpecSchema, CommandArgSchema, InputActionShape, RunActionShape, SignatureSchema, SplitDirectionSchema } from './model';
import { boundedRecord, boundedString, MAX_APP_ATTRS, MAX_ATTR_KEY_LENGTH, MAX_ATTR_VALUE_LENGTH } from './limits';
import { PaneAckSchema } from './pane';
import { WidgetNodeSchema, widgetBoundsErrors } from './widget';
import { lazySchema } from './lazySchema';

const resumeArgs = lazySchema(() => z.array(z.string().max(200)).min(1).max(20));

/**
 * An agent CLI's resume form, used when pane brings its pane back after a restart.
 * `args` carry `{session}`, replaced by the session id the agent's hooks reported
 * (e.g. ["--resume", "{session}"]); `last` is the form without an id (the CLI's own
 * "continue the latest"), used when no id was reported or the CLI has none (aider's
 * ["--restore-chat-history"]). `at` says where they go: after `launch.args` (flags), or
 * before them (a subcommand such as `codex resume ID`).
 */
/**
 * What a session id must look like when an app file names no pattern of its own: a
 * letter or digit first (so never an option, `-…`), then letters, digits and `._:-`,
 * at most 128 in all (UUIDs, ULIDs, Codex's and Gemini's ids). An id is an agent's
 * word, reported by its hooks: anything else is dropped, never put in an argv.
 */
export const DEFAULT_SESSION_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$';

/** Whether `source` compiles as a regular expression (an app file's idPattern). */
function compiles(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

export const ResumeSpecSchema = lazySchema(() => z
  .object({
    args: resumeArgs.optional(),
    last: resumeArgs.optional(),
    at: z.enum(['end', 'start']).default('end'),
    /**
     * The CLI's session ids, as a regular expression matched against the whole id
     * (DEFAULT_SESSION_ID_PATTERN when absent). An id that does not match, or that starts
     * with `-`, is never passed: the agent resumes with `last`, and /pane/log says why.
     */
    idPattern: z.string().min(1).max(200).refine(compiles, { message: 'resume.idPattern is not a regular expression' }).optional(),
  })
  .strict()
  .refine((r) => r.args !== undefined || r.last !== undefined, { message: 'resume needs `args` (with {session}) or `last` (the form without an id)' })
  .refine((r) => r.args === undefined || r.args.some((a) => a.includes('{session}')), { message: 'resume.args must place the session id somewhere: one of them holds {session}' })
  .refine((r) => r.args === undefined || r.args.every((a) => !a.includes('{session}') || a === '{session}'), { message: 'resume.args must give {session} an argument of its own (["--resume", "{session}"], not "--resume={session}")' }));

/** Whether `id` may go into a relaunched CLI's argv as its session id, per `resume` (its own pattern, or the default). */
export function sessionIdAllowed(id: string, resume: { idPattern?: string | undefined }): boolean {
  if (id.startsWith('-') || id.length > 200) return false;
  let re: RegExp;
  try {
    re = new RegExp(resume.idPattern ?? DEFAULT_SESSION_ID_PATTERN);
  } catch {
    return false;
  }
  const m = re.exec(id);
  return m !== null && m.index === 0 && m[0] === id;
}
export type ResumeSpec = z.infer<typeof ResumeSpecSchema>;

/** One app file, e.g. apps/terminal.json. */
/** Words one app file may add: a tag holds a handful; a palette of dozens per app is noise. */
export const MAX_APP_WORDS = 32;
/** Arguments one app word takes at most. */
export const MAX_APP_WORD_ARGS = 8;

const appWordShape = {
  name: lazySchema(() => z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,39}$/, 'a word is a letter, then letters, digits, _ or - (40 at most)')),
  doc: lazySchema(() => z.string().min(1).max(200)),
  args: lazySchema(() => z.array(CommandArgSchema).max(MAX_APP_WORD_ARGS).default([])),
  inTag: lazySchema(() => z.boolean().optional()),
};
/** One word an app file adds: its name, doc and arguments, and either `input` (typed) or `run` (a program beside the pane). */
export const AppWordSchema = lazySchema(() => z.union([z.object({ ...appWordShape, ...InputActionShape }).strict(), z.object({ ...appWordShape, ...RunActionShape }).strict()]));
export type AppWord = z.infer<typeof AppWordSchema>;

const AppFileObject = lazySchema(() => z
  .object({
    $schema: z.string().max(500).optional(),
    name: z.string().min(1).max(100),
    signature: SignatureSchema,
    description: z.string().max(500).optional(),
    /** `widget` is taken for `widgets` (the issue's and Wave's word for it). */
    kind: z.preprocess((k) => (k === 'widget' ? 'widgets' : k), NewBodyKindSchema.default('terminal')),
    /** argv, never a shell string; absent means the user's login shell. */
    launch: BoundedLaunchSpecSchema.optional(),
    /** Extra words the launcher's fuzzy search matches. */
    keywords: z.array(z.string().max(50)).max(50).optional(),
    /** Where it opens: split beside the focused pane (default) or floating above. */
    placement: z.enum(['split', 'float']).optional(),
    /** Initial tag user text and attrs. */
    tag: z.string().max(500).optional(),
    attrs: boundedRecord(boundedString(MAX_ATTR_VALUE_LENGTH, 'MAX_ATTR_VALUE_LENGTH'), MAX_APP_ATTRS, 'MAX_APP_ATTRS', 'attrs', MAX_ATTR_KEY_LENGTH, 'MAX_ATTR_KEY_LENGTH').optional(),
    /** For kind agent: how pane runs this agent CLI (hooks, prompt patterns, worktree isolation). */
    agent: AgentAppSchema.optional(),
    /** How to install the program when it is missing (the launcher shows it), e.g. "sudo apt install htop". */
    install: z.string().max(300).optional(),
    /** How to continue a conversation after a restart (see ResumeSpecSchema). */
    resume: ResumeSpecSchema.optional(),
    /**
     * Words this app's panes add to their vocabulary: shown in the tag (`inTag`), the
     * palette, /pane/N/commands, `pane exec` and MCP alike; each types into the pane
     * or runs a program beside it (WordActionSchema). A word of pane's own cannot be
     * redefined.
     */
    commands: z.array(AppWordSchema).max(MAX_APP_WORDS).optional(),
    /** For kind widgets: the tree of components its pane shows (kits/protocol/widget.ts). */
    widget: WidgetNodeSchema.optional(),
  })
  .strict());
export const AppFileSchema = lazySchema(() => AppFileObject.superRefine((a, ctx) => {
    if (a.kind === 'widgets' && a.widget === undefined) ctx.addIssue({ code: 'custom', path: ['widget'], message: 'a widgets app declares its tree in `widget` (a row, column or grid of components)' });
    if (a.kind !== 'widgets' && a.widget !== undefined) ctx.addIssue({ code: 'custom', path: ['widget'], message: `\`widget\` is for kind widgets; this app is kind ${a.kind}` });
    if (a.widget) for (const e of widgetBoundsErrors(a.widget)) ctx.addIssue({ code: 'custom', path: e.field.split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k)), message: e.message });
  }));
export type AppFile = z.infer<typeof AppFileSchema>;

/** An app as listed: the file's content plus where it came from. */
export const AppEntrySchema = lazySchema(() => AppFileObject.extend({
  /** The file's base name without .json: what `apps/launch` takes. */
  id: z.string(),
  file: z.string(),
  source: z.enum(['builtin', 'user']),
  /** False when the program is not on the server's PATH (checked when listed); absent for the login shell. */
  installed: z.boolean().optional(),
}));
export type AppEntry = z.infer<typeof AppEntrySchema>;

/**
 * What an install hint adds for a CLI whose current release needs Node `major` or newer
 * (its app file's `agent.nodeMajor`): nothing when `running` (a Node version, e.g.
 * process.versions.node) is new enough, else which Node it needs.
 */
export function nodeNeed(major: number | undefined, running?: string): string {
  if (major === undefined) return '';
  if (running !== undefined && Number(running.split('.')[0]) >= major) return '';
  return ` (its current release needs Node ${major} or newer${running === undefined ? '' : `, and this is Node ${running}`}: on an older Node npm installs an older release)`;
}

/** How to get an app's program: its file's `install`, an agent's `agent.install`, else a plain hint; with the Node its current release needs, where its file says (see nodeNeed). */
export function installHint(a: AppEntry, running?: string): string {
  const how = a.install ?? a.agent?.install ?? `install ${a.launch?.program ?? 'its program'} so that it is on PATH`;
  return how + nodeNeed(a.agent?.nodeMajor, running);
}

export const AppListSchema = lazySchema(() => z.object({ apps: z.array(AppEntrySchema), errors: z.array(ConfigErrorSchema) }));
export type AppList = z.infer<typeof AppListSchema>;

export const appEventSchemas = {
  /** An app file was added, changed or removed. */
  'apps/changed': AppListSchema,
} as const;

export const appMethods = {
  'apps/list': method({
    params: lazySchema(() => z.object({})),
    result: AppListSchema,
    cap: 'read',
    doc: 'The app files found in apps/ and the user’s config dir (user files win), with any file errors.',
  }),
  'apps/launch': method({
    params: lazySchema(() => z.object({
      /** An app id (file name), signature or name. */
      app: z.string().min(1).max(200),
      /** The pane to open beside (default: the focused one). */
      pane: PaneRefSchema.optional(),
      session: z.string().min(1).max(200).optional(),
      direction: SplitDirectionSchema.optional(),
      cwd: z.string().optional(),
    })),
    result: PaneAckSchema,
    cap: 'write',
    doc: 'Launches an app into a new pane at the given (or focused) position.',
  }),
};
