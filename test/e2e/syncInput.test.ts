// Synced typing (input.sync, tmux's synchronize-panes): the prefix's Shift+S makes the
// window's keys go to every terminal pane of the session on screen, marks them and says
// SYNC; a hidden pane and a pane whose program ended take nothing; the same key stops it.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, region, shot, until, view, waitScreen, type Shell } from './shell';

/* eslint-disable @typescript-eslint/no-explicit-any */
let sh: Shell;

describe.skipIf(chromiumMissing)(`synced typing in Chromium${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell();
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('types into every terminal pane on screen while on, marks them, and into the focused one alone once off', async () => {
    const first = (await view(sh.page)).focused!;
    const made = (args: string[]) => {
      const r = sh.cli(...args);
      expect(r.code, r.stderr).toBe(0);
      return Number(r.stdout.trim());
    };
    const second = made(['split', '-t', String(first), '-d', 'h', '--', 'sh']);
    const third = made(['split', '-t', String(second), '-d', 'v', '--', 'sh']);
    // A hidden pane (in the dock) and one whose program has ended take no copy.
    const hidden = made(['split', '-t', String(third), '-d', 'v', '--', 'sh']);
    expect(sh.cli('hide', '-t', String(hidden)).code).toBe(0);
    const ended = made(['split', '-t', String(first), '-d', 'v', '--', 'true']);
    await until(sh.page, 'the ended pane to be exited', new Function(`return window.pane.store.getState().panes[${ended}]?.state === 'exited'`) as () => boolean);
    expect(sh.cli('focus', '-t', String(first)).code).toBe(0);
    await until(sh.page, 'the first pane focused', new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].focused === ${first}`) as () => boolean);
    for (const n of [first, second, third]) await waitScreen(sh.page, n, /[$#] $/m);

    await sh.page.keyboard.press('Control+Shift+Space');
    await sh.page.keyboard.press('Shift+S');
    const status = sh.page.getByRole('contentinfo', { name: 'status' });
    await expect.poll(() => status.innerText()).toContain('SYNC');
    expect(await sh.page.locator('section.pane.synced').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-pane'))).sort((a, b) => a - b))).toEqual([first, second, third].sort((a, b) => a - b));
    await sh.page.keyboard.type('echo synced-$((6*7))\n');
    for (const n of [first, second, third]) await waitScreen(sh.page, n, /^synced-42$/m);
    await shot(sh.page, 'e2e-sync-input');
    expect(sh.cli('screen', '-t', String(hidden)).stdout).not.toContain('synced');
    // Ctrl+C goes to each too (a command started everywhere is stopped everywhere).
    await sh.page.keyboard.type('sleep 300\n');
    // Pressed once `sleep` holds each terminal's foreground: a Ctrl+C that comes while the shell is still
    // handing it the terminal reaches neither (the shell ignores it, waiting; sleep's group is not yet the
    // foreground), and sleep would run its 300 s. A person presses it at something running; so does this.
    const shells = (JSON.parse(sh.cli('ls', '--json').stdout) as { n: number; pid: number | null }[]).filter((p) => [first, second, third].includes(p.n)).map((p) => p.pid);
    expect(shells.every((pid) => pid !== null)).toBe(true);
    const sleeping = () => {
      const rows = spawnSync('ps', ['-eo', 'ppid=,pgid=,tpgid=,args='], { encoding: 'utf8' }).stdout.split('\n').map((l) => l.trim().split(/\s+/));
      // Each shell's `sleep 300` is its terminal's foreground group (tpgid: the group the terminal reads for).
      return shells.every((pid) => rows.some(([ppid, pgid, tpgid, ...args]) => Number(ppid) === pid && pgid === tpgid && args.join(' ') === 'sleep 300'));
    };
    await expect.poll(sleeping, { timeout: 15_000, interval: 100 }).toBe(true);
    await sh.page.keyboard.press('Control+C');
    // Each shell's prompt is back first: a line typed ahead of it may be flushed with the interrupt (dash does).
    for (const n of [first, second, third]) await waitScreen(sh.page, n, /\^C\s*\n[^\n]*[$#] $/);
    await sh.page.keyboard.type('echo after-interrupt\n');
    for (const n of [first, second, third]) await waitScreen(sh.page, n, /^after-interrupt$/m);

    // The same key stops it: the next line goes to the focused pane alone.
    await sh.page.keyboard.press('Control+Shift+Space');
    await sh.page.keyboard.press('Shift+S');
    await expect.poll(() => status.innerText()).not.toContain('SYNC');
    expect(await sh.page.locator('section.pane.synced').count()).toBe(0);
    await sh.page.keyboard.type('echo alone-$((6*7))\n');
    await waitScreen(sh.page, first, /^alone-42$/m);
    await new Promise((r) => setTimeout(r, 300));
    for (const n of [second, third]) expect(await region(sh.page, n).innerText()).not.toContain('alone-42');
  }, 90_000);
});
