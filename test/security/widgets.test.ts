// Widget panes' doors through the real daemon and socket: a widget's body text reads
// its bound files as whoever reads the body (a guest gets the guest's refusals, not the
// person's figures); /agents gives a viewer no mail count and an agent only what its
// .access lets it read; a widget pane takes no body writes; a bad widget file is
// reported by file and field and the other apps keep working.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOnce, cleanEnv, serve, type Served } from '../cli/harness';
import { reachServer } from '../../kits/node/cli/reach';

let s: Served;
let w: number;
const sh = (args: string[], env: Record<string, string> = {}) => s.pane(args, { env: cleanEnv(env) });

describe('widget panes: whose authority reads and acts', () => {
  beforeAll(async () => {
    buildOnce();
    s = await serve();
    const apps = path.join(s.dir, '.config', 'pane', 'apps');
    fs.mkdirSync(apps, { recursive: true });
    fs.writeFileSync(
      path.join(apps, 'costs.json'),
      JSON.stringify({
        name: 'Costs',
        signature: 'com.example.costs',
        kind: 'widget',
        widget: { type: 'column', children: [{ type: 'table', label: 'panes', bind: { path: '/server/panes', as: 'jsonl' }, columns: [{ title: 'pane', field: 'pane' }, { title: 'rss', field: 'rssMiB' }] }, { type: 'text', label: 'agents', bind: { path: '/agents', as: 'text' } }] },
      }),
    );
    fs.writeFileSync(path.join(apps, 'bad.json'), JSON.stringify({ name: 'Bad', signature: 'com.example.bad', kind: 'widgets', widget: { type: 'table', bind: { path: 'relative' }, columns: [] } }));
    const r = sh(['new', '--app', 'costs']);
    expect(r.status, r.stderr).toBe(0);
    w = Number(r.stdout.trim().split(':').pop());
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('the body text reads bound files as its reader: the person sees the figures, a guest its own refusal', () => {
    const mine = sh(['cat', `/${w}/body`]).stdout;
    expect(mine).toMatch(/^  table panes: 2 rows$/m);
    expect(mine).toMatch(new RegExp(`^    ${w}\t0$`, 'm'));
    const g = JSON.parse(sh(['grant', 'new', '--json']).stdout) as { token: string };
    const theirs = sh(['cat', `/${w}/body`], { PANE_GRANT: g.token });
    expect(theirs.status, theirs.stderr).toBe(0);
    // A guest reads its grant's session alone: /server/panes is beyond it.
    expect(theirs.stdout).toMatch(/^  table panes: \[.*grant g[0-9a-f]{8} \(read-only\) may not call ns\/[a-z]+: it shows session .*'s panes alone.*\]$/m);
    expect(theirs.stdout).not.toMatch(/\t0$/m);
  });

  it('/agents gives a viewer no mail count, and an agent only what its .access lets it read', async () => {
    expect(sh(['agent', 'add', 'ada']).status).toBe(0);
    expect(s.pane(['mail', 'ada', '--subject', 'hello'], { env: cleanEnv(), input: 'a note\n' }).status).toBe(0);
    const person = sh(['cat', '/agents']).stdout.trim().split('\n').map((l) => JSON.parse(l) as { name: string; unread: number | null });
    expect(person.find((a) => a.name === 'ada')?.unread).toBe(1);
    const g = JSON.parse(sh(['grant', 'new', '--json']).stdout) as { token: string };
    // A guest reads no /agents at all (its grant shows one session's panes); a read-only client reads no mail count there.
    const viewer = sh(['cat', '/agents'], { PANE_GRANT: g.token });
    expect(viewer.status).not.toBe(0);
    expect(viewer.stderr).toMatch(/it shows session .*'s panes alone; \/agents is beyond them/);
    const ro = await reachServer(s.socket, { capabilities: ['read'] });
    const got = await ro.call('ns/read', { path: '/agents', count: 65536 });
    const rows = Buffer.from(got.data, got.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as { name: string; unread: number | null });
    ro.close();
    expect(rows.find((a) => a.name === 'ada')?.unread).toBeNull();
    const home = path.join(s.dir, '.local/share/pane/agents/ada');
    const token = fs.readFileSync(path.join(home, '.token'), 'utf8').trim();
    // Its default .access reads the namespace: it sees the board's rows, as finger shows them.
    expect(sh(['cat', '/agents'], { PANE_AGENT: 'ada', PANE_TOKEN: token }).stdout).toContain('"name":"ada"');
    // An .access that reads only its own panes does not read /agents.
    const access = JSON.parse(fs.readFileSync(path.join(home, '.access'), 'utf8')) as { namespace: { read: string[] } };
    fs.writeFileSync(path.join(home, '.access'), JSON.stringify({ ...access, namespace: { ...access.namespace, read: ['/pane/self/**'] } }));
    // (The daemon looks at an .access again after half a second.)
    await new Promise((r) => setTimeout(r, 600));
    const asAda = sh(['cat', '/agents'], { PANE_AGENT: 'ada', PANE_TOKEN: token });
    expect(asAda.status).not.toBe(0);
    expect(asAda.stderr).toMatch(/namespace\.read does not include \/pane\/agents|read \/pane\/agents \(\.access namespace\)/);
  });

  it('pane screen of a widget pane prints its body, an agent’s words in it escaped', () => {
    const apps = path.join(s.dir, '.config', 'pane', 'apps');
    fs.writeFileSync(
      path.join(apps, 'prompts.json'),
      JSON.stringify({ name: 'Prompts', signature: 'com.example.prompts', kind: 'widget', widget: { type: 'table', label: 'prompts', bind: { path: '/agents', as: 'jsonl' }, columns: [{ title: 'agent', field: 'name' }, { title: 'prompt', field: 'prompt' }] } }),
    );
    if (sh(['agent', 'ls']).stdout.indexOf('ada') < 0) expect(sh(['agent', 'add', 'ada']).status).toBe(0);
    expect(sh(['awareness', 'prompt', 'ada', 'tidy \x1b]52;c;ZXZpbA==\x07 the parser']).status).toBe(0);
    const r = sh(['new', '--app', 'prompts']);
    expect(r.status, r.stderr).toBe(0);
    const p = r.stdout.trim().split(':').pop()!;
    // It had said "pane N has no terminal (its body is widgets)" and failed.
    const screen = sh(['screen', '-t', p]);
    expect(screen.status, screen.stderr).toBe(0);
    expect(screen.stdout).toMatch(/^table prompts: \d+ rows?$/m);
    expect(screen.stdout).toContain('ada\ttidy \\e]52;c;ZXZpbA==\\x07 the parser');
    expect(screen.stdout).not.toContain('\x1b');
    // The body file itself holds them escaped: `pane cat`, a FUSE cat and MCP read the same.
    const body = sh(['cat', `/${p}/body`]).stdout;
    expect(body).toContain('ada\ttidy \\e]52;c;ZXZpbA==\\x07 the parser');
    expect(body).not.toContain('\x1b');
  });

  it('a widget pane takes no body writes, and a guest runs no word on it that it may not run itself', () => {
    const w1 = sh(['write', `/${w}/body`, 'x']);
    expect(w1.status).not.toBe(0);
    expect(w1.stderr).toMatch(/a widget pane has no writable body/);
    const g = JSON.parse(sh(['grant', 'new', '--json']).stdout) as { token: string };
    const close = sh(['write', `/${w}/ctl`, 'close'], { PANE_GRANT: g.token });
    expect(close.status).not.toBe(0);
    expect(sh(['ls']).stdout).toMatch(new RegExp(`^ *${w} `, 'm'));
  });

  it('a widget bound to its own body or another widget\'s is answered at once, and the server keeps serving', () => {
    const apps = path.join(s.dir, '.config', 'pane', 'apps');
    const next = Math.max(...(JSON.parse(sh(['ls', '--json']).stdout) as { n: number }[]).map((p) => p.n)) + 1;
    fs.writeFileSync(path.join(apps, 'loop.json'), JSON.stringify({ name: 'Loop', signature: 'com.example.loop', kind: 'widget', widget: { type: 'column', children: [{ type: 'text', label: 'me', bind: { path: `/${next}/body` } }, { type: 'text', label: 'them', bind: { path: `/${w}/body` } }, { type: 'text', label: 'via a view', bind: { path: `/by-sig/com.example.loop/${next}/body` } }] } }));
    const r = sh(['new', '--app', 'loop']);
    expect(r.status, r.stderr).toBe(0);
    expect(Number(r.stdout.trim().split(':').pop())).toBe(next);
    const text = sh(['cat', `/${next}/body`]);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(`text me: [/${next}/body: a body is shown in the window, not read into a widget's text]`);
    expect(text.stdout).toContain(`text them: [/${w}/body: a body is shown in the window, not read into a widget's text]`);
    expect(text.stdout).toContain('text via a view: [/by-sig/com.example.loop/');
    expect(sh(['ls']).status).toBe(0);
  });

  it('a bad widget file is named by file and field; the good ones launch', () => {
    const r = sh(['new', '--app', 'bad']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/bad/);
    expect(sh(['cat', '/log']).stdout).toMatch(/^- refused app files: .*bad\.json: widget\.columns: .*$/m);
    expect(sh(['cat', '/log']).stdout).toMatch(/^- refused app files: .*bad\.json: widget\.bind\.path: a namespace path starts with "\/".*$/m);
    const apps = sh(['new', '--app', 'pane-log']);
    expect(apps.status, apps.stderr).toBe(0);
  });
});
