// A stop asked over the window's WebSocket, as the palette's "stop the server" asks
// it: the asking connection stays open until the stop is done (every program ended,
// the sandbox helper waited for), as `pane stop` over the unix socket does, so what
// follows a stop never finds the old server's helper still running.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxUnavailable } from '../../server/agents/sandbox';
import { root } from '../e2e/shell';
import { exchangeLaunch, paneServe, type Served } from '../security/front';
import { until } from './helpers';

const why = sandboxUnavailable(process.env.PATH);
let s: Served | undefined;
afterEach(async () => {
  await s?.stop();
  s = undefined;
});

/** The pids of the children of `parent` whose command line holds `word`. */
function childrenWith(parent: number, word: string): number[] {
  return fs.readdirSync('/proc').flatMap((d) => {
    if (!/^\d+$/.test(d)) return [];
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return ppid === parent && fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(word) ? [Number(d)] : [];
    } catch {
      return [];
    }
  });
}

describe.skipIf(why !== null)(`a stop asked over the window's WebSocket${why ? ` (skipped: ${why})` : ''}`, () => {
  it('keeps the asking connection open until the sandbox helper has exited, then closes it', async () => {
    s = await paneServe();
    const served = s;
    const pane = (args: string[]) => spawnSync(process.execPath, [path.join(root, 'dist/pane.mjs'), '--socket', served.socket, ...args], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: served.dir }, encoding: 'utf8', timeout: 20_000 });
    expect(pane(['agent', 'add', 'ada']).status).toBe(0);
    const run = pane(['agent', 'run', 'ada', '--', 'sleep', '600']);
    expect(run.stderr).toBe('');
    const helper = await until('the sandbox helper', () => childrenWith(served.proc.pid!, 'sandboxd')[0]);

    const { cookie } = await exchangeLaunch(served.launchUrl);
    const origin = `http://127.0.0.1:${served.port}`;
    const ws = new WebSocket(`ws://127.0.0.1:${served.port}/ws`, { headers: { cookie: cookie!, origin } });
    const frames: { t: string; id?: number; ok?: boolean }[] = [];
    ws.on('message', (d) => frames.push(JSON.parse(String(d))));
    await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
    ws.send(JSON.stringify({ t: 'req', id: 1, method: 'hello', params: { protocol: 1, client: { name: 'stop test', kind: 'renderer' }, capabilities: ['read', 'write', 'admin'] } }));
    await until('the hello answered', () => frames.find((f) => f.id === 1));
    expect(frames.find((f) => f.id === 1)!.ok).toBe(true);

    const closed = new Promise<{ helperAlive: boolean }>((resolve) => ws.once('close', () => resolve({ helperAlive: fs.existsSync(`/proc/${helper}`) })));
    ws.send(JSON.stringify({ t: 'req', id: 2, method: 'server/stop', params: {} }));
    const at = await closed;
    expect(frames.find((f) => f.id === 2)?.ok).toBe(true);
    // Closed once the stop was done: the helper had already been waited for.
    expect(at.helperAlive).toBe(false);
    await until('the server exited', () => served.proc.exitCode !== null);
  }, 60_000);
});
