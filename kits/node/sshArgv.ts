// The system ssh's argv for a host (issue 26): the person's own client, config,
// agent and keys, batch mode, connection reuse (ControlMaster). The daemon joins a
// host with it (`pane serve --stdio` there); `pane host pair` runs `pane host pair-serve`
// there through the same argv, sharing the daemon's master connection.
import crypto from 'node:crypto';
import type { HostHow } from '../protocol/host';

/**
 * How long ssh's shared master connection outlives its last link (ControlPersist):
 * a reconnect within it skips the ssh handshake, as kitty's ssh kitten does.
 */
export const SSH_CONTROL_PERSIST_S = 60;

/**
 * The master connection's socket for a host's reach: a hash of everything in the
 * host file that decides how ssh logs in (destination, port, config file, options).
 * ssh's own %C hashes only the local host, remote host, port and user, so two host
 * files naming one account with other keys or ssh_config would share a connection,
 * the second logged in as the first. Not %C as well: ssh adds a 17-byte suffix while
 * it sets the socket up, and a socket path has 108 bytes; 16 hex digits are enough.
 */
export function controlPathOf(how: Extract<HostHow, { via: 'ssh' }>, controlDir: string): string {
  const reach = JSON.stringify([how.destination, how.port ?? null, how.configFile ?? null, Object.entries(how.options ?? {}).sort(([a], [b]) => a.localeCompare(b))]);
  return `${controlDir}/${crypto.createHash('sha256').update(reach).digest('hex').slice(0, 16)}`;
}

/** The ssh argv: batch mode (a prompt would hang the daemon), reuse, the file's options, then `--`, the destination and the remote pane's subcommand (`serve --stdio`; `host pair-serve` for pairing). */
export function sshArgv(how: Extract<HostHow, { via: 'ssh' }>, controlDir: string, remote: readonly string[] = ['serve', '--stdio']): string[] {
  return sshCommandArgv(how, controlDir, [how.pane ?? 'pane', ...remote]);
}

/** The same ssh argv running `command` on the remote (its shell reads it: `pane host install` sends a script). */
export function sshCommandArgv(how: Extract<HostHow, { via: 'ssh' }>, controlDir: string, command: readonly string[]): string[] {
  const argv = ['ssh', '-T', '-e', 'none', '-o', 'BatchMode=yes'];
  // %C is a hash of the connection (local host, remote host, port, user): short enough for sun_path.
  argv.push('-o', 'ControlMaster=auto', '-o', `ControlPath=${controlPathOf(how, controlDir)}`, '-o', `ControlPersist=${SSH_CONTROL_PERSIST_S}`);
  if (how.configFile !== undefined) argv.push('-F', how.configFile);
  if (how.port !== undefined) argv.push('-p', String(how.port));
  for (const [k, v] of Object.entries(how.options ?? {})) argv.push('-o', `${k}=${v}`);
  argv.push('--', how.destination, ...command);
  return argv;
}
