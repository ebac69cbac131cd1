// A window opened on a pane after its program set up its terminal goes on as the program
// expects (decision 058): here a scroll region with a bar kept below it, as apt keeps its
// progress bar. The page is reloaded after the program set it, so the window starts from
// the daemon's snapshot; the lines typed after scroll inside the region alone, and the
// bar stays on its row, as the daemon's own screen has it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, screen, until, view, waitScreen, type Shell } from './shell';

let sh: Shell;

describe.skipIf(chromiumMissing)(`a window opened later${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell();
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('keeps the program’s scroll region: later lines scroll inside it, the bar below stays', async () => {
    const n = (await view(sh.page)).focused!;
    await waitScreen(sh.page, n, /[$#] $/m);
    // Rows 1-3 scroll; the bar is on row 9; cat holds the terminal, echoing what is typed.
    const r = sh.cli('send', '-t', String(n), "clear; printf '\\033[1;3r\\033[9;1HBAR-%s\\033[3;1H' $((6*7)); cat");
    expect(r.code, r.stderr).toBe(0);
    await waitScreen(sh.page, n, /^BAR-42$/m);
    await sh.page.reload();
    await until(sh.page, 'the window to connect again', () => (window as any).pane?.store.getState().conn.state === 'open', 30_000);
    await waitScreen(sh.page, n, /^BAR-42$/m);
    for (let i = 1; i <= 5; i++) expect(sh.cli('send', '-t', String(n), `line-${i}`).code).toBe(0);
    const shown = await waitScreen(sh.page, n, /^line-5\n(.*\n)*BAR-42$/m);
    // The bar is still there once, on its own row: no line was written over it.
    expect(shown.split('\n').filter((l) => l.includes('BAR-42'))).toEqual(['BAR-42']);
    // And the window shows what the daemon's screen has.
    const daemon = sh.cli('screen', '-t', String(n)).stdout.trimEnd().split('\n').slice(-9).join('\n');
    expect(daemon).toMatch(/^line-5\n(.*\n)*BAR-42$/m);
    expect((await screen(sh.page, n)).trimEnd().split('\n').slice(-9).join('\n')).toBe(daemon);
  });
});
