// What a watcher of the daemon (npm start's bridge with no window of its own) learns
// when it stops: a stop someone asked for (`pane stop`) is said on the watcher's own
// connection, with who asked, so it ends at once; a daemon that just exits (a signal,
// a crash) says nothing, and the watcher waits SERVER_BACK_MS to see it come back.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serverStopped, SERVER_BACK_MS } from '../../server/daemonStart';
import { buildOnce, serve, until, type Served } from './harness';

let s: Served | undefined;
beforeAll(() => buildOnce(), 120_000);
afterEach(async () => {
  await s?.stop();
  s = undefined;
});

/** The watch is connected: the daemon lists it among its clients. */
async function watching(x: Served): Promise<void> {
  await until('the watch to connect', () => (x.pane(['clients']).stdout.includes('pane-start') ? true : undefined), 10_000);
}

describe('serverStopped', () => {
  it('settles at once with the server’s word when a client stopped it, naming who', async () => {
    s = await serve();
    let settled: string | undefined | null = null;
    const watch = serverStopped(s.socket).then((w) => (settled = w));
    await watching(s);
    expect(settled).toBeNull();
    const stop = s.pane(['stop', '--yes']);
    expect(stop.status, stop.stderr).toBe(0);
    // pane stop returns once the daemon is done; the watch heard the word before its connection closed.
    await watch;
    expect(settled).toBe('the pane server was stopped by the person (pane stop); its panes have ended');
  }, 30_000);

  it('waits for a daemon that exits on a signal to come back, and settles with nothing said when it does not', async () => {
    s = await serve();
    const watch = serverStopped(s.socket);
    await watching(s);
    const at = Date.now();
    s.proc.kill('SIGTERM');
    expect(await watch).toBeUndefined();
    // It gave the daemon its time to come back (systemd's restart) before calling it stopped.
    expect(Date.now() - at).toBeGreaterThanOrEqual(SERVER_BACK_MS);
  }, 30_000);
});

describe('a CLI that follows the daemon', () => {
  it('ends saying who stopped the daemon, not that its peer closed', async () => {
    s = await serve();
    const follow = s.spawnPane(['output', '-t', '1', '--follow']);
    const watch = s.spawnPane(['watch']);
    let said = '';
    for (const p of [follow, watch]) p.stderr!.on('data', (b: Buffer) => (said += b.toString()));
    const ended = (p: typeof follow) => new Promise<number | null>((r) => (p.exitCode !== null ? r(p.exitCode) : p.once('exit', (c) => r(c))));
    await until('both to attach', () => ((s!.pane(['clients']).stdout.match(/pane-cli/g) ?? []).length >= 2 ? true : undefined), 10_000);
    expect(s.pane(['stop', '--yes']).status).toBe(0);
    await Promise.all([ended(follow), ended(watch)]);
    const word = 'pane: the pane server was stopped by the person (pane stop); its panes have ended';
    expect(said.split('\n').filter((l) => l === word)).toHaveLength(2);
    expect(said).not.toContain('peer closed');
  }, 30_000);
});
