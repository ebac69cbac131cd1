// The window under Electron's preload bridge (window.paneHost), here stood in for
// by a page script with the same shape as electron/preload.ts: the endpoint comes
// from the bridge, attention alerts go to its native notify with the pane they are
// about, and a click on the native notification (which the main process relays)
// focuses that pane. Electron itself cannot be downloaded here; this holds the
// renderer's half of the contract, electron.test.ts the rest where Electron exists.
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, CHROMIUM_ARGS, serve, until, type Served } from './shell';

/* eslint-disable @typescript-eslint/no-explicit-any */
let served: Served;
let context: BrowserContext;
let page: Page;

const focused = () => page.evaluate(() => {
  const st = (window as any).pane.store.getState();
  return st.sessions[st.sessionId].focused as number;
});

describe.skipIf(chromiumMissing)(`the renderer under the Electron bridge${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    served = await serve();
    context = await chromium.launchPersistentContext(path.join(served.dir, 'profile'), { executablePath: CHROMIUM, args: CHROMIUM_ARGS, viewport: { width: 1200, height: 700 } });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    await page.addInitScript(() => {
      // No token: the launch URL's cookie lets this page's socket in (Electron's preload would hand over the secret).
      const secret = undefined;
      const ws = new URL('ws', location.href);
      ws.protocol = 'ws:';
      ws.search = '';
      const host = {
        notified: [] as { title: string; body: string; pane: number | undefined }[],
        click: null as ((pane: number) => void) | null,
      };
      (window as any).hostCalls = host;
      (window as any).paneHost = {
        endpoint: async () => ({ url: ws.toString(), token: secret }),
        notify: (title: string, body: string, pane?: number) => void host.notified.push({ title, body, pane }),
        onNotificationClick: (f: (pane: number) => void) => void (host.click = f),
        platform: 'linux',
      };
    });
    await page.goto(served.url);
    await until(page, 'the window to connect through the bridge', () => {
      const st = (window as any).pane.store.getState();
      return st.conn.state === 'open' && st.sessions[st.sessionId]?.focused != null;
    });
  }, 60_000);
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await served?.stop();
  });

  it('sends a bell in another pane to the native notification with its pane, and a click on it focuses that pane', async () => {
    const first = await focused();
    const r = served.cli('split', '-t', String(first), '--', 'sh', '-c', 'read line; printf "\\a"; exec sleep 600');
    expect(r.code, r.stderr).toBe(0);
    const other = Number(r.stdout.trim());
    // Keep the first pane focused: the bell rings elsewhere.
    await page.evaluate((p) => (window as any).pane.client.act('pane/focus', { pane: p }), first);
    await expect.poll(focused).toBe(first);
    expect(served.cli('send', '-t', String(other), 'ring').code).toBe(0);
    await expect.poll(() => page.evaluate(() => (window as any).hostCalls.notified), { timeout: 15_000 }).toContainEqual({ title: 'pane', body: expect.stringMatching(/rang the bell$/), pane: other });
    expect(await focused()).toBe(first);
    expect(await page.evaluate(() => typeof (window as any).hostCalls.click)).toBe('function');
    // The main process relays the click: the page focuses the pane.
    await page.evaluate((p) => (window as any).hostCalls.click(p), other);
    await expect.poll(focused, { timeout: 10_000 }).toBe(other);
    // A click for a pane that has gone is ignored.
    await page.evaluate(() => (window as any).hostCalls.click(9999));
    expect(await focused()).toBe(other);
  }, 60_000);
});
