// The link to another host is a door (issue 26): what the remote sends is untrusted.
// Against a real `pane serve` daemon with hosts/ files whose commands are not
// well-behaved pane daemons (test/hosts/fakeRemote.mjs): a remote that prints junk,
// one that floods frames nobody asked for, one that lies in its replies, one that
// speaks no pane at all: each is cut off and named with what to do, a bad host file
// is named by file and field, and the local panes go on answering throughout.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { BIN, buildOnce } from '../cli/harness';
import { binDirFor, eventually, startDaemon, type Daemon } from '../hosts/remote';

const FAKE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../hosts/fakeRemote.mjs');
let local: Daemon;
/** A well-behaved host, joined throughout: the bad ones must not disturb it. */
let good: Daemon;
let hostsDir: string;

function hostFile(name: string, body: unknown): void {
  fs.writeFileSync(path.join(hostsDir, `${name}.json`), typeof body === 'string' ? body : JSON.stringify(body));
}

/** A local pane still answers, and so does the good host's. */
function localStillServes(): void {
  const r = local.pane(['screen', '-t', '1']);
  expect(r.status, r.stderr).toBe(0);
  const g = local.pane(['screen', '-t', 'good:1']);
  expect(g.status, g.stderr).toBe(0);
}

beforeAll(async () => {
  buildOnce();
  local = await startDaemon('local');
  hostsDir = path.join(local.home, '.config', 'pane', 'hosts');
  fs.mkdirSync(hostsDir, { recursive: true });
  hostFile('junk', { how: { via: 'command', argv: [process.execPath, FAKE, 'junk'] } });
  hostFile('flood', { how: { via: 'command', argv: [process.execPath, FAKE, 'flood'] } });
  hostFile('replies', { how: { via: 'command', argv: [process.execPath, FAKE, 'replies'] } });
  hostFile('liar', { how: { via: 'command', argv: [process.execPath, FAKE, 'liar'] } });
  hostFile('offsets', { how: { via: 'command', argv: [process.execPath, FAKE, 'offsets'] } });
  hostFile('echo', { how: { via: 'command', argv: ['echo', 'hello'] } });
  hostFile('broken', { how: { via: 'ssh', destination: '-oProxyCommand=touch /tmp/pwned' } });
  hostFile('mute', { how: { via: 'command', argv: ['cat'] } });
  good = await startDaemon('good');
  hostFile('good', { how: { via: 'command', argv: ['sh', '-c', `exec ${binDirFor(good)}/pane serve --stdio`] } });
}, 120_000);

afterAll(async () => {
  await local?.stop();
  await good?.stop();
});

describe('hosts that are not pane', () => {
  it('names a bad host file by file and field and lists the others', async () => {
    // The server polls the folder (POLL_MS); give it a moment to see the files.
    let r = local.pane(['host', 'ls']);
    for (let i = 0; i < 40 && !r.stdout.includes('liar'); i++) {
      await new Promise((res) => setTimeout(res, 100));
      r = local.pane(['host', 'ls']);
    }
    expect(r.status, r.stderr).toBe(0);
    for (const n of ['junk', 'flood', 'liar', 'echo']) expect(r.stdout).toContain(n);
    expect(r.stdout).not.toMatch(/^broken/m);
    expect(r.stderr).toContain(`${path.join(hostsDir, 'broken.json')}: how.destination:`);
  });

  it('joins a well-behaved host first, which stays joined through all that follows', () => {
    const r = local.pane(['host', 'connect', 'good']);
    expect(r.status, r.stderr).toBe(0);
    localStillServes();
  });

  it('cuts off a remote that sends junk after its preamble, and says what to check', () => {
    const r = local.pane(['host', 'connect', 'junk']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/host junk is not joined: .*(bad framing|closed)/);
    localStillServes();
  });

  it('cuts off a remote that floods frames it was not asked for (MAX_UNSOLICITED_FRAMES)', () => {
    const r = local.pane(['host', 'connect', 'flood']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/MAX_UNSOLICITED_FRAMES/);
    localStillServes();
    const ls = local.pane(['host', 'ls']);
    expect(ls.stdout).toMatch(/^flood .*disconnected/m);
  });

  it('cuts off a remote that floods replies to requests never made (MAX_UNSOLICITED_FRAMES)', () => {
    const r = local.pane(['host', 'connect', 'replies']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/MAX_UNSOLICITED_FRAMES/);
    localStillServes();
  });

  it('cuts off a remote whose replies fail their schema', () => {
    const r = local.pane(['host', 'connect', 'liar']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/malformed pane\/list/);
    // It never got to name a pane here.
    expect(local.pane(['ls']).stdout).not.toMatch(/liar:|evil:/);
    localStillServes();
  });

  it('cuts off a remote whose stream offsets go backward (remoteStream.ts), and the follower got no byte twice', async () => {
    expect(local.pane(['host', 'connect', 'offsets']).status).toBe(0);
    const f = spawn(BIN, ['output', '--follow', '-t', 'offsets:1'], { env: local.env, cwd: local.home, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    f.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    try {
      await eventually('the link to be cut off', () => /^offsets\s.*disconnected/m.test(local.pane(['host', 'ls']).stdout), 15_000);
      expect(local.pane(['host', 'ls', '--json']).stdout).toMatch(/offsets only go forward/);
      expect(out).toContain('LIE-AAAA');
      expect(out).not.toContain('LIE-BACKWARD');
      localStillServes();
    } finally {
      f.kill('SIGKILL');
    }
  }, 30_000);

  it('names a remote that speaks no pane and says what to do', () => {
    const r = local.pane(['host', 'connect', 'echo']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/ended before the pane preamble/);
    expect(r.stderr).toMatch(/hello/);
    expect(r.stderr).toMatch(/pane serve --stdio/);
  });

  it('names a remote that prints nothing at all (cat) once the preamble is overdue', () => {
    const r = local.pane(['host', 'connect', 'mute']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/gave no pane preamble within .*pane serve --stdio/);
    localStillServes();
    expect(local.pane(['host', 'ls']).stdout).toMatch(/^good\s.*connected/m);
  }, 30_000);

  it('refuses HOST:N of a host that is not joined, naming it', () => {
    const r = local.pane(['screen', '-t', 'echo:1']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/host echo is disconnected.*pane host connect echo/);
  });

  it('writes each cut-off to /pane/log', () => {
    const r = local.pane(['cat', '/log']);
    expect(r.stdout).toMatch(/refused host flood: .*MAX_UNSOLICITED_FRAMES/);
    expect(r.stdout).toMatch(/refused host files: .*broken\.json/);
  });
});

describe('the bounds of a link', () => {
  it('names every bound of server/hosts/hostLink.ts, remoteStream.ts, hostService.ts, remoteAgents.ts and remoteAwareness.ts in docs/security.md', async () => {
    const doc = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../docs/security.md'), 'utf8');
    const m = { ...(await import('../../server/hosts/hostLink')), ...(await import('../../server/hosts/remoteStream')), ...(await import('../../server/hosts/hostService')), ...(await import('../../server/hosts/remoteAgents')), ...(await import('../../server/hosts/remoteAwareness')) };
    const named = Object.entries(m).filter(([k, v]) => /^[A-Z][A-Z0-9_]+$/.test(k) && typeof v === 'number').map(([k]) => k);
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((k) => !doc.includes(`\`${k}\``))).toEqual([]);
  });
});
