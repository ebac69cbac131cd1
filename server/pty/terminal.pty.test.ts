// Terminal claims that are about a real PTY: real bash through NodePtyPort and
// the real screen worker. Every process started here is killed and waited for.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { StreamSink } from './fanout';
import { NodePtyPort } from './nodePtyPort';
import { ScreenHost } from './screenHost';
import { Terminal, type TerminalOptions } from './terminal';

const port = new NodePtyPort();
const screen = new ScreenHost();
const terms: Terminal[] = [];
const pids: number[] = [];
let nextN = 1;

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp', PS1: '$ ', LANG: 'C.UTF-8' };
const shell = { program: 'bash', args: ['--norc', '--noprofile'] };

function make(launch: TerminalOptions['launch'], extra: Partial<TerminalOptions> = {}) {
  const ev = { exits: [] as { code: number | null; signal: number | null }[], titles: [] as string[], bells: 0 };
  const t = new Terminal({
    n: nextN++,
    launch,
    cwd: '/tmp',
    env,
    cols: 80,
    rows: 24,
    port,
    screen,
    onSpawn: (pid) => pids.push(pid),
    onExit: (s) => ev.exits.push(s),
    onTitle: (x) => ev.titles.push(x),
    onBell: () => ev.bells++,
    ...extra,
  });
  terms.push(t);
  return { t, ev };
}

class Sink implements StreamSink {
  frames: { offset: number; data: Buffer }[] = [];
  constructor(readonly id: string) {}
  sendOutput(_pane: number, offset: number, data: Uint8Array) {
    this.frames.push({ offset, data: Buffer.from(data) });
  }
  buffered() {
    return 0;
  }
  bytes() {
    return Buffer.concat(this.frames.map((f) => f.data));
  }
}

const all = (t: Terminal) => t.read(0, 64 << 20).data.toString('utf8');

afterEach(async () => {
  for (const t of terms.splice(0)) t.dispose();
  // Wait for every child we started to be gone (SIGHUP from dispose, SIGKILL if needed).
  await until(() => pids.every((p) => !alive(p)), 5_000).catch(() => pids.forEach((p) => alive(p) && process.kill(p, 'SIGKILL')));
  pids.length = 0;
});
afterAll(() => screen.dispose());

describe('Terminal (real bash)', () => {
  it('echoes a command’s output and reads it back by offset', async () => {
    const { t } = make(shell);
    t.start();
    t.write('echo hi-$((40+2))\r');
    await until(() => /hi-42\r\n/.test(all(t)));
    const at = Buffer.from(all(t)).indexOf('hi-42\r\n');
    const r = t.read(at, 5);
    expect(r).toMatchObject({ from: at, to: at + 5, gap: false, streamStart: 0 });
    expect(r.data.toString()).toBe('hi-42');
  });

  it('reports the exit code when the program ends', async () => {
    const { t, ev } = make({ program: 'bash', args: ['-c', 'echo bye; exit 7'] });
    t.start();
    await until(() => ev.exits.length > 0);
    expect(ev.exits).toEqual([{ code: 7, signal: null }]);
    expect(t.running).toBe(false);
    expect(all(t)).toContain('bye');
  });

  it('throws a clear error when the program does not exist', () => {
    const { t } = make({ program: 'no-such-program-pane', args: [] });
    expect(() => t.start()).toThrow(/cannot start no-such-program-pane: not found in PATH/);
  });

  it('restarts into a new process with stream offsets carrying on', async () => {
    const { t, ev } = make(shell);
    t.start();
    const firstPid = t.pid!;
    t.write('echo one-$((1))\r');
    await until(() => all(t).includes('one-1'));
    const endBefore = t.streamEnd;
    t.restart();
    expect(t.pid).not.toBe(firstPid);
    t.write('echo two-$((2))\r');
    await until(() => all(t).includes('two-2'));
    const text = all(t);
    expect(text.indexOf('two-2')).toBeGreaterThan(text.indexOf('one-1'));
    expect(t.streamEnd).toBeGreaterThan(endBefore);
    expect(Buffer.from(text).indexOf('two-2')).toBeGreaterThan(endBefore);
    await until(() => !alive(firstPid));
    expect(ev.exits).toEqual([]);
  });

  it('resizes the PTY so the program sees the new size', async () => {
    const { t } = make(shell);
    t.start();
    t.resize(101, 33);
    t.write('stty size\r');
    await until(() => all(t).includes('33 101'));
    expect(await t.snapshot()).toMatchObject({ cols: 101, rows: 33 });
  });

  it('gives a late attacher a snapshot and then the stream, with nothing lost or doubled', async () => {
    const { t, ev } = make({ program: 'bash', args: ['-c', 'for i in $(seq 1 3000); do echo line-$i; if [ $((i % 300)) = 0 ]; then sleep 0.02; fi; done'] });
    t.start();
    await until(() => all(t).includes('line-400\r\n'));
    const sink = new Sink('late');
    const r = await t.attach(sink, { mode: 'snapshot', flowControl: false });
    const snap = r.snapshot!;
    expect(r.from).toBe(snap.offset);
    expect(snap.offset).toBeGreaterThan(0);
    expect(snap.text).toContain('line-400');
    await until(() => ev.exits.length > 0);
    await new Promise((res) => setTimeout(res, 20));
    // Frames follow each other from the snapshot's offset to the end of the stream.
    let at = snap.offset;
    for (const f of sink.frames) {
      expect(f.offset).toBe(at);
      at += f.data.byteLength;
    }
    expect(at).toBe(t.streamEnd);
    expect(sink.frames.length).toBeGreaterThan(0); // it did attach mid-stream
    const whole = t.read(0, 64 << 20).data;
    const rebuilt = Buffer.concat([whole.subarray(0, snap.offset), sink.bytes()]);
    expect(rebuilt.equals(whole)).toBe(true);
    // The snapshot shows exactly the lines before its offset.
    const before = whole.subarray(0, snap.offset).toString().trimEnd().split('\r\n');
    const shown = snap.text.split('\n');
    expect(shown[shown.length - 1]).toBe(before[before.length - 1]);
    expect(all(t)).toContain('line-3000');
  });

  it('pauses a flooding pane when its client stops acking, and resumes when acks come', async () => {
    const { t } = make({ program: 'yes', args: ['flood'] });
    t.start();
    const sink = new Sink('fc');
    await t.attach(sink, { mode: 'from', from: 0, flowControl: true });
    await until(() => t.paused);
    await new Promise((r) => setTimeout(r, 100));
    const held = t.streamEnd;
    await new Promise((r) => setTimeout(r, 300));
    expect(t.paused).toBe(true);
    expect(t.streamEnd).toBe(held); // nothing read while paused
    t.ack('fc', sink.bytes().byteLength);
    await until(() => t.streamEnd > held);
    // And it pauses again once the client goes quiet once more.
    await until(() => t.paused && sink.bytes().byteLength > held + 100_000);
  });

  it('releases the pause when the holding client detaches', async () => {
    const { t } = make({ program: 'yes', args: ['flood'] });
    t.start();
    await t.attach(new Sink('fc'), { mode: 'from', from: 0, flowControl: true });
    await until(() => t.paused);
    const held = t.streamEnd;
    t.detach('fc');
    await until(() => t.streamEnd > held + 1_000_000);
  });

  it('keeps another pane responsive while one floods a client that does not ack', async () => {
    const a = make({ program: 'yes', args: ['flood'] });
    const b = make(shell);
    a.t.start();
    b.t.start();
    await a.t.attach(new Sink('c'), { mode: 'from', from: 0, flowControl: true });
    await until(() => a.t.paused);
    b.t.write('echo calm-$((3*3))\r');
    await until(() => all(b.t).includes('calm-9'));
    expect(a.t.paused).toBe(true);
  });

  it('has every byte of a fast exiting program in the ring and at its clients before the exit', async () => {
    for (let run = 0; run < 8; run++) {
      const sink = new Sink('s');
      let atExit = { ring: -1, sink: -1 };
      const { t } = make(
        { program: 'bash', args: ['-c', 'head -c 200000 /dev/zero | tr "\\0" x'] },
        { onExit: () => (atExit = { ring: t.streamEnd, sink: sink.bytes().byteLength }) },
      );
      await t.attach(sink, { mode: 'from', from: 0, flowControl: false });
      t.start();
      await until(() => atExit.ring >= 0);
      expect(atExit).toEqual({ ring: 200_000, sink: 200_000 });
      expect(t.read(0, 300_000).data.every((b) => b === 0x78)).toBe(true);
    }
  });

  it('reports title changes and bells', async () => {
    const { t, ev } = make({ program: 'bash', args: ['-c', 'printf "\\033]0;my-title\\007"; printf "ding\\a"; sleep 0.3'] });
    t.start();
    await until(() => ev.titles.includes('my-title') && ev.bells > 0);
    expect((await t.snapshot()).title).toBe('my-title');
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
