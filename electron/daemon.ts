// The per-user daemon: one pane server that owns the panes and outlives every window.
// `ensureDaemon` (server/daemonStart.ts, shared with `pane serve --stdio`) finds it on
// the socket or starts it detached; `runDaemon` is that server's body
// (`start.mjs --daemon`, also what the systemd user unit runs).
import { stateDir } from '../kits/node/paths';

export { daemonCodeReplaced, daemonLog, ensureDaemon, serverAnswers, serverStopped, startScript, type Ensured } from '../server/daemonStart';

/** The daemon itself, in the foreground: serves until `pane stop`, SIGTERM or SIGINT. */
export async function runDaemon(o: { socketPath: string; state?: string }): Promise<number> {
  const dir = o.state ?? stateDir();
  const stamp = () => new Date().toISOString();
  const say = (s: string) => process.stderr.write(`${stamp()} pane daemon: ${s}\n`);
  let running;
  try {
    // Loaded here, not at the top: the window's process (`npm start`) imports this file for ensureDaemon only.
    const [{ startServer }, { attachConfig }] = await Promise.all([import('../server/main'), import('../server/config/configService')]);
    running = await startServer({ socketPath: o.socketPath, stateDir: dir, warn: (m) => say(`state: ${m}`) });
    attachConfig(running.services);
  } catch (e) {
    say(`cannot start: ${(e as Error).message}`);
    return 1;
  }
  say(`pid ${process.pid} serving ${o.socketPath}; state in ${dir}; ${running.restored ? `brought back ${running.restored} session(s)` : 'a fresh session'}; ready ${Math.round(process.uptime() * 1000)} ms after its start`);
  return new Promise<number>((resolve) => {
    const stop = (why: string) => {
      say(`stopping (${why})`);
      void running.stop().then(() => resolve(0));
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('pane:stopped' as never, () => {
      say('stopped by pane stop');
      resolve(0);
    });
  });
}
