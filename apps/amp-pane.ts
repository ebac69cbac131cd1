// pane's Amp plugin (apps/amp.json, issue 25): Amp's settings hooks only allow fixed
// actions, so this plugin, copied into ~/.config/amp/plugins/ (loaded with PLUGINS=all),
// reports Amp's events to pane by running `pane hook --app amp` with Claude-shaped JSON
// on stdin, named by Amp's own event names (apps/amp.json maps them). Written from Amp's
// published plugin API (ampcode.com/manual/plugin-api; experimental): not run here, since
// Amp needs its server to start a thread. It never blocks Amp past 1.5 s nor throws.
import { spawn } from 'node:child_process';

const PANE = process.env.PANE_BIN || 'pane';
const BUDGET_MS = 1500;

function report(event: string, payload: Record<string, unknown>): Promise<void> {
  if (!process.env.PANE_AGENT && !process.env.PANE_SOCKET && !process.env.PANE_ID) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, BUDGET_MS);
    try {
      const child = spawn(PANE, ['hook', '--app', 'amp'], { stdio: ['pipe', 'ignore', 'ignore'] });
      child.on('error', () => resolve());
      child.on('exit', () => (clearTimeout(timer), resolve()));
      child.stdin.on('error', () => {});
      child.stdin.end(JSON.stringify({ hook_event_name: event, cwd: process.cwd(), ...payload }));
    } catch {
      resolve();
    }
  });
}

type Ev = Record<string, unknown> & { thread?: { id?: string }; threadID?: string };
const sid = (e: Ev) => e?.thread?.id ?? e?.threadID ?? '';

export default function pane(amp: { on: (event: string, fn: (e: Ev) => unknown) => void }) {
  amp.on('session.start', (e) => report('session.start', { session_id: sid(e) }));
  amp.on('user.message', (e) => report('user.message', { session_id: sid(e), prompt: typeof e.text === 'string' ? e.text : '' }));
  amp.on('tool.call', (e) => report('tool.call', { session_id: sid(e), tool_name: e.tool ?? e.name, tool_input: e.input ?? e.args ?? {} }));
  amp.on('tool.result', (e) => report('tool.result', { session_id: sid(e), tool_name: e.tool ?? e.name, tool_input: e.input ?? e.args ?? {} }));
  amp.on('agent.end', (e) => report('agent.end', { session_id: sid(e) }));
}
