// Loss through a proxy the test pauses (issue 26 item 4): a `command` host whose argv
// runs the remote's `pane serve --stdio` behind a small relay process (relay.mjs here)
// between the local daemon and the remote one. SIGSTOP of the relay freezes the link
// both ways as a dead network does: the heartbeat marks the host stale, and after
// SIGCONT the stream goes on where it was, every line of a counted sequence once and
// in order. Input while the link is down (the relay refusing to start) waits in the
// host's queue up to REMOTE_INPUT_QUEUE, is refused by name past it (the sender and
// /pane/log hear it), and what was queued reaches the remote pane in order.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../kits/client/index';
import { connectUnix } from '../../kits/node/socketTransport';
import { STALE_AFTER_MS } from '../../server/hosts/hostLink';
import { REMOTE_INPUT_QUEUE } from '../../server/hosts/hostService';
import { buildOnce } from '../cli/harness';
import { follower, numbered } from './pair';
import { binDirFor, eventually, startDaemon, type Daemon } from './remote';

/** Pipes stdin to its command and the command's stdout back; exits at once while the gate file exists (a host that cannot be reached). */
const RELAY = `import { spawn } from 'node:child_process';
import fs from 'node:fs';
const [gate, cmd, ...args] = process.argv.slice(2);
if (fs.existsSync(gate)) { process.stderr.write('relay: gate closed\\n'); process.exit(1); }
const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
process.stdin.on('end', () => child.stdin.end());
child.on('exit', (c) => process.exit(c ?? 1));
`;

let remote: Daemon;
let local: Daemon;
let relay: string;
let gate: string;

beforeAll(async () => {
  buildOnce();
  remote = await startDaemon('remote');
  local = await startDaemon('local');
  relay = path.join(local.home, 'relay.mjs');
  gate = path.join(local.home, 'gate-closed');
  fs.writeFileSync(relay, RELAY);
  const add = local.pane(['host', 'add', 'px', '--', process.execPath, relay, gate, path.join(binDirFor(remote), 'pane'), 'serve', '--stdio']);
  expect(add.status, add.stderr).toBe(0);
  const c = local.pane(['host', 'connect', 'px']);
  expect(c.status, c.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  for (const pid of relays()) process.kill(pid, 'SIGCONT');
  local?.pane(['host', 'disconnect', 'px']);
  await local?.stop();
  await remote?.stop();
});

/** The relay processes the local daemon started (by PID: this test's own). */
function relays(): number[] {
  if (!local?.proc.pid) return [];
  return spawnSync('pgrep', ['-P', String(local.proc.pid), '-f', 'relay\\.mjs'], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean).map(Number);
}

/** px's state as `pane host ls` prints it (the how column holds spaces, the state is the first of the states on its line). */
function hostState(): string {
  const line = /^px\s.*$/m.exec(local.pane(['host', 'ls']).stdout)?.[0] ?? '';
  return /\b(connected|stale|connecting|disconnected)\b/.exec(line)?.[1] ?? line;
}

describe('a host link through a relay the test pauses', () => {
  it('goes stale while the relay is stopped and resumes the stream after, every line once and in order', async () => {
    const count = 2000;
    // ~16 s in all: it runs on across the pause.
    const script = `i=0; while [ $i -lt ${count} ]; do i=$((i+1)); echo N$i; case $i in *0) sleep 0.08;; esac; done; echo SEQ-DONE; exec cat`;
    const r = remote.pane(['new', '--', 'sh', '-c', script]);
    expect(r.status, r.stderr).toBe(0);
    const n = r.stdout.trim();
    const f = follower(local, `px:${n}`);
    try {
      await eventually('the follower to see N100', () => /\bN1\d\d\b/.test(f.out()), 20_000);
      const stopped = relays();
      expect(stopped.length).toBe(1);
      for (const pid of stopped) process.kill(pid, 'SIGSTOP');
      // What the relay had passed on before it stopped is still on its way (socket buffers,
      // the daemon, the follower): let it land (1 s with nothing new, at most 8 s), then nothing more may come.
      let last = -1;
      for (let i = 0; i < 8 && f.out().length !== last; i++) {
        last = f.out().length;
        await new Promise((res) => setTimeout(res, 1000));
      }
      const heldAt = f.out().length;
      await eventually('the host shown stale', () => hostState() === 'stale', STALE_AFTER_MS + 8000);
      expect(f.out().length).toBe(heldAt); // nothing came while the relay was stopped
      for (const pid of stopped) process.kill(pid, 'SIGCONT');
      await eventually('the host connected again', () => hostState() === 'connected', 10_000);
      expect(relays()).toEqual(stopped); // the same link went on: no redial
      await eventually('the sequence to end at the follower', () => f.out().includes('SEQ-DONE'), 40_000);
      expect(heldAt).toBeLessThan(f.out().indexOf('SEQ-DONE'));
      const got = numbered(f.out());
      expect(got.length).toBe(count);
      expect(got.every((v, i) => v === i + 1)).toBe(true);
      expect(f.out()).not.toContain('[stderr]');
    } finally {
      f.proc.kill('SIGKILL');
    }
  }, 90_000);

  it('queues input while the link is down up to REMOTE_INPUT_QUEUE, refuses more by name, and delivers the queue in order', async () => {
    const out = path.join(remote.home, 'typed.txt');
    const r = remote.pane(['new', '--', 'sh', '-c', `stty raw -echo; exec cat > ${out}`]);
    expect(r.status, r.stderr).toBe(0);
    const n = r.stdout.trim();
    await eventually('the cat pane ready', () => fs.existsSync(out), 10_000);
    const c = new Connection(await connectUnix(local.socket));
    try {
      await c.hello({ client: { name: 'typist', kind: 'other' }, capabilities: ['read', 'write', 'attach'] });
      // The link goes down and stays down: the relay is killed, and refuses to start again while the gate file is there.
      fs.writeFileSync(gate, '');
      for (const pid of relays()) process.kill(pid, 'SIGKILL');
      await eventually('the host down', () => hostState() === 'disconnected' || hostState() === 'connecting', 10_000);
      const piece = REMOTE_INPUT_QUEUE / 4 - 1024;
      const parts = ['A', 'B', 'C', 'D'].map((ch) => ch.repeat(piece));
      const sent = parts.map((data) => c.call('pane/input', { pane: `px:${n}`, data }));
      // The queue holds 4 × piece; one more piece does not fit, and is refused now, by name.
      await expect(c.call('pane/input', { pane: `px:${n}`, data: 'E'.repeat(piece) })).rejects.toThrow(/refused: \d+ bytes already wait for host px's link .*REMOTE_INPUT_QUEUE allows 65536; wait for pane host ls to show it connected/);
      expect(local.pane(['cat', '/log']).stdout).toMatch(/refused host px's input queue: input to px:\d+ refused: .*REMOTE_INPUT_QUEUE/);
      fs.rmSync(gate);
      await Promise.all(sent);
      await eventually('the queued input typed into the remote pane', () => fs.statSync(out).size >= 4 * piece, 20_000);
      expect(fs.readFileSync(out, 'utf8')).toBe(parts.join(''));
    } finally {
      c.close();
      fs.rmSync(gate, { force: true });
    }
  }, 120_000);
});
