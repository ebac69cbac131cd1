// What the kernel says of other processes: whether one exists, and its parent and
// session from /proc/PID/stat (Linux; elsewhere nothing is found).
import fs from 'node:fs';

/** Whether process `pid` exists (one of another user's counts: signalling it is refused, not unknown). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface ProcStat {
  ppid: number;
  session: number;
}

/** One process's parent and session; undefined when it is gone (or there is no /proc). */
export function procStat(pid: number): ProcStat | undefined {
  try {
    // The fields after the command in parentheses (which may itself hold spaces and parentheses): state ppid pgrp session ...
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), session: Number(f[3]) };
  } catch {
    return undefined;
  }
}

/** Every process's parent and session (empty where there is no /proc). */
export function procStats(): Map<number, ProcStat> {
  const out = new Map<number, ProcStat>();
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!/^[0-9]+$/.test(e)) continue;
    const st = procStat(Number(e));
    if (st) out.set(Number(e), st);
  }
  return out;
}
