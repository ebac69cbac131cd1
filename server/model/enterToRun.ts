// The wrapper a program brought back after a restart waits in (persist/resurrect.ts
// starts it; the tracker tells it from a script that waits in `read` of its own).

/**
 * The waiting program: sh reads one line (Enter), then becomes the program; end of
 * input (Ctrl-D) leaves without running it. "$@" keeps the argv exact: no shell string.
 */
export const ENTER_TO_RUN_SCRIPT = 'IFS= read -r _ || exit 0; exec "$@"';

/** Whether a launch is that wrapper (`sh -c ENTER_TO_RUN_SCRIPT NAME PROGRAM ARGS…`). */
export function waitsForEnter(launch: { args: readonly string[] } | null | undefined): boolean {
  const a = launch?.args;
  return a !== undefined && a[0] === '-c' && a[1] === ENTER_TO_RUN_SCRIPT;
}
