// pane's opencode plugin (apps/opencode.json, issue 25): opencode has no command hooks, so
// this plugin, copied into its plugins directory, reports opencode's events to pane by
// running `pane hook --app opencode` with Claude-shaped JSON on stdin, named by opencode's
// own event names (apps/opencode.json maps them). It never blocks or breaks opencode: a
// missing pane, a slow one (past 1.5 s) or any error is ignored. It injects no context.
import { spawn } from 'node:child_process';

const PANE = process.env.PANE_BIN || 'pane';
/** `pane hook` keeps its own budget; this is the most the plugin waits before letting go. */
const BUDGET_MS = 1500;

function report(event, sessionID, extra, directory) {
  if (!process.env.PANE_AGENT && !process.env.PANE_SOCKET && !process.env.PANE_ID) return Promise.resolve();
  return new Promise((resolve) => {
    let child;
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      try {
        child?.kill();
      } catch {}
      done();
    }, BUDGET_MS);
    try {
      child = spawn(PANE, ['hook', '--app', 'opencode'], { stdio: ['pipe', 'ignore', 'ignore'] });
      child.on('error', done);
      child.on('exit', done);
      child.stdin.on('error', () => {});
      child.stdin.end(JSON.stringify({ hook_event_name: event, session_id: sessionID ?? '', cwd: directory, ...extra }));
    } catch {
      done();
    }
  });
}

const text = (parts) => (Array.isArray(parts) ? parts.filter((p) => p && p.type === 'text' && typeof p.text === 'string').map((p) => p.text).join('\n') : '');

export const PanePlugin = async ({ directory }) => ({
  event: async ({ event }) => {
    const p = event?.properties ?? {};
    const sid = p.sessionID ?? p.info?.id ?? p.id;
    if (event?.type === 'session.created') return report('session.created', p.info?.id ?? sid, {}, directory);
    if (event?.type === 'session.idle') return report('session.idle', sid, {}, directory);
    if (event?.type === 'session.deleted') return report('session.deleted', p.info?.id ?? sid, {}, directory);
    if (event?.type === 'permission.asked' || event?.type === 'permission.updated')
      return report('permission.asked', sid, { notification_type: 'permission', message: p.title ?? 'opencode asks for permission' }, directory);
    if (event?.type === 'question.asked') return report('question.asked', sid, { notification_type: 'question', message: p.question ?? 'opencode asks a question' }, directory);
  },
  'chat.message': async (input, output) => report('chat.message', input?.sessionID, { prompt: text(output?.parts) }, directory),
  'tool.execute.before': async (input, output) => report('tool.execute.before', input?.sessionID, { tool_name: input?.tool, tool_input: output?.args ?? {} }, directory),
  'tool.execute.after': async (input, output) => report('tool.execute.after', input?.sessionID, { tool_name: input?.tool, tool_input: input?.args ?? output?.metadata ?? {} }, directory),
});
