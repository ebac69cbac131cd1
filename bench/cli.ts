// CLI one-shot cost: `pane ls` against a running server vs `node -e 0` and
// `tmux list-sessions`; and `pane ls --json` with 1,000 panes.
import { spawnSync } from 'node:child_process';
import { client, paneBin, startServerProc, timeCommand, tmux } from './procs';
import { summarize, type Summary } from './stats';

export interface CliResult {
  paneLs: Summary;
  nodeE0: Summary;
  tmuxLs: Summary | null;
  lsJson1000: Summary;
}

export async function cli(dir: string, runs: number, withTmux: boolean): Promise<CliResult> {
  const srv = await startServerProc(dir);
  const sock = `panebenchcli${process.pid}`;
  try {
    const c = await client(srv.socket);
    await c.call('session/new', { name: 'cli', launch: { program: '/bin/cat', args: [] } });
    if (withTmux) tmux(sock, 'new-session', '-d', 'cat');
    const env = { ...process.env, PANE_SOCKET: srv.socket };
    const paneLs: number[] = [];
    const nodeE0: number[] = [];
    const tmuxLs: number[] = [];
    for (let i = 0; i < 3; i++) timeCommand(process.execPath, [paneBin, 'ls'], env); // warm the page cache
    for (let i = 0; i < runs; i++) {
      paneLs.push(timeCommand(process.execPath, [paneBin, 'ls'], env));
      nodeE0.push(timeCommand(process.execPath, ['-e', '0']));
      if (withTmux) tmuxLs.push(timeCommand('tmux', ['-L', sock, 'list-sessions']));
    }
    // 1,000 panes: text panes cost no process, so this measures the listing alone.
    await c.call('session/new', { name: 'many', launch: { program: '/bin/cat', args: [] } });
    for (let i = 0; i < 999; i++) await c.call('float/create', { session: 'many', kind: 'text', name: `t${i}` });
    const lsJson: number[] = [];
    for (let i = 0; i < Math.max(5, Math.floor(runs / 2)); i++) lsJson.push(timeCommand(process.execPath, [paneBin, 'ls', '--json', '--session', 'many'], env));
    c.close();
    return { paneLs: summarize(paneLs), nodeE0: summarize(nodeE0), tmuxLs: withTmux ? summarize(tmuxLs) : null, lsJson1000: summarize(lsJson) };
  } finally {
    if (withTmux) spawnSync('tmux', ['-L', sock, 'kill-server']);
    await srv.stop();
  }
}
