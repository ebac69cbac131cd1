// `pane top` through the built CLI against a real daemon, as a person uses it: printed
// for a script (-n), and typed into a pane's shell with `pane send`, sorted by a key
// and quit with q, the shell's screen back as it was.
import { describe, expect, it } from 'vitest';
import { BIN, servePerFile } from './harness';

const s = servePerFile();
const screen = (n: number) => s.pane(['screen', '-t', String(n)]).stdout;
// On a timeout, pane 1's screen is in the message: what was there instead.
async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; pane 1 shows:\n${screen(1)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('pane top', () => {
  it('-n prints frames a script reads: a busy pane first by CPU, with its processes, memory and output rate', async () => {
    // A bounded busy loop (a count, not forever) that also writes: CPU and output a second.
    const busy = s.pane(['new', '--', 'sh', '-c', 'i=0; while [ $i -lt 4000000 ]; do i=$((i+1)); [ $((i % 20000)) -eq 0 ] && echo tick-$i; done; sleep 30']);
    expect(busy.status, busy.stderr).toBe(0);
    const n = busy.stdout.trim().split(':').pop()!;
    await until('the busy pane ticking', () => screen(Number(n)).includes('tick-'));
    const r = s.pane(['top', '-n', '2', '--interval', '0.7']);
    expect(r.status, r.stderr).toBe(0);
    const frames = r.stdout.split(/\n\n(?=pane top — )/);
    expect(frames).toHaveLength(2);
    const last = frames[1]!.split('\n');
    expect(last[0]).toMatch(/^pane top — .* · 2 panes · /);
    expect(last[2]).toMatch(/^latency: echo (-|p50 \S+ p99 \S+ \(\d+\)) · hook - · requests p50 \S+ p99 \S+ \(\d+\)$/);
    const header = last.findIndex((l) => /^PANE\s+SESSION\s+KIND\s+AGENT\s+STATE\s+PROCS\s+CPU%▾\s+MEM\s+OUT\/s\s+READ\/s\s+WRITE\/s\s+VIEWERS$/.test(l));
    expect(header, frames[1]).toBeGreaterThan(0);
    const first = last[header + 1]!.trim().split(/\s+/);
    expect(first[0]).toBe(n);
    // Busy, and first for it: its share of a core is what the machine leaves it (11% seen under the CI's parallel suites).
    expect(Number(first[6])).toBeGreaterThan(5);
    expect(first[8]).not.toBe('0');
    const sorted = s.pane(['top', '-n', '1', '--interval', '0.5', '--sort', 'pane']).stdout.split('\n');
    const h2 = sorted.findIndex((l) => l.startsWith('PANE▾'));
    // By pane number, ascending.
    expect(sorted[h2 + 1]!.trim().split(/\s+/)[0]).toBe('1');
    expect(sorted[h2 + 2]!.trim().split(/\s+/)[0]).toBe(n);
    expect(s.pane(['close', '-t', n]).status).toBe(0);
  }, 60_000);

  it('keeps a long session name to its start and end, so the figures after it stay on the screen', () => {
    const long = 'refactor-the-parser-and-its-error-recovery';
    expect(s.pane(['session', 'new', long]).status).toBe(0);
    const lines = s.pane(['top', '-n', '1', '--interval', '0.5', '--sort', 'pane']).stdout.split('\n');
    const row = lines.find((l) => l.includes('refactor-'))!;
    expect(row).toMatch(/^\s*\d+\s+refactor-t…-recovery\s+terminal\s/);
    // Before, the whole name (42 columns): the figures began 22 columns further right, past a terminal's edge.
    expect(row.indexOf(' terminal ')).toBeLessThanOrEqual(30);
    expect(s.pane(['session', 'kill', long]).status).toBe(0);
  });

  it('names a bad interval or sort', () => {
    expect(s.pane(['top', '--interval', '0.1']).stderr).toContain("--interval: '0.1' is not a number of seconds in 0.5..60");
    expect(s.pane(['top', '--sort', 'name']).stderr).toContain("--sort: 'name' is not one of cpu, mem, out, pane");
  });

  it('typed into a shell: live on the alternate screen, sorted by m, gone with q', async () => {
    await until('a prompt', () => /[$#] *$/m.test(screen(1)));
    expect(s.pane(['send', '-t', '1', `clear; ${process.execPath} ${BIN} top --interval 0.5`]).status).toBe(0);
    await until('the top frame', () => /^PANE\s+SESSION/m.test(screen(1)) && /CPU%▾/.test(screen(1)));
    expect(screen(1)).toMatch(/sort: c CPU · m memory · o output · p pane — q quits/);
    expect(s.pane(['send', '--raw', '-t', '1', 'm']).status).toBe(0);
    await until('sorted by memory', () => /MEM▾/.test(screen(1)));
    expect(s.pane(['send', '--raw', '-t', '1', 'q']).status).toBe(0);
    await until('the shell back', () => !/PANE\s+SESSION/.test(screen(1)) && /[$#] *$/m.test(screen(1)));
    // A frame in flight when q came is not drawn over the shell afterwards (an interval and a bit).
    await new Promise((r) => setTimeout(r, 800));
    expect(screen(1)).not.toMatch(/PANE\s+SESSION/);
    expect(s.pane(['send', '-t', '1', 'echo top-exit-$?']).status).toBe(0);
    await until('top exited 0', () => screen(1).includes('top-exit-0'));
    // Keys that arrive in one read (typed fast, pasted) are each acted on: p sorts, q quits.
    expect(s.pane(['send', '-t', '1', `clear; ${process.execPath} ${BIN} top --interval 0.5`]).status).toBe(0);
    await until('the top frame again', () => /CPU%▾/.test(screen(1)));
    expect(s.pane(['send', '--raw', '-t', '1', 'pq']).status).toBe(0);
    await until('the shell back after pq', () => !/PANE\s+SESSION/.test(screen(1)) && /[$#] *$/m.test(screen(1)));
  }, 60_000);
});
