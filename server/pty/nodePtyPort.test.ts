import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { NodePtyPort, PTY_READ_BYTES, readTpgid, resolveProgram } from './nodePtyPort';
import type { PtyProcess, PtySpawnOptions } from './ptyPort';

const port = new NodePtyPort();
const started: PtyProcess[] = [];
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color', HOME: process.env.HOME ?? '/tmp' };

function spawn(o: Partial<PtySpawnOptions> & { file: string }): PtyProcess {
  const p = port.spawn({ args: [], cwd: process.cwd(), env, cols: 80, rows: 24, ...o });
  started.push(p);
  return p;
}

function collect(p: PtyProcess) {
  const chunks: Buffer[] = [];
  p.onData((d) => chunks.push(Buffer.from(d))); // a view into the shared read buffer: copied, as the ring does
  const exit = new Promise<{ code: number | null; signal: number | null }>((res) => p.onExit(res));
  return { exit, bytes: () => Buffer.concat(chunks) };
}

afterEach(() => {
  for (const p of started.splice(0)) p.kill('SIGKILL');
});

describe('NodePtyPort', () => {
  it('queues input for a raw-mode program that stops reading without ever blocking the event loop, and writes it all once it reads', async () => {
    // The program waits for a file before it reads; its terminal holds a few KiB meanwhile.
    const go = `/tmp/pane-pty-go-${process.pid}-${Date.now()}`;
    const p = spawn({ file: 'sh', args: ['-c', `stty raw -echo; while [ ! -e ${go} ]; do sleep 0.05; done; head -c ${16 * (64 << 10)} | wc -c`] });
    const c = collect(p);
    await new Promise((r) => setTimeout(r, 300));
    const chunk = Buffer.alloc(64 << 10, 0x61);
    let worst = 0;
    let last = performance.now();
    const beat = setInterval(() => {
      const t = performance.now();
      worst = Math.max(worst, t - last);
      last = t;
    }, 5);
    for (let i = 0; i < 16; i++) {
      p.write(chunk);
      await new Promise((r) => setTimeout(r, 10));
    }
    await new Promise((r) => setTimeout(r, 200));
    // Most of the 1 MiB waits with us, counted; the loop kept turning (the library's own writes spun on it).
    expect(p.queuedInput?.()).toBeGreaterThan(512 << 10);
    expect(worst).toBeLessThan(500);
    clearInterval(beat);
    fs.writeFileSync(go, '');
    try {
      const deadline = Date.now() + 10_000;
      while ((p.queuedInput?.() ?? 0) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(p.queuedInput?.()).toBe(0);
      await c.exit; // head read all of it, and wc says how much
      expect(c.bytes().toString()).toMatch(new RegExp(`\\b${16 * (64 << 10)}\\b`));
    } finally {
      fs.rmSync(go, { force: true });
    }
  });

  it('writes a keystroke into the terminal in the same turn of the loop (no trip through the thread pool), and its echo comes back', async () => {
    const p = spawn({ file: 'sh', args: ['-c', 'stty raw -echo; exec cat'] });
    const got: Buffer[] = [];
    p.onData((d) => got.push(d));
    await new Promise((r) => setTimeout(r, 300));
    p.write(Buffer.from('k'));
    expect(p.queuedInput?.()).toBe(0); // already in the kernel: nothing waits with us
    const deadline = Date.now() + 5000;
    while (!Buffer.concat(got).includes('k') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(Buffer.concat(got).toString()).toContain('k');
  });

  it('delivers output as Buffers and reports the exit code', async () => {
    const p = spawn({ file: 'bash', args: ['-c', 'printf "héllo"; exit 3'] });
    const c = collect(p);
    expect(await c.exit).toEqual({ code: 3, signal: null });
    expect(c.bytes().toString('utf8')).toBe('héllo');
  });

  it('reports a signal death as a signal, not a code', async () => {
    const p = spawn({ file: 'sleep', args: ['30'] });
    const c = collect(p);
    p.kill('SIGTERM');
    expect(await c.exit).toEqual({ code: null, signal: 15 });
  });

  it('reports exit only after every byte was read, even from a flood that ends at once', async () => {
    // 200 KB, then exit immediately: the case where node-pty alone can lose the tail.
    for (let run = 0; run < 4; run++) {
      const p = spawn({ file: 'bash', args: ['-c', 'head -c 200000 /dev/zero | tr "\\0" x; exit 0'] });
      const c = collect(p);
      await c.exit;
      const out = c.bytes();
      expect(out.byteLength).toBe(200_000);
      expect(out.every((b) => b === 0x78)).toBe(true);
    }
  });

  it('reads every terminal into one shared buffer, allocating nothing per read, each pane getting its own bytes', async () => {
    const a = spawn({ file: 'sh', args: ['-c', 'i=0; while [ $i -lt 2000 ]; do echo "aaaa $i"; i=$((i+1)); done'] });
    const b = spawn({ file: 'sh', args: ['-c', 'i=0; while [ $i -lt 2000 ]; do echo "bbbb $i"; i=$((i+1)); done'] });
    const seen = [new Map<ArrayBufferLike, number>(), new Map<ArrayBufferLike, number>()];
    [a, b].forEach((p, i) => p.onData((d) => seen[i]!.set(d.buffer, (seen[i]!.get(d.buffer) ?? 0) + 1)));
    const [ca, cb] = [collect(a), collect(b)];
    await Promise.all([ca.exit, cb.exit]);
    // The one buffer both panes' reads landed in (a copy only for what is read after end of file: drainFd).
    const [shared, reads] = [...seen[0]!].sort((x, y) => y[1] - x[1])[0]!;
    expect(shared.byteLength).toBe(PTY_READ_BYTES);
    expect(reads).toBeGreaterThan(1);
    expect(seen[1]!.get(shared)).toBeGreaterThan(1);
    for (const [c, tag] of [[ca, 'aaaa'], [cb, 'bbbb']] as const) {
      const lines = c.bytes().toString().split('\r\n').filter(Boolean);
      expect(lines).toEqual(Array.from({ length: 2000 }, (_, i) => `${tag} ${i}`));
    }
  });

  it('keeps the output a paused stream holds past the exit and delivers it on resume', async () => {
    const p = spawn({ file: 'bash', args: ['-c', 'head -c 3000 /dev/zero | tr "\\0" y'] });
    p.pause();
    const c = collect(p);
    let exited = false;
    void c.exit.then(() => (exited = true));
    // node-pty would destroy the stream 200 ms after the exit; wait well past that.
    await new Promise((r) => setTimeout(r, 600));
    expect(exited).toBe(false);
    p.resume();
    await c.exit;
    expect(c.bytes().byteLength).toBe(3000);
  });

  it('reports exit even when a background child keeps the terminal open', async () => {
    const p = spawn({ file: 'bash', args: ['-c', 'sleep 20 & echo "started $!"'] });
    const c = collect(p);
    const t0 = Date.now();
    try {
      expect((await c.exit).code).toBe(0);
      expect(Date.now() - t0).toBeLessThan(15_000); // well before the sleeper would let go
    } finally {
      const bg = Number(/started (\d+)/.exec(c.bytes().toString())?.[1]);
      if (bg > 0) {
        try {
          process.kill(bg, 'SIGKILL');
        } catch {
          // already gone with its session
        }
      }
    }
  });

  it('tells the foreground process group of the terminal', async () => {
    const p = spawn({ file: 'bash', args: ['--norc', '--noprofile', '-i'] });
    const c = collect(p);
    await until(() => c.bytes().length > 0);
    expect(p.foregroundPgid()).toBe(p.pid); // an interactive bash leads its own group in front
    p.write('sleep 5\r');
    await until(() => {
      const g = p.foregroundPgid();
      return g !== null && g !== p.pid;
    });
    expect(readTpgid(p.pid)).not.toBe(p.pid);
  });

  it('throws a clear error for a program that does not exist', () => {
    expect(() => spawn({ file: 'no-such-program-xyz' })).toThrow(/cannot start no-such-program-xyz: not found in PATH/);
    expect(() => spawn({ file: './nope.sh' })).toThrow(/no executable file at/);
    expect(() => spawn({ file: 'bash', cwd: '/no/such/dir' })).toThrow(/not a directory/);
  });

  it('resolves a bare program name through PATH', () => {
    expect(resolveProgram('sh', '/nonexistent:/bin:/usr/bin', '/')).toMatch(/\/sh$/);
  });

  it('returns null for the foreground group of a process that is gone', () => {
    expect(readTpgid(2 ** 22 + 12345)).toBeNull();
  });
});

async function until(cond: () => boolean, ms = 5_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
