// Soak: a real `pane serve` gives back the heap a flood left free once it goes quiet
// (decision 051). Twenty panes print 10,000 lines each (the memory bench's fleet);
// glibc keeps the freed heap resident by itself (free chunks between live ones:
// without the trim the check below timed out), and the daemon's malloc_trim after
// TRIM_QUIET_MS of quiet took its malloc heaps from ~86 to ~21 MiB here ([heap] 46 to 5).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../kits/client/connection';
import { connectUnix } from '../../kits/node/socketTransport';
import { TRIM_CHECK_MS, TRIM_QUIET_MS } from '../../server/heapTrimmer';
import { buildOnce, serve, until, type Served } from '../cli/harness';

const PANES = 20;
const LINES = 10_000;
const FILL = `i=0; while [ $i -lt ${LINES} ]; do printf '%05d %s\\n' $i 'the quick brown fox jumps over the lazy dog 0123456789 ABCDEFGHIJKLMNOPQRSTU'; i=$((i+1)); done; exec sleep 600`;
/** The flood's bound: 20 panes of 10,000 lines take ~3 s here. */
const FILL_MS = 60_000;
/** The malloc heaps after the quiet spell, as a share of theirs at the flood's end: trimmed ~0.2-0.5 here. */
const TRIMMED_SHARE = 0.6;

/**
 * glibc's heap for a thread arena on 64 bits: HEAP_MAX_SIZE, twice DEFAULT_MMAP_THRESHOLD_MAX.
 * Each such heap is a mapping of this size at an address aligned to it, its used part
 * read-write and the rest PROT_NONE.
 */
const ARENA_HEAP_BYTES = 64 << 20;

interface Mapping {
  start: number;
  end: number;
  perms: string;
  path: string;
  rssKiB: number;
}

function mappings(pid: number): Mapping[] {
  const out: Mapping[] = [];
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) out.push({ start: parseInt(head[1]!, 16), end: parseInt(head[2]!, 16), perms: head[3]!, path: head[4]!, rssKiB: 0 });
    else if (line.startsWith('Rss:') && out.length) out[out.length - 1]!.rssKiB = Number(/(\d+)/.exec(line)?.[1] ?? 0);
  }
  return out;
}

/**
 * Resident KiB of the process's malloc heaps: the main arena's brk heap ([heap]) and
 * every thread arena's heap (the daemon runs with MALLOC_ARENA_MAX=2, daemonEnv.ts).
 * Where glibc serves the main thread is glibc's: once in a clean-clone CI and once in
 * four runs beside two busy loops, [heap] held 2-4.5 MiB after the flood instead of
 * ~47 (decision 051). malloc_trim walks every arena; so does this count.
 */
function mallocHeapKiB(pid: number): { main: number; threads: number } {
  const maps = mappings(pid);
  let main = 0;
  let threads = 0;
  maps.forEach((m, i) => {
    if (m.path === '[heap]') main += m.rssKiB;
    else if (m.path === '' && m.perms === 'rw-p' && m.start % ARENA_HEAP_BYTES === 0) {
      const rest = maps[i + 1];
      const end = rest && rest.start === m.end && rest.perms === '---p' && rest.path === '' ? rest.end : m.end;
      if (end - m.start === ARENA_HEAP_BYTES) threads += m.rssKiB;
    }
  });
  return { main, threads };
}

/** The malloc heaps' resident KiB, together. */
const heapKiB = ({ main, threads }: { main: number; threads: number }): number => main + threads;

let s: Served;
let c: Connection;

beforeAll(async () => {
  buildOnce();
  s = await serve();
  c = new Connection(await connectUnix(s.socket));
  await c.hello({ client: { name: 'heap soak', kind: 'cli' }, capabilities: ['read', 'write', 'attach'] });
}, 120_000);
afterAll(async () => {
  c?.close();
  await s?.stop();
});

describe('the daemon after a flood', () => {
  it('gives the freed heap back to the system once quiet, and keeps every pane whole', async () => {
    await c.call('session/new', { name: 'fleet', launch: { program: '/bin/sleep', args: ['600'] } });
    const panes: number[] = [];
    // Floating, 100×40 each (the memory bench's panes): twenty tiled ones would each be a sliver of the window.
    for (let i = 0; i < PANES; i++) panes.push((await c.call('float/create', { session: 'fleet', w: 100, h: 40, launch: { program: '/bin/sh', args: ['-c', FILL] } })).pane);
    const last = String(LINES - 1).padStart(5, '0');
    const filled = Date.now() + FILL_MS;
    for (const p of panes) {
      while (!(await c.call('pty/screen', { pane: p })).text.includes(last)) {
        if (Date.now() > filled) throw new Error(`pane ${p} did not print its ${LINES} lines within ${FILL_MS} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const pid = s.proc.pid!;
    const heaps = mallocHeapKiB(pid);
    const atFlood = heapKiB(heaps);
    // The flood did grow the heaps: the test measures something.
    expect(atFlood, `malloc heaps at the flood's end (KiB): ${JSON.stringify(heaps)}`).toBeGreaterThan(20 << 10);
    const trimmed = await until(
      'the heap trimmed',
      () => {
        const now = heapKiB(mallocHeapKiB(pid));
        return now < atFlood * TRIMMED_SHARE ? now : undefined;
      },
      TRIM_QUIET_MS + 4 * TRIM_CHECK_MS + 10_000,
    );
    expect(trimmed).toBeLessThan(atFlood * TRIMMED_SHARE);
    // `pane metrics` says so: the trims, and the resident bytes they gave back (a third of the heaps' fall at least:
    // the rest of the process may have grown meanwhile, but not by that much).
    const prom = s.pane(['metrics']);
    expect(prom.status, prom.stderr).toBe(0);
    const counter = (name: string) => Number(new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, 'm').exec(prom.stdout)?.[1]);
    expect(counter('pane_daemon_heap_trims_total')).toBeGreaterThanOrEqual(1);
    expect(counter('pane_daemon_heap_trimmed_bytes_total')).toBeGreaterThan(((atFlood - trimmed) << 10) / 3);
    // What was trimmed was free: every pane's history is still there, first line to last.
    for (const p of [panes[0]!, panes[PANES - 1]!]) {
      const body = await c.call('pty/screen', { pane: p, form: 'text' });
      expect(body.text).toContain('00000 the quick brown fox');
      expect(body.text).toContain(`${last} the quick brown fox`);
    }
  }, 120_000);
});
