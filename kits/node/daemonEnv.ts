// The environment the pane daemon runs with, on top of the user's own.

/**
 * glibc's malloc gives each thread that allocates its own arena (up to 8 per core),
 * and memory freed in one is rarely returned to the system. The daemon's main
 * thread, its screen worker and libuv's pool all allocate buffers, so after a flood
 * the freed memory sat in several arenas: with 20 full panes, capping them at 2 took
 * 6-10 MiB off the settled RSS (issue 14, decision 025). A value the user set wins.
 */
export const DAEMON_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** `env` with the daemon's settings added where the user has not set them. */
export function daemonEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...DAEMON_ENV, ...env };
}
