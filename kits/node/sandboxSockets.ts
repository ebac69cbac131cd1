// Zod-free, so the one-shot CLI's `pane sandbox` can read it without loading the protocol schemas.
/**
 * Whether sandboxed programs may make unix sockets: not on Linux, where the runtime's seccomp
 * filter holds them and pane reaches the agent's sockets by relays on the sandbox's loopback;
 * on macOS the profile takes sockets by path and pane has no relay, so they stay allowed.
 */
export const UNIX_SOCKETS_ALLOWED = process.platform !== 'linux';
