// `pane mount DIR` and `pane umount DIR`. mount starts a separate process (this
// same executable with --foreground) that serves the namespace through FUSE,
// waits until it says the mount is up, and returns; umount stops that process.
import fs from 'node:fs';
import path from 'node:path';
import { bool } from './args';
import type { CommandSpec } from './command';
import { OpError, UsageError } from './errors';

/** How long the mount process may take to connect and mount before we give up on it. */
const READY_MS = 15_000;

export const mountCommand: CommandSpec = {
  command: 'mount',
  summary: 'serve the namespace as files at DIR through FUSE (cat DIR/3/body, echo close > DIR/3/ctl)',
  flags: [{ name: 'foreground', short: 'f', type: 'bool', doc: 'serve from this process until Ctrl-C instead of starting a mount process' }],
  positionals: [{ name: 'DIR', required: true }],
  notes: [
    'The mount process is a client of the server over its socket, like the CLI. It ends when unmounted, when `pane umount DIR` stops it, or when the server goes.',
    'A mount left by a killed mount process is cleaned up by the next `pane mount` of the same DIR. Where FUSE is unavailable, says so and exits 1.',
  ],
  async run(ctx, a) {
    const dir = path.resolve(a.positionals[0]!);
    // Loaded only here: the rest of the CLI never pays for FUSE.
    const fuse = await import('../fuse/mounts');
    const Fuse = fuse.loadFuse();
    if (typeof Fuse === 'string') throw new OpError(Fuse);
    await ctx.connect(); // no server: exit 3 before any process is started
    if (bool(a, 'foreground')) {
      const { serveMount } = await import('../fuse/serve');
      const m = await serveMount(dir, ctx.socketPath, () => ctx.out(`ready ${dir} ${process.pid}`), ctx.identityToken()).catch((e: Error) => {
        throw new OpError(e.message);
      });
      const onSignal = () => void m.stop();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      const why = await m.done;
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      ctx.err(`pane mount: ${dir}: ${why}`);
      return 0;
    }
    const stale = fuse.clearStale(dir);
    if (stale) throw new OpError(stale);
    const log = path.join(path.dirname(fuse.pidFile(dir)), `${path.basename(fuse.pidFile(dir), '.pid')}.log`);
    const logFd = fs.openSync(log, 'w');
    // Loaded here, not with the module: `pane ls` shares this chunk and would pay ~5 ms for child_process at every start.
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [process.argv[1]!, '--socket', ctx.socketPath, 'mount', '--foreground', dir], {
      detached: true,
      stdio: ['ignore', 'pipe', logFd],
      env: process.env,
    });
    fs.closeSync(logFd);
    const ok = await new Promise<boolean>((resolve) => {
      let out = '';
      const timer = setTimeout(() => resolve(false), READY_MS);
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('ready ')) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    child.stdout!.destroy();
    if (!ok) {
      if (child.exitCode === null) child.kill('SIGTERM');
      const why = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').pop() : '';
      throw new OpError(`could not mount ${dir}${why ? `: ${why.replace(/^pane: /, '')}` : ''}`);
    }
    child.unref();
    // FUSE carries only an errno back ("Invalid argument"): the server's reason is in the log.
    ctx.out(`mounted ${dir} (pid ${child.pid})\nwhy an operation was refused: ${log}`);
    return 0;
  },
};

export const umountCommand: CommandSpec = {
  command: 'umount',
  summary: 'unmount a namespace mounted with pane mount',
  flags: [],
  positionals: [{ name: 'DIR', required: true }],
  async run(ctx, a) {
    const dir = path.resolve(a.positionals[0]!);
    const fuse = await import('../fuse/mounts');
    const pid = fuse.mountPid(dir);
    if (pid === null && !fuse.isFuseMount(dir)) throw new UsageError(`${dir} is not mounted`, 'umount');
    if (pid !== null) {
      process.kill(pid, 'SIGTERM');
      // The mount process unmounts itself; wait for it, then make sure.
      for (let i = 0; i < 50 && fuse.mountPid(dir) !== null; i++) await new Promise((r) => setTimeout(r, 100));
    }
    if (fuse.isFuseMount(dir)) {
      const err = fuse.detach(dir);
      if (err) throw new OpError(err);
    }
    fuse.removePid(dir, pid ?? -1);
    ctx.out(`unmounted ${dir}`);
    return 0;
  },
};
