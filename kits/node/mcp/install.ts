// `pane mcp install`: adds a "pane" server to a project's .mcp.json, keeping
// every other server and key as it was; an existing "pane" entry is left alone.
// The project is where agents write: the file is reached without following links,
// read only as a regular file of bounded size, and replaced through a fresh temp
// file (kits/node/safeFile.ts), never through a fixed name a link could sit at.
import path from 'node:path';
import { readBelow, writeBelow } from '../safeFile';

/** An .mcp.json is a few lines; past 1 MiB it is not one pane edits. */
const MAX_MCP_JSON_BYTES = 1 << 20;
const WHERE = 'a project (agents write there)';

export const PANE_MCP_ENTRY = { command: 'pane', args: ['mcp'] };

/** Merges pane into DIR/.mcp.json; returns one line saying what it did. Throws on a file that is not a JSON object. */
export function installMcp(dir: string): string {
  const file = path.join(dir, '.mcp.json');
  let json: Record<string, unknown> = {};
  const text = readBelow(dir, '.mcp.json', { where: WHERE, maxBytes: MAX_MCP_JSON_BYTES });
  if (text !== null) {
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
  writeBelow(dir, '.mcp.json', JSON.stringify(json, null, 2) + '\n', { where: WHERE, mode: 0o644 });
  return `${file}: added the "pane" MCP server (pane mcp)`;
}
