// `pane sandbox --settings JSON -- PROGRAM ARGS`: what the server runs in an
// agent's pane to start its program inside the OS sandbox built from its .access,
// through @anthropic-ai/sandbox-runtime (bubblewrap on Linux, sandbox-exec on macOS).
// This process stays outside, holding the network proxies, until the program ends.
import { spawn } from 'node:child_process';
import type { CommandSpec } from '../command';
import { OpError, UsageError } from '../errors';
import { str } from '../args';

/** Shell-quotes one word for the `bash -c` string the runtime runs inside the sandbox. */
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The runtime puts bubblewrap's child in a new session (against TIOCSTI on a
 * terminal shared with the caller). Here the terminal is the agent's own pane, so
 * nothing outside reads what it could push back; in the same session the program
 * keeps the pane as its controlling terminal, so resizes (SIGWINCH) and job control
 * reach it. See docs/decisions/012-agent-sandbox.md.
 */
export function keepTerminal(wrapped: string): string {
  return wrapped.replace(/^(\S*bwrap) --new-session /, '$1 ');
}

export const sandboxCommands: CommandSpec[] = [
  {
    command: 'sandbox',
    summary: 'run PROGRAM inside an agent’s OS sandbox (pane runs this for agent panes; see `pane access NAME`)',
    flags: [{ name: 'settings', type: 'string', value: 'JSON', doc: 'the sandbox-runtime settings (pane builds them from the agent’s .access)' }],
    positionals: [],
    program: true,
    notes: ['Exits with the program’s status. The settings are JSON as @anthropic-ai/sandbox-runtime takes them: {"network": {...}, "filesystem": {...}}.'],
    async run(_ctx, a) {
      const text = str(a, 'settings');
      if (text === undefined) throw new UsageError('--settings JSON is required', 'sandbox');
      if (!a.program) throw new UsageError('give the program after --', 'sandbox');
      let config: unknown;
      try {
        config = JSON.parse(text);
      } catch (e) {
        throw new UsageError(`--settings is not JSON: ${(e as Error).message}`, 'sandbox');
      }
      const { SandboxManager } = await import('@anthropic-ai/sandbox-runtime');
      try {
        await SandboxManager.initialize(config as Parameters<typeof SandboxManager.initialize>[0]);
      } catch (e) {
        throw new OpError(`cannot start the sandbox: ${(e as Error).message}`);
      }
      const [program, ...args] = a.program as [string, ...string[]];
      // TMPDIR: the runtime sets its own shared one; the agent's is in its home (set by pane).
      const tmp = process.env.PANE_AGENT_TMPDIR;
      const command = `${tmp ? `TMPDIR=${q(tmp)} ` : ''}exec ${[program, ...args].map(q).join(' ')}`;
      const wrapped = keepTerminal(await SandboxManager.wrapWithSandbox(command));
      const child = spawn(wrapped, { shell: true, stdio: 'inherit' });
      // Ctrl-C and Ctrl-Z are for the program (the pane's foreground); this process only carries it.
      for (const sig of ['SIGINT', 'SIGQUIT', 'SIGTSTP'] as const) process.on(sig, () => undefined);
      for (const sig of ['SIGTERM', 'SIGHUP'] as const) process.on(sig, () => child.kill(sig));
      const code = await new Promise<number>((resolve) => {
        child.once('exit', (c, signal) => resolve(c ?? (signal ? 128 + (({ SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }) as Record<string, number>)[signal]! || 1 : 1)));
        child.once('error', () => resolve(127));
      });
      SandboxManager.cleanupAfterCommand?.();
      await SandboxManager.reset().catch(() => undefined);
      return code;
    },
  },
];
