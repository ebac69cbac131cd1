// Agents as users on the command line: `pane agent add|ls|rm|run|demo`, `pane access`,
// `pane finger`, `pane mail`, `pane write`, `pane plan`, `pane peers`, `pane hook` and
// `pane mcp`. The interactive parts (write, peers, the demo agent, MCP) load only when used.
import fs from 'node:fs';
import path from 'node:path';
import type { AccessInput } from '../../../protocol/agent';
import { bool, str } from '../args';
import { JSON_FLAG, TARGET, type CommandSpec } from '../command';
import type { CommandContext } from '../context';
import { OpError, UsageError } from '../errors';
import { runHook } from '../hook';
import { fingerAll, fingerLong, fingerShort } from './agentsFinger';

const HOLD = { name: 'hold', type: 'bool', doc: 'wait for a key, then close this pane (the tag views use it)' } as const;

async function readAll(s: NodeJS.ReadableStream): Promise<string> {
  if ((s as { isTTY?: boolean }).isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** In a view pane: after printing, wait for a key and close the pane (the tag words open such views). */
export async function hold(ctx: CommandContext): Promise<void> {
  const { holdAndClose } = await import('./agentsViews');
  await holdAndClose(ctx);
}

export const agentCommands: CommandSpec[] = [
  {
    command: 'agent add',
    summary: 'create an agent account: a home with .plan, .access, Maildir and .project',
    flags: [
      { name: 'access', type: 'string', value: 'FILE', doc: 'its .access (JSON; see `pane help access`)' },
      { name: 'app', type: 'string', value: 'APP', doc: 'the app it runs by default (claude, codex, aider, gemini, demo-agent)' },
      { name: 'project', type: 'string', value: 'DIR', doc: 'its project directory (.project)' },
      { name: 'plan', type: 'string', value: 'TEXT', doc: 'its first .plan' },
    ],
    positionals: [{ name: 'NAME', required: true }],
    async run(ctx, a) {
      let access: AccessInput | undefined;
      const file = str(a, 'access');
      if (file !== undefined) {
        try {
          access = JSON.parse(fs.readFileSync(file, 'utf8')) as AccessInput;
        } catch (e) {
          throw new UsageError(`--access ${file}: ${(e as Error).message}`, 'agent add');
        }
      }
      const project = str(a, 'project');
      const c = await ctx.connect();
      const r = await c.call('agent/add', {
        name: a.positionals[0]!,
        ...(access ? { access } : {}),
        ...(str(a, 'app') !== undefined ? { app: str(a, 'app') } : {}),
        ...(project !== undefined ? { project: path.resolve(project) } : {}),
        ...(str(a, 'plan') !== undefined ? { plan: str(a, 'plan') } : {}),
      });
      ctx.out(`${r.name}: home ${r.home}`);
      return 0;
    },
  },
  {
    command: 'agent ls',
    summary: 'list agents with their state (accounts and hook-only ones)',
    flags: [JSON_FLAG],
    async run(ctx, a) {
      const { agents } = await (await ctx.connect()).call('agent/list', {});
      ctx.out(bool(a, 'json') ? JSON.stringify(agents, null, 2) : fingerShort(agents).join('\n'));
      return 0;
    },
  },
  {
    command: 'agent rm',
    summary: 'remove an agent account (its home is kept unless --purge)',
    flags: [{ name: 'purge', type: 'bool', doc: 'also delete its home: .plan, mail, log' }],
    positionals: [{ name: 'NAME', required: true }],
    async run(ctx, a) {
      const r = await (await ctx.connect()).call('agent/remove', { name: a.positionals[0]!, purge: bool(a, 'purge') });
      ctx.out(r.kept ? `${r.name} removed; home kept at ${r.home} (pane agent rm --purge deletes it)` : `${r.name} removed with its home`);
      return 0;
    },
  },
  {
    command: 'agent run',
    summary: 'launch an agent in a new pane: beside the target, else the roomiest pane (a new account unless NAME)',
    flags: [
      TARGET,
      { name: 'app', type: 'string', value: 'APP', doc: 'app file to run (default: the agent’s .app, else demo-agent)' },
      { name: 'worktree', type: 'bool', doc: 'give this launch its own git worktree and branch' },
      { name: 'cwd', type: 'string', value: 'DIR', doc: 'working directory' },
      { name: 'vertical', short: 'v', type: 'bool', doc: 'stack below instead of beside' },
    ],
    positionals: [{ name: 'NAME' }],
    program: true,
    notes: ['`pane agent run NAME -- PROGRAM ARGS...` runs any program as the agent, in its sandbox (a shell can be an agent: `pane agent run ada -- bash`).'],
    async run(ctx, a) {
      const pane = ctx.target(a);
      const cwd = str(a, 'cwd');
      const r = await (await ctx.connect()).call('agent/launch', {
        ...(a.program ? { program: a.program as string[] } : {}),
        ...(a.positionals[0] !== undefined ? { name: a.positionals[0] } : {}),
        ...(str(a, 'app') !== undefined ? { app: str(a, 'app') } : {}),
        ...(pane !== undefined ? { pane } : {}),
        ...(cwd !== undefined ? { cwd: path.resolve(cwd) } : {}),
        ...(bool(a, 'worktree') ? { isolation: 'worktree' as const } : {}),
        ...(bool(a, 'vertical') ? { direction: 'vertical' as const } : {}),
      });
      ctx.out(`${r.agent} ${r.id}`);
      return 0;
    },
  },
  {
    command: 'agent demo',
    summary: 'run the demo agent here (no network, no keys): takes tasks, edits files, reports through hooks',
    flags: [
      { name: 'steps', type: 'int', min: 1, max: 20, doc: 'steps per task (default 4)' },
      { name: 'delay', type: 'int', min: 0, max: 10000, doc: 'ms per step (default 400)' },
      { name: 'resume', type: 'string', value: 'ID', doc: 'continue the conversation with this session id (what pane passes after a restart)' },
    ],
    async run(ctx, a) {
      const { runDemoAgent } = await import('./agentsDemo');
      const resume = a.flags.resume as string | undefined;
      return runDemoAgent(ctx, { steps: (a.flags.steps as number | undefined) ?? 4, delayMs: (a.flags.delay as number | undefined) ?? 400, ...(resume ? { resume } : {}) });
    },
  },
  {
    command: 'agent worktree-rm',
    summary: 'remove the git worktree made for an agent pane (the branch is kept)',
    flags: [TARGET, { name: 'force', type: 'bool', doc: 'remove even with uncommitted changes' }],
    async run(ctx, a) {
      const pane = ctx.target(a);
      if (pane === undefined) throw new UsageError('which pane? pass -t ID', 'agent worktree-rm');
      const r = await (await ctx.connect()).call('agent/worktree-remove', { pane, force: bool(a, 'force') });
      ctx.out(`removed ${r.path}; branch ${r.branch} kept`);
      return 0;
    },
  },
  {
    command: 'access',
    summary: 'print exactly what an agent may touch (its .access, in words)',
    flags: [JSON_FLAG, HOLD],
    positionals: [{ name: 'NAME' }],
    notes: [
      '.access is JSON in the agent’s home; every field is optional: {"capabilities": ["read","write","attach"], "panes": {"read": ["*"], "write": ["self"]}, "namespace": {"read": ["/pane/**"], "write": ["/pane/self/**"]}, "commands": {"allow": ["*"], "deny": ["server/stop"]}}.',
      'Pane selectors: * | self | N | HOST:N | sig:GLOB | session:NAME | agent:NAME. A file with any error grants nothing until fixed.',
      '"sandbox": {"write": [PATHS], "denyRead": [PATHS], "network": [HOSTS], "unsandboxed": "refuse"|"allow", "unixSockets": "refuse"|"allow"} shapes the OS sandbox its panes run in; an edit applies at the next launch (shown as pending).',
    ],
    async run(ctx, a) {
      const name = a.positionals[0] ?? ctx.io.env.PANE_AGENT;
      if (!name) throw new UsageError('which agent? pane access NAME', 'access');
      const r = await (await ctx.connect()).call('agent/access', { name });
      ctx.out(bool(a, 'json') ? JSON.stringify(r, null, 2) : [`${r.name} (${r.file}):`, ...r.summary.map((l) => `  ${l}`)].join('\n'));
      if (bool(a, 'hold')) await hold(ctx);
      return r.errors.length > 0 ? 1 : 0;
    },
  },
  {
    command: 'finger',
    summary: 'what each agent (or one) is on: panes, state, prompt, topics, mail, .plan',
    flags: [JSON_FLAG, { name: 'short', short: 's', type: 'bool', doc: 'one line per agent' }, HOLD],
    positionals: [{ name: 'NAME' }],
    async run(ctx, a) {
      const c = await ctx.connect();
      const name = a.positionals[0];
      // With no name: this server's agents and every joined host's (each host waited for a bounded time).
      const listed = name !== undefined ? { agents: [await c.call('agent/get', { name })], unreached: [] } : await c.call('agent/list', { hosts: true });
      const agents = listed.agents;
      if (bool(a, 'json')) ctx.out(JSON.stringify(name !== undefined ? agents[0] : agents, null, 2));
      else if (bool(a, 'short')) ctx.out(fingerShort(agents).join('\n'));
      else {
        // Whom each converges with: the open predictions (a server without awareness has none to give).
        const active = (await c.call('awareness/predictions', {}).catch(() => undefined))?.active ?? [];
        ctx.out(name !== undefined ? fingerLong(agents[0]!, Date.now(), active) : fingerAll(agents, Date.now(), active, ctx.io.env.PANE_GRANT !== undefined));
      }
      for (const u of listed.unreached ?? []) ctx.io.stderr.write(`pane finger: ${u.host === '*' ? "other hosts'" : `host ${u.host}'s`} agents not shown: ${u.reason}\n`);
      if (bool(a, 'hold')) await hold(ctx);
      return 0;
    },
  },
  {
    command: 'mail',
    summary: 'mail an agent (body from stdin), or read your own mail as an agent',
    flags: [
      { name: 'subject', short: 's', type: 'string', value: 'SUBJECT', doc: 'the subject line' },
      { name: 'deliver', type: 'bool', doc: 'also type it into the agent’s pane when it waits for input' },
      { name: 'inbox', type: 'bool', doc: 'read NAME’s mailbox (or yours, inside an agent pane)' },
      { name: 'all', type: 'bool', doc: 'with --inbox: read mail too, not only new' },
      JSON_FLAG,
    ],
    positionals: [{ name: 'NAME' }],
    notes: ['`echo "review PR 12" | pane mail -s review ada`. In a terminal with no pipe, it asks for the subject and reads the body until Ctrl-D.'],
    async run(ctx, a) {
      const name = a.positionals[0];
      const c = await ctx.connect();
      if (bool(a, 'inbox') || name === undefined) {
        if (name === undefined && !ctx.io.env.PANE_AGENT) throw new UsageError('mail whom? pane mail NAME (or --inbox NAME to read an agent’s mail)', 'mail');
        const r = await c.call('agent/inbox', { ...(name !== undefined ? { name } : {}), all: bool(a, 'all') });
        if (bool(a, 'json')) ctx.out(JSON.stringify(r.messages, null, 2));
        else if (r.messages.length === 0) ctx.out(`No ${bool(a, 'all') ? '' : 'new '}mail for ${r.name}.`);
        else for (const m of r.messages) ctx.out(`From ${m.from}  ${new Date(m.date).toString().slice(0, 24)}\nSubject: ${m.subject}\n\n${m.body.trimEnd()}\n`);
        return 0;
      }
      let subject = str(a, 'subject');
      let body: string;
      const tty = (ctx.io.stdin as { isTTY?: boolean }).isTTY === true;
      if (tty) {
        const { compose } = await import('./agentsViews');
        ({ subject, body } = await compose(ctx, name, subject));
      } else body = await readAll(ctx.io.stdin);
      if (body.trim() === '') throw new OpError('empty body: nothing sent');
      const r = await c.call('agent/mail', { to: name, subject: subject ?? '', body, deliver: bool(a, 'deliver') });
      const typed = r.typed === 'now' ? ', typed into its pane' : r.typed === 'queued' ? ', to be typed when it waits' : '';
      ctx.out(`mailed ${r.to} (${r.unread} unread${typed})`);
      if (tty && ctx.io.env.PANE_VIEW) {
        // The mail view (the tag word) closes itself once the mail is sent.
        await new Promise((res) => setTimeout(res, 800));
        await (await import('./agentsViews')).closeView(ctx);
      }
      return 0;
    },
  },
  {
    command: 'write',
    summary: 'talk to an agent live: a conversation pane beside it, or one line with TEXT',
    flags: [
      { name: 'here', type: 'bool', doc: 'hold the conversation in this terminal' },
      { name: 'output', type: 'bool', doc: 'also show the agent pane’s output lines' },
    ],
    positionals: [{ name: 'NAME' }, { name: 'TEXT', variadic: true }],
    notes: ['Inside an agent pane, `pane write TEXT...` answers the human; `pane write NAME TEXT` writes to another agent.'],
    async run(ctx, a) {
      const { runWrite } = await import('./agentsWrite');
      return runWrite(ctx, a.positionals, { here: bool(a, 'here'), output: bool(a, 'output') });
    },
  },
  {
    command: 'plan',
    summary: 'print an agent’s .plan, set it (TEXT, or - for stdin), or --edit it',
    flags: [{ name: 'edit', type: 'bool', doc: 'open it in $EDITOR' }],
    positionals: [{ name: 'NAME' }, { name: 'TEXT', variadic: true }],
    async run(ctx, a) {
      const c = await ctx.connect();
      const name = a.positionals[0] ?? ctx.io.env.PANE_AGENT;
      if (!name) throw new UsageError('whose plan? pane plan NAME', 'plan');
      const words = a.positionals.slice(1);
      if (bool(a, 'edit')) {
        const { editPlan } = await import('./agentsViews');
        return editPlan(ctx, name);
      }
      if (words.length === 0) {
        ctx.out((await c.call('agent/get', { name })).plan || 'No Plan.');
        return 0;
      }
      const text = words.length === 1 && words[0] === '-' ? await readAll(ctx.io.stdin) : `${words.join(' ')}\n`;
      await c.call('agent/plan', { name, text });
      return 0;
    },
  },
  {
    command: 'peers',
    summary: 'open the peers view: every agent, live, with its command words',
    flags: [{ name: 'here', type: 'bool', doc: 'show it in this terminal instead of a new pane' }, TARGET],
    async run(ctx, a) {
      if (!bool(a, 'here')) {
        const pane = ctx.target(a);
        const r = await (await ctx.connect()).call('agent/open', { view: 'peers', ...(pane !== undefined ? { pane } : {}) });
        ctx.out(r.id);
        return 0;
      }
      const { runPeers } = await import('./agentsPeers');
      return runPeers(ctx);
    },
  },
  {
    command: 'hook',
    summary: 'report an agent CLI hook event (JSON on stdin); install|uninstall edits .claude/settings.json',
    flags: [
      { name: 'project', type: 'string', value: 'DIR', doc: 'install/uninstall: the project (default: here)' },
      { name: 'http', type: 'bool', doc: 'install: refused: an HTTP hook names a port, and the hook port is chosen anew at each start (see notes)' },
      { name: 'command', type: 'bool', doc: 'install: `pane hook` command hooks (what install writes)' },
      { name: 'app', type: 'string', value: 'APP', doc: 'the app whose hook dialect stdin is in (its app file\'s agent.hooks; e.g. gemini); default: Claude Code\'s' },
      { name: 'event', type: 'string', value: 'EVENT', doc: 'the event\'s name where the CLI\'s payload lacks it (Copilot\'s hooks, Aider\'s notification command)' },
      { name: 'agent', type: 'string', value: 'APP', doc: 'install/uninstall: the hooks of this agent CLI\'s dialect (codex, gemini, copilot, cursor, qwen, goose, opencode, amp, aider, claude) for its use outside pane\'s agent panes' },
      { name: 'print', type: 'bool', doc: 'install/uninstall --agent: show what would be written or removed, and how to start the CLI, and change nothing' },
    ],
    positionals: [{ name: 'ACTION', values: ['install', 'uninstall'] }],
    notes: [
      'Always exits 0 and prints nothing when no server answers within its budget: an agent is never blocked by pane being absent.',
      'install --agent APP: per process where the CLI allows it (Claude: a --settings file; opencode: an extra OPENCODE_CONFIG_DIR), else pane\'s own file where the CLI reads every file of a directory (Copilot, Goose), else pane\'s entries merged into the CLI\'s user file beside yours (Codex, with their trust; Gemini, Qwen, Cursor); uninstall removes only pane\'s. A file pane cannot parse is refused, never overwritten.',
      'install writes `pane hook` command hooks, which find the server by its socket. Claude Code takes no variables in an HTTP hook\'s url, and the hook port is chosen by the kernel at each start, so a URL in a settings file would go stale and could be bound by another user; agent panes pane launches get HTTP hooks (to $PANE_HOOK_URL) through their own --settings.',
    ],
    async run(ctx, a) {
      const action = a.positionals[0];
      if (action === undefined) {
        return runHook({ socketPath: ctx.socketPath, env: ctx.io.env, stdin: ctx.io.stdin, out: (t) => ctx.out(t), err: (t) => ctx.err(t), token: ctx.agentToken(), app: str(a, 'app'), event: str(a, 'event') });
      }
      const agent = str(a, 'agent');
      if (agent !== undefined) {
        const { hookAgentInstall } = await import('../hookAgentInstall');
        for (const line of hookAgentInstall(action === 'install' ? 'install' : 'uninstall', agent, bool(a, 'print'), ctx.io.env)) ctx.out(line);
        return 0;
      }
      const { installHooks, uninstallHooks, commandHook } = await import('../hookInstall');
      const file = path.join(path.resolve(str(a, 'project') ?? '.'), '.claude', 'settings.json');
      if (action === 'install') {
        if (bool(a, 'http')) {
          throw new UsageError(
            'pane hook install writes no HTTP hooks: Claude Code takes no variables in a hook url, and the hook port is chosen anew at each server start (a fixed one could be bound first by another user); install writes `pane hook` command hooks, and agent panes pane launches get HTTP hooks to $PANE_HOOK_URL by themselves',
            'hook',
          );
        }
        // Replaces an HTTP hook an earlier pane wrote (its port is no longer served, and could be squatted).
        // Behind bin/pane-hook where bash is there: no Node process per event in a pane that gives a hook URL.
        const { hookRunner, ownEntry } = await import('../../hookFiles');
        const added = installHooks(file, commandHook(`${hookRunner(ownEntry())} hook`));
        ctx.out(added.length ? `${file}: pane hook added for ${added.join(', ')}` : `${file}: pane hooks already there`);
      } else {
        const removed = uninstallHooks(file);
        ctx.out(removed.length ? `${file}: pane hook removed from ${removed.join(', ')}` : `${file}: no pane hooks to remove`);
      }
      return 0;
    },
  },
  {
    command: 'mcp',
    summary: 'serve the pane tools over MCP (stdio) as the running agent; install adds it to .mcp.json',
    flags: [{ name: 'project', type: 'string', value: 'DIR', doc: 'install: the project whose .mcp.json to edit (default: here)' }],
    positionals: [{ name: 'ACTION', values: ['install'] }],
    async run(ctx, a) {
      if (a.positionals[0] === 'install') {
        const { installMcp } = await import('../../mcp/install');
        ctx.out(installMcp(path.resolve(str(a, 'project') ?? '.')));
        return 0;
      }
      const { serveMcp } = await import('../../mcp/server');
      return serveMcp(ctx);
    },
  },
];
