// `pane attach` run as a person runs it: the built CLI in a real terminal (a PTY),
// its screen read back through xterm's parser. Shared by the local and remote tests.
import * as pty from '@lydell/node-pty';
import { Terminal } from '@xterm/headless';
import { afterEach } from 'vitest';
import { BIN, until } from './harness';

export interface Attached {
  /** Every byte the attach wrote to its terminal. */
  raw: () => string;
  /** Its terminal's screen as text, a row a line. */
  screen: () => string;
  type: (s: string) => void;
  exit: Promise<number>;
  term: Terminal;
  proc: pty.IPty;
}

const open: pty.IPty[] = [];
afterEach(() => {
  for (const p of open.splice(0)) {
    try {
      p.kill();
    } catch {
      // ended already
    }
  }
});

/** `pane ARGV` (ending in `attach ...`) in a cols×rows terminal, with `env`. */
export function attachIn(argv: string[], env: Record<string, string>, cols: number, rows: number): Attached {
  const proc = pty.spawn(BIN, argv, { cols, rows, env, name: 'xterm-256color' });
  open.push(proc);
  const term = new Terminal({ cols, rows, allowProposedApi: true });
  let raw = '';
  proc.onData((d) => {
    raw += d;
    term.write(d);
  });
  const exit = new Promise<number>((resolve) => proc.onExit((e) => resolve(e.exitCode)));
  const screen = (): string => {
    const b = term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < term.rows; y++) lines.push(b.getLine(b.viewportY + y)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
  return { raw: () => raw, screen, type: (s) => proc.write(s), exit, term, proc };
}

export async function shows(a: Attached, what: string, re: RegExp, ms = 15_000): Promise<void> {
  await until(`the attached screen to show ${what}:\n${a.screen()}`, () => re.test(a.screen()), ms);
}
