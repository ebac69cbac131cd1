// Each CLI reaches its model through its sandbox: an app file's agent.network (its model
// API, login and model list) is merged into the agent's network allowance at launch, and
// `.access` `sandbox.appNetwork: false` keeps an agent to its own list. Through a real
// `pane serve`, a bubblewrap-sandboxed agent shell, and the sandbox's own proxy: a host
// it may reach is tried (the proxy answers the CONNECT 502 here, with no outside
// network), one it may not is refused 403.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxUnavailable } from '../../server/agents/sandbox';
import { buildOnce, serve, until, type Served } from '../cli/harness';

const why = sandboxUnavailable(process.env.PATH);
let s: Served;

/** The proxy's answer to a CONNECT for each host, from inside agent pane `id`'s sandbox. */
async function connectCodes(id: string, hosts: string[]): Promise<Record<string, string>> {
  const mark = `DONE${Math.random().toString(16).slice(2, 8)}`;
  const r = s.pane(['send', '-t', id, `for h in ${hosts.join(' ')}; do curl -s -m 10 -o /dev/null -w "CODE $h=%{http_connect}\\n" https://$h/; done; echo ${mark}`]);
  expect(r.status, r.stderr).toBe(0);
  const screen = await until('the codes', () => {
    const sc = s.pane(['screen', '-t', id]).stdout;
    return new RegExp(`^${mark}`, 'm').test(sc) && sc;
  }, 60_000);
  return Object.fromEntries([...screen.matchAll(/^CODE (\S+)=(\d+)/gm)].map((m) => [m[1]!, m[2]!]));
}

describe.skipIf(why !== null)(`an app file's hosts in its agent's sandbox${why ? ` (skipped: ${why})` : ''}`, () => {
  beforeAll(async () => {
    buildOnce();
    s = await serve();
    const apps = path.join(s.dir, '.config', 'pane', 'apps');
    fs.mkdirSync(apps, { recursive: true });
    fs.writeFileSync(path.join(apps, 'netcli.json'), JSON.stringify({ name: 'Net CLI', kind: 'agent', signature: 'com.test.netcli', launch: { program: 'bash', args: ['--norc', '--noprofile'] }, agent: { network: ['models.opencode.ai'] } }));
    fs.mkdirSync(path.join(s.dir, 'proj'));
    // Dropped while the daemon runs: it is read within the config poll (POLL_MS); an agent launched with it proves it is there.
  }, 120_000);
  afterAll(async () => s?.stop());

  it('lets the CLI reach the hosts its app file names, and says so in pane access', async () => {
    expect(s.pane(['agent', 'add', 'oc', '--project', path.join(s.dir, 'proj')]).status).toBe(0);
    const run = await until('the app file read', () => {
      const r = s.pane(['agent', 'run', 'oc', '--app', 'netcli']);
      return r.status === 0 && r;
    }, 20_000);
    const id = run.stdout.trim().split(':').pop()!;
    const codes = await connectCodes(id, ['models.opencode.ai', 'api.githubcopilot.com']);
    expect(codes['models.opencode.ai']).toBe('502'); // allowed: the proxy tried (no network here)
    expect(codes['api.githubcopilot.com']).toBe('403'); // in no list: refused
    expect(s.pane(['access', 'oc']).stdout).toMatch(/its CLI's hosts \(app netcli, merged into network at launch\): models\.opencode\.ai/);
    s.pane(['close', '-t', id]);
  });

  it('keeps an agent whose .access says appNetwork: false to its own list', async () => {
    expect(s.pane(['agent', 'add', 'nn', '--project', path.join(s.dir, 'proj')]).status).toBe(0);
    const file = path.join(s.dir, '.local/share/pane/agents/nn/.access');
    const a = JSON.parse(fs.readFileSync(file, 'utf8'));
    a.sandbox = { ...(a.sandbox ?? {}), appNetwork: false };
    fs.writeFileSync(file, JSON.stringify(a));
    const run = s.pane(['agent', 'run', 'nn', '--app', 'netcli']);
    expect(run.status, run.stderr).toBe(0);
    const id = run.stdout.trim().split(':').pop()!;
    const codes = await connectCodes(id, ['models.opencode.ai']);
    expect(codes['models.opencode.ai']).toBe('403');
    expect(s.pane(['access', 'nn']).stdout).toMatch(/NOT merged \(\.access sandbox\.appNetwork is false\)/);
    s.pane(['close', '-t', id]);
  });

  it('ships the hosts of every agent CLI it has an app file for', () => {
    const dir = path.resolve(__dirname, '../../apps');
    for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.json'))) {
      const app = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
      if (app.kind !== 'agent' || f === 'demo-agent.json') continue;
      expect(app.agent?.network?.length ?? 0, f).toBeGreaterThan(0);
    }
    const hostsOf = (id: string) => JSON.parse(fs.readFileSync(path.join(dir, `${id}.json`), 'utf8')).agent.network as string[];
    expect(hostsOf('opencode')).toEqual(expect.arrayContaining(['models.dev', '*.opencode.ai']));
    expect(hostsOf('copilot')).toContain('api.githubcopilot.com');
    expect(hostsOf('qwen')).toContain('dashscope.aliyuncs.com');
    expect(hostsOf('gemini')).toContain('cloudcode-pa.googleapis.com');
  });
});
