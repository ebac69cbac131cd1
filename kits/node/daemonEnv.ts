// The environment the pane daemon runs with, on top of the user's own, and how the
// daemon takes its own settings back out before it starts anyone's programs.

/**
 * glibc's malloc settings for the daemon (issue 14, decisions 025 and 028), read by
 * glibc once, when the process starts:
 * - MALLOC_ARENA_MAX: glibc gives each thread that allocates its own arena (up to 8
 *   per core), and memory freed in one is rarely returned. The main thread, the screen
 *   worker and libuv's pool all allocate; capping them at 2 took 6-10 MiB off 20 full
 *   panes' settled RSS.
 * - MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_ at glibc's own defaults: setting
 *   them turns off glibc's sliding thresholds, which after the first large buffer was
 *   freed sent every later one up to 32 MiB into the heap, where it stays after a
 *   flood; fixed, blocks of 128 KiB and more are mapped and given back when freed, and
 *   the heap's free top is trimmed. 14 MiB off 20 full panes, server CPU unchanged.
 * A value the user set wins.
 */
export const DAEMON_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
};

/**
 * The daemon's malloc settings that `env` (a process's environment as it started)
 * did not carry: what a server started any other way (`pane serve` in the
 * foreground) sets for itself through mallopt (applyMallocSettings).
 */
export function daemonSettingsUnset(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(DAEMON_ENV).filter(([k]) => env[k] === undefined));
}

/** Names the variables daemonEnv added (comma-separated), so the daemon can drop them again. */
export const ADDED_ENV = 'PANE_DAEMON_ADDED_ENV';

/**
 * `env` with the daemon's settings added where the user has not set them, and
 * `forced` (e.g. Electron's ELECTRON_RUN_AS_NODE) over all; what was added is named
 * in ADDED_ENV for shedDaemonEnv.
 */
export function daemonEnv(env: NodeJS.ProcessEnv, forced: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const added = [...Object.keys(DAEMON_ENV), ...Object.keys(forced)].filter((k) => env[k] === undefined);
  return { ...DAEMON_ENV, ...env, ...forced, ...(added.length > 0 ? { [ADDED_ENV]: added.join(',') } : {}) };
}

/**
 * Removes what daemonEnv added from `env` (the server's own process.env, before the
 * server copies it for the panes): the programs in panes get the user's environment,
 * not 2 malloc arenas, nor Electron told to run as Node.
 */
export function shedDaemonEnv(env: NodeJS.ProcessEnv = process.env): void {
  for (const k of (env[ADDED_ENV] ?? '').split(',')) if (k) delete env[k];
  delete env[ADDED_ENV];
}
