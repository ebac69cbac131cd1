// An MCP tool call's round trip (issue 38): the MCP SDK's own client calling
// `pane mcp`'s list_panes over stdio, against a running daemon with a few panes,
// next to the same request (pane/list) made by a protocol client on the socket —
// what the MCP layer (JSON-RPC over a pipe, a relay process, the text reply) adds —
// and next to the CLI's one-shot `pane ls`, which pays a process start each time.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { client, paneBin, startServerProc, timeCommand } from './procs';
import { summarize, type Summary } from './stats';

export async function mcpRoundTrip(dir: string, calls: number, oneShots: number): Promise<{ mcp: Summary; protocol: Summary; cli: Summary }> {
  const srv = await startServerProc(dir);
  try {
    const c = await client(srv.socket);
    await c.call('session/new', { name: 'mcp', launch: { program: '/bin/cat', args: [] } });
    for (let i = 0; i < 4; i++) await c.call('pane/split', { session: 'mcp', launch: { program: '/bin/cat', args: [] } });
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'PANE_AGENT' && k !== 'PANE_TOKEN') env[k] = v;
    const transport = new StdioClientTransport({ command: process.execPath, args: [paneBin, '--socket', srv.socket, 'mcp'], env, stderr: 'ignore' });
    const m = new Client({ name: 'pane-bench', version: '1.0.0' });
    await m.connect(transport);
    const mcp: number[] = [];
    const protocol: number[] = [];
    for (let i = 0; i < calls + 10; i++) {
      const t0 = performance.now();
      const r = (await m.callTool({ name: 'list_panes', arguments: {} })) as { isError?: boolean; content: { text: string }[] };
      const t1 = performance.now();
      if (r.isError) throw new Error(`bench: list_panes failed: ${r.content[0]?.text}`);
      await c.call('pane/list', {});
      const t2 = performance.now();
      if (i >= 10) {
        mcp.push((t1 - t0) * 1000);
        protocol.push((t2 - t1) * 1000);
      }
    }
    await m.close();
    const cli: number[] = [];
    for (let i = 0; i < oneShots; i++) cli.push(timeCommand(process.execPath, [paneBin, '--socket', srv.socket, 'ls'], env) * 1000);
    c.close();
    return { mcp: summarize(mcp), protocol: summarize(protocol), cli: summarize(cli) };
  } finally {
    await srv.stop();
  }
}
