// The hosts bench through a real OpenSSH host (issue 26): sshd on 127.0.0.1 with its
// own keys (bench/sshd.ts), the remote daemon's `pane` on its PATH, joined by the local
// daemon as `sbox`. Each figure has its anchor measured in the same run through the
// same sshd with ssh's own connection reuse: keystroke echo of a remote pane vs
// `ssh host cat`, a remote pane printing a file vs `ssh host cat FILE` to a pipe,
// resume after the link's ssh is killed (nothing lost or doubled), and `pane ls`.
import { spawn, spawnSync } from 'node:child_process';
import pty from '@lydell/node-pty';
import fs from 'node:fs';
import path from 'node:path';
import type { Connection } from '../kits/client/connection';
import { cPtyRelay, ptyRelay } from './nodeFloor';
import { have, logTail, paneBin, sleep, timeCommand, type ServerProc } from './procs';
import { paneWrapperDir, startSshd, type Sshd } from './sshd';
import { summarize, type Summary } from './stats';

export interface SshHostResult {
  /** Keystroke to its echo of a remote pane (`stty raw; cat`) reached as sbox:N, at the local client (µs). */
  echo: Summary;
  /** The same keystroke echoed by `ssh host cat` (µs). */
  sshEcho: Summary;
  /** The same pane typed into and read on the remote daemon directly (µs): what the link and ssh add. */
  directEcho: Summary;
  /** The same program in a PTY behind a Node process that only relays it to one socket client (bench/nodeFloor.ts): any Node daemon's floor here (µs). */
  relayEcho: Summary;
  /** The same relay written in C (bench/c/ptyRelay.c): what the Node relay's one hop would cost without Node (µs); why not, where it could not be built. */
  cRelayEcho: Summary | string;
  /** The same keystroke echoed by `ssh -tt host 'stty raw -echo; exec cat'` (µs): ssh with a PTY on the far side, as a pane has. */
  sshTtyEcho: Summary;
  /** The same keystroke echoed by the same cat in a tmux session there, reached by `ssh -tt host tmux …` (µs): a multiplexer whose panes outlive the connection, as pane's do. Null without tmux. */
  tmuxEcho: Summary | null;
  /** The same remote pane's echo through `ssh -tt host pane attach -t N` (the host's own CLI drawing it in the ssh session's terminal; µs). */
  attachEcho: Summary;
  /** Echo through an ssh host whose connection crosses LINK_DELAY_MS each way (a delay proxy as ProxyCommand), and `ssh host cat` over the same (µs). */
  farEcho: Summary;
  farSshEcho: Summary;
  /** MB/s of the remote pane printing the file through that delayed ssh host, and of `ssh -tt host cat FILE` over the same. */
  farMBs: Summary;
  farSshTtyMBs: Summary;
  /** The first file through that link, just joined (not in farMBs), and the anchor's first over its own new connection. */
  farFirstMBs: number;
  farSshTtyFirstMBs: number;
  /** MB/s of a remote pane printing a file, streamed through the ssh host. */
  mbs: Summary;
  /** MB/s of `ssh host cat FILE` into a pipe. */
  sshMBs: Summary;
  /** MB/s of `ssh -tt host cat FILE` into a pipe: the file through a PTY on the far side, as a pane's output always is. */
  sshTtyMBs: Summary;
  /** MB/s of the same pane program attached on the remote daemon directly (its PTY's own pace, no link). */
  directMBs: Summary;
  /** MB/s of `cat FILE` in a PTY read by node-pty alone in this process: the kernel's PTY pace here, the ceiling of any pane. */
  ptyMBs: Summary;
  /** ms from SIGKILL of the link's ssh to the stream's next bytes at the client. */
  resume: Summary;
  /** Lines of the counted sequence missing / repeated at the client across the kills, and offset jumps. */
  lost: number;
  doubled: number;
  jumps: number;
  /** `pane ls` on the local daemon with the remote's panes through the ssh host (ms), and how many it lists. */
  ls: Summary;
  lsDirect: Summary;
  remotePanes: number;
}

export interface SshBenchCtx {
  dir: string;
  remote: ServerProc;
  /** Client of the remote daemon and of the local one. */
  r: Connection;
  l: Connection;
  lsock: string;
  /** The local daemon's home (its config dir holds hosts/) and pid. */
  ldir: string;
  localPid: number;
  /** The file printed for the throughput figures, and its size. */
  file: string;
  bytes: number;
  runs: number;
  /** `pane ls` asked of the remote directly (ms), measured already. */
  lsRemote: number[];
  /** The local daemon's log so far (its stderr's tail), said beside a stream that stopped short. */
  log?: () => string;
}

/** Keystrokes timed for each echo figure (after ECHO_WARMUP untimed). */
const ECHOES = 200;
const ECHO_WARMUP = 10;
/**
 * Quiet before each keystroke, at least this (up to twice it): typing, not a burst.
 * The pane server sends the first output after BATCH_MS (5 ms) of quiet at once and
 * batches the rest, so keystrokes sent back to back would each wait out the batch.
 */
const KEY_GAP_MS = 10;
/** Longest one echo, one file or one resume may take before the bench gives up on it. */
const WAIT_MS = 30_000;
/** Lines of the local daemon's log said with a stream that stopped short: its link's last cut-off and reconnect. */
const SHORT_STREAM_LOG_LINES = 5;
/**
 * One way's delay of the emulated wide-area link (a user-space proxy as ssh's
 * ProxyCommand; this machine's kernel has no netem): 10 ms, a 20 ms round trip,
 * about a machine in the same region's cloud. On loopback the anchor's echo is
 * ~0.4 ms, so any fixed hop dominates the ratio; over a real link it does not.
 */
export const LINK_DELAY_MS = 10;
/** Keystrokes timed over the delayed link (each round ~4 × LINK_DELAY_MS). */
const FAR_ECHOES = 60;

/** A silence in the counted sequence this long after the kill is the outage; the frame after it is the resume. */
const OUTAGE_GAP_MS = 100;
/** The counted sequence's pace: one line per this many seconds. */
const SEQ_PACE_S = 0.02;

export async function sshRows(c: SshBenchCtx): Promise<SshHostResult | { skipped: string }> {
  if (!fs.existsSync('/usr/sbin/sshd')) return { skipped: 'no /usr/sbin/sshd (apt-get install openssh-server)' };
  if (!have('ssh', ['-V'])) return { skipped: 'no ssh client (apt-get install openssh-client)' };
  const rhome = path.dirname(c.remote.socket);
  const bin = paneWrapperDir(path.join(c.dir, 'remote-bin'), { HOME: rhome, PANE_SOCKET: c.remote.socket }, paneBin);
  let sshd: Sshd | undefined;
  // The anchor's own master connection, as the link has its own (ControlPersist keeps it).
  const anchorCtl = path.join(c.dir, 'anchor-%C');
  let anchor: (cmd: string[]) => string[] = () => [];
  try {
    sshd = await startSshd(bin);
    const s = sshd;
    anchor = (cmd) => ['-T', '-e', 'none', '-o', 'BatchMode=yes', '-o', 'ControlMaster=auto', '-o', `ControlPath=${anchorCtl}`, '-o', 'ControlPersist=60', '-F', s.clientConfig, '-p', String(s.port), '--', 'root@127.0.0.1', ...cmd];
    const warm = spawnSync('ssh', anchor(['true']), { encoding: 'utf8', timeout: WAIT_MS });
    if (warm.status !== 0) return { skipped: `ssh to the bench's sshd failed: ${warm.stderr.trim().slice(0, 120)}` };
    fs.writeFileSync(path.join(c.ldir, '.config', 'pane', 'hosts', 'sbox.json'), JSON.stringify({ how: { via: 'ssh', destination: 'root@127.0.0.1', port: sshd.port, configFile: sshd.clientConfig } }));
    const joined = await c.l.call('host/connect', { name: 'sbox' });
    if (joined.state !== 'connected') return { skipped: `the ssh host did not join: ${joined.error}` };

    // `pane ls` first, while the remote holds its 100 panes only.
    const lsRuns: number[] = [];
    for (let i = 0; i < 2; i++) timeCommand(process.execPath, [paneBin, '--socket', c.lsock, 'ls']);
    for (let i = 0; i < Math.max(5, c.runs * 3); i++) lsRuns.push(timeCommand(process.execPath, [paneBin, '--socket', c.lsock, 'ls']));
    const remotePanes = (await c.l.call('host/list', { panes: true })).panes?.filter((p) => p.host === 'sbox').length ?? 0;

    const { echo, sshEcho, directEcho, relayEcho, cRelayEcho, sshTtyEcho, tmuxEcho, attachEcho } = await echoes(c, anchor);
    const { farEcho, farSshEcho, farMBs, farSshTtyMBs, farFirstMBs, farSshTtyFirstMBs } = await farEchoes(c, s);
    const { mbs, sshMBs, sshTtyMBs, directMBs, ptyMBs } = await throughputs(c, anchor);
    const resume = await resumes(c, s);
    return { echo, sshEcho, directEcho, relayEcho, cRelayEcho, sshTtyEcho, tmuxEcho, attachEcho, farEcho, farSshEcho, farMBs, farSshTtyMBs, farFirstMBs, farSshTtyFirstMBs, mbs, sshMBs, sshTtyMBs, directMBs, ptyMBs, ...resume, ls: summarize(lsRuns), lsDirect: summarize(c.lsRemote), remotePanes };
  } finally {
    await c.l.call('host/disconnect', { name: 'sbox' }).catch(() => undefined);
    if (sshd) spawnSync('ssh', ['-o', `ControlPath=${anchorCtl}`, '-F', sshd.clientConfig, '-p', String(sshd.port), '-O', 'exit', 'root@127.0.0.1'], { stdio: 'ignore', timeout: 5000 });
    await sshd?.stop();
  }
}

/** What a stream figure needs: the remote daemon's client, and the file its pane prints. */
export type StreamCtx = Pick<SshBenchCtx, 'r' | 'file' | 'bytes' | 'log'>;

/** A remote pane running `program` on the remote daemon, split from its first pane. */
async function remotePane(c: StreamCtx, script: string): Promise<number> {
  const first = (await c.r.call('pane/list', {})).panes[0]!.n;
  return (await c.r.call('pane/split', { pane: first, launch: { program: '/bin/sh', args: ['-c', script] } })).pane;
}

/** One keystroke from `send` to its byte coming back (seen by `waiter`), in µs. */
async function echoRound(send: (b: Uint8Array) => void, waiter: { want: number; done: (() => void) | null }, what = 'a key', why: () => string = () => ''): Promise<number> {
  const ch = 0x61 + Math.floor(Math.random() * 26);
  await sleep(KEY_GAP_MS * (1 + Math.random()));
  waiter.want = ch;
  const got = new Promise<void>((res, rej) => {
    waiter.done = res;
    setTimeout(() => rej(new Error(`an echo did not come back: ${what}${why()}`)), WAIT_MS).unref();
  });
  const t = process.hrtime.bigint();
  send(Uint8Array.of(ch));
  await got;
  return Number(process.hrtime.bigint() - t) / 1000;
}

/** Sends a key until it comes back once (a far side still starting), bounded by WAIT_MS. */
async function untilEchoed(send: (b: Uint8Array) => void, waiter: { want: number; done: (() => void) | null }): Promise<void> {
  const until = Date.now() + WAIT_MS;
  while (Date.now() < until) {
    // A round that loses the race is not waited for; its own timeout, if its key never comes back, is caught here rather than thrown at nobody.
    const ok = await Promise.race([echoRound(send, waiter).then(() => true, () => false), sleep(500).then(() => false)]);
    if (ok) return;
  }
  throw new Error('the far side never echoed a key');
}

function waiterOf(): { want: number; done: (() => void) | null; see(data: Uint8Array): void } {
  const w = {
    want: -1,
    done: null as (() => void) | null,
    see(data: Uint8Array) {
      if (w.done && data.includes(w.want)) {
        const d = w.done;
        w.done = null;
        d();
      }
    },
  };
  return w;
}

async function echoes(c: SshBenchCtx, anchor: (cmd: string[]) => string[]): Promise<{ echo: Summary; sshEcho: Summary; directEcho: Summary; relayEcho: Summary; cRelayEcho: Summary | string; sshTtyEcho: Summary; tmuxEcho: Summary | null; attachEcho: Summary }> {
  // Raw and no tty echo: the byte comes back from cat, as `ssh host cat`'s does.
  const n = await remotePane(c, 'stty raw -echo; exec cat');
  await sleep(300);
  const a = await c.l.call('pty/attach', { pane: `sbox:${n}`, mode: 'from', flowControl: true });
  const pw = waiterOf();
  const off = c.l.onOutput((p, _o, data) => p === a.pane && pw.see(data));
  await c.r.call('pty/attach', { pane: n, mode: 'from', flowControl: true });
  const dw = waiterOf();
  const offDirect = c.r.onOutput((p, _o, data) => p === n && dw.see(data));
  const ssh = spawn('ssh', anchor(['cat']), { stdio: ['pipe', 'pipe', 'ignore'] });
  ssh.stdin.setDefaultEncoding('binary');
  const sw = waiterOf();
  ssh.stdout.on('data', (d: Buffer) => sw.see(d));
  // ssh with a PTY on the far side in raw mode, so cat echoes as the pane's does: what a PTY and sshd's reading of it add.
  const tty = spawn('ssh', anchor(['stty raw -echo; exec cat']).map((x) => (x === '-T' ? '-tt' : x)), { stdio: ['pipe', 'pipe', 'ignore'] });
  const tw = waiterOf();
  tty.stdout.on('data', (d: Buffer) => tw.see(d));
  // tmux there, its status line off (nothing else drawn), the same cat in its pane: what a multiplexer whose panes outlive ssh costs.
  const tmuxName = `panebench${process.pid}`;
  const withTmux = have('tmux', ['-V']);
  const tmux = withTmux
    ? spawn('ssh', anchor(['tmux', '-L', tmuxName, '-f', '/dev/null', 'new-session', '-x', '80', '-y', '24', `'stty raw -echo; exec cat'`, '\\;', 'set', '-g', 'status', 'off']).map((x) => (x === '-T' ? '-tt' : x)), {
        stdio: ['pipe', 'pipe', 'ignore'],
        env: { ...process.env, TERM: 'xterm-256color' },
      })
    : null;
  const xw = waiterOf();
  tmux?.stdout.on('data', (d: Buffer) => xw.see(d));
  // The host's own `pane attach` in the ssh session's terminal: what a person on ssh with no window types through.
  const att = spawn('ssh', anchor(['pane', 'attach', '-t', String(n)]).map((x) => (x === '-T' ? '-tt' : x)), { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, TERM: 'xterm-256color' } });
  const aw = waiterOf();
  att.stdout.on('data', (d: Buffer) => aw.see(d));
  const attached: number[] = [];
  // The same program behind a Node process that does nothing but relay its PTY: what one Node hop costs here (started in the try: its failure ends the others too).
  let relay: Awaited<ReturnType<typeof ptyRelay>> | undefined;
  const rw = waiterOf();
  const relayed: number[] = [];
  // The same relay in C, where the machine has a cc: the Node relay's row then says what Node itself costs the hop.
  let cRelay: Awaited<ReturnType<typeof ptyRelay>> | string | undefined;
  const cw = waiterOf();
  const cRelayed: number[] = [];
  const pane: number[] = [];
  const plain: number[] = [];
  const direct: number[] = [];
  const ttyEcho: number[] = [];
  const tmuxEcho: number[] = [];
  try {
    // Until the far side's stty has run: a key echoed by cat alone.
    await untilEchoed((b) => tty.stdin.write(b), tw);
    if (tmux) await untilEchoed((b) => tmux.stdin.write(b), xw);
    await untilEchoed((b) => att.stdin.write(b), aw);
    const r = (relay = await ptyRelay(path.join(c.dir, 'ptyRelay.sock'), 'stty raw -echo; exec cat'));
    r.client.on('data', (d: Buffer) => rw.see(d));
    await untilEchoed((b) => r.client.write(b), rw);
    // Its failure to start is its row's (said there), not the ssh rows'.
    cRelay = await cPtyRelay(c.dir, path.join(c.dir, 'cPtyRelay.sock'), 'stty raw -echo; exec cat').catch((e: Error) => `it did not start: ${e.message.slice(0, 200)}`);
    const cr = typeof cRelay === 'string' ? null : cRelay;
    if (cr) {
      cr.client.on('data', (d: Buffer) => cw.see(d));
      await untilEchoed((b) => cr.client.write(b), cw);
    }
    for (let i = 0; i < ECHOES + ECHO_WARMUP; i++) {
      // Alternated, so all meet the same load on the machine.
      const p = await echoRound((b) => c.l.sendInput(a.pane, b), pw, `sbox:${n}'s, round ${i + 1}`);
      const q = await echoRound((b) => ssh.stdin.write(b), sw, `\`ssh sbox cat\`'s, round ${i + 1}`);
      const d = await echoRound((b) => c.r.sendInput(n, b), dw, `pane ${n}'s asked directly, round ${i + 1}`);
      const t = await echoRound((b) => tty.stdin.write(b), tw, `\`ssh -tt\`'s, round ${i + 1}`);
      const x = tmux ? await echoRound((b) => tmux.stdin.write(b), xw, `tmux's, round ${i + 1}`) : 0;
      const v = await echoRound((b) => att.stdin.write(b), aw, `\`pane attach\`'s over ssh, round ${i + 1}`);
      const y = await echoRound((b) => r.client.write(b), rw, `the Node PTY relay's, round ${i + 1}`);
      const z = cr ? await echoRound((b) => cr.client.write(b), cw, `the C PTY relay's, round ${i + 1}`) : 0;
      if (i >= ECHO_WARMUP) {
        relayed.push(y);
        if (cr) cRelayed.push(z);
        pane.push(p);
        plain.push(q);
        direct.push(d);
        ttyEcho.push(t);
        if (tmux) tmuxEcho.push(x);
        attached.push(v);
      }
    }
  } finally {
    off();
    offDirect();
    relay?.client.destroy();
    relay?.stop();
    if (cRelay && typeof cRelay !== 'string') {
      cRelay.client.destroy();
      cRelay.stop();
    }
    await c.r.call('pty/detach', { pane: n }).catch(() => undefined);
    att.stdin.write(Uint8Array.of(0x1c)); // Ctrl+\ detaches
    att.kill();
    ssh.stdin.end();
    ssh.kill();
    tty.stdin.end();
    tty.kill();
    if (tmux) {
      tmux.kill();
      spawnSync('ssh', anchor(['tmux', '-L', tmuxName, 'kill-server']), { stdio: 'ignore', timeout: WAIT_MS });
    }
    await c.l.call('pty/detach', { pane: a.pane }).catch(() => undefined);
    await c.r.call('pane/close', { pane: n }).catch(() => undefined);
  }
  return { echo: summarize(pane), sshEcho: summarize(plain), directEcho: summarize(direct), relayEcho: summarize(relayed), cRelayEcho: typeof cRelay === 'string' ? cRelay : summarize(cRelayed), sshTtyEcho: summarize(ttyEcho), tmuxEcho: tmux ? summarize(tmuxEcho) : null, attachEcho: summarize(attached) };
}

/** A ProxyCommand that relays stdin/stdout to host:port, each chunk held LINK_DELAY_MS (in order: equal timeouts fire in the order set). */
const DELAY_PROXY = `const net = require('node:net');
const [host, port, ms] = process.argv.slice(2);
const s = net.connect(Number(port), host);
s.setNoDelay(true);
const later = (f) => setTimeout(f, Number(ms));
process.stdin.on('data', (d) => later(() => s.write(d)));
s.on('data', (d) => later(() => process.stdout.write(d)));
process.stdin.on('end', () => later(() => s.end()));
s.on('close', () => later(() => process.exit(0)));
s.on('error', () => process.exit(1));
`;

/**
 * Keystroke echo when the ssh connection crosses LINK_DELAY_MS each way: the same
 * remote pane program through a second host file (`far`) whose ssh goes through the
 * delay proxy, alternated with `ssh host cat` through the same proxy.
 */
async function farEchoes(c: SshBenchCtx, s: Sshd): Promise<{ farEcho: Summary; farSshEcho: Summary; farMBs: Summary; farSshTtyMBs: Summary; farFirstMBs: number; farSshTtyFirstMBs: number }> {
  const proxy = path.join(c.dir, 'delayProxy.cjs');
  fs.writeFileSync(proxy, DELAY_PROXY);
  // Another name than 127.0.0.1, so neither ssh shares the undelayed master connection (ControlPath %C), with the sshd's host key under it.
  const alias = 'far.pane-bench.invalid';
  const known = path.join(path.dirname(s.clientConfig), 'known_hosts');
  const key = fs.readFileSync(known, 'utf8').split('\n')[0]!.split(' ').slice(1).join(' ');
  fs.appendFileSync(known, `${alias} ${key}\n`);
  // ProxyCommand runs a command, so a host file may not pass it as an option (SSH_OPTION_ALLOWLIST): it goes in the ssh_config the file names, as a person's would.
  const config = path.join(c.dir, 'far_ssh_config');
  fs.writeFileSync(config, `Host ${alias}\n  ProxyCommand ${process.execPath} ${proxy} 127.0.0.1 ${s.port} ${LINK_DELAY_MS}\n  HostKeyAlias ${alias}\n\n${fs.readFileSync(s.clientConfig, 'utf8')}`);
  fs.writeFileSync(path.join(c.ldir, '.config', 'pane', 'hosts', 'far.json'), JSON.stringify({ how: { via: 'ssh', destination: `root@${alias}`, configFile: config } }));
  const ctl = path.join(c.dir, 'far-%C');
  const argv = ['-T', '-e', 'none', '-o', 'BatchMode=yes', '-o', 'ControlMaster=auto', '-o', `ControlPath=${ctl}`, '-o', 'ControlPersist=60', '-F', config, '--', `root@${alias}`];
  const joined = await c.l.call('host/connect', { name: 'far' });
  if (joined.state !== 'connected') throw new Error(`the delayed ssh host did not join: ${joined.error}`);
  const n = await remotePane(c, 'stty raw -echo; exec cat');
  await sleep(300);
  const a = await c.l.call('pty/attach', { pane: `far:${n}`, mode: 'from', flowControl: true });
  const pw = waiterOf();
  // A refusal of keys sent as a binary frame comes as an error frame answering no request: kept, said if an echo fails.
  const refusals: string[] = [];
  const offErrors = c.l.onError((e) => void (refusals.length < 5 && refusals.push(`${e.code}: ${e.message.slice(0, 200)}`)));
  let paneBytes = 0;
  const off = c.l.onOutput((p, _o, data) => {
    if (p !== a.pane) return;
    paneBytes += data.byteLength;
    pw.see(data);
  });
  const ssh = spawn('ssh', [...argv, 'cat'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const sw = waiterOf();
  ssh.stdout.on('data', (d: Buffer) => sw.see(d));
  let sshErr = '';
  ssh.stderr.on('data', (d: Buffer) => (sshErr = (sshErr + d.toString()).slice(-400)));
  const sshSays = () => ` (ssh ${ssh.exitCode === null && ssh.signalCode === null ? 'runs' : `ended ${ssh.exitCode ?? ssh.signalCode}`}; its stderr: ${sshErr.trim() || 'none'})`;
  const paneSays = async () => {
    const h = (await c.l.call('host/list', {}).catch(() => null))?.hosts.find((x) => x.name === 'far');
    return ` (the link: ${h ? `${h.state}${h.error ? `, ${h.error}` : ''}` : 'not listed'})`;
  };
  let linkNow = '';
  const pane: number[] = [];
  const plain: number[] = [];
  const mbs: number[] = [];
  const sshMbs: number[] = [];
  let firstMBs = 0;
  let firstSshMBs = 0;
  try {
    const farName = (n: number) => `far:${n}`;
    const sshTty = [...argv.map((x) => (x === '-T' ? '-tt' : x)), 'cat', c.file];
    // The first file through a link just joined is its own row: it runs at ~half the pace of the next ones. Measured
    // (decision 051, "The first stream after a quiet spell"): most of that is the first stream after a quiet spell, not
    // the link. Streamed through another link just before, the same first file ran at 21.6 MB/s instead of 14-17; the
    // likely cause is each Node process on the path regrowing a young generation shrunk while idle (not traced in the
    // daemons), and the rest is the new ssh master's own buffers.
    firstMBs = await paneMBs(c, c.l, farName);
    firstSshMBs = await sshCatMBs(sshTty);
    for (let run = 0; run < c.runs; run++) {
      mbs.push(await paneMBs(c, c.l, farName));
      sshMbs.push(await sshCatMBs(sshTty));
    }
    for (let i = 0; i < FAR_ECHOES + ECHO_WARMUP; i++) {
      linkNow = await paneSays();
      const p = await echoRound((b) => c.l.sendInput(a.pane, b), pw, `far:${n}'s, round ${i + 1}`, () => linkNow).catch(async (e: Error) => {
        // What the far side holds: whether the keys reached its cat, and what this client had of the pane.
        const far = await c.r.call('pty/screen', { pane: n, form: 'text' }).then((x) => JSON.stringify(x.text.trim().slice(-200)), (x: Error) => x.message);
        const there = await c.r.call('pane/get', { pane: n }).then((x) => `${x.state}${x.exit ? ` (${JSON.stringify(x.exit)})` : ''}`, (x: Error) => x.message);
        // What its program printed there, read from its stream on the host (not its screen): the keys' echo, if they reached it.
        const printed = await c.r.call('pty/read', { pane: n, from: 0, maxBytes: 64 }).then((x) => `${x.streamEnd} bytes, from ${JSON.stringify(x.data)}`, (x: Error) => x.message);
        const listed = (await c.l.call('pane/list', {}).catch(() => ({ panes: [] }))).panes.some((x) => x.host === 'far' && x.n === n);
        throw new Error(`${e.message}; far:${n} listed here: ${listed}; ${paneBytes} bytes of it reached this client; on the host it is ${there} and printed ${printed}, its screen: ${far}; errors this client was sent: ${refusals.join(' | ') || 'none'}`);
      });
      const q = await echoRound((b) => ssh.stdin.write(b), sw, `\`ssh far cat\`'s, round ${i + 1}`, sshSays);
      if (i >= ECHO_WARMUP) {
        pane.push(p);
        plain.push(q);
      }
    }
  } finally {
    off();
    offErrors();
    ssh.stdin.end();
    ssh.kill();
    await c.l.call('pty/detach', { pane: a.pane }).catch(() => undefined);
    await c.r.call('pane/close', { pane: n }).catch(() => undefined);
    await c.l.call('host/disconnect', { name: 'far' }).catch(() => undefined);
    spawnSync('ssh', ['-o', `ControlPath=${ctl}`, '-F', config, '-O', 'exit', `root@${alias}`], { stdio: 'ignore', timeout: 5000 });
  }
  return { farEcho: summarize(pane), farSshEcho: summarize(plain), farMBs: summarize(mbs), farSshTtyMBs: summarize(sshMbs), farFirstMBs: firstMBs, farSshTtyFirstMBs: firstSshMBs };
}

/** MB/s of a remote pane printing the file, read by `conn` (attached as `name`), first byte to last. */
export async function paneMBs(c: StreamCtx, conn: Connection, name: (n: number) => number | string): Promise<number> {
  const n = await remotePane(c, `sleep 0.5; cat ${c.file}; exec sleep 100`);
  let got = 0;
  let first = 0;
  let last = 0;
  let proxy = -1;
  const off = conn.onOutput((p, _o, data) => {
    if (p !== proxy) return;
    if (got === 0) first = performance.now();
    got += data.byteLength;
    last = performance.now();
  });
  proxy = (await conn.call('pty/attach', { pane: name(n) as never, mode: 'from', from: 0 })).pane;
  const until = Date.now() + WAIT_MS;
  while (got < c.bytes && Date.now() < until) await sleep(10);
  off();
  await conn.call('pty/detach', { pane: proxy }).catch(() => undefined);
  await c.r.call('pane/close', { pane: n }).catch(() => undefined);
  // A stream that stopped short is no pace: said here, and counted by its row as a run that measured nothing.
  if (got < c.bytes) {
    process.stderr.write(`bench hosts: pane ${String(name(n))} (proxy ${proxy}) delivered ${got} of ${c.bytes} bytes in ${WAIT_MS} ms (the local daemon's log ends: ${logTail(c.log?.() ?? '', SHORT_STREAM_LOG_LINES)})\n`);
    return Number.NaN;
  }
  return got / 1e6 / ((last - first) / 1000);
}

/** MB/s of `cat FILE` in a PTY of a pane's default size, read by node-pty alone, first byte to last: the kernel's PTY pace. */
function barePtyMBs(file: string): Promise<number> {
  return new Promise((resolve) => {
    const p = pty.spawn('cat', [file], { cols: 80, rows: 24, encoding: null as unknown as string });
    let got = 0;
    let first = 0;
    let last = 0;
    p.onData((d) => {
      if (got === 0) first = performance.now();
      got += d.length;
      last = performance.now();
    });
    p.onExit(() => setTimeout(() => resolve(got / 1e6 / ((last - first) / 1000)), 0));
  });
}

/** MB/s of `ssh … cat FILE` into a pipe, first byte to last. */
async function sshCatMBs(argv: string[]): Promise<number> {
  const ssh = spawn('ssh', argv, { stdio: ['ignore', 'pipe', 'ignore'] });
  let got = 0;
  let first = 0;
  let last = 0;
  ssh.stdout.on('data', (d: Buffer) => {
    if (got === 0) first = performance.now();
    got += d.byteLength;
    last = performance.now();
  });
  await new Promise((res) => ssh.once('close', res));
  return got / 1e6 / ((last - first) / 1000);
}

async function throughputs(c: SshBenchCtx, anchor: (cmd: string[]) => string[]): Promise<{ mbs: Summary; sshMBs: Summary; sshTtyMBs: Summary; directMBs: Summary; ptyMBs: Summary }> {
  const pane: number[] = [];
  const plain: number[] = [];
  const tty: number[] = [];
  const direct: number[] = [];
  const bare: number[] = [];
  for (let run = 0; run < c.runs; run++) {
    pane.push(await paneMBs(c, c.l, (n) => `sbox:${n}`));
    direct.push(await paneMBs(c, c.r, (n) => n));
    // The anchors: the same file through the same sshd to a pipe, without a PTY (the issue's) and with one on the far side (-tt, as a pane's output always has).
    plain.push(await sshCatMBs(anchor(['cat', c.file])));
    tty.push(await sshCatMBs(anchor(['cat', c.file]).map((a) => (a === '-T' ? '-tt' : a))));
    bare.push(await barePtyMBs(c.file));
  }
  return { mbs: summarize(pane), sshMBs: summarize(plain), sshTtyMBs: summarize(tty), directMBs: summarize(direct), ptyMBs: summarize(bare) };
}

async function resumes(c: SshBenchCtx, sshd: Sshd): Promise<{ resume: Summary; lost: number; doubled: number; jumps: number }> {
  const n = await remotePane(c, `i=0; while :; do i=$((i+1)); echo N$i; sleep ${SEQ_PACE_S}; done`);
  const frames: { at: number; offset: number; text: string }[] = [];
  let proxy = -1;
  const off = c.l.onOutput((p, offset, data) => p === proxy && frames.push({ at: performance.now(), offset, text: Buffer.from(data).toString('latin1') }));
  proxy = (await c.l.call('pty/attach', { pane: `sbox:${n}`, mode: 'from', from: 0 })).pane;
  const times: number[] = [];
  try {
    for (let run = 0; run < c.runs; run++) {
      await sleep(500);
      const kids = spawnSync('pgrep', ['-P', String(c.localPid), '-f', `ssh .*-p ${sshd.port}`], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
      if (kids.length === 0) throw new Error('the ssh link has no ssh process to kill');
      const t0 = performance.now();
      for (const pid of kids) process.kill(Number(pid), 'SIGKILL');
      const until = Date.now() + WAIT_MS;
      let back: number | undefined;
      while (back === undefined && Date.now() < until) {
        await sleep(5);
        for (let i = 1; i < frames.length; i++) if (frames[i]!.at > t0 && frames[i]!.at - Math.max(t0, frames[i - 1]!.at) >= OUTAGE_GAP_MS) back = frames[i]!.at;
      }
      if (back === undefined) throw new Error('the stream did not resume after the link\'s ssh was killed');
      times.push(back - t0);
    }
    await sleep(300);
  } finally {
    off();
    await c.l.call('pty/detach', { pane: proxy }).catch(() => undefined);
    await c.r.call('pane/close', { pane: n }).catch(() => undefined);
  }
  let jumps = 0;
  for (let i = 1; i < frames.length; i++) if (frames[i]!.offset !== frames[i - 1]!.offset + Buffer.byteLength(frames[i - 1]!.text, 'latin1')) jumps++;
  const seq = frames
    .map((f) => f.text)
    .join('')
    .split(/\r?\n/)
    .slice(0, -1) // the last line may be cut
    .map((l) => /^N(\d+)$/.exec(l)?.[1])
    .filter((x): x is string => x !== undefined)
    .map(Number);
  let lost = 0;
  let doubled = 0;
  for (let i = 1; i < seq.length; i++) {
    if (seq[i]! <= seq[i - 1]!) doubled++;
    else lost += seq[i]! - seq[i - 1]! - 1;
  }
  return { resume: summarize(times), lost, doubled, jumps };
}
