// A grant's guest window, in real Chromium: the person's window is open; a second
// browser (a fresh profile, no launch cookie) opens the front with #grant=TOKEN and
// is let in read-only — it shows the person's screen, says READ-ONLY with the
// time it ends, sends no key and leaves the person's pane sizes alone — and is
// closed, in words, when the person revokes the grant.
/* eslint-disable @typescript-eslint/no-explicit-any */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing, openShell, screen, shot, until, waitScreen, type Shell } from './shell';

let sh: Shell;
let guest: BrowserContext;
let page: Page;

describe.skipIf(chromiumMissing)('a read-only guest window', () => {
  beforeAll(async () => {
    sh = await openShell({ viewport: { width: 1200, height: 760 } });
  }, 60_000);
  afterAll(async () => {
    await guest?.close().catch(() => undefined);
    await sh?.close();
  });

  it('watches the person’s panes, types nothing, resizes nothing, and says so', async () => {
    const focused = await sh.page.evaluate(() => (window as any).pane.store.getState().sessions[(window as any).pane.store.getState().sessionId].focused as number);
    sh.cli('send', '-t', String(focused), 'echo PERSON-$((6*7))');
    await waitScreen(sh.page, focused, 'PERSON-42');
    const sizeBefore = sh.cli('ls', '--json').stdout;
    const r = sh.cli('grant', 'new', '--json', '--for', '10m', '--note', 'pairing');
    expect(r.stderr).toBe('');
    const g = JSON.parse(r.stdout) as { id: string; token: string; url?: string };
    const origin = new URL(sh.url).origin;
    guest = await chromium.launchPersistentContext(path.join(sh.dir, 'guest-profile'), { executablePath: CHROMIUM, args: CHROMIUM_ARGS, viewport: { width: 700, height: 500 } });
    page = guest.pages()[0] ?? (await guest.newPage());
    await page.goto(`${origin}/#grant=${g.token}`);
    await until(page, 'the guest window to connect as the grant’s guest', () => {
      const st = (window as any).pane.store.getState();
      return st.conn.state === 'open' && st.viewer?.mode === 'ro' && st.sessions[st.sessionId]?.focused != null;
    });
    // The token left the address bar at once.
    expect(page.url()).not.toContain(g.token);
    await expect.poll(() => screen(page, focused), { timeout: 15_000 }).toContain('PERSON-42');
    await expect.poll(() => page.locator('.sl-viewer').textContent()).toMatch(/^READ-ONLY · until /);
    // A guest sees no agents: its status line counts none (it had read "0 need you · 0 working · 0 done · ✉ 0").
    expect(await page.locator('.sl-agents').count()).toBe(0);
    // Its tags offer no words it could not run; keys typed in it reach no program.
    expect(await page.locator('.tag-word').count()).toBe(0);
    await page.locator(`section[role="region"][data-pane="${focused}"]`).click();
    await page.keyboard.type('echo GUEST-TYPED\n');
    await new Promise((res) => setTimeout(res, 800));
    expect(await screen(sh.page, focused)).not.toContain('GUEST-TYPED');
    expect(await page.locator('.notice-text').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/read-only: this window watches \(grant g[0-9a-f]{8}\)/)]));
    // Its palette offers what it can do: no word of a pane, no action that asks the server for a change (each was refused).
    await page.keyboard.press('Control+Shift+P');
    await expect.poll(() => page.locator('.pk-label').count()).toBeGreaterThan(0);
    const offered = await page.locator('.pk-label').allTextContents();
    expect(offered).toEqual(expect.arrayContaining(['Find in scrollback', 'Copy mode: move through scrollback, search, select and copy by keyboard']));
    expect(offered.filter((t) => /Split|New pane|Close|Zoom|Stop the pane daemon/.test(t))).toEqual([]);
    expect(await page.locator('.pk-kind', { hasText: 'pane' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    // Its smaller window did not shrink the person's panes.
    expect(sh.cli('ls', '--json').stdout).toBe(sizeBefore);
    expect(sh.cli('grant', 'ls').stdout).toMatch(new RegExp(`${g.id} +ro .* 1 +pairing`));
    await shot(page, 'grants-01-read-only-guest');
    // Revoked: the guest is closed and told why; the person's window goes on.
    sh.cli('grant', 'revoke', g.id);
    await until(page, 'the guest window to be closed for good', () => (window as any).pane.store.getState().conn.state === 'ended');
    expect(await page.locator('.sl-viewer').count()).toBe(0);
    expect(await page.locator('.sl-conn').textContent()).toBe('disconnected');
    await expect.poll(() => page.evaluate(() => JSON.stringify((window as any).pane.store.getState().notices)), { timeout: 10_000 }).toMatch(/revoked|no such grant/);
    await shot(page, 'grants-02-revoked');
    expect(await sh.page.evaluate(() => (window as any).pane.store.getState().conn.state)).toBe('open');
  });
});
