// One state, many views: a change made through the window, the ctl file, or the
// protocol shows in every other view (window, `pane ls`, /pane files, events).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, region, shot, until, view, type Shell } from './shell';

let sh: Shell;
const nsCat = (path: string) => {
  const r = sh.cli('cat', path);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
};
const regions = () => sh.page.locator('section[role="region"]').count();

describe.skipIf(chromiumMissing)(`consistency across views${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell();
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('a tag edited in the window reads back from /<n>/tag and the protocol', async () => {
    const n = (await view(sh.page)).focused!;
    const text = region(sh.page, n).getByRole('textbox', { name: /tag text/ });
    await text.click();
    await sh.page.keyboard.type('edited-in-window');
    await sh.page.keyboard.press('Enter');
    await expect.poll(() => nsCat(`/${n}/tag`), { timeout: 10_000 }).toMatch(/\| ?edited-in-window\s*$/);
    expect(JSON.parse(sh.cli('ls', '--json').stdout).find((p: { n: number }) => p.n === n).tag.user).toContain('edited-in-window');
  });

  it('geometry and quadrant reported by the window appear in attrs and ctl', async () => {
    const n = (await view(sh.page)).focused!;
    await expect.poll(() => nsCat(`/${n}/attrs`), { timeout: 10_000 }).toMatch(/^quadrant=full$/m);
    expect(nsCat(`/${n}/ctl`)).toMatch(/\bfull\b/);
  });

  it('a ctl write splits and closes panes in the window, `pane ls` and /index alike', async () => {
    const n = (await view(sh.page)).focused!;
    const w = sh.cli('write', `/${n}/ctl`, 'split v 50');
    expect(w.code, w.stderr).toBe(0);
    await until(sh.page, 'two regions', () => document.querySelectorAll('section[role="region"]').length === 2);
    const added = (await view(sh.page)).focused!;
    expect(added).not.toBe(n);
    expect(nsCat('/index')).toMatch(new RegExp(`^${added}\\s`, 'm'));
    await shot(sh.page, 'e2e-40-ctl-split');
    const c = sh.cli('write', `/${added}/ctl`, 'close');
    expect(c.code, c.stderr).toBe(0);
    await until(sh.page, 'one region', () => document.querySelectorAll('section[role="region"]').length === 1);
    expect(await regions()).toBe(1);
    expect(nsCat('/index')).not.toMatch(new RegExp(`^${added}\\s`, 'm'));
    expect(JSON.parse(sh.cli('ls', '--json').stdout).map((p: { n: number }) => p.n)).not.toContain(added);
    const bad = sh.cli('write', `/${n}/ctl`, 'frobnicate');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/unknown command "frobnicate"/);
  });

  it('a command word clicked in the window appears on /<n>/event', async () => {
    const n = (await view(sh.page)).focused!;
    await region(sh.page, n).getByRole('toolbar').getByRole('button', { name: 'zoom', exact: true }).click();
    await expect.poll(() => nsCat(`/${n}/event`), { timeout: 10_000 }).toMatch(/\bzoom\b/);
    await expect.poll(async () => (await view(sh.page)).zoomed ?? null).toBe(n);
    await region(sh.page, n).getByRole('toolbar').getByRole('button', { name: 'zoom', exact: true }).click();
    await shot(sh.page, 'e2e-41-event');
  });
});
