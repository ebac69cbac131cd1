// The command line that reaches a host's `pane serve --stdio`: the system ssh
// (the person's own client, config, agent and keys) with connection reuse, or the
// file's own argv (docker exec -i, kubectl exec -i, a VM's console).
import type { HostHow } from '../../kits/protocol/host';

/**
 * How long ssh's shared master connection outlives its last link (ControlPersist):
 * a reconnect within it skips the ssh handshake, as kitty's ssh kitten does.
 */
export const SSH_CONTROL_PERSIST_S = 60;

/** The argv for a host; `controlDir` is a private directory (the server's runtime dir) for ssh's control sockets. */
export function hostArgv(how: HostHow, controlDir: string): string[] {
  switch (how.via) {
    case 'command':
      return [...how.argv];
    case 'ssh':
      return sshArgv(how, controlDir);
    case 'tls':
      throw new Error('tls hosts are not joined yet (issue 26: pane host pair comes later); reach this host by ssh:// or a command meanwhile');
  }
}

/** The ssh argv: batch mode (a prompt would hang the daemon), reuse, the file's options, then `--` and the destination. */
export function sshArgv(how: Extract<HostHow, { via: 'ssh' }>, controlDir: string): string[] {
  const argv = ['ssh', '-T', '-e', 'none', '-o', 'BatchMode=yes'];
  // %C is a hash of the connection (local host, remote host, port, user): short enough for sun_path.
  argv.push('-o', 'ControlMaster=auto', '-o', `ControlPath=${controlDir}/%C`, '-o', `ControlPersist=${SSH_CONTROL_PERSIST_S}`);
  if (how.configFile !== undefined) argv.push('-F', how.configFile);
  if (how.port !== undefined) argv.push('-p', String(how.port));
  for (const [k, v] of Object.entries(how.options ?? {})) argv.push('-o', `${k}=${v}`);
  argv.push('--', how.destination, how.pane ?? 'pane', 'serve', '--stdio');
  return argv;
}

/** Stops ssh's shared master for this host (ssh -O exit), so none outlives the server. */
export function sshExitArgv(how: Extract<HostHow, { via: 'ssh' }>, controlDir: string): string[] {
  const argv = ['ssh', '-o', 'BatchMode=yes', '-o', `ControlPath=${controlDir}/%C`, '-O', 'exit'];
  if (how.configFile !== undefined) argv.push('-F', how.configFile);
  if (how.port !== undefined) argv.push('-p', String(how.port));
  for (const [k, v] of Object.entries(how.options ?? {})) argv.push('-o', `${k}=${v}`);
  argv.push('--', how.destination);
  return argv;
}
