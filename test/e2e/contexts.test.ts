// Contexts in real Chromium (issue 36.3): two windows on one session, the second
// following the context "review" (?context=review). Clicking "zoom" in its tag zooms
// that pane in the review window alone — it shows that pane by itself — while the
// person's window keeps both panes, unzoomed, and its focus where it was.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, region, shot, until, type Shell } from './shell';

let sh: Shell;

describe.skipIf(chromiumMissing)(`contexts${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell();
  }, 60_000);
  afterAll(() => sh?.close());

  it('zooms a pane in the review window alone; the person’s window keeps its layout and focus', async () => {
    const st = () => sh.page.evaluate(() => {
      const s = (window as any).pane.store.getState();
      const sess = s.sessions[s.sessionId];
      return { focused: sess.focused as number, zoomed: sess.zoomed as number | null };
    });
    const first = (await st()).focused;
    const second = Number(sh.cli('split', '-t', String(first)).stdout.trim().split(':').pop());
    expect(sh.cli('focus', '-t', String(first)).code).toBe(0);
    await until(sh.page, 'the second pane drawn and the first focused', () => {
      const s = (window as any).pane.store.getState();
      return document.querySelectorAll('section[role="region"]').length === 2 && s.sessions[s.sessionId].focused !== null;
    });
    const review = await sh.context.newPage();
    await review.goto(`${sh.page.url().replace(/\?.*$/, '')}?context=review`);
    await until(review, 'the review window in its context', () => (window as any).pane?.store.getState().context?.name === 'review');
    await region(review, second).getByRole('toolbar').getByRole('button', { name: 'zoom', exact: true }).click();
    await until(review, 'the review window showing the zoomed pane alone', () => document.querySelectorAll('section[role="region"]').length === 1);
    expect(await review.evaluate((n) => document.querySelector(`section[role="region"][data-pane="${n}"]`) !== null, second)).toBe(true);
    expect(await review.locator('.sl-zoom').textContent()).toMatch(/^ZOOM /);
    // The person's window: both panes, no zoom, its focus unmoved.
    await new Promise((r) => setTimeout(r, 300));
    expect(await sh.page.evaluate(() => document.querySelectorAll('section[role="region"]').length)).toBe(2);
    expect(await st()).toEqual({ focused: first, zoomed: null });
    await shot(review, 'contexts-review-zoomed');
    await shot(sh.page, 'contexts-person-unmoved');
    await review.close();
  });
});
