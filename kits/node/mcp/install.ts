// `pane mcp install`: adds a "pane" server to a project's .mcp.json, keeping
// every other server and key as it was; an existing "pane" entry is left alone.
import fs from 'node:fs';
import path from 'node:path';

export const PANE_MCP_ENTRY = { command: 'pane', args: ['mcp'] };

/** Merges pane into DIR/.mcp.json; returns one line saying what it did. Throws on a file that is not a JSON object. */
export function installMcp(dir: string): string {
  const file = path.join(dir, '.mcp.json');
  let json: Record<string, unknown> = {};
  if (fs.existsSync(file)) {
    const text = fs.readFileSync(file, 'utf8');
    if (text.trim() !== '') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (e) {
        throw new Error(`${file} is not valid JSON (${(e as Error).message}); fix it first, pane will not overwrite it`);
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${file} is not a JSON object; pane will not overwrite it`);
      json = parsed as Record<string, unknown>;
    }
  }
  const servers = (json.mcpServers && typeof json.mcpServers === 'object' && !Array.isArray(json.mcpServers) ? json.mcpServers : {}) as Record<string, unknown>;
  if (servers.pane !== undefined) return `${file}: already has a "pane" server (left as it is)`;
  servers.pane = PANE_MCP_ENTRY;
  json.mcpServers = servers;
  const tmp = `${file}.pane-tmp`;
  fs.writeFileSync(tmp, JSON.stringify(json, null, 2) + '\n');
  fs.renameSync(tmp, file);
  return `${file}: added the "pane" MCP server (pane mcp)`;
}
