// `pane move` (tmux's join-pane and break-pane) as the window shows it: a pane moved
// out of the session on screen leaves its tile (the rest close up), one moved in
// appears beside the focused tile with its screen as it was, at its new size, and
// keys typed there reach the same program.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, region, shot, until, view, waitScreen, type Shell } from './shell';

let sh: Shell;

describe.skipIf(chromiumMissing)(`moving a pane between sessions in Chromium${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell();
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('takes a moved-out pane off the screen and draws a moved-in one whole, its program running on', async () => {
    const first = (await view(sh.page)).focused!;
    const made = sh.cli('split', '-t', String(first), '--', 'sh');
    expect(made.code, made.stderr).toBe(0);
    const moved = Number(made.stdout.trim());
    await waitScreen(sh.page, moved, /[$#] $/m);
    await sh.page.keyboard.type('echo before-move-$((6*7))\n');
    await waitScreen(sh.page, moved, /^before-move-42$/m);
    const tiles = () => view(sh.page).then((v) => v.tiles);

    const out = sh.cli('move', '-t', String(moved), '--new', 'aside');
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe('aside\n');
    await until(sh.page, 'the tile gone', new Function(`const st = window.pane.store.getState(); const s = st.sessions[st.sessionId]; return !s.placements.some((p) => p.pane === ${moved}) && s.focused === ${first}`) as () => boolean);
    expect(await tiles()).toEqual([first]);
    expect(await region(sh.page, moved).count()).toBe(0);
    // Keys go where the focus went back to.
    await sh.page.keyboard.type('echo still-here\n');
    await waitScreen(sh.page, first, /^still-here$/m);

    const back = sh.cli('move', '-t', String(moved), '-d', 'v', 'main');
    expect(back.code, back.stderr).toBe(0);
    await until(sh.page, 'the tile back, focused', new Function(`const st = window.pane.store.getState(); const s = st.sessions[st.sessionId]; return s.placements.some((p) => p.pane === ${moved}) && s.focused === ${moved}`) as () => boolean);
    // Its screen as it was, drawn in its new tile, and its PTY the tile's size.
    await waitScreen(sh.page, moved, /^before-move-42$/m);
    const placed = await sh.page.evaluate((n) => {
      const st = (window as any).pane.store.getState();
      const p = st.sessions[st.sessionId].placements.find((x: { pane: number }) => x.pane === n);
      return { cols: p.cols, rows: p.rows };
    }, moved);
    const sized = () => (JSON.parse(sh.cli('ls', '--json').stdout) as { n: number; cols: number; rows: number }[]).find((p) => p.n === moved);
    expect(sized()).toMatchObject(placed);
    await sh.page.keyboard.type('echo after-move-$((6*7))\n');
    await waitScreen(sh.page, moved, /^after-move-42$/m);
    expect(sh.cli('session', 'ls').stdout).not.toMatch(/^aside\s/m);
    await shot(sh.page, 'e2e-move-pane-back');
  }, 90_000);
});
