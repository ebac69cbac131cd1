// Agents as peers: accounts (.plan, .access, Maildir, .project), live status
// (working / waiting / idle / exited), finger, mail, write and hooks. The .access
// file format is defined here so the server, the CLI and docs read one contract.
import { z } from 'zod';
import { CapabilitySchema } from './hello';
import { method } from './method';
import { PaneRefSchema, SessionRefSchema } from './ids';
import { SplitDirectionSchema } from './model';
import { PaneAckSchema } from './pane';
import { lazySchema } from './lazySchema';

/** An agent is a user: a short lowercase login name. */
export const AgentNameSchema = lazySchema(() => z
  .string()
  .regex(/^[a-z][a-z0-9-]{0,31}$/, 'an agent name is a lowercase letter, then lowercase letters, digits or "-" (32 at most)'));

/** An agent here (`ada`) or on a joined host (`ada@HOST`, HOST a host file's name; decision 037). */
export const AgentRefSchema = lazySchema(() => z
  .string()
  .regex(/^[a-z][a-z0-9-]{0,31}(?:@[A-Za-z0-9][A-Za-z0-9._-]{0,252})?$/, 'an agent is NAME or NAME@HOST: a lowercase letter, then lowercase letters, digits or "-" (32 at most), then @ and a joined host\'s name'));

/** Every pane an agent runs carries this signature prefix plus its name. */
export const AGENT_SIGNATURE_PREFIX = 'com.pane.ai.agent.';

export { atPrompt, type AgentState } from './agentState';
import { AGENT_STATES } from './agentState';

/** An agent's state (kits/protocol/agentState.ts says what each means). */
export const AgentStateSchema = lazySchema(() => z.enum(AGENT_STATES));

/**
 * Which panes a rule covers: `*` every pane; `self` the agent's own panes (its
 * signature, or panes it created); `N` / `HOST:N` one pane; `sig:GLOB` panes whose
 * signature matches (`sig:com.pane.ai.agent.*`); `session:NAME`; `agent:NAME`
 * another agent's panes.
 */
export const PaneSelectorSchema = lazySchema(() => z
  .string()
  .regex(
    /^(\*|self|[1-9][0-9]*|[A-Za-z0-9][A-Za-z0-9._-]*:[1-9][0-9]*|sig:[A-Za-z0-9.*_-]+|session:[^\s]+|agent:[a-z][a-z0-9-]*)$/,
    'a pane selector is *, self, N, HOST:N, sig:GLOB, session:NAME or agent:NAME',
  ));

/** A namespace path glob: `*` matches within one segment, `**` across segments; `self` stands for the agent's panes. */
export const NamespaceGlobSchema = lazySchema(() => z.string().regex(/^\/pane(\/[^\s]*)?$/, 'a namespace glob starts with /pane, e.g. /pane/self/** or /pane/*/body'));

/** A method name or glob over method names: `pane/*`, `agent/mail`, `*`. */
export const CommandGlobSchema = lazySchema(() => z.string().regex(/^(\*|[a-z-]+\/(\*|[a-z-]+)|[a-z-]+)$/, 'a command rule is a method name or glob, e.g. pane/* or agent/mail'));

/** Methods no agent gets unless its .access says otherwise (deny wins over allow): stopping the server, changing other clients, making agents, letting anyone in (grant/*). */
export const DEFAULT_DENIED_COMMANDS = ['server/stop', 'client/permission', 'agent/add', 'agent/remove', 'grant/*'] as const;

/**
 * Hosts an agent's sandboxed programs may reach by default: the model APIs of the
 * agent CLIs pane ships app files for, and the package registries they install
 * from. Written into every new .access so the person sees and edits them there.
 */
export const DEFAULT_SANDBOX_HOSTS = [
  'api.anthropic.com',
  'statsig.anthropic.com',
  'console.anthropic.com',
  'api.openai.com',
  'auth.openai.com',
  'chatgpt.com',
  'generativelanguage.googleapis.com',
  'oauth2.googleapis.com',
  'registry.npmjs.org',
  'pypi.org',
  'files.pythonhosted.org',
  'github.com',
  '*.githubusercontent.com',
] as const;

/** Paths no sandboxed program of an agent may read by default (besides pane's own state and other agents' homes, always denied). */
export const DEFAULT_SANDBOX_DENY_READ = ['~/.ssh', '~/.gnupg', '~/.aws', '~/.azure', '~/.config/gcloud', '~/.kube', '~/.docker', '~/.netrc', '~/.git-credentials', '~/.config/gh'] as const;

/** A host an agent's sandboxed programs may reach: a host, `*.domain`, or either with `:PORT`. */
export const NetworkRuleSchema = lazySchema(() => z.string().max(253).regex(/^(\*\.)?[A-Za-z0-9.-]+(:[0-9]{1,5})?$|^\[[0-9a-fA-F:.]+\](:[0-9]{1,5})?$/, 'a network rule is a host, *.domain, or either with :PORT'));

/** A path in a sandbox rule: absolute, or under the human's home (`~/...`). */
export const SandboxPathSchema = lazySchema(() => z.string().regex(/^(\/|~\/|~$)[^\0]*$/, 'a sandbox path is absolute (/...) or under the home (~/...)'));

/**
 * How the agent's programs are walled in by the OS (bubblewrap through
 * @anthropic-ai/sandbox-runtime): they always may write their working directory
 * (project or worktree), their home and their temp dir; `write` adds paths;
 * `denyRead` hides paths; `network` lists the hosts they may reach (nothing else);
 * `unsandboxed: "allow"` lets a launch go on without a sandbox where none can run.
 */
export const SandboxAccessSchema = lazySchema(() => z
  .object({
    write: z.array(SandboxPathSchema).default([]),
    /**
     * Paths of the person's home its programs may read. The person's home is hidden
     * whole (the walls start empty); the agent's home, its project and the tools it runs
     * are bound in, and these besides.
     */
    read: z.array(SandboxPathSchema).default([]),
    denyRead: z.array(SandboxPathSchema).default([...DEFAULT_SANDBOX_DENY_READ]),
    network: z.array(NetworkRuleSchema).default([...DEFAULT_SANDBOX_HOSTS]),
    /** Also the hosts its app file says its CLI needs (`agent.network`), merged at launch. `false` keeps it to `network` alone. */
    appNetwork: z.boolean().default(true),
    unsandboxed: z.enum(['refuse', 'allow']).default('refuse'),
    /**
     * The person's login for the agent's CLI (the files its app file names under `agent.home.credentials`,
     * e.g. ~/.gemini/oauth_creds.json): `copy` puts a copy in the agent's home at each launch where the
     * person's is newer; `none` gives it nothing (it logs in itself, or uses a key from the environment).
     * See docs/decisions/034-an-agent-home-for-every-cli.md.
     */
    credentials: z.enum(['copy', 'none']).default('copy'),
    /**
     * Whether its programs may make unix sockets (Linux; macOS always lets them). `refuse`: a
     * seccomp filter fails `socket(AF_UNIX)`, so no socket it can see answers it (pane reaches its
     * own by relays). `allow`: for programs that need their own (a tmux server, a database on a
     * socket, Python's multiprocessing managers); they may then connect to every socket they can
     * see, which `pane access` lists where it can (/run's: docker's gives its group root).
     */
    unixSockets: z.enum(['refuse', 'allow']).default('refuse'),
  })
  .strict());
export type SandboxAccess = z.infer<typeof SandboxAccessSchema>;

/**
 * The `.access` file in an agent's home (JSON). Every field is optional; what is
 * missing takes the default shown. Unknown fields are errors, so a typo never
 * silently grants or drops a right.
 */
export const AccessSchema = lazySchema(() => z
  .object({
    version: z.literal(1).default(1),
    /** Protocol capabilities the agent's connections get (intersected with what they ask). */
    capabilities: z.array(CapabilitySchema).default(['read', 'write', 'attach']),
    panes: z
      .object({
        read: z.array(PaneSelectorSchema).default(['*']),
        write: z.array(PaneSelectorSchema).default(['self']),
      })
      .strict()
      .prefault({}),
    namespace: z
      .object({
        read: z.array(NamespaceGlobSchema).default(['/pane/**']),
        /** /pane/new/** lets it make panes through new/ctl, as pane/split does. */
        write: z.array(NamespaceGlobSchema).default(['/pane/self/**', '/pane/new/**']),
      })
      .strict()
      .prefault({}),
    commands: z
      .object({
        allow: z.array(CommandGlobSchema).default(['*']),
        deny: z.array(CommandGlobSchema).default([...DEFAULT_DENIED_COMMANDS]),
      })
      .strict()
      .prefault({}),
    sandbox: SandboxAccessSchema.prefault({}),
  })
  .strict());
export type Access = z.infer<typeof AccessSchema>;
export type AccessInput = z.input<typeof AccessSchema>;

/**
 * pane's own hook events: named as Claude Code names them (the first CLI pane spoke to); every
 * dialect's events are turned into these before the state machine, awareness and claims see them.
 */
/** pane's hook events (Claude Code's names): StopFailure is a turn an API error ended (Claude Code's; done, with the error named). */
export const PaneHookEventSchema = lazySchema(() => z.enum(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PermissionRequest', 'Notification', 'Stop', 'StopFailure', 'SessionEnd']));
export type PaneHookEvent = z.infer<typeof PaneHookEventSchema>;

/** A path relative to the agent's home: no `..`, not absolute (checked again without links when used). */
const HomeRelPathSchema = lazySchema(() => z
  .string()
  .min(1)
  .max(200)
  .regex(/^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[A-Za-z0-9._/-]+$/, 'a path relative to the home, without ..'));

/** A payload field: a top-level key of the CLI's hook JSON. */
const FieldNameSchema = lazySchema(() => z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/));

/** Most hook events a dialect maps (a CLI has a dozen or so). */
export const MAX_DIALECT_EVENTS = 32;

/** An environment variable name (how a CLI is told where its config is, or a switch it needs). */
const EnvNameSchema = lazySchema(() => z.string().regex(/^[A-Z_][A-Z0-9_]{0,63}$/));
/** Login variables one app file may name (a key, a token, a base URL, a model, a project: a CLI reads a handful). */
export const MAX_APP_LOGIN_ENV = 16;

/**
 * How pane's hooks reach a CLI (docs/agents.md, "Hook dialects"):
 * - `home-settings`: merged into a JSON file under the CLI's home (`path`, relative to HOME), under
 *   `key`, beside the CLI's other entries; pane's entries are told apart by their command
 *   (`pane hook --app ID`) and, where the CLI's schema has one, a `name: "pane"` (`named`).
 *   Gemini's settings.json, Qwen's, Codex's hooks.json, Cursor's hooks.json.
 * - `own-file`: a file that is pane's alone in a directory the CLI reads every file of (Copilot's
 *   hooks/*.json, a Goose Open Plugins plugin dir): written whole, never merged.
 * - `flag-file`: a per-process settings file handed over by a flag (`flag`: Claude's --settings);
 *   nothing of the person's is touched. `path` is the file's name in pane's data directory.
 * - `plugin`: `plugin` (a file shipped in apps/) copied to `path` (opencode, Amp): the CLI loads
 *   it and it runs `pane hook --app ID` with Claude-shaped JSON.
 * - `notify-command`: no hooks, only a command the CLI runs when it waits (`flag`: Aider's
 *   --notifications-command) run as `pane hook --app ID --event NOTIFY`.
 */
export const HookInstallSchema = lazySchema(() => z
  .object({
    kind: z.enum(['home-settings', 'own-file', 'flag-file', 'plugin', 'notify-command']),
    path: HomeRelPathSchema.optional(),
    /**
     * The CLI's config directory: the variable that moves it and where it is under HOME by default
     * (CODEX_HOME=~/.codex). `path` starts with `home`. In an agent's pane the variable is set to the
     * agent's own; `additive`: the variable names an extra directory the CLI reads besides its own
     * (OPENCODE_CONFIG_DIR), so `pane hook install` can write a per-process one.
     */
    configDir: z.object({ env: EnvNameSchema, home: HomeRelPathSchema, additive: z.boolean().default(false) }).strict().optional(),
    /** The flag that hands the CLI a file (`flag-file`) or a command (`notify-command`). */
    flag: z.string().regex(/^--[a-z][a-z0-9-]{0,63}$/).optional(),
    /** The key the hooks live under in the file. */
    key: FieldNameSchema.default('hooks'),
    /** groups: `{Event: [{matcher?, hooks: [{type, command, timeout}]}]}` (Claude's); flat: `{event: [{command, timeout}]}` (Cursor's, Copilot's). */
    format: z.enum(['groups', 'flat']).default('groups'),
    /** The key of the command in one hook entry (Copilot: `bash`). */
    commandKey: FieldNameSchema.default('command'),
    /** The key of the timeout in one hook entry (Copilot: `timeoutSec`), and its unit. */
    timeoutKey: FieldNameSchema.default('timeout'),
    timeoutUnit: z.enum(['ms', 's']).default('ms'),
    /** A top-level `version` the file must carry (Cursor, Copilot: 1). */
    version: z.number().int().min(1).max(99).optional(),
    /** Matcher for tool events (regex or `*`, as the CLI takes it). */
    toolMatcher: z.string().max(64).default('*'),
    /** The CLI's hook entries take a `name` (Gemini's do): pane's carry "pane". Others would reject an unknown key. */
    named: z.boolean().default(false),
    /** The payload lacks the event's name (Copilot): each event's command carries `--event NAME`. */
    eventArg: z.boolean().default(false),
    /** The event `notify-command` reports (a CLI event name in `events`). */
    notifyEvent: z.string().max(64).optional(),
    /** Codex: a hook not installed by an admin runs only once trusted; pane writes the trust for its own entries in config.toml. */
    trust: z.enum(['codex-config']).optional(),
    /** The plugin file shipped in apps/ (`plugin`). */
    plugin: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/).optional(),
    /** Environment the CLI needs in an agent's pane for the hooks to run (Amp: PLUGINS=all). */
    env: z.record(EnvNameSchema, z.string().max(200)).default({}),
    /** Settings set beside the hooks (what the CLI needs to nest in pane's sandbox). */
    settings: z.record(z.string(), z.unknown()).default({}),
  })
  .strict()
  .superRefine((i, ctx) => {
    const need = (ok: boolean, what: string) => ok || ctx.addIssue({ code: 'custom', message: `install kind ${i.kind} needs ${what}` });
    if (i.kind !== 'notify-command') need(i.path !== undefined, '`path`');
    if (i.kind === 'flag-file' || i.kind === 'notify-command') need(i.flag !== undefined, '`flag`');
    if (i.kind === 'plugin') need(i.plugin !== undefined, '`plugin` (a file in apps/)');
    if (i.kind === 'notify-command') need(i.notifyEvent !== undefined, '`notifyEvent`');
    if (i.configDir && i.path) need(i.path.startsWith(`${i.configDir.home}/`), `a \`path\` under configDir.home (${i.configDir.home}/)`);
  }));
export type HookInstall = z.infer<typeof HookInstallSchema>;

/**
 * How pane's answer is written back: `claude` hookSpecificOutput with permissionDecision
 * (Claude, Codex, Qwen, pane's own plugins); `gemini` decision/reason at the top, context in
 * hookSpecificOutput; `flat` permissionDecision/permissionDecisionReason/additionalContext at the
 * top (Copilot); `cursor` permission/agent_message, additional_context; `none`: the CLI ignores
 * what hooks print (Goose, Aider), so pane prints nothing.
 */
export const HookAnswerFormSchema = lazySchema(() => z.enum(['claude', 'gemini', 'flat', 'cursor', 'none']));

/**
 * A CLI's hook dialect (issue 25): its events, its payload's field names, how pane installs its
 * hooks and how its answer is written. A new CLI with command hooks is one app file.
 */
export const HookDialectSchema = lazySchema(() => z
  .object({
    /** The dialect's name (`pane access`, the agent's log). */
    dialect: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/),
    /** CLI event name → pane event; events not listed are neither installed nor mapped. */
    events: z.record(z.string().regex(/^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/), PaneHookEventSchema).refine((r) => Object.keys(r).length <= MAX_DIALECT_EVENTS, `at most ${MAX_DIALECT_EVENTS} events (MAX_DIALECT_EVENTS)`),
    /** Where the payload carries what pane reads, when the CLI names it otherwise than Claude Code. */
    fields: z
      .object({
        event: FieldNameSchema.default('hook_event_name'),
        /** session_id (Claude, Gemini, Codex, Qwen, Goose), sessionId (Copilot), conversation_id (Cursor), thread-id (Codex notify). */
        session: FieldNameSchema.default('session_id'),
        prompt: FieldNameSchema.default('prompt'),
        tool: FieldNameSchema.default('tool_name'),
        /** An object, or a JSON string of one (Copilot's toolArgs). */
        toolInput: FieldNameSchema.default('tool_input'),
        /** A string, or a list whose first string is taken (Cursor's workspace_roots). */
        cwd: FieldNameSchema.default('cwd'),
        message: FieldNameSchema.default('message'),
        notificationType: FieldNameSchema.default('notification_type'),
      })
      .strict()
      .prefault({}),
    /** Notification types that mean the CLI waits for the person (Gemini: ToolPermission). */
    waiting: z.array(z.string().max(64)).max(16).default([]),
    /** Keys of the tool input (else of the payload) that name a file, tried in order; the first found is pane's `file_path` (claims). */
    filePaths: z.array(FieldNameSchema).max(16).default(['file_path']),
    /**
     * The CLI's tools that write the file they name (Gemini's write_file, opencode's edit...): pane names
     * them `Edit` (its own write tool), so claims and claim warnings see them; `cli_tool` keeps the name.
     */
    writeTools: z.array(z.string().max(64)).max(32).default([]),
    /** Events that are a file write by themselves (Cursor's afterFileEdit): their file is claimed as an `Edit`'s. */
    writeEvents: z.array(z.string().max(64)).max(8).default([]),
    answer: HookAnswerFormSchema.default('claude'),
    /** pane's events whose answer the CLI reads context from (additionalContext or its like); none: `pane finger` says its context does not reach it. */
    context: z.array(PaneHookEventSchema).max(8).default([]),
    install: HookInstallSchema,
  })
  .strict());
export type HookDialect = z.infer<typeof HookDialectSchema>;

/** The `agent` block of an app file: how pane runs that agent CLI. */
export const AgentAppSchema = lazySchema(() => z
  .object({
    /** Prompt-pattern set for observation (server/agents/prompts/NAME.json); default: the app id. */
    prompts: z.string().max(50).optional(),
    /**
     * How the CLI reports: not at all (`none`: pane reads its screen), by itself (`self`: the
     * program runs `pane hook` on its own, as the demo agent does; pane installs nothing), or a
     * hook dialect (above); `claude-settings` is the older name of apps/claude.json's dialect (a --settings file).
     */
    hooks: z.union([z.enum(['none', 'self', 'claude-settings']), HookDialectSchema]).default('none'),
    /**
     * What the CLI keeps in its home: inside its sandbox HOME is the agent's home, so its state,
     * sessions and login land there. `credentials`: the person's login files for it (relative to the
     * person's home), copied in at launch as the .access `sandbox.credentials` allows. `env`: the
     * variables of the person's environment its CLI logs in or is pointed with (an API key, a base
     * URL), passed as the same setting allows; nothing else of the person's environment reaches an
     * agent's pane but what a terminal program needs (server/agents/agentEnv.ts).
     */
    home: z
      .object({
        credentials: z.array(HomeRelPathSchema).max(8).default([]),
        env: z.array(EnvNameSchema).max(MAX_APP_LOGIN_ENV).default([]),
      })
      .strict()
      .optional(),
    /** `worktree`: each launch gets a new git worktree and branch under the project. Off by default. */
    isolation: z.enum(['none', 'worktree']).default('none'),
    /** Shown when the program is not installed. */
    install: z.string().max(300).optional(),
    /**
     * The oldest Node.js major line its CLI's current releases run on (their package's
     * `engines`). On an older Node, `npm install -g` quietly picks an older release
     * whose engines fit (Claude Code 2.1.197 and Qwen Code 0.15.10 on Node 20), so the
     * install hint says which Node the current one needs.
     */
    nodeMajor: z.number().int().min(16).max(99).optional(),
    /**
     * The hosts its CLI needs to work: its model API, its login, its model list. Merged into
     * the agent's sandbox network allowance at each launch (unless its .access says
     * `sandbox.appNetwork: false`); `pane access NAME` lists them.
     */
    network: z.array(NetworkRuleSchema).max(32).default([]),
    /** How replies reach a `pane write` conversation: the agent runs `pane write`, or its output is shown. */
    converse: z.enum(['write', 'output']).default('output'),
  })
  .strict());
export type AgentApp = z.infer<typeof AgentAppSchema>;

export const AgentPaneSchema = lazySchema(() => z.object({
  pane: z.number().int().positive(),
  id: z.string(),
  quadrant: z.string().nullable(),
  state: AgentStateSchema,
  since: z.number(),
  cwd: z.string(),
  /** A git worktree made for this launch (isolation: worktree), until removed on request. */
  worktree: z.string().nullable(),
  /** Where its state came from: reported by the CLI's hooks, or observed (screen, OSC 9/99/777, BEL). */
  stateSource: z.enum(['reported', 'observed']).optional(),
}));

/** A hook session with no pane (an agent started outside pane that reports through `pane hook`). */
export const AgentSessionSchema = lazySchema(() => z.object({ id: z.string(), cwd: z.string(), state: AgentStateSchema, since: z.number() }));

/** What finger shows about one agent. */
export const AgentInfoSchema = lazySchema(() => z.object({
  name: AgentNameSchema,
  /** The joined host it runs on, for an agent another host's daemon reported (finger ada@HOST); absent: this server's. */
  host: z.string().max(253).optional(),
  /** False for an agent known only from hooks (no home). */
  account: z.boolean(),
  home: z.string().nullable(),
  app: z.string().nullable(),
  project: z.string().nullable(),
  state: AgentStateSchema,
  since: z.number(),
  /** hooks: it reports itself; observed: pane watches its output; none: nothing known yet. */
  source: z.enum(['hooks', 'observed', 'none']),
  /**
   * Its app's hook dialect, and whether pane's context (peers on the same topic, claims, mail) reaches
   * the CLI in its hooks' answers; false: its CLI takes none, so warnings reach it as mail only.
   */
  reports: z.object({ dialect: z.string(), context: z.boolean() }).nullable().optional(),
  panes: z.array(AgentPaneSchema),
  sessions: z.array(AgentSessionSchema),
  lastPrompt: z.string().nullable(),
  lastPromptAt: z.number().nullable(),
  /** Filled by awareness when it runs; empty otherwise. */
  topics: z.array(z.string()),
  claims: z.array(z.string()),
  unread: z.number().int(),
  plan: z.string(),
}));
export type AgentInfo = z.infer<typeof AgentInfoSchema>;

export const MailSchema = lazySchema(() => z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  date: z.number(),
  body: z.string(),
  seen: z.boolean(),
  /** The awareness message this mail is a copy of (it is also handed over as hook context). */
  ref: z.string().optional(),
}));
export type Mail = z.infer<typeof MailSchema>;

export const AccessReportSchema = lazySchema(() => z.object({
  name: AgentNameSchema,
  file: z.string(),
  /** The access in force: the file's, or nothing at all when the file is invalid. */
  access: AccessSchema,
  /** The file's problems, each naming a field; non-empty means everything is refused. */
  errors: z.array(z.string()),
  /** One line per right, in words. */
  summary: z.array(z.string()),
}));

const name = AgentNameSchema;

export const agentMethods = {
  'agent/list': method({
    params: lazySchema(() => z.object({ hosts: z.boolean().optional() })),
    result: lazySchema(() => z.object({
      agents: z.array(AgentInfoSchema),
      /** With hosts: each joined host whose agents are not in the list, and why (stale, no answer in time, refused). */
      unreached: z.array(z.object({ host: z.string(), reason: z.string() })).optional(),
    })),
    cap: 'read',
    doc: "Every agent: accounts and hook-only ones, with live state; with hosts, each joined host's agents too (host set).",
  }),
  'agent/get': method({ params: lazySchema(() => z.object({ name: AgentRefSchema })), result: AgentInfoSchema, cap: 'read', doc: 'One agent, as finger shows it; NAME@HOST asks that joined host.' }),
  'agent/add': method({
    params: lazySchema(() => z.object({ name, app: z.string().max(100).optional(), project: z.string().max(4096).optional(), access: AccessSchema.optional(), plan: z.string().max(65536).optional() })),
    result: AgentInfoSchema,
    cap: 'admin',
    doc: 'Creates an agent account: home with .plan, .access, Maildir and .project.',
  }),
  'agent/remove': method({
    params: lazySchema(() => z.object({ name, purge: z.boolean().default(false) })),
    result: lazySchema(() => z.object({ name, home: z.string().nullable(), kept: z.boolean() })),
    cap: 'admin',
    doc: 'Removes an agent; its home is kept unless purge.',
  }),
  'agent/access': method({ params: lazySchema(() => z.object({ name })), result: AccessReportSchema, cap: 'read', doc: 'What an agent may touch: its .access, parsed, in words.' }),
  'agent/plan': method({
    params: lazySchema(() => z.object({ name: name.optional(), text: z.string().max(65536) })),
    result: lazySchema(() => z.object({ name, plan: z.string() })),
    cap: 'write',
    doc: 'Replaces an agent’s .plan (an agent may set only its own).',
  }),
  'agent/mail': method({
    params: lazySchema(() => z.object({
      /** NAME, or NAME@HOST: mailed on that joined host. */
      to: AgentRefSchema,
      subject: z.string().max(300).default(''),
      body: z.string().max(1 << 20),
      /** Also type it into the agent's pane when (or as soon as) it waits for input. */
      deliver: z.boolean().default(false),
    })),
    result: lazySchema(() => z.object({ id: z.string(), to: AgentRefSchema, unread: z.number().int(), typed: z.enum(['no', 'now', 'queued']) })),
    cap: 'write',
    doc: 'Delivers mail to an agent’s Maildir; it reaches the agent as hook context at its next turn.',
  }),
  'agent/inbox': method({
    params: lazySchema(() => z.object({ name: name.optional(), all: z.boolean().default(false), markRead: z.boolean().default(true) })),
    result: lazySchema(() => z.object({ name, messages: z.array(MailSchema) })),
    cap: 'read',
    doc: 'Reads an agent’s mail (new only unless all); an agent reads only its own.',
  }),
  'agent/hook': method({
    params: lazySchema(() => z.object({
      /** The hook's stdin JSON as the agent CLI sent it (Claude Code's hook input). */
      input: z.record(z.string(), z.unknown()),
      /** $PANE_ID and $PANE_AGENT of the hook process, when it runs inside pane. */
      pane: PaneRefSchema.optional(),
      agent: name.optional(),
      /** The app whose hook dialect the input is in (`pane hook --app gemini`); none: Claude Code's. */
      app: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/).optional(),
    })),
    result: lazySchema(() => z.object({
      agent: name.nullable(),
      state: AgentStateSchema.nullable(),
      /** What `pane hook` prints on stdout: the hook's documented JSON output, or null for nothing. */
      output: z.record(z.string(), z.unknown()).nullable(),
    })),
    cap: 'write',
    doc: 'A hook event from an agent CLI: moves its state, answers with context and permission decisions.',
  }),
  'agent/write': method({
    params: lazySchema(() => z.object({
      /** The agent to talk to; from an agent, omit it (or name the human) to answer the human. */
      to: z.string().max(100).optional(),
      text: z.string().min(1).max(8192),
    })),
    result: lazySchema(() => z.object({ from: z.string(), to: z.string(), pane: z.number().int().nullable() })),
    cap: 'write',
    doc: 'One line of a write(1) conversation: typed into the agent’s input marked as from the caller, or said back to the human.',
  }),
  'agent/launch': method({
    params: lazySchema(() => z.object({
      name: name.optional(),
      app: z.string().max(100).optional(),
      pane: PaneRefSchema.optional(),
      session: SessionRefSchema.optional(),
      direction: SplitDirectionSchema.optional(),
      cwd: z.string().optional(),
      isolation: z.enum(['none', 'worktree']).optional(),
      /** A program and its arguments to run as the agent instead of an app (`pane agent run NAME -- PROGRAM ARGS`). */
      program: z.array(z.string().max(4096)).min(1).max(256).optional(),
    })),
    result: lazySchema(() => PaneAckSchema.extend({ agent: name })),
    cap: 'write',
    doc: 'Launches an agent’s app in a new pane signed com.pane.ai.agent.NAME (a new account when no name is given): beside the pane given, else beside or below the roomiest tiled pane, along its longer side.',
  }),
  'agent/open': method({
    params: lazySchema(() => z.object({
      /** The agent's pane (its tag was clicked), or name the agent. */
      pane: PaneRefSchema.optional(),
      name: name.optional(),
      view: z.enum(['finger', 'mail', 'write', 'plan', 'access', 'peers']),
    })),
    result: PaneAckSchema,
    cap: 'write',
    doc: 'Opens a view of an agent in a pane: finger, mail, plan, access float; write and peers split beside it.',
  }),
  'agent/diff': method({
    params: lazySchema(() => z.object({ pane: PaneRefSchema })),
    result: lazySchema(() => z.object({
      worktree: z.string(),
      branch: z.string(),
      /** The commit the branch started from (where it meets the repository's HEAD). */
      base: z.string(),
      files: z.array(z.object({ status: z.string(), path: z.string() })),
      /** Unified diff since the base, untracked files shown as new; cut with a note past the server's bound. */
      diff: z.string(),
    })),
    cap: 'read',
    doc: "What an agent pane's worktree changed since its branch's base, file by file, with the diff.",
  }),
  'agent/review': method({
    params: lazySchema(() => z.object({
      pane: PaneRefSchema,
      /** accept, reject, or open: the file in the editor beside the agent's pane ($VISUAL/$EDITOR, default vi), as the caller. */
      verdict: z.enum(['accept', 'reject', 'open']),
      /** One file (a path in the worktree); absent: every change (open needs one). */
      file: z.string().min(1).max(4096).optional(),
      /** accept: the commit message (default: names the agent). */
      message: z.string().max(2000).optional(),
    })),
    result: lazySchema(() => z.object({ done: z.string() })),
    cap: 'write',
    doc: "The reviewer's verdict on an agent pane's worktree: accept commits its changes (all, or one file) to its branch; reject restores them to the branch's last commit; open shows one changed file in an editor pane beside it.",
  }),
  'agent/worktree-remove': method({
    params: lazySchema(() => z.object({ pane: PaneRefSchema, force: z.boolean().default(false) })),
    result: lazySchema(() => z.object({ path: z.string(), branch: z.string() })),
    cap: 'write',
    doc: 'Removes the git worktree made for an agent pane (only on request; refuses unsaved changes unless force).',
  }),
};

const n = lazySchema(() => z.number().int().positive());

export const agentEventSchemas = {
  /** Anything finger shows changed (state, panes, unread, plan, topics). */
  'agent/changed': lazySchema(() => z.object({ agent: AgentInfoSchema })),
  'agent/removed': lazySchema(() => z.object({ name })),
  /** A state transition, with what caused it. */
  'agent/state-changed': lazySchema(() => z.object({ name, state: AgentStateSchema, previous: AgentStateSchema, since: z.number(), pane: n.nullable(), reason: z.string() })),
  /** The agent started waiting for the human: worth a desktop notification that focuses `pane`. */
  'agent/waiting': lazySchema(() => z.object({ name, pane: n.nullable(), id: z.string().nullable(), message: z.string() })),
  /** A line of a write conversation (either direction). */
  'agent/said': lazySchema(() => z.object({ from: z.string(), to: z.string(), text: z.string(), at: z.number(), pane: n.nullable() })),
  'agent/mailed': lazySchema(() => z.object({ to: name, from: z.string(), subject: z.string(), id: z.string(), unread: z.number().int() })),
  /** A request refused by the agent's .access (also a line in its log). */
  'agent/denied': lazySchema(() => z.object({ name, method: z.string(), reason: z.string(), at: z.number() })),
} as const;
