// "Tell me when this finishes" in the window (pane.notify, the prefix then Shift+A): the
// window asks the server to wait until what runs in the pane has finished (pane/wait
// idle), shows that it is watching, and when the line ends says so in a notice that
// names the pane and rings the tile if the person is elsewhere. A pane running nothing
// is said at once. Real Chromium, a real shell.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, shot, until, view, waitScreen, type Shell } from './shell';

let sh: Shell;

describe.skipIf(chromiumMissing)(`being told when a pane's command finishes, in Chromium${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell();
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('watches the focused pane from the prefix and Shift+A, and tells the person when its line has finished, ringing the tile they left', async () => {
    const first = (await view(sh.page)).focused!;
    await waitScreen(sh.page, first, /[$#] $/m);
    const notice = (key: string) => sh.page.locator(`.notice[data-key="${key}"]`);
    const said = (re: RegExp) => sh.page.locator('.notice').filter({ hasText: re });

    // Nothing runs: said at once.
    await sh.page.keyboard.press('Control+Shift+Space');
    await sh.page.keyboard.press('Shift+A');
    await expect.poll(() => said(/nothing runs in .*its shell is at its prompt/).count(), { timeout: 10_000 }).toBeGreaterThan(0);

    await sh.page.keyboard.type('sleep 2; echo slow-done-$((6*7))\n');
    await sh.page.keyboard.press('Control+Shift+Space');
    await sh.page.keyboard.press('Shift+A');
    await expect.poll(() => notice(`done:${first}`).innerText(), { timeout: 10_000 }).toMatch(/^watching .*: you will be told when it finishes/);
    await shot(sh.page, 'e2e-notify-watching');
    // The person goes elsewhere meanwhile.
    const other = Number(sh.cli('split', '-t', String(first), '--', 'sh').stdout.trim());
    await until(sh.page, 'the new pane focused', new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].focused === ${other}`) as () => boolean);
    // Named by the command that ran: "sleep in ~ finished", or "sleep finished" when the tag already named it (its
    // name follows the foreground 250 ms after output, so a key pressed later than that finds it named sleep).
    await expect.poll(() => said(/^sleep(?: in \S+)? finished\b/).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await waitScreen(sh.page, first, /^slow-done-42$/m);
    expect(await notice(`done:${first}`).count()).toBe(0);
    expect(await sh.page.evaluate((n) => (window as any).pane.store.getState().bells[n] === true, first)).toBe(true);
    await expect.poll(() => sh.page.locator('.pane.ringing').count()).toBe(1);
    await shot(sh.page, 'e2e-notify-finished');
  }, 90_000);
});
