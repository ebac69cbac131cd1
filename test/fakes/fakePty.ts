// A scriptable PtyPort for unit tests of the runtime's logic: tests push output,
// end the child, and read back what was written, resized, paused and killed.
// It keeps the real port's promises: output waits while paused, exit follows the last byte.
import { constants } from 'node:os';
import path from 'node:path';
import type { ForegroundInfo, PtyPort, PtyProcess, PtySpawnOptions } from '../../server/pty/ptyPort';

type ExitStatus = { code: number | null; signal: number | null };

export class FakePtyProcess implements PtyProcess {
  readonly writes: Buffer[] = [];
  readonly resizes: [number, number][] = [];
  readonly kills: string[] = [];
  pauseCalls = 0;
  resumeCalls = 0;
  paused = false;
  exited = false;
  fgPgid: number | null;
  /** What foreground() reports for a group other than the child's own (a job the test "started"). */
  fgJob: { command: string; cwd: string | null } | null = null;
  /** The child's own cwd as foreground() reports it (tests "cd" by setting it). */
  cwd: string;
  /** Whether a kill ends the child (as a shell would); off to model a child that ignores signals. */
  exitOnKill = true;
  private dataCbs: ((d: Buffer) => void)[] = [];
  private exitCbs: ((s: ExitStatus) => void)[] = [];
  private queue: Buffer[] = [];
  private pendingExit: ExitStatus | null = null;

  constructor(
    readonly pid: number,
    readonly opts: PtySpawnOptions,
  ) {
    this.fgPgid = pid;
    this.cwd = opts.cwd;
  }

  /** What the child prints; held back while paused, as the kernel would. */
  output(data: string | Uint8Array): void {
    if (this.exited || this.pendingExit) throw new Error('fake pty: output after exit');
    this.queue.push(Buffer.from(data));
    this.flush();
  }

  /** Ends the child; the exit is reported once all its output was delivered. */
  exit(code: number | null = 0, signal: number | null = null): void {
    if (this.exited || this.pendingExit) return;
    this.pendingExit = { code, signal };
    this.flush();
  }

  /** All bytes written to the child, as one string. */
  written(): string {
    return Buffer.concat(this.writes).toString('utf8');
  }

  onData(cb: (data: Buffer) => void): void {
    this.dataCbs.push(cb);
  }

  onExit(cb: (status: ExitStatus) => void): void {
    this.exitCbs.push(cb);
  }

  write(data: string | Buffer): void {
    if (!this.exited) this.writes.push(Buffer.from(data));
  }

  resize(cols: number, rows: number): void {
    this.resizes.push([cols, rows]);
  }

  pause(): void {
    this.pauseCalls++;
    this.paused = true;
  }

  resume(): void {
    this.resumeCalls++;
    this.paused = false;
    this.flush();
  }

  kill(signal = 'SIGHUP'): void {
    if (this.exited) return;
    this.kills.push(signal);
    const n = (constants.signals as Record<string, number>)[signal];
    if (this.exitOnKill) this.exit(null, n ?? 1);
  }

  foregroundPgid(): number | null {
    return this.fgPgid;
  }

  foreground(): ForegroundInfo | null {
    if (this.exited || this.fgPgid === null) return null;
    if (this.fgPgid === this.pid || !this.fgJob) return { pgid: this.fgPgid, command: path.basename(this.opts.file), cwd: this.cwd };
    return { pgid: this.fgPgid, ...this.fgJob };
  }

  private flush(): void {
    while (!this.paused && this.queue.length) {
      const d = this.queue.shift()!;
      for (const cb of this.dataCbs) cb(d);
    }
    if (!this.paused && !this.queue.length && this.pendingExit && !this.exited) {
      this.exited = true;
      const s = this.pendingExit;
      for (const cb of this.exitCbs) cb(s);
    }
  }
}

export class FakePtyPort implements PtyPort {
  readonly spawned: FakePtyProcess[] = [];
  /** When set, the next spawn throws this instead (e.g. a program not found). */
  failNext: Error | null = null;
  private nextPid = 1000;

  spawn(opts: PtySpawnOptions): FakePtyProcess {
    if (this.failNext) {
      const e = this.failNext;
      this.failNext = null;
      throw e;
    }
    const p = new FakePtyProcess(this.nextPid++, opts);
    this.spawned.push(p);
    return p;
  }

  /** The most recently spawned process. */
  get last(): FakePtyProcess {
    const p = this.spawned[this.spawned.length - 1];
    if (!p) throw new Error('fake pty: nothing spawned yet');
    return p;
  }
}
