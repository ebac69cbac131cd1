// Where a server's TCP hook door listens. The port is the kernel's choice at each
// start (listen on 0), never one computed from the socket path: a computable port
// can be bound first by another local user, who would then receive the hooks and
// their credentials (and answer PreToolUse). Panes learn the URL from $PANE_HOOK_URL;
// settings written to disk (`pane hook install`) name a command, never a port.

/** The hook URL for a port on loopback (the TCP door, or the relay inside an agent's sandbox). */
export const hookUrl = (port: number) => `http://127.0.0.1:${port}/hook`;
