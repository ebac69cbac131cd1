// The session's focus history (Session.recent) in a window opened after the focus
// moved: its switcher's first step goes to the pane focused before, as the window
// that saw the moves would, not to the next pane in layout order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, until, waitScreen, type Shell } from './shell';

let sh: Shell;

describe.skipIf(chromiumMissing)(`the focus history in a new window${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell();
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('steps the switcher back to the pane focused before, moves made before the window opened', async () => {
    const st = () => sh.page.evaluate(() => { const s = (window as any).pane.store.getState(); return s.sessions[s.sessionId].focused as number; });
    const first = await st();
    const split = (from: number) => {
      const r = sh.cli('split', '-t', String(from), '--', 'sh');
      expect(r.code, r.stderr).toBe(0);
      return Number(r.stdout.trim());
    };
    const second = split(first);
    const third = split(second);
    expect(sh.cli('focus', '-t', String(first)).code).toBe(0);
    // In layout order the switcher's next pane would be the second; the one focused before is the third.
    const page = await sh.context.newPage();
    try {
      await page.goto(sh.url);
      await waitScreen(page, third, /[$#] $/m);
      await until(page, 'the first pane focused', new Function(`const s = window.pane.store.getState(); return s.sessions[s.sessionId].focused === ${first}`) as () => boolean);
      await page.keyboard.down('Control');
      await page.keyboard.down('Shift');
      await page.keyboard.press('KeyS');
      await page.keyboard.up('Shift');
      await page.keyboard.up('Control');
      await until(page, 'the pane focused before', new Function(`const s = window.pane.store.getState(); return s.sessions[s.sessionId].focused === ${third}`) as () => boolean);
    } finally {
      await page.close();
    }
  }, 60_000);
});
