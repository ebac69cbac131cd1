// Claude Code's HTTP hooks against a real `pane serve`: the recorded session posted
// to the hook endpoint answers exactly as `pane hook` prints, moves the agent the
// same way, and refuses requests without an agent token or the panes' secret.
// The port is the kernel's choice: tests learn the URL as panes do ($PANE_HOOK_URL).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, servePerFile, until } from '../cli/harness';

/** Two servers alike: one hears `pane hook`, the other the HTTP hook, so neither's answer mentions the other. */
const c = servePerFile();
const s = servePerFile();

const token = (name: string, on = s) => fs.readFileSync(path.join(on.dir, '.local', 'share', 'pane', 'agents', name, '.token'), 'utf8').trim();
const agentEnv = (name: string) => cleanEnv({ PANE_AGENT: name, PANE_TOKEN: token(name, c), PANE_SOCKET: c.socket });
let hookUrl = '';
let envs = 0;
const url = () => hookUrl;

/** The server's hook URL and the person's secret, as an ordinary pane of the person's sees them. */
async function paneHookEnv(on: typeof s): Promise<{ url: string; secret: string; id: string }> {
  const file = path.join(on.dir, `hook-env-${++envs}`);
  const id = on.pane(['split', '--', 'sh', '-c', `printf 'hook=%s %s=' "$PANE_HOOK_URL" "$PANE_HOOK_TOKEN" > ${file}; exec sleep 600`]).stdout.trim();
  const seen = await until('the pane’s hook env', () => (fs.existsSync(file) ? (/hook=(\S+) (\S+)=/.exec(fs.readFileSync(file, 'utf8')) ?? undefined) : undefined), 20_000);
  return { url: seen[1]!, secret: seen[2]!, id };
}

/** What Claude Code sends for pane's HTTP hook: the JSON, and the headers its allowedEnvVars fill. */
async function post(body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const r = await fetch(url(), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: r.status, text: await r.text() };
}

const events = fs
  .readFileSync(path.resolve(__dirname, 'recorded/claude-session.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('the HTTP hook endpoint', () => {
  it('answers every recorded event exactly as `pane hook` does, and moves the agent through the same states', async () => {
    hookUrl = (await paneHookEnv(s)).url;
    for (const on of [c, s]) {
      expect(on.pane(['agent', 'add', 'ada']).status).toBe(0);
      on.pane(['mail', '-s', 'next', 'ada'], { input: 'write the changelog\n' });
    }
    const states: [string, string][] = [];
    let answered = 0;
    for (const ev of events) {
      const cmd = c.pane(['hook'], { env: agentEnv('ada'), input: JSON.stringify(ev) });
      expect(cmd.status).toBe(0);
      const http = await post(JSON.stringify(ev), { authorization: `Bearer ${token('ada')}`, 'x-pane-agent': 'ada', 'x-pane-id': '' });
      expect(http.status).toBe(200);
      expect(http.text).toBe(cmd.stdout.trim());
      if (http.text) answered++;
      const state = (on: typeof s) => /State: (\S+)/.exec(on.pane(['finger', 'ada']).stdout)?.[1] ?? '?';
      states.push([state(c), state(s)]);
    }
    expect(answered).toBeGreaterThan(0);
    expect(states.some(([a]) => a.startsWith('working'))).toBe(true);
    for (const [a, b] of states) expect(b).toBe(a);
  });

  it('takes the panes’ secret for a hand-started agent CLI, and refuses no token, a wrong one, a web page, other methods and junk', async () => {
    const ev = JSON.stringify({ hook_event_name: 'Stop', session_id: 'h1', cwd: s.dir });
    expect((await post(ev, {})).status).toBe(401);
    expect((await post(ev, { authorization: 'Bearer pane-agent-0000' })).status).toBe(401);
    expect((await post(ev, { authorization: `Bearer ${token('ada')}`, origin: 'http://evil.example' })).status).toBe(403);
    expect((await fetch(url())).status).toBe(404);
    expect((await post('not json', { authorization: `Bearer ${token('ada')}` })).status).toBe(400);
    expect((await post('[1]', { authorization: `Bearer ${token('ada')}` })).status).toBe(400);
    // Panes carry $PANE_HOOK_URL and $PANE_HOOK_TOKEN: with them a CLI started by hand in a pane reports for it.
    const seen = await paneHookEnv(s);
    expect(seen.url).toBe(url());
    const r = await post(JSON.stringify({ hook_event_name: 'SessionStart', session_id: 'h2', cwd: s.dir }), { 'x-pane-hook': seen.secret, 'x-pane-id': seen.id, authorization: 'Bearer ' });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text).hookSpecificOutput.additionalContext).toMatch(/You are the agent "claude-/);
    expect((await post(ev, { 'x-pane-hook': 'not-the-secret' })).status).toBe(401);
  });
});
