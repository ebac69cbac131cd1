// `pane mcp`: a Model Context Protocol server over stdio (the official TypeScript
// SDK) that gives an MCP-capable agent the pane tools, acting as the agent that runs
// it ($PANE_TOKEN), so its .access limits every tool. Pane bodies are resources.
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import type { Connection } from '../../client/connection';
import { fingerAll, fingerLong } from '../cli/commands/agentsFinger';
import { plainText } from '../cli/commands/agentsWrite';
import { connectCli } from '../cli/connect';
import type { CommandContext } from '../cli/context';
import { paneVersion } from '../version';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { eventSchemas, type EventName } from '../../protocol/events';
import { vocabularyRevision } from '../../protocol/vocabRevision';
import { clip, shown } from '../../protocol/shown';
import { exitLabel } from '../../protocol/exitLabel';
import { matchOutput } from '../cli/matchOutput';
import { MAX_GRID_ROWS } from '../../protocol/gridLimits';
import { MAX_PLUMB_TEXT } from '../../protocol/plumb';
import { grantDuration, MAX_GRANT_NOTE } from '../../protocol/grantLimits';

/**
 * wait_pane's timeout: by default 50 s, at most 5 minutes. MCP clients give a tool
 * call a deadline of their own (Claude Code's MCP_TOOL_TIMEOUT, often a minute), and
 * an answer past it is lost; a wait that says "not yet" is called again.
 */
const MCP_WAIT_DEFAULT_S = 50;
const MCP_WAIT_MAX_S = 300;

/** The longest pattern wait_pane takes: a line's worth of expression; longer is a mistake, not a search. */
const MCP_PATTERN_MAX = 1_000;

/** wait_pane until match: the first matching line, or why none came (the pattern runs in this process, never the daemon). */
async function matchForMcp(c: Connection, pane: number | string, pattern: string, sinceInput: boolean, timeoutSeconds: number): Promise<string> {
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch (e) {
    throw new Error(`pattern: ${(e as Error).message}`);
  }
  const r = await matchOutput(c, pane, re, sinceInput ? 'input' : 'now', Math.round(timeoutSeconds * 1000));
  switch (r.kind) {
    case 'found':
      return `pane ${r.pane} printed: ${shown(clip(r.line, 2000))}`;
    case 'no-input':
      throw new Error(`you have sent pane ${r.pane} no key since it started: sinceInput looks after your own last key (send_input), not another's`);
    case 'closed':
      throw new Error(`pane ${r.pane} was closed before it printed a matching line`);
    case 'ended':
      throw new Error(`pane ${r.pane}: its program ended${r.exit ? ` (${exitLabel(r.exit)})` : ''} before it printed a matching line`);
    case 'timeout':
      return `pane ${r.pane}: not yet after ${Number(timeoutSeconds.toFixed(1))} s: no line matching /${clip(pattern, 80)}/`;
  }
}

const paneRef = z.union([z.number().int().positive(), z.string().regex(/^(?:[A-Za-z0-9][A-Za-z0-9._-]*:)?[1-9][0-9]*$/)]).describe('pane id: N or HOST:N');

type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean };
const text = (t: string): ToolResult => ({ content: [{ type: 'text', text: t }] });

/** Runs a tool body; a refusal or any error becomes an MCP tool error the model can read. */
async function tool(f: () => Promise<string>): Promise<ToolResult> {
  try {
    return text(await f());
  } catch (e) {
    const err = e as { code?: string; message?: string };
    const msg = err.message ?? String(e);
    return { content: [{ type: 'text', text: err.code && !msg.startsWith(err.code) ? `${err.code}: ${msg}` : msg }], isError: true };
  }
}

/** A subscribed resource is told of a change at most this often: a flooding pane is one update a quarter second, not one per frame. */
export const MCP_UPDATE_MS = 250;
/** Events the `pane://events` resource keeps, newest last: enough to see what happened since a model last looked. */
export const MCP_EVENTS_KEPT = 200;

/** The MCP server bound to one pane connection (exported for tests, which use the SDK's client over memory). */
export function buildMcpServer(c: Connection, who: string): McpServer {
  const mcp = new McpServer(
    { name: 'pane', version: paneVersion() },
    { instructions: `pane tools, acting as ${who}. Panes are addressed by number (N or HOST:N). Every tool runs with ${who}'s authority (its .access).`, capabilities: { resources: { subscribe: true, listChanged: true } } },
  );
  followChanges(mcp, c);

  mcp.registerTool('list_panes', { description: 'List every pane: id, tag name, signature, state, cwd (and agent state for agent panes).', inputSchema: {} }, () =>
    tool(async () => {
      const { panes } = await c.call('pane/list', {});
      return panes.map((p) => `${p.n}\t${shown(p.tag.name)}\t${p.signature}\t${p.state}${p.attrs['agent.state'] ? ` (${p.attrs['agent.state']})` : ''}\t${p.cwd}`).join('\n') || 'no panes';
    }),
  );

  mcp.registerTool(
    'read_pane',
    {
      description: 'Read a pane: its screen as shown now, or its body (recent output as plain text).',
      inputSchema: { pane: paneRef, what: z.enum(['screen', 'body']).default('screen'), maxBytes: z.number().int().min(1).max(1 << 20).default(65536) },
    },
    ({ pane, what, maxBytes }) =>
      tool(async () => {
        if (what === 'screen') return (await c.call('pty/screen', { pane, form: 'text' })).text;
        const end = (await c.call('pty/read', { pane, maxBytes: 1 })).streamEnd;
        const r = await c.call('pty/read', { pane, from: Math.max(0, end - maxBytes), maxBytes });
        return plainText(r.data);
      }),
  );

  mcp.registerTool(
    'read_lines',
    {
      description: 'Read a range of a pane’s rows as plain text — its history and screen, row 0 the oldest kept — with the total, so you can page through a long scrollback: `top` and `rows`, or leave `top` out for the last rows.',
      inputSchema: { pane: paneRef, top: z.number().int().min(0).optional(), rows: z.number().int().min(1).max(MAX_GRID_ROWS).default(50) },
    },
    ({ pane, top, rows }) =>
      tool(async () => {
        const g = await c.call('pty/grid', { pane, rows, ...(top !== undefined ? { top } : {}) });
        return `pane ${g.pane}: rows ${g.top}..${g.top + g.lines.length - 1} of ${g.total}\n${g.lines.map((l) => shown(l)).join('\n')}`;
      }),
  );

  mcp.registerTool(
    'plumb',
    {
      description:
        'Plumb text as a click on it would (docs/plumbing.md): a compiler error or traceback line opens the file at its line in an editor pane, a commit runs git show, text for a port goes to its readers. `click` is the offset in `text` the click was at (without one the whole text must match); `test` only says which rule would fire and why earlier ones did not. Runs as you, within your .access.',
      inputSchema: { text: z.string().min(1).max(MAX_PLUMB_TEXT), click: z.number().int().min(0).optional(), pane: paneRef.optional(), wdir: z.string().max(4096).optional(), test: z.boolean().default(false) },
    },
    ({ text: t, click, pane, wdir, test }) =>
      tool(async () => {
        const params = { text: t, ...(click !== undefined ? { click } : {}), ...(pane !== undefined ? { pane } : {}), ...(wdir !== undefined ? { wdir } : {}) };
        const r = test ? await c.call('plumb/test', params) : await c.call('plumb/send', params);
        const lines = [r.fired ? `${r.rule}: ${r.action}` : r.action];
        if (r.data !== undefined) lines.push(`data ${shown(r.data)}`);
        const attrs = Object.entries(r.attrs ?? {});
        if (attrs.length > 0) lines.push(`attrs ${attrs.map(([k, v]) => `${k}=${shown(v)}`).join(' ')}`);
        for (const x of r.tried ?? []) lines.push(`tried ${shown(x)}`);
        for (const e of r.errors) lines.push(`rule file error ${shown(e.file)}:${e.line}: ${shown(e.message)}`);
        return lines.join('\n');
      }),
  );

  mcp.registerTool(
    'send_input',
    { description: 'Type text into a pane you may write, then press Enter as its own key once the program has taken it (unless enter is false), as a person does.', inputSchema: { pane: paneRef, text: z.string().max(65536), enter: z.boolean().default(true) } },
    ({ pane, text: t, enter }) =>
      tool(async () => {
        const r = await c.call('pane/input', { pane, data: t, submit: enter });
        return `sent ${r.bytes} bytes to pane ${r.pane}`;
      }),
  );

  mcp.registerTool(
    'wait_pane',
    {
      description: `Wait until a pane you may read reaches a state: idle (the line you sent has finished: its shell is back at its prompt), exit (its program ended), quiet (printed nothing for quietSeconds), agent (its agent needs the person or finished its turn), or match (it printed a line matching the JavaScript regular expression pattern; with sinceInput, looking from the last key you sent it (not the person's), so a line printed before this call is seen and the command's own echo is not). Gives up after timeoutSeconds (at most ${MCP_WAIT_MAX_S}, what an MCP call can be held), saying what still runs; call it again to wait longer.`,
      inputSchema: {
        pane: paneRef,
        until: z.enum(['idle', 'exit', 'quiet', 'agent', 'match']).default('idle'),
        quietSeconds: z.number().min(0.1).max(MCP_WAIT_MAX_S).optional(),
        pattern: z.string().max(MCP_PATTERN_MAX).optional(),
        sinceInput: z.boolean().default(false),
        timeoutSeconds: z.number().min(0).max(MCP_WAIT_MAX_S).default(MCP_WAIT_DEFAULT_S),
      },
    },
    ({ pane, until, quietSeconds, pattern, sinceInput, timeoutSeconds }) =>
      tool(async () => {
        if (until === 'quiet' && quietSeconds === undefined) throw new Error('until: quiet needs quietSeconds');
        if ((until === 'match') !== (pattern !== undefined)) throw new Error(until === 'match' ? 'until: match needs a pattern' : 'pattern goes with until: match');
        if (until === 'match') return matchForMcp(c, pane, pattern!, sinceInput, timeoutSeconds);
        const r = await c.call('pane/wait', { pane, until, ...(until === 'quiet' ? { quietMs: Math.round(quietSeconds! * 1000) } : {}), timeoutMs: Math.round(timeoutSeconds * 1000) });
        return r.met ? `pane ${r.pane}: ${r.what}` : `pane ${r.pane}: not yet after ${Number(timeoutSeconds.toFixed(1))} s: ${r.what}`;
      }),
  );

  mcp.registerTool('finger', { description: 'What an agent (or every agent) is on: state, panes and quadrants, last prompt, topics, mail, .plan.', inputSchema: { name: z.string().optional() } }, ({ name }) =>
    tool(async () => {
      // Whom each converges with, where the caller's .access lets it read the predictions.
      const active = (await c.call('awareness/predictions', {}).catch(() => undefined))?.active ?? [];
      return name ? fingerLong(await c.call('agent/get', { name }), Date.now(), active) : fingerAll((await c.call('agent/list', {})).agents, Date.now(), active);
    }),
  );

  mcp.registerTool(
    'mail',
    { description: 'Send mail to an agent; it reaches it at its next turn.', inputSchema: { to: z.string(), subject: z.string().default(''), body: z.string() } },
    ({ to, subject, body }) =>
      tool(async () => {
        const r = await c.call('agent/mail', { to, subject, body });
        return `mailed ${r.to} (${r.unread} unread)`;
      }),
  );

  mcp.registerTool('read_mail', { description: 'Read your new mail (all: also mail already read).', inputSchema: { all: z.boolean().default(false) } }, ({ all }) =>
    tool(async () => {
      const r = await c.call('agent/inbox', { all });
      return r.messages.map((m) => `From ${m.from} (${new Date(m.date).toISOString()})\nSubject: ${m.subject}\n\n${m.body.trim()}`).join('\n\n---\n\n') || 'no new mail';
    }),
  );

  mcp.registerTool('update_plan', { description: 'Replace your .plan (what finger shows others about your work).', inputSchema: { text: z.string().max(65536) } }, ({ text: t }) =>
    tool(async () => {
      const r = await c.call('agent/plan', { text: t });
      return `${r.name}'s plan updated`;
    }),
  );

  // Coordination, delegated to awareness (server/awareness): claims are advisory, messages reach agents at their next turn.
  mcp.registerTool(
    'claim',
    {
      description: 'Claim a file, directory (trailing /) or glob before editing it, so other agents are warned; on conflict names the holders.',
      inputSchema: { resource: z.string().min(1), scope: z.enum(['exclusive', 'shared']).default('exclusive'), reason: z.string().default(''), ttlSeconds: z.number().positive().optional() },
    },
    ({ resource, scope, reason, ttlSeconds }) =>
      tool(async () => {
        const r = await c.call('awareness/claim', { resource, scope, reason, ...(ttlSeconds !== undefined ? { ttlSeconds } : {}) });
        if (r.status === 'granted') return `claimed ${r.claim?.path ?? resource} (${scope})`;
        return `conflict: ${r.conflicts.map((k) => `${k.holder} holds ${k.path}${k.reason ? ` (${k.reason})` : ''}`).join('; ')}`;
      }),
  );

  mcp.registerTool('release', { description: 'Release your claim on a resource.', inputSchema: { resource: z.string().min(1) } }, ({ resource }) =>
    tool(async () => {
      const r = await c.call('awareness/release', { resource });
      return r.released.length ? `released ${r.released.map((k) => k.path).join(', ')}` : `you held no claim on ${resource}`;
    }),
  );

  mcp.registerTool('check_claim', { description: 'Who else holds a claim covering a file, with the warning you would be given.', inputSchema: { resource: z.string().min(1) } }, ({ resource }) =>
    tool(async () => {
      const r = await c.call('awareness/check', { resource });
      return r.warning || `no other agent holds ${r.path}`;
    }),
  );

  mcp.registerTool(
    'post_message',
    {
      description: 'Post a message to another agent (to: NAME), a pane (pane:N), a quadrant (quadrant:top-left) or all; it reaches them at their next turn.',
      inputSchema: {
        to: z.string().min(1),
        text: z.string().min(1).max(8000),
        type: z.enum(['info', 'question', 'answer', 'request', 'handoff', 'warning', 'done', 'ack']).default('info'),
        priority: z.enum(['low', 'normal', 'high', 'urgent']).default('normal'),
      },
    },
    ({ to, text: t, type, priority }) =>
      tool(async () => {
        const target =
          to === 'all' ? { kind: 'all' as const } : to.startsWith('pane:') ? { kind: 'pane' as const, pane: Number(to.slice(5)) } : to.startsWith('quadrant:') ? { kind: 'quadrant' as const, quadrant: to.slice(9) } : { kind: 'agent' as const, name: to };
        const m = await c.call('awareness/message', { to: target, type, priority, text: t });
        return `posted ${m.type} message ${m.id} to ${to}`;
      }),
  );

  // The desktop's verbs, as the person has them in the tag and the CLI: each a request of the
  // agent's own connection, so its .access decides and a refusal comes back as a tool error.
  mcp.registerTool(
    'pane_words',
    { description: 'A pane’s command vocabulary: each word, its arguments and what it does, and the revision to name when running one (run_word).', inputSchema: { pane: paneRef } },
    ({ pane }) =>
      tool(async () => {
        const p = await c.call('pane/get', { pane });
        const words = p.vocabulary.map((w) => `${w.name}${w.args.map((a) => ` ${a.optional ? '[' : '<'}${a.name}${a.values ? `:${a.values.join('|')}` : ''}${a.optional ? ']' : '>'}`).join('')}\t${w.doc}`);
        return `pane ${p.n} (${shown(p.tag.name)}), vocabulary revision ${vocabularyRevision(p.vocabulary)}\n${words.join('\n')}`;
      }),
  );

  mcp.registerTool(
    'run_word',
    {
      description: 'Run a word of a pane’s vocabulary with its arguments (as a click on its tag does). Give the revision pane_words returned: if the pane’s words changed since, nothing runs.',
      inputSchema: { pane: paneRef, line: z.string().min(1).max(4000), revision: z.string().regex(/^[0-9a-f]{8}$/).optional() },
    },
    ({ pane, line, revision }) =>
      tool(async () => {
        const r = await c.call('pane/exec', { pane, line, origin: 'mcp', fallback: 'error', ...(revision ? { vocabulary: revision } : {}) });
        return r.output ?? `ran "${line}" on pane ${r.pane}`;
      }),
  );

  mcp.registerTool(
    'split',
    {
      description: 'Split a pane and run a program in the new one (argv, no shell), or a shell; returns the new pane’s id. Your panes run inside your sandbox.',
      inputSchema: {
        pane: paneRef.optional(),
        direction: z.enum(['horizontal', 'vertical']).default('horizontal'),
        program: z.string().min(1).max(4096).optional(),
        args: z.array(z.string().max(4096)).max(256).default([]),
        cwd: z.string().max(4096).optional(),
        name: z.string().max(200).optional(),
      },
    },
    ({ pane, direction, program, args, cwd, name }) =>
      tool(async () => {
        const r = await c.call('pane/split', {
          ...(pane !== undefined ? { pane } : {}),
          direction,
          ...(program ? { launch: { program, args, ...(cwd ? { cwd } : {}) } } : {}),
          ...(name ? { name } : {}),
        });
        return `pane ${r.pane}`;
      }),
  );

  for (const [name, description, run] of [
    ['focus_pane', 'Focus a pane in your own view of its session (context agent:NAME); the person’s window keeps its focus, so their keys never go where you chose.', (pane: string | number) => c.call('pane/focus', { pane })],
    ['zoom_pane', 'Zoom a pane in your own view of its session, or unzoom (toggles); the person’s window is not zoomed.', (pane: string | number) => c.call('pane/zoom', { pane })],
    ['float_pane', 'Float a tiled pane over the others, or tile a floating one (toggles).', (pane: string | number) => c.call('pane/float', { pane })],
    ['close_pane', 'Close a pane, ending its program.', (pane: string | number) => c.call('pane/close', { pane })],
  ] as const) {
    mcp.registerTool(name, { description, inputSchema: { pane: paneRef } }, ({ pane }) =>
      tool(async () => {
        const r = await run(pane);
        return `${name.replace('_pane', '')}: pane ${r.pane}`;
      }),
    );
  }

  mcp.registerTool(
    'launch_app',
    { description: 'Launch an app (its id, signature or name, as `pane ls` of apps and the launcher name them) in a new pane beside one; returns the pane. Yours run in your sandbox.', inputSchema: { app: z.string().min(1).max(200), pane: paneRef.optional(), direction: z.enum(['horizontal', 'vertical']).optional(), cwd: z.string().max(4096).optional() } },
    ({ app, pane, direction, cwd }) =>
      tool(async () => {
        const r = await c.call('apps/launch', { app, ...(pane !== undefined ? { pane } : {}), ...(direction ? { direction } : {}), ...(cwd ? { cwd } : {}) });
        return `pane ${r.pane}`;
      }),
  );

  mcp.registerTool(
    'write_to',
    { description: 'Say one line to another agent (typed into its input, marked as from you) or, with no `to`, to the person — write(1)’s conversation.', inputSchema: { to: z.string().max(100).optional(), text: z.string().min(1).max(8192) } },
    ({ to, text: t }) =>
      tool(async () => {
        const r = await c.call('agent/write', { ...(to ? { to } : {}), text: t });
        return `said to ${shown(r.to)}${r.pane !== null ? ` (pane ${r.pane})` : ''}`;
      }),
  );

  mcp.registerTool('predictions', { description: 'Where agents are converging on the same work: each open prediction (who, on what, how sure, what to do) and how accurate past ones were.', inputSchema: {} }, () =>
    tool(async () => {
      const r = await c.call('awareness/predictions', {});
      const lines = r.active.map((p) => `${shown(p.a)} ↔ ${shown(p.b)}\t${p.type}\t${Math.round(p.confidence * 100)}%\t${p.topics.map(shown).join(', ')}${p.domain ? `\t${shown(p.domain)}` : ''}\t${shown(p.recommendation)}`);
      return [...(lines.length > 0 ? lines : ['no open predictions']), `accuracy: ${JSON.stringify(r.accuracy)}; threshold ${r.threshold}`].join('\n');
    }),
  );

  mcp.registerTool(
    'new_session',
    { description: 'Make a new session (a desktop of its own) with one pane running a program (argv, no shell) or a shell; returns its name and its pane. Yours run in your sandbox.', inputSchema: { name: z.string().min(1).max(100).optional(), program: z.string().min(1).max(4096).optional(), args: z.array(z.string().max(4096)).max(256).default([]), cwd: z.string().max(4096).optional() } },
    ({ name, program, args, cwd }) =>
      tool(async () => {
        const r = await c.call('session/new', { ...(name ? { name } : {}), ...(cwd ? { cwd } : {}), ...(program ? { launch: { program, args, ...(cwd ? { cwd } : {}) } } : {}) });
        const s = await c.call('session/get', { session: r.session });
        return `session ${shown(r.name)}, pane ${s.focused ?? '-'}`;
      }),
  );

  mcp.registerTool('list_sessions', { description: 'The sessions (desktops) of this server: name, panes, which is focused.', inputSchema: {} }, () =>
    tool(async () => {
      const { sessions } = await c.call('session/list', {});
      return sessions.map((x) => `${shown(x.name)}\t${x.panes} pane${x.panes === 1 ? '' : 's'}\tfocused ${x.focused ?? '-'}`).join('\n') || 'no sessions';
    }),
  );

  mcp.registerTool('list_hosts', { description: 'Joined hosts: name, state, how they are reached, their panes (HOST:N).', inputSchema: {} }, () =>
    tool(async () => {
      const { hosts } = await c.call('host/list', {});
      return hosts.map((h) => `${shown(h.name)}\t${h.state}\t${shown(h.how)}\t${h.panes} panes${h.error ? `\t${shown(h.error)}` : ''}`).join('\n') || 'no hosts';
    }),
  );

  mcp.registerTool(
    'grant_session',
    {
      description: 'Let someone watch (ro) or type into (rw) one session, until a time: issues an attach grant and returns its token and window URL. Within your .access: every pane of the session must be yours to read (ro) or write (rw).',
      inputSchema: { session: z.string().min(1).max(100).describe('session name or id'), mode: z.enum(['ro', 'rw']).default('ro'), expires: z.string().default('1h').describe('90s, 30m, 2h, 7d'), name: z.string().max(MAX_GRANT_NOTE).optional().describe('whom it is for') },
    },
    ({ session, mode, expires, name }) =>
      tool(async () => {
        const ttlMs = grantDuration(expires);
        if (typeof ttlMs === 'string') throw new Error(`expires: ${ttlMs}`);
        const g = await c.call('grant/create', { mode, ttlMs, session, ...(name !== undefined ? { note: name } : {}) });
        return [`grant ${g.id} (${mode === 'ro' ? 'read-only' : 'read-write'}) of session ${shown(g.session?.name ?? session)} until ${new Date(g.expiresAt).toISOString()}`, `token: ${g.token}`, ...(g.url ? [`window: ${g.url}`] : [])].join('\n');
      }),
  );

  mcp.registerTool('list_grants', { description: 'The attach grants you issued that are alive: id, mode, session, expiry, guests connected.', inputSchema: {} }, () =>
    tool(async () => {
      const { grants } = await c.call('grant/list', {});
      return grants.map((g) => `${g.id}\t${g.mode}\t${shown(g.sessionName ?? '-')}\tuntil ${new Date(g.expiresAt).toISOString()}\t${g.clients} guest${g.clients === 1 ? '' : 's'}${g.note ? `\t${shown(g.note)}` : ''}`).join('\n') || 'no grants';
    }),
  );

  mcp.registerTool('revoke_grant', { description: 'Revoke an attach grant you issued: its token lets no one in again and its guests are closed now.', inputSchema: { id: z.string().regex(/^g[0-9a-f]{8}$/) } }, ({ id }) =>
    tool(async () => {
      const r = await c.call('grant/revoke', { id });
      return `revoked ${r.id}; closed ${r.closed} guest${r.closed === 1 ? '' : 's'}`;
    }),
  );

  mcp.registerTool('claims', { description: 'Every claim agents hold now: who, what, how long.', inputSchema: {} }, () =>
    tool(async () => {
      const { claims } = await c.call('awareness/claims', {});
      return claims.map((k) => `${shown(k.holder)}\t${k.scope}\t${shown(k.path)}${k.reason ? `\t${shown(k.reason)}` : ''}`).join('\n') || 'no claims';
    }),
  );

  mcp.registerPrompt(
    'situation',
    { description: 'Where things stand: every agent’s state and work, the claims held, and who converges with whom — to read before starting or handing off.' },
    async () => {
      const active = (await c.call('awareness/predictions', {}).catch(() => undefined))?.active ?? [];
      const agents = fingerAll((await c.call('agent/list', {})).agents, Date.now(), active);
      const claims = (await c.call('awareness/claims', {}).catch(() => ({ claims: [] }))).claims.map((k) => `- ${k.holder} holds ${k.path} (${k.scope})`).join('\n') || '- none';
      return { messages: [{ role: 'user', content: { type: 'text', text: `You are ${who} in pane. The agents now:\n\n${agents}\n\nClaims:\n${claims}\n\nBefore editing a file another agent works on, claim it (claim) or message them (post_message).` } }] };
    },
  );

  mcp.registerPrompt(
    'handoff',
    { description: 'Hand your work to another agent: a message template with your plan and claims filled in.', argsSchema: { to: z.string().min(1) } },
    async ({ to }) => {
      const me = await c.call('agent/get', { name: who }).catch(() => undefined);
      const plan = me?.plan?.trim() || '(no .plan)';
      return { messages: [{ role: 'user', content: { type: 'text', text: `Write a handoff for ${to}: what is done, what is left, what to watch. Your .plan says:\n\n${plan}\n\nThen send it with post_message (to: ${to}, type: handoff) and release your claims.` } }] };
    },
  );

  mcp.registerPrompt(
    'review',
    { description: 'Ask another agent (or the person) to review your work: a request filled with what you hold claims on and your .plan, to send with post_message.', argsSchema: { to: z.string().min(1), focus: z.string().max(2000).optional() } },
    async ({ to, focus }) => {
      const me = await c.call('agent/get', { name: who }).catch(() => undefined);
      const plan = me?.plan?.trim() || '(no .plan)';
      const mine = (await c.call('awareness/claims', {}).catch(() => ({ claims: [] }))).claims.filter((k) => k.holder === who).map((k) => `- ${k.path}`);
      const files = mine.join('\n') || '- (no claims: name the files yourself)';
      return {
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: `Ask ${to} to review your work. Say what changed and why, what you are unsure of${focus ? ` (above all: ${focus})` : ''}, and how to try it. The files you hold:\n${files}\n\nYour .plan says:\n\n${plan}\n\nThen send it with post_message (to: ${to}, type: request), keep your claims until the review is answered, and read the answer with read_mail.`,
            },
          },
        ],
      };
    },
  );

  mcp.registerResource(
    'events',
    'pane://events',
    { description: `What happened lately on the desktop, a JSON line an event (the last ${MCP_EVENTS_KEPT}); subscribe to be told of each change.`, mimeType: 'application/x-ndjson' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/x-ndjson', text: recentEvents(c).join('\n') }] }),
  );

  /** A namespace file's text (the same /pane files the CLI cats). */
  const nsText = async (path: string) => {
    const r = await c.call('ns/read', { path, count: 1 << 20 });
    return Buffer.from(r.data, r.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8');
  };

  mcp.registerResource(
    'index',
    'pane://index',
    { description: 'Every pane you may see, one fixed-width line each (id host session signature owner quadrant state cwd, then the tag), as /pane/index; subscribe to be told when panes come, go or change.', mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: await nsText('/index') }] }),
  );

  mcp.registerResource(
    'pane-tag',
    new ResourceTemplate('pane://{pane}/tag', {
      list: async () => {
        const { panes } = await c.call('pane/list', {});
        return { resources: panes.map((p) => ({ uri: `pane://${p.n}/tag`, name: `pane ${p.n} tag: ${p.tag.name}`, mimeType: 'text/plain' })) };
      },
    }),
    { description: 'A pane’s tag line: its name, its command words, the user’s text (as /pane/N/tag); subscribe to follow it.', mimeType: 'text/plain' },
    async (uri, vars) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: await nsText(`/${Number(vars.pane)}/tag`) }] }),
  );

  mcp.registerResource(
    'pane-body',
    new ResourceTemplate('pane://{pane}/body', {
      list: async () => {
        const { panes } = await c.call('pane/list', {});
        return { resources: panes.map((p) => ({ uri: `pane://${p.n}/body`, name: `pane ${p.n}: ${p.tag.name}`, mimeType: 'text/plain' })) };
      },
    }),
    { description: 'A pane’s body: its recent output as plain text.', mimeType: 'text/plain' },
    async (uri, vars) => {
      const pane = Number(vars.pane);
      const end = (await c.call('pty/read', { pane, maxBytes: 1 })).streamEnd;
      const r = await c.call('pty/read', { pane, from: Math.max(0, end - 65536), maxBytes: 65536 });
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: plainText(r.data) }] };
    },
  );
  return mcp;
}

const eventLogs = new WeakMap<Connection, string[]>();
/** The events the connection heard, oldest first, at most MCP_EVENTS_KEPT. */
function recentEvents(c: Connection): string[] {
  return eventLogs.get(c) ?? [];
}

/**
 * Follows the desktop for subscribers: `resources/subscribe` on `pane://N/body`,
 * `pane://N/tag`, `pane://index` or `pane://events` is told (notifications/resources/updated) when it changes, at most
 * every MCP_UPDATE_MS; panes coming and going change the resource list (listChanged).
 * Events reach this connection only as far as its principal may see them.
 */
function followChanges(mcp: McpServer, c: Connection): void {
  const subscribed = new Set<string>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const log: string[] = [];
  eventLogs.set(c, log);
  const updated = (uri: string) => {
    if (!subscribed.has(uri) || timers.has(uri)) return;
    timers.set(
      uri,
      setTimeout(() => {
        timers.delete(uri);
        if (subscribed.has(uri)) void mcp.server.sendResourceUpdated({ uri }).catch(() => undefined);
      }, MCP_UPDATE_MS),
    );
  };
  mcp.server.setRequestHandler(SubscribeRequestSchema, (req) => {
    subscribed.add(req.params.uri);
    return {};
  });
  mcp.server.setRequestHandler(UnsubscribeRequestSchema, (req) => {
    subscribed.delete(req.params.uri);
    return {};
  });
  const heard = (event: string, data: unknown) => {
    if (event !== 'pane/output') {
      log.push(JSON.stringify({ event, at: new Date().toISOString(), data }));
      if (log.length > MCP_EVENTS_KEPT) log.splice(0, log.length - MCP_EVENTS_KEPT);
      updated('pane://events');
    }
    const pane = (data as { pane?: unknown } | null)?.pane;
    const n = typeof pane === 'number' ? pane : typeof (pane as { n?: unknown } | undefined)?.n === 'number' ? (pane as { n: number }).n : undefined;
    if (n !== undefined) updated(`pane://${n}/body`);
    if (n !== undefined && event !== 'pane/output') updated(`pane://${n}/tag`);
    if (['pane/created', 'pane/closed', 'pane/changed', 'pane/tag-changed', 'pane/exited', 'layout/changed', 'focus/changed'].includes(event)) updated('pane://index');
    if (event === 'pane/created' || event === 'pane/closed') mcp.sendResourceListChanged();
  };
  for (const e of Object.keys(eventSchemas) as EventName[]) c.events.on(e, (data) => heard(e, data));
  void c.call('events/subscribe', {}).catch(() => undefined);
  c.onClose(() => {
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
  });
}

/** `pane mcp`: connects as the running agent and serves MCP on stdin/stdout until stdin closes. */
export async function serveMcp(ctx: CommandContext): Promise<number> {
  const token = ctx.identityToken();
  const c = await connectCli(ctx.socketPath, { client: { name: 'pane-mcp', kind: 'agent' }, ...(token ? { token } : {}) });
  const mcp = buildMcpServer(c, c.welcome?.user ?? 'the human');
  const transport = new StdioServerTransport();
  await mcp.connect(transport);
  await new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    c.onClose(() => resolve());
  });
  await mcp.close();
  c.close();
  return 0;
}
