// All OS pseudo-terminal access goes through this port (Zellij's rule), so the
// runtime can be driven by node-pty for real and by a fake in unit tests.

export interface PtySpawnOptions {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
}

export interface PtyProcess {
  readonly pid: number;
  /** Raw output bytes, in order; `data` may be a view into a reused read buffer, valid only during the call (copy what is kept). */
  onData(cb: (data: Buffer) => void): void;
  /**
   * Called once, after the child exited AND its output was read to end of file
   * (node-pty can report exit before the last bytes: node-pty issue #726).
   */
  onExit(cb: (status: { code: number | null; signal: number | null }) => void): void;
  write(data: string | Buffer): void;
  /** Input bytes written but not yet taken by the terminal (the program is not reading); 0 where unknown. */
  queuedInput?(): number;
  resize(cols: number, rows: number): void;
  pause(): void;
  resume(): void;
  kill(signal?: string): void;
  /** The foreground process group of the terminal, where the platform tells it. */
  foregroundPgid(): number | null;
  /** What runs in the foreground (its group leader's command and cwd), where the platform tells it. */
  foreground(): ForegroundInfo | null;
  /**
   * Whether the terminal reads whole lines (termios ICANON: the kernel's line editor, as
   * a shell under `stty -echo` or a password prompt has it) rather than each key (a TUI,
   * readline): undefined where it cannot be told.
   */
  readsLines?(): Promise<boolean | undefined>;
}

/** The terminal's foreground process group: what the user is running in it right now. */
export interface ForegroundInfo {
  pgid: number;
  /** argv[0]'s base name (vim, htop, bash), else the kernel's short name. */
  command: string;
  /** The group leader's working directory, when readable. */
  cwd: string | null;
}

export interface PtyPort {
  spawn(opts: PtySpawnOptions): PtyProcess;
}
