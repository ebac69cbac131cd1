// The link to another host is a door (issue 26): what the remote sends is untrusted.
// Against a real `pane serve` daemon with hosts/ files whose commands are not
// well-behaved pane daemons (test/hosts/fakeRemote.mjs): a remote that prints junk,
// one that floods frames nobody asked for, one that lies in its replies or its events,
// one that floods events it was asked for (kept, and bounded), one that speaks no pane at all: each is cut off and named with what to do, a bad host file
// is named by file and field, and the local panes go on answering throughout.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { BIN, buildOnce } from '../cli/harness';
import { binDirFor, eventually, startDaemon, type Daemon } from '../hosts/remote';
import { HEARTBEAT_MS } from '../../server/hosts/hostLink';
import { MAX_REMOTE_EVENTS } from '../../server/hosts/remoteEvents';
import { MAX_BORROWED_DOC, MAX_BORROWED_WORDS } from '../../server/hosts/standIns';

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
  local = await startDaemon('local', { state: true });
  hostsDir = path.join(local.home, '.config', 'pane', 'hosts');
  fs.mkdirSync(hostsDir, { recursive: true });
  hostFile('junk', { how: { via: 'command', argv: [process.execPath, FAKE, 'junk'] } });
  hostFile('flood', { how: { via: 'command', argv: [process.execPath, FAKE, 'flood'] } });
  hostFile('replies', { how: { via: 'command', argv: [process.execPath, FAKE, 'replies'] } });
  hostFile('liar', { how: { via: 'command', argv: [process.execPath, FAKE, 'liar'] } });
  hostFile('offsets', { how: { via: 'command', argv: [process.execPath, FAKE, 'offsets'] } });
  hostFile('chatty', { how: { via: 'command', argv: [process.execPath, FAKE, 'chatty'] } });
  hostFile('badevent', { how: { via: 'command', argv: [process.execPath, FAKE, 'badevent'] } });
  hostFile('escaper', { how: { via: 'command', argv: [process.execPath, FAKE, 'escaper'] } });
  hostFile('churner', { how: { via: 'command', argv: [process.execPath, FAKE, 'churner'] } });
  hostFile('hoard', { how: { via: 'command', argv: [process.execPath, FAKE, 'hoard'] } });
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

  it('keeps a remote that retitles its pane in a loop, taking at most MAX_REMOTE_EVENTS of its events a heartbeat and dropping the rest', async () => {
    const watch = spawn(BIN, ['watch', 'host'], { env: local.env, cwd: local.home, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    watch.stdout.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await new Promise((res) => setTimeout(res, 500)); // subscribed before the flood starts
      const t0 = Date.now();
      const r = local.pane(['host', 'connect', 'chatty']);
      expect(r.status, r.stderr).toBe(0);
      // 200,000 events, more than MAX_UNSOLICITED_FRAMES and MAX_REMOTE_EVENTS: the link stays up, and this server keeps serving.
      // The bound's message comes once the flood passes MAX_REMOTE_EVENTS in a heartbeat (later on a loaded machine: waited for, bounded).
      await eventually('the bound named in the log', () => /host chatty: sent more than \d+ pane events within a heartbeat \(MAX_REMOTE_EVENTS\)/.test(local.log), 15_000);
      await eventually('a taken event told here', () => out.includes('"id":"chatty:1"'), 10_000);
      localStillServes();
      expect(local.pane(['host', 'ls']).stdout).toMatch(/^chatty .*connected/m);
      const taken = out.split('\n').filter((l) => l.includes('"event":"host/pane"') && l.includes('"id":"chatty:1"'));
      // What was taken was told here, named chatty:1; no more than the bound allows in the heartbeats that went by.
      expect(taken.length, out.slice(0, 800)).toBeGreaterThan(0);
      expect(taken[0]).toMatch(/"name":"title \d+"/);
      expect(taken.length).toBeLessThanOrEqual(MAX_REMOTE_EVENTS * (Math.ceil((Date.now() - t0) / HEARTBEAT_MS) + 1));
    } finally {
      watch.kill('SIGKILL');
      local.pane(['host', 'disconnect', 'chatty']);
    }
  });

  it('shows a host’s words escaped everywhere, qualifies every id it returns, and bounds its events and words in bytes', async () => {
    // eslint-disable-next-line no-control-regex
    const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/;
    const connect = local.pane(['host', 'connect', 'escaper']);
    expect(connect.status, connect.stderr).toBe(0);
    expect(connect.stdout + connect.stderr).not.toMatch(CONTROL);
    expect(connect.stdout).toContain('\\e]52;c;');
    await eventually('escaper joined', () => /^escaper .*connected/m.test(local.pane(['host', 'ls']).stdout));
    for (const args of [['host', 'ls'], ['ls'], ['ls', '-a'], ['session', 'ls']]) {
      const r = local.pane(args);
      expect(r.stdout + r.stderr, args.join(' ')).not.toMatch(CONTROL);
    }
    expect(local.pane(['ls']).stdout).toMatch(/escaper:1/);
    // The host answers a split with the unqualified id "1": it is printed as its own, escaper:1, never as local pane 1.
    const split = local.pane(['split', '-t', 'escaper:1']);
    expect(split.stdout.trim(), split.stderr).toBe('escaper:1');
    // Tiled here, its 5,000 words are borrowed at most MAX_BORROWED_WORDS, each cut to size.
    const show = local.pane(['host', 'show', 'escaper:1']);
    expect(show.status, show.stderr).toBe(0);
    const stand = Number(show.stdout.trim());
    const words = local.pane(['cat', `/${stand}/commands`]).stdout.split('\n').filter((l) => l.includes('(on escaper)'));
    expect(words.length).toBe(MAX_BORROWED_WORDS);
    expect(Math.max(...words.map((w) => w.length))).toBeLessThan(MAX_BORROWED_DOC + 40);
    expect(words.join('\n').replace(/\t/g, ' ')).not.toMatch(CONTROL);
    // Its 512 KiB events were dropped for their size and said once; the log and /pane/log carry no escape and no forged line.
    await eventually('the big events dropped and said', () => /over MAX_REMOTE_EVENT_BYTES/.test(local.log));
    const daemonLog = local.log;
    expect(daemonLog).not.toMatch(/\x1b|\x07|\u009b/);
    expect(daemonLog.split('\n').filter((l) => l.startsWith('FORGED'))).toEqual([]);
    const paneLog = local.pane(['cat', '/log']).stdout;
    expect(paneLog.replace(/\t/g, ' ')).not.toMatch(CONTROL);
    expect(paneLog.split('\n').filter((l) => l.startsWith('FORGED'))).toEqual([]);
    localStillServes();
    local.pane(['close', '-t', String(stand)]);
    local.pane(['host', 'disconnect', 'escaper']);
  });

  it('writes nothing to the state directory while a tiled remote pane churns its vocabulary (borrowed words are never journaled)', async () => {
    expect(local.pane(['host', 'connect', 'churner']).status).toBe(0);
    await eventually('churner joined', () => /^churner .*connected/m.test(local.pane(['host', 'ls']).stdout));
    const show = local.pane(['host', 'show', 'churner:1']);
    expect(show.status, show.stderr).toBe(0);
    const stand = Number(show.stdout.trim());
    const state = path.join(local.home, '.state', 'pane');
    const size = () => fs.readdirSync(state).filter((f) => f.startsWith('journal-')).reduce((n, f) => n + fs.statSync(path.join(state, f)).size, 0);
    // Borrowed: the stand-in's words follow the host's.
    await eventually('the words borrowed', () => /word 1 of turn/.test(local.pane(['cat', `/${stand}/commands`]).stdout));
    await new Promise((r) => setTimeout(r, 600));
    const before = size();
    const turnBefore = /word 1 of turn (\d+)/.exec(local.pane(['cat', `/${stand}/commands`]).stdout)![1];
    await new Promise((r) => setTimeout(r, 3_000));
    const turnAfter = /word 1 of turn (\d+)/.exec(local.pane(['cat', `/${stand}/commands`]).stdout)![1];
    expect(Number(turnAfter)).toBeGreaterThan(Number(turnBefore));
    // 12 changes of a 200-word vocabulary went by: each was ~40 KiB as a whole-pane record before.
    expect(size() - before).toBeLessThan(4096);
    local.pane(['close', '-t', String(stand)]);
    local.pane(['host', 'disconnect', 'churner']);
    // The person leaving a host is no refusal: /pane/log does not file it as one, and the daemon says "left".
    await eventually('the leave said', () => /host churner: left: left by the person/.test(local.log));
    expect(local.pane(['cat', '/log']).stdout).not.toMatch(/refused host churner: .*left by the person/);
  });

  it('cuts off a remote whose pane event fails its schema, naming the event', async () => {
    local.pane(['host', 'connect', 'badevent']);
    let ls = '';
    for (let i = 0; i < 50 && !/^badevent .*disconnected/m.test(ls); i++) {
      await new Promise((res) => setTimeout(res, 100));
      ls = local.pane(['host', 'ls']).stdout;
    }
    expect(ls).toMatch(/^badevent .*disconnected/m);
    expect(ls).toMatch(/pane\/changed event does not read/);
    expect(local.pane(['ls']).stdout).not.toMatch(/badevent:|evil:/);
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
      // The follower is a process of its own: what it was sent before the cut reaches its stdout a moment later.
      await eventually('the follower to print what came before the cut', () => out.includes('LIE-AAAA'), 10_000);
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
  it('names every bound of server/hosts/hostLink.ts, remoteStream.ts, hostService.ts, remoteAgents.ts, remoteAwareness.ts and remoteEvents.ts in docs/security.md', async () => {
    const doc = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../docs/security.md'), 'utf8');
    const m = { ...(await import('../../server/hosts/hostLink')), ...(await import('../../server/hosts/remoteStream')), ...(await import('../../server/hosts/hostService')), ...(await import('../../server/hosts/remoteAgents')), ...(await import('../../server/hosts/remoteAwareness')), ...(await import('../../server/hosts/remoteEvents')) };
    const named = Object.entries(m).filter(([k, v]) => /^[A-Z][A-Z0-9_]+$/.test(k) && typeof v === 'number').map(([k]) => k);
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((k) => !doc.includes(`\`${k}\``))).toEqual([]);
  });

  it('refuses to attach a host session past MAX_VIEW_TILES, making no session and no stand-in here', async () => {
    expect(local.pane(['host', 'connect', 'hoard']).status).toBe(0);
    await eventually('hoard joined', () => /^hoard .*connected/m.test(local.pane(['host', 'ls']).stdout));
    const before = local.pane(['ls', '--json']).stdout;
    const r = local.pane(['session', 'attach', 'hoard:work']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/hoard:work has 1000 panes, more than a view holds \(MAX_VIEW_TILES, 64\)/);
    // The host's own session is listed (as hoard:work, with its host); no local view of it was made.
    const rows = JSON.parse(local.pane(['session', 'ls', '--json']).stdout) as { name: string; host?: string }[];
    expect(rows.filter((x) => x.host === undefined).map((x) => x.name)).not.toContain('hoard:work');
    expect(JSON.parse(local.pane(['ls', '--json']).stdout).filter((p: { kind: string }) => p.kind === 'remote').length).toBe(JSON.parse(before).filter((p: { kind: string }) => p.kind === 'remote').length);
    expect(local.pane(['host', 'disconnect', 'hoard']).status).toBe(0);
    localStillServes();
  });
});
