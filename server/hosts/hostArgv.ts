// The command line that reaches a host's `pane serve --stdio`: the system ssh
// (the person's own client, config, agent and keys) with connection reuse, or the
// file's own argv (docker exec -i, kubectl exec -i, a VM's console).
import { controlPathOf, sshArgv } from '../../kits/node/sshArgv';
import type { HostHow } from '../../kits/protocol/host';

export { SSH_CONTROL_PERSIST_S, sshArgv } from '../../kits/node/sshArgv';

/** The argv for a host; `controlDir` is a private directory (the server's runtime dir) for ssh's control sockets. */
export function hostArgv(how: HostHow, controlDir: string): string[] {
  switch (how.via) {
    case 'command':
      return [...how.argv];
    case 'ssh':
      return sshArgv(how, controlDir);
    case 'tls':
      throw new Error('a tls host is dialled by Node\'s tls (tlsDial.ts), not by a command');
  }
}

/** Stops ssh's shared master for this host (ssh -O exit), so none outlives the server. */
export function sshExitArgv(how: Extract<HostHow, { via: 'ssh' }>, controlDir: string): string[] {
  const argv = ['ssh', '-o', 'BatchMode=yes', '-o', `ControlPath=${controlPathOf(how, controlDir)}`, '-O', 'exit'];
  if (how.configFile !== undefined) argv.push('-F', how.configFile);
  if (how.port !== undefined) argv.push('-p', String(how.port));
  for (const [k, v] of Object.entries(how.options ?? {})) argv.push('-o', `${k}=${v}`);
  argv.push('--', how.destination);
  return argv;
}
