// A window on a slow link (issue 36.4) in real Chromium: the window measures its link
// at hello, and where it is slow (here said by ?link=slow, as a person on a metered
// link says it) each pane's attach pulls the visible screen alone — the reply over the
// WebSocket is a screenful, not 2,000 rows of history — and the status line says so.
// The same pane in a window on a fast link brings its history. Then output flows live.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, shot, until, waitScreen, type Shell } from './shell';

let sh: Shell;

describe.skipIf(chromiumMissing)(`a window on a slow link${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell();
  }, 60_000);
  afterAll(() => sh?.close());

  it('attaches each pane with its screen alone, says so, and then follows the output live', async () => {
    const n: number = await sh.page.evaluate(() => (window as any).pane.store.getState().sessions[(window as any).pane.store.getState().sessionId].focused);
    expect(sh.cli('send', '-t', String(n), 'seq -f "history-line-%04g" 1 1500').code).toBe(0);
    await waitScreen(sh.page, n, 'history-line-1500');
    // The fast window (the one open) holds the history.
    const fastLines = await sh.page.evaluate((p) => (window as any).pane.term(p).buffer.active.length, n);
    expect(fastLines).toBeGreaterThan(1000);
    // A second window whose link is slow: every attach reply it receives is measured.
    const slow = await sh.context.newPage();
    const attachReplies: number[] = [];
    slow.on('websocket', (ws) => ws.on('framereceived', (f) => {
      const text = typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8');
      if (text.includes('"snapshot"') && text.includes('"serialized"')) attachReplies.push(text.length);
    }));
    await slow.goto(`${sh.page.url().replace(/\?.*$/, '')}?link=slow`);
    await until(slow, 'the slow window to connect', () => (window as any).pane?.store.getState().conn.state === 'open');
    await waitScreen(slow, n, 'history-line-1500');
    expect(await slow.evaluate(() => (window as any).pane.store.getState().conn.link)).toMatchObject({ slow: true });
    const slowLines = await slow.evaluate((p) => (window as any).pane.term(p).buffer.active.length, n);
    const rows = await slow.evaluate((p) => (window as any).pane.term(p).rows, n);
    expect(slowLines).toBeLessThanOrEqual(rows + 1);
    expect(attachReplies.length).toBeGreaterThan(0);
    // A screenful of text, not 1,500 lines of it (~30 KB as the fast window's reply).
    expect(Math.max(...attachReplies)).toBeLessThan(8_000);
    expect(await slow.locator('.sl-link').textContent()).toMatch(/slow link · \d+ ms/);
    // Live output still follows.
    expect(sh.cli('send', '-t', String(n), 'echo after-attach-$((6*7))').code).toBe(0);
    await waitScreen(slow, n, 'after-attach-42');
    await shot(slow, 'slow-link');
  });
});
