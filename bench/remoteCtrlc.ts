// Ctrl-C in a flooding REMOTE pane, in the window: a second daemon joined as a
// command host (`pane serve --stdio` to its socket, as a host file names it), one of
// its panes running bash tiled in the window's session as a stand-in (`pane host
// show`), `yes` typed into it through the page, then Ctrl-C; timed, as the local
// row is (bench/renderer.ts), from the key to the last byte the stand-in's xterm
// parses before QUIET_MS of silence, and whether the shell's prompt then ends its
// screen. The window drops what waits for it and resumes where the key reached the
// program on the host (pty/attach's atInput, asked of the host; decision 042). Each cycle is followed by a tmux one
// (Ctrl-C under `yes`, seen through an attached client: bench/ctrlc.ts's tmuxSide),
// so the row's anchor is measured beside it and not minutes earlier: the local
// row's tmux p95 read 14 to 45 ms between runs of this machine.
/* eslint-disable @typescript-eslint/no-explicit-any */
import fs from 'node:fs';
import path from 'node:path';
import { floodThenInterrupt, QUIET_MS, tmuxSide } from './ctrlc';
import { focusTerm, interruptToQuiet, parsedState, waitParsedPast, watchPane, type Shell } from './page';
import { client, paneBin, sleep, startServerProc } from './procs';

/** Parsed bytes of the flood in the page before the key: flow control has engaged, as in the local row. */
const FLOOD_BEFORE_KEY = 256 << 10;
/** How long the flood may take to reach FLOOD_BEFORE_KEY in the page. */
const FLOOD_WAIT_MS = 15_000;

export interface RemoteCtrlc {
  /** Key → last parsed byte (ms), one per cycle. */
  ctrlc: number[];
  /** Bytes parsed after the key, one per cycle. */
  after: number[];
  /** The anchor: tmux's key → last parsed byte (ms), one per cycle, each right after ours; empty without tmux. */
  tmux: number[];
  /** Whether the shell's prompt ended the stand-in's screen once quiet, one per cycle. */
  prompts: boolean[];
}

export async function remoteCtrlc(sh: Shell, dir: string, cycles: number, withTmux: boolean): Promise<RemoteCtrlc> {
  const remote = await startServerProc(path.join(dir, 'remote'));
  const hosts = path.join(sh.served.dir, 'config', 'pane', 'hosts');
  fs.mkdirSync(hosts, { recursive: true });
  fs.writeFileSync(path.join(hosts, 'box.json'), JSON.stringify({ how: { via: 'command', argv: [process.execPath, paneBin, 'serve', '--stdio', '--socket', remote.socket] } }));
  const r = await client(remote.socket, 'bench-remote-ctrlc');
  let standIn = 0;
  const tm = withTmux ? await tmuxSide() : null;
  try {
    const joined = await sh.c.call('host/connect', { name: 'box' });
    if (joined.state !== 'connected') throw new Error(`bench: the command host did not join: ${joined.error ?? joined.state}`);
    // The remote daemon runs --empty: this session's pane is its only one.
    await r.call('session/new', { name: 'flood', launch: { program: '/bin/bash', args: ['--norc', '--noprofile', '-i'] } });
    const n = (await r.call('pane/list', {})).panes[0]!.n;
    standIn = (await sh.c.call('host/show', { remote: `box:${n}`, pane: sh.first, direction: 'horizontal' })).pane;
    await sh.page.waitForFunction((p) => (window as any).pane.term(p)?.element != null && /[$#] $/m.test((window as any).pane.screen(p) ?? ''), standIn, { timeout: 20_000, polling: 50 });
    await watchPane(sh.page, standIn);
    await focusTerm(sh.page, standIn);
    const ctrlc: number[] = [];
    const after: number[] = [];
    const tmux: number[] = [];
    const prompts: boolean[] = [];
    for (let i = 0; i < cycles; i++) {
      const b0 = (await parsedState(sh.page, standIn)).bytes;
      // Typed as the local row's is, by the bench's client: the stand-in passes it to the remote pane.
      await sh.c.call('pane/input', { pane: standIn, data: 'yes\r' });
      await waitParsedPast(sh.page, standIn, b0, FLOOD_BEFORE_KEY, FLOOD_WAIT_MS, 'the remote flood');
      await sleep(100 + Math.random() * 100);
      const q = await interruptToQuiet(sh.page, standIn, QUIET_MS);
      ctrlc.push(q.ms);
      prompts.push(q.prompt);
      after.push(q.after);
      if (tm) {
        tmux.push((await floodThenInterrupt(tm)).ms);
      }
    }
    return { ctrlc, after, tmux, prompts };
  } finally {
    await tm?.close();
    if (standIn > 0) await sh.c.call('pane/close', { pane: standIn }).catch(() => undefined);
    await sh.c.call('host/disconnect', { name: 'box' }).catch(() => undefined);
    r.close();
    await remote.stop();
  }
}
