// The /proc sampler against real processes: a tree found whole, a child started later
// joins its tree at the next collection, a process that ended leaves it, and a second
// collection reads only the trees' stat files (not the whole of /proc) until the next
// full walk.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { FULL_WALK_MS, ProcSampler } from './procStats';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const p of started.splice(0)) if (p.exitCode === null) p.kill('SIGKILL');
});

async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(ok()).toBe(true);
}

describe.skipIf(process.platform !== 'linux')('ProcSampler', () => {
  it('follows a tree as it grows and shrinks, reading only what can have changed', async () => {
    let now = 0;
    const sampler = new ProcSampler(() => now);
    // A shell that takes its commands from us: its children are its tree.
    const sh = spawn('sh', [], { stdio: ['pipe', 'ignore', 'ignore'] });
    started.push(sh);
    const root = sh.pid!;
    sampler.usage([root]);
    const full = sampler.lastReads; // the first collection is a full walk: every process on the machine
    await until(() => ((now += 100), sampler.usage([root]).get(root)!.processes === 1));
    now += 100;
    expect(sampler.usage([root]).get(root)!.processes).toBe(1);
    // Not a full walk: the one stat of the tree (its io unread, its CPU unmoved), not every process on the machine.
    expect(sampler.lastReads).toBeLessThan(full);
    expect(sampler.lastReads).toBeLessThanOrEqual(2);
    sh.stdin!.write('sleep 30 & a=$!\nsleep 31 & b=$!\n');
    await until(() => ((now += 100), sampler.usage([root]).get(root)!.processes === 3));
    const u = sampler.usage([root]).get(root)!;
    expect(u.rssBytes).toBeGreaterThan(0);
    expect(u.cpuSeconds).toBeGreaterThanOrEqual(0);
    sh.stdin!.write('kill $a; wait $a\n');
    await until(() => ((now += 100), sampler.usage([root]).get(root)!.processes === 2));
    // A full walk later reads everything again and finds the same.
    now += FULL_WALK_MS;
    expect(sampler.usage([root]).get(root)!.processes).toBe(2);
    expect(sampler.lastReads).toBeGreaterThan(2);
    sh.stdin!.write('kill $b; exit\n');
  });

  it('says nothing of a pid that is gone, and counts storage writes of a tree', async () => {
    const sampler = new ProcSampler();
    expect(sampler.usage([2 ** 22 + 12345]).get(2 ** 22 + 12345)).toMatchObject({ processes: 0 });
    const w = spawn('sh', ['-c', 'dd if=/dev/zero of=/dev/null bs=1M count=1 2>/dev/null; head -c 1048576 /dev/zero > "$TMPDIR/pane-procstats-$$"; sync; rm -f "$TMPDIR/pane-procstats-$$"; sleep 5'], { stdio: 'ignore', env: { ...process.env, TMPDIR: process.env.TMPDIR ?? '/tmp' } });
    started.push(w);
    // write_bytes counts bytes sent toward storage: a tmpfs /tmp has none, so this only says the figure is read and sane.
    await new Promise((r) => setTimeout(r, 500));
    const u = sampler.usage([w.pid!]).get(w.pid!)!;
    expect(u.processes).toBeGreaterThanOrEqual(1);
    expect(u.ioWriteBytes).toBeGreaterThanOrEqual(0);
  });
});
