// `pane attach -t box:SESSION` (its focused pane, box:N) through a real OpenSSH host link: a pane of the joined host
// drawn in this terminal, typed into, and its end (on the host) ending the attach.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachIn, shows } from '../cli/attachHarness';
import { buildOnce } from '../cli/harness';
import { joinedOverSsh, type Daemon, type SshJoined } from './remote';

let remote: Daemon;
let local: Daemon;
let pair: SshJoined | undefined;

beforeAll(async () => {
  buildOnce();
  pair = await joinedOverSsh({ remote: 'atremote', local: 'atlocal' });
  ({ remote, local } = pair);
}, 120_000);

afterAll(async () => {
  await pair?.stop();
});

describe('pane attach to a joined host’s pane', () => {
  it('draws it, types into it over ssh, and ends when its program ends there', async () => {
    const r = remote.pane(['session', 'new', 'far', '--', 'bash', '--norc', '--noprofile']);
    expect(r.status, r.stderr).toBe(0);
    const n = String(JSON.parse(remote.pane(['session', 'ls', '--json']).stdout).find((x: { name: string }) => x.name === 'far').focused);
    // Named as tmux users name it, by its session there: the session's focused pane.
    const a = attachIn(['attach', '-t', 'box:far'], local.env, 180, 52);
    await shows(a, 'the status row naming box', new RegExp(`^ pane box:${n} · .* · Ctrl\\+\\\\ detaches`, 'm'));
    await shows(a, 'the remote prompt', /[$#] $/m);
    a.type('echo far-$((6*7))\r');
    await shows(a, 'the line run on the host', /^far-42$/m);
    expect(remote.pane(['output', '-t', n]).stdout).toContain('far-42');
    a.type('exit 4\r');
    expect(await a.exit).toBe(0);
    expect(a.raw()).toMatch(/pane: \[bash exited 4 at [0-9:]+\]/);
  });
});
