// Ending a process we started, and waiting (bounded) for it: a signal, a harder one
// past a grace, then a last bound on hearing of the exit. Used for a pane's program
// (SIGHUP, then SIGKILL), the sandbox helper (SIGTERM, then SIGKILL) and a stdio
// endpoint's child (its stdin closed, then SIGTERM).

/** What ending needs of a process: node-pty's and child_process's both fit through a small adapter. */
export interface Endable {
  kill(signal: NodeJS.Signals): void;
  /** Calls back once the process has exited (at once if it already has). */
  onExit(cb: () => void): void;
}

export interface EndOptions {
  /** Sent at once; omit when the process was already asked to end another way (its stdin closed). */
  first?: NodeJS.Signals;
  /** Sent when the process is still running graceMs later. */
  then: NodeJS.Signals;
  graceMs: number;
  /**
   * How long after `then` the promise still waits to hear of the exit: a process stuck
   * in the kernel (a dead NFS mount) cannot be waited for without bound. Resolves at
   * the exit, or this long after `then`; omit to resolve when `then` is sent.
   */
  afterMs?: number;
  /**
   * Lets the process's own event loop exit while the timers run (a one-shot CLI that
   * closed a child). A daemon that awaits the end keeps them referenced: its loop may
   * hold nothing else.
   */
  unref?: boolean;
}

/** Ends `p` as `o` says; resolves once it exited, or when the bounds ran out. */
export function endProcess(p: Endable, o: EndOptions): Promise<void> {
  return new Promise<void>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const arm = (ms: number, then: () => void) => {
      timer = setTimeout(then, ms);
      if (o.unref) timer.unref();
    };
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve();
    };
    p.onExit(finish);
    if (done) return;
    arm(o.graceMs, () => {
      p.kill(o.then);
      if (o.afterMs === undefined) finish();
      else arm(o.afterMs, finish);
    });
    if (o.first) p.kill(o.first);
  });
}

/** A child_process child as an Endable; its exit is heard even if it happened already. */
export function endableChild(c: import('node:child_process').ChildProcess): Endable {
  return {
    kill: (s) => void c.kill(s),
    onExit: (cb) => {
      if (c.exitCode !== null || c.signalCode !== null) cb();
      else c.once('exit', () => cb());
    },
  };
}

/**
 * Promises still pending, each dropped as it settles: what a stop waits for
 * (programs on their way out) without holding the settled ones.
 */
export class PendingSet {
  private readonly pending = new Set<Promise<void>>();

  add(p: Promise<void>): void {
    this.pending.add(p);
    const drop = () => void this.pending.delete(p);
    p.then(drop, drop);
  }

  /** Resolves once every promise added so far has settled. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.pending);
  }
}
