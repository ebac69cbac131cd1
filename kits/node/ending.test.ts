// ending.ts against real processes: one that ends at the first signal, one that ignores
// it and needs the second, one already gone (no signal reaches anything), one that was
// only asked to end (no first signal); the after-kill bound against a process that
// never reports its exit; and PendingSet's wait over promises that settle either way.
import { spawn, type ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { endableChild, endProcess, PendingSet, type Endable } from './ending';

/** A shell that says "ready" once its traps are set (so a signal cannot come before them). */
function shell(script: string): Promise<ChildProcess> {
  const c = spawn('sh', ['-c', `${script}; echo ready; while :; do sleep 0.05; done`], { stdio: ['pipe', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    c.stdout!.once('data', () => resolve(c));
    c.once('error', reject);
  });
}

const exitOf = (c: ChildProcess) => new Promise<NodeJS.Signals | null>((r) => (c.exitCode !== null || c.signalCode !== null ? r(c.signalCode) : c.once('exit', (_code, sig) => r(sig))));

describe('endProcess', () => {
  it('resolves at the exit the first signal causes, without waiting out the grace', async () => {
    const c = await shell(':');
    const t0 = Date.now();
    await endProcess(endableChild(c), { first: 'SIGTERM', then: 'SIGKILL', graceMs: 5_000, afterMs: 5_000 });
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(await exitOf(c)).toBe('SIGTERM');
  });

  it('sends the second signal past the grace to a process that ignores the first, and resolves at that exit', async () => {
    const c = await shell("trap '' TERM HUP");
    const t0 = Date.now();
    await endProcess(endableChild(c), { first: 'SIGTERM', then: 'SIGKILL', graceMs: 300, afterMs: 5_000 });
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(3_000);
    expect(await exitOf(c)).toBe('SIGKILL');
  });

  it('sends nothing to a process already gone', async () => {
    const c = spawn('true');
    await exitOf(c);
    const sent: string[] = [];
    const e = endableChild(c);
    await endProcess({ kill: (s) => sent.push(s), onExit: e.onExit }, { first: 'SIGTERM', then: 'SIGKILL', graceMs: 50, afterMs: 50 });
    await new Promise((r) => setTimeout(r, 120));
    expect(sent).toEqual([]);
  });

  it('with no first signal, waits the grace (the process was asked another way), then signals once', async () => {
    const c = await shell(':');
    c.stdin!.end(); // the shell's loop does not read stdin: this asks nothing of it
    const t0 = Date.now();
    await endProcess(endableChild(c), { then: 'SIGTERM', graceMs: 250 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(240);
    expect(await exitOf(c)).toBe('SIGTERM');
  });

  it('gives up afterMs past the second signal on a process whose exit never comes', async () => {
    const sent: string[] = [];
    const stuck: Endable = { kill: (s) => void sent.push(s), onExit: () => undefined };
    const t0 = Date.now();
    await endProcess(stuck, { first: 'SIGHUP', then: 'SIGKILL', graceMs: 100, afterMs: 150 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(240);
    expect(sent).toEqual(['SIGHUP', 'SIGKILL']);
  });
});

describe('PendingSet', () => {
  it('waits for what is pending, through rejections, and holds nothing once settled', async () => {
    const s = new PendingSet();
    await s.settled(); // nothing pending
    let ok!: () => void;
    let fail!: (e: Error) => void;
    const a = new Promise<void>((r) => (ok = r));
    const b = new Promise<void>((_r, j) => (fail = j));
    b.catch(() => undefined);
    s.add(a);
    s.add(b);
    let done = false;
    const waiting = s.settled().then(() => (done = true));
    ok();
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toBe(false);
    fail(new Error('gone'));
    await waiting;
    expect(done).toBe(true);
    expect((s as unknown as { pending: Set<unknown> }).pending.size).toBe(0);
  });
});
