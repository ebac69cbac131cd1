// CPU, memory and storage I/O of a process tree from /proc (Linux): what node_exporter's
// process collector reads, for each pane's program and its descendants. Elsewhere, nothing.
import fs from 'node:fs';

/** Clock ticks a second in /proc/PID/stat (sysconf(_SC_CLK_TCK)): 100 on every Linux pane runs on. */
const CLK_TCK = 100;
/** Bytes in a page of /proc/PID/stat's rss (the x86-64 and arm64 default). */
const PAGE_BYTES = 4096;

interface Stat {
  pid: number;
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
  return { pid, ppid, cpuSeconds: (utime + stime) / CLK_TCK, rssBytes: rss * PAGE_BYTES };
}

/** Every process's parent, read once per scrape (one readdir of /proc). */
export function processTable(): Map<number, Stat> {
  const out = new Map<number, Stat>();
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return out;
  }
  for (const n of names) {
    if (!/^[0-9]+$/.test(n)) continue;
    const s = readStat(Number(n));
    if (s) out.set(s.pid, s);
  }
  return out;
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

/** Each process's children, from one process table (built once per collection, for every pane's tree). */
export function childrenOf(table: Map<number, Stat>): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const s of table.values()) {
    const list = children.get(s.ppid);
    if (list) list.push(s.pid);
    else children.set(s.ppid, [s.pid]);
  }
  return children;
}

/** The tree under `root` (itself included): how many processes, their CPU seconds, resident bytes and storage I/O. */
export function treeUsage(table: Map<number, Stat>, root: number, children: Map<number, number[]> = childrenOf(table)): TreeUsage {
  let processes = 0;
  let cpuSeconds = 0;
  let rssBytes = 0;
  let ioReadBytes = 0;
  let ioWriteBytes = 0;
  const todo = [root];
  const seen = new Set<number>();
  while (todo.length > 0) {
    const pid = todo.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    const s = table.get(pid);
    if (!s) continue;
    processes++;
    cpuSeconds += s.cpuSeconds;
    rssBytes += s.rssBytes;
    const io = readIo(pid);
    ioReadBytes += io.read;
    ioWriteBytes += io.written;
    todo.push(...(children.get(pid) ?? []));
  }
  return { processes, cpuSeconds, rssBytes, ioReadBytes, ioWriteBytes };
}
