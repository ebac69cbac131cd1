// Where a server's hook endpoint listens: a loopback port derived from its socket
// path, so it is the same after every restart and `pane hook install` can name it.
import crypto from 'node:crypto';

/** Hook ports live here: above the well-known and registered-service crowd, below Linux's ephemeral range (32768+). */
export const HOOK_PORT_BASE = 20000;
export const HOOK_PORT_SPAN = 12000;

/** The port for a socket path ($PANE_HOOK_PORT overrides it). */
export function hookPort(socketPath: string, env: Record<string, string | undefined> = process.env): number {
  const forced = Number(env.PANE_HOOK_PORT);
  if (Number.isInteger(forced) && forced > 0 && forced < 65536) return forced;
  const h = crypto.createHash('sha256').update(socketPath).digest();
  return HOOK_PORT_BASE + (h.readUInt32BE(0) % HOOK_PORT_SPAN);
}

export const hookUrl = (port: number) => `http://127.0.0.1:${port}/hook`;
