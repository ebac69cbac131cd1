// How every view names a program's end: "exited 0", "killed (SIGKILL)". One
// function, so the tag, the pane's body, `pane ls` and /pane files say the same.
import type { ExitStatus } from './model';

/** "exited 0", "killed (SIGKILL)", or "killed (signal 9)" where the server named no signal. */
export function exitLabel(exit: Pick<ExitStatus, 'code' | 'signal' | 'signalName'> | null): string {
  if (exit === null) return 'exited';
  if (exit.signal !== null) return `killed (${exit.signalName ?? `signal ${exit.signal}`})`;
  return `exited ${exit.code ?? '?'}`;
}
