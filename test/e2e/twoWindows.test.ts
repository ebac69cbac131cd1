// Two windows of different sizes on one session (issue 36 item 3: never a resize
// storm). Under the default `latest` policy the session takes the size of the window
// last resized or typed in; the other window shows the panes at that size and does not
// answer with its own, so the size settles at once instead of flipping between them.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, until, type Shell } from './shell';

let sh: Shell;

describe.skipIf(chromiumMissing)(`two windows on one session${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell({ viewport: { width: 1280, height: 800 } });
  }, 60_000);
  afterAll(() => sh?.close());

  it('settles on one size when a smaller second window opens, with no back-and-forth', async () => {
    const big = sh.page;
    const sizeOf = (page: typeof big) => page.evaluate(() => {
      const st = (window as any).pane.store.getState();
      const v = st.sessions[st.sessionId]?.viewport;
      return v ? `${v.cols}x${v.rows}` : '';
    });
    const first = await sizeOf(big);
    // Every size the big window sees the session take from here on.
    await big.evaluate(() => {
      const w = window as any;
      w.__sizes = [];
      w.pane.store.subscribe((st: any) => {
        const v = st.sessions[st.sessionId]?.viewport;
        const s = v ? `${v.cols}x${v.rows}` : '';
        if (w.__sizes.at(-1) !== s) w.__sizes.push(s);
      });
    });
    const small = await sh.context.newPage();
    await small.setViewportSize({ width: 700, height: 500 });
    await small.goto(big.url().replace(/\?.*$/, ''));
    await until(small, 'the second window connected', () => (window as any).pane?.store.getState().conn.state === 'open');
    // The small window opened last: the session takes its size (latest), once.
    await until(big, 'the size taken from the small window', () => (window as any).__sizes.length >= 1, 15_000);
    await new Promise((r) => setTimeout(r, 3000));
    const seen = (await big.evaluate(() => (window as any).__sizes)) as string[];
    const last = await sizeOf(small);
    expect(last).not.toBe(first);
    // No storm: the session went from the big window's size to the small one's and stayed there (before, it flipped
    // between the two every debounce, for as long as both were open).
    expect(seen.at(-1), seen.join(' → ')).toBe(last);
    expect(seen.indexOf(last), seen.join(' → ')).toBeGreaterThan(seen.lastIndexOf(first));
    expect(seen.length, seen.join(' → ')).toBeLessThanOrEqual(3);
    // Then the big window is resized by its person: it is the latest, and the session takes its size, once more.
    await big.setViewportSize({ width: 1200, height: 760 });
    await until(big, 'the size taken from the big window again', () => {
      const st = (window as any).pane.store.getState();
      return st.sessions[st.sessionId].viewport.cols > 100;
    }, 15_000);
    await new Promise((r) => setTimeout(r, 2000));
    const settled = (await big.evaluate(() => (window as any).__sizes)) as string[];
    expect(settled.filter((x) => x === last).length, settled.join(' → ')).toBe(1);
    await small.close();
  }, 60_000);
});
