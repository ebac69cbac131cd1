// CPU, memory and storage I/O of a process tree from /proc (Linux): what node_exporter's
// process collector reads, for each pane's program and its descendants. Elsewhere, nothing.
//
// Reading /proc costs a syscall round per file (tens of microseconds each on a VM), and
// a collection runs every second while a monitor is open, so the sampler reads only
// what can have changed: a process's parent never changes (but to a reaper, never into
// a pane's tree), so a process first seen outside every pane's tree is not read again;
// a tree's processes have their stat read each time, and their io only when their CPU
// time moved (a process that ran no tick did next to no I/O). Every FULL_WALK_MS the
// whole of /proc is read again, which also mends a PID reused between two collections.
import fs from 'node:fs';

/** Clock ticks a second in /proc/PID/stat (sysconf(_SC_CLK_TCK)): 100 on every Linux pane runs on. */
const CLK_TCK = 100;
/** Bytes in a page of /proc/PID/stat's rss (the x86-64 and arm64 default). */
const PAGE_BYTES = 4096;
/** How often every process is read again, whatever the cache says: what a missed byte of I/O or a reused PID can cost, at most. */
export const FULL_WALK_MS = 10_000;

interface Stat {
  ppid: number;
  cpuSeconds: number;
  rssBytes: number;
}

function readStat(pid: number): Stat | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name is in parentheses and may hold spaces or parentheses: fields start after the last ')'.
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(rest[1]);
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  const rss = Number(rest[21]);
  return { ppid, cpuSeconds: (utime + stime) / CLK_TCK, rssBytes: rss * PAGE_BYTES };
}

/** Storage bytes a process caused to be read and written (/proc/PID/io; 0 when it is not ours to read). */
function readIo(pid: number): { read: number; written: number } {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/io`, 'utf8');
  } catch {
    return { read: 0, written: 0 };
  }
  const read = /^read_bytes: (\d+)$/m.exec(text);
  const written = /^write_bytes: (\d+)$/m.exec(text);
  return { read: read ? Number(read[1]) : 0, written: written ? Number(written[1]) : 0 };
}

export interface TreeUsage {
  processes: number;
  cpuSeconds: number;
  rssBytes: number;
  ioReadBytes: number;
  ioWriteBytes: number;
}

export const NO_USAGE: TreeUsage = { processes: 0, cpuSeconds: 0, rssBytes: 0, ioReadBytes: 0, ioWriteBytes: 0 };

interface Known extends Stat {
  /** The collection that last read its stat. */
  seen: number;
  io: { read: number; written: number } | null;
  /** Its CPU seconds when its io was read. */
  ioAtCpu: number;
}

export class ProcSampler {
  private readonly known = new Map<number, Known>();
  private lastFull = -Infinity;
  private round = 0;
  /** Files read by the last collection (the bench's and the tests' look at the cache). */
  lastReads = 0;

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly proc = '/proc',
  ) {}

  private read(pid: number): Known | null {
    const s = readStat(pid);
    this.lastReads++;
    if (!s) {
      this.known.delete(pid);
      return null;
    }
    const had = this.known.get(pid);
    const k: Known = { ...s, seen: this.round, io: had?.io ?? null, ioAtCpu: had?.ioAtCpu ?? -1 };
    this.known.set(pid, k);
    return k;
  }

  /** Each root's tree (the root and every descendant): processes, CPU seconds, resident bytes, storage I/O. */
  usage(roots: readonly number[]): Map<number, TreeUsage> {
    this.round++;
    this.lastReads = 0;
    const at = this.now();
    const full = at - this.lastFull >= FULL_WALK_MS;
    if (full) this.lastFull = at;
    let names: string[];
    try {
      names = fs.readdirSync(this.proc);
    } catch {
      return new Map();
    }
    const alive = new Set<number>();
    for (const n of names) if (/^[0-9]+$/.test(n)) alive.add(Number(n));
    for (const pid of this.known.keys()) if (!alive.has(pid)) this.known.delete(pid);
    // New processes (and, on a full walk, every one): their parent tells whose tree they join.
    for (const pid of alive) if (full || !this.known.has(pid)) this.read(pid);
    const children = new Map<number, number[]>();
    for (const [pid, k] of this.known) {
      const list = children.get(k.ppid);
      if (list) list.push(pid);
      else children.set(k.ppid, [pid]);
    }
    const out = new Map<number, TreeUsage>();
    for (const root of roots) {
      const u = { ...NO_USAGE };
      const seen = new Set<number>();
      for (const todo = [root]; todo.length > 0; ) {
        const pid = todo.pop()!;
        if (seen.has(pid)) continue;
        seen.add(pid);
        let k = this.known.get(pid);
        if (k && k.seen !== this.round) k = this.read(pid) ?? undefined;
        if (!k) continue;
        if (k.io === null || full || k.cpuSeconds !== k.ioAtCpu) {
          k.io = readIo(pid);
          k.ioAtCpu = k.cpuSeconds;
          this.lastReads++;
        }
        u.processes++;
        u.cpuSeconds += k.cpuSeconds;
        u.rssBytes += k.rssBytes;
        u.ioReadBytes += k.io.read;
        u.ioWriteBytes += k.io.written;
        for (const c of children.get(pid) ?? []) todo.push(c);
      }
      out.set(root, u);
    }
    return out;
  }
}
