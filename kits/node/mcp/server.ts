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

/** The MCP server bound to one pane connection (exported for tests, which use the SDK's client over memory). */
export function buildMcpServer(c: Connection, who: string): McpServer {
  const mcp = new McpServer({ name: 'pane', version: paneVersion() }, { instructions: `pane tools, acting as ${who}. Panes are addressed by number (N or HOST:N).` });

  mcp.registerTool('list_panes', { description: 'List every pane: id, tag name, signature, state, cwd (and agent state for agent panes).', inputSchema: {} }, () =>
    tool(async () => {
      const { panes } = await c.call('pane/list', {});
      return panes.map((p) => `${p.n}\t${p.tag.name}\t${p.signature}\t${p.state}${p.attrs['agent.state'] ? ` (${p.attrs['agent.state']})` : ''}\t${p.cwd}`).join('\n') || 'no panes';
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
    'send_input',
    { description: 'Type text into a pane you may write, then press Enter as its own key once the program has taken it (unless enter is false), as a person does.', inputSchema: { pane: paneRef, text: z.string().max(65536), enter: z.boolean().default(true) } },
    ({ pane, text: t, enter }) =>
      tool(async () => {
        const r = await c.call('pane/input', { pane, data: t, submit: enter });
        return `sent ${r.bytes} bytes to pane ${r.pane}`;
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
