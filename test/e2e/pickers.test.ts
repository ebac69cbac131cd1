// The launcher and the palette in the real window: "top" opens System monitor, an
// agent whose CLI is missing says so and how to install it, and a palette command
// shows its usage and runs only when its arguments check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, shot, until, type Shell } from './shell';

/* eslint-disable @typescript-eslint/no-explicit-any */
let sh: Shell;

const paneCount = () => sh.page.evaluate(() => Object.keys((window as any).pane.store.getState().panes).length);
const options = (id: string) => sh.page.locator(`[data-picker="${id}"] [role="option"]`);
const status = (id: string) => sh.page.locator(`[data-picker="${id}"] .picker-args`);
const input = (id: string) => sh.page.locator(`[data-picker="${id}"] input`);

describe.skipIf(chromiumMissing)(`launcher and palette in Chromium${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell();
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('opens on what runs here: Terminal first, the demo agent next, and the apps to install after them', async () => {
    await sh.page.keyboard.press('Control+Shift+K');
    await input('launcher').waitFor();
    await expect.poll(() => options('launcher').count()).toBeGreaterThan(4);
    const rows = await options('launcher').allTextContents();
    expect(rows[0]).toContain('Terminal');
    expect(rows[1]).toContain('Demo agent');
    // Once one row is "to install", every row after it is too.
    const firstToInstall = rows.findIndex((r) => r.includes('to install'));
    if (firstToInstall >= 0) expect(rows.slice(firstToInstall).every((r) => r.includes('to install') || r.includes('remote'))).toBe(true);
    await shot(sh.page, 'pickers-00-launcher-first-screen');
    await sh.page.keyboard.press('Escape');
  });

  it('ranks System monitor first for "top" (its keyword), not Terminal', async () => {
    await sh.page.keyboard.press('Control+Shift+K');
    await input('launcher').waitFor();
    await sh.page.keyboard.type('top');
    await expect.poll(() => options('launcher').first().textContent()).toContain('System monitor');
    await sh.page.keyboard.press('Escape');
  });

  it('marks an app whose program is not on PATH and says how to install it, instead of launching it', async () => {
    const before = await paneCount();
    await sh.page.keyboard.press('Control+Shift+K');
    await input('launcher').waitFor();
    await sh.page.keyboard.type('codex');
    const first = options('launcher').first();
    await expect.poll(() => first.textContent()).toContain('Codex CLI');
    // Said once, in the kind column: not "to install" and "not installed" both.
    expect(await first.locator('.pk-kind').textContent()).toBe('to install');
    expect(await first.textContent()).not.toContain('not installed');
    expect(await first.textContent()).toMatch(/codex is not on PATH — npm install/);
    await shot(sh.page, 'pickers-01-not-installed');
    await sh.page.keyboard.press('Enter');
    await until(sh.page, 'a notice saying how to install it', () =>
      (window as any).pane.store.getState().notices.some((n: { text: string }) => /Codex CLI is not installed/.test(n.text)),
    );
    expect(await paneCount()).toBe(before);
  });

  it('shows a command’s usage and refuses bad arguments; runs once they check', async () => {
    const before = await paneCount();
    await sh.page.keyboard.press('Control+Shift+P');
    await input('palette').waitFor();
    await sh.page.keyboard.type('split x 50');
    await expect.poll(() => status('palette').textContent()).toMatch(/split \[h\|v\] \[ratio\].*direction must be one of h, v, not "x"/);
    expect(await options('palette').count()).toBe(1); // the split command, not "nothing matches"
    await shot(sh.page, 'pickers-02-palette-bad-args');
    await sh.page.keyboard.press('Enter');
    await expect.poll(() => input('palette').count()).toBe(1); // still open: nothing ran
    expect(await paneCount()).toBe(before);
    await input('palette').fill('split v 50');
    await expect.poll(() => status('palette').textContent()).toContain('Enter runs “split v 50”');
    await sh.page.keyboard.press('Enter');
    await until(sh.page, 'a stacked split', () => {
      const st = (window as any).pane.store.getState();
      const s = st.sessions[st.sessionId];
      return s.layout?.type === 'split' && s.layout.direction === 'vertical';
    });
    expect(await paneCount()).toBe(before + 1);
  });

  it('types out a command that needs arguments instead of running it bare', async () => {
    await sh.page.keyboard.press('Control+Shift+P');
    await input('palette').waitFor();
    await sh.page.keyboard.type('resize');
    await expect.poll(() => options('palette').first().textContent()).toContain('resize');
    await sh.page.keyboard.press('Enter');
    await expect.poll(() => input('palette').inputValue()).toBe('resize ');
    await expect.poll(() => status('palette').textContent()).toMatch(/resize left\|right\|up\|down \[cells\].*missing direction/);
    await sh.page.keyboard.press('Escape');
  });
});
