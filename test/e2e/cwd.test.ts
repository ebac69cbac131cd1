// Titles that tell, in the real window: a pane's cwd follows its shell — real bash
// through pane's shell integration (OSC 7), dash (which reports nothing) through
// /proc of the foreground group — and `pane ls`, /index, the tag and new splits follow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, region, until, view, waitScreen, type Shell } from './shell';

/* eslint-disable @typescript-eslint/no-explicit-any */
let sh: Shell;

type PaneRow = { n: number; cwd: string; tag: { name: string } };
const row = (n: number): PaneRow => {
  const r = sh.cli('ls', '--json');
  expect(r.code, r.stderr).toBe(0);
  const j = JSON.parse(r.stdout);
  return ((Array.isArray(j) ? j : j.panes) as PaneRow[]).find((p) => p.n === n)!;
};
const tagName = (n: number) => region(sh.page, n).locator('.tag-name').textContent();
const focusedIs = (n: number) =>
  until(sh.page, `pane ${n} focused`, new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].focused === ${n}`) as () => boolean);

describe.skipIf(chromiumMissing)(`cwd tracking and tag names in Chromium${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell();
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('names an idle bash pane by its directory, and follows `cd` (OSC 7 from pane’s bash integration)', async () => {
    const n = (await view(sh.page)).focused!;
    await expect.poll(() => tagName(n)).toBe('~');
    await sh.page.keyboard.type('cd /usr/share/doc\n');
    await expect.poll(() => tagName(n), { timeout: 15_000 }).toBe('/usr/share/doc');
    expect(row(n).cwd).toBe('/usr/share/doc');
    expect(sh.cli('ls').stdout).toMatch(new RegExp(`^${n}\\s.*\\s/usr/share/doc\\s`, 'm'));
    // The user's rc is still read, and pane's hook is in PROMPT_COMMAND.
    await sh.page.keyboard.type('echo "pc=$PROMPT_COMMAND"\n');
    await waitScreen(sh.page, n, /^pc=__pane_osc7/m);
  });

  it('takes the shell’s report over /proc: a foreground job elsewhere does not move a bash pane', async () => {
    const n = (await view(sh.page)).focused!;
    // The job runs in /tmp; the shell that reports OSC 7 is still in /usr/share/doc.
    await sh.page.keyboard.type('(cd /tmp && exec sleep 30)\n');
    await expect.poll(() => tagName(n), { timeout: 15_000 }).toBe('sleep');
    expect(row(n).cwd).toBe('/usr/share/doc');
    await sh.page.keyboard.press('Control+C');
    await expect.poll(() => tagName(n), { timeout: 15_000 }).toBe('/usr/share/doc');
  });

  it('opens a split in the focused pane’s directory', async () => {
    const first = (await view(sh.page)).focused!;
    await sh.page.keyboard.press('Control+Shift+E');
    // The new pane's creation and the focus moving to it are separate events: wait for both.
    await until(sh.page, 'a second pane, focused', new Function(`const st = window.pane.store.getState(); return Object.keys(st.panes).length === 2 && st.sessions[st.sessionId].focused !== ${first};`) as () => boolean);
    const n = (await view(sh.page)).focused!;
    expect(n).not.toBe(first);
    expect(row(n).cwd).toBe('/usr/share/doc');
    await sh.page.keyboard.type('pwd\n');
    await waitScreen(sh.page, n, /^\/usr\/share\/doc$/m);
    await expect.poll(() => tagName(n)).toBe('/usr/share/doc');
  });

  it('follows dash, which reports nothing, through /proc of its foreground group', async () => {
    const r = sh.cli('split', '--', 'dash');
    expect(r.code, r.stderr).toBe(0);
    const n = Number(r.stdout.trim()); // `pane split` prints the new pane's number
    await focusedIs(n);
    expect(row(n).cwd).toBe('/usr/share/doc'); // started where the focused pane was
    await waitScreen(sh.page, n, /[$#]\s*$/m);
    await sh.page.keyboard.type('cd /var/log\n');
    await expect.poll(() => row(n).cwd, { timeout: 15_000 }).toBe('/var/log');
    await expect.poll(() => tagName(n)).toBe('/var/log');
    // /index carries the cwd too, before the tag.
    const index = sh.cli('cat', '/index');
    expect(index.code, index.stderr).toBe(0);
    expect(index.stdout).toMatch(new RegExp(`^${n}\\s.*\\s/var/log\\s`, 'm'));
    // A split of the dash pane starts in /var/log.
    await sh.page.keyboard.press('Control+Shift+O');
    await until(sh.page, 'a pane below dash', new Function(`const st = window.pane.store.getState(); const f = st.sessions[st.sessionId].focused; return f !== ${n} && f > ${n}`) as () => boolean);
    const below = (await view(sh.page)).focused!;
    expect(row(below).cwd).toBe('/var/log');
  });

  it('launches an app from the launcher in the focused pane’s directory', async () => {
    const from = (await view(sh.page)).focused!;
    const before = await sh.page.evaluate(() => Object.keys((window as any).pane.store.getState().panes).map(Number));
    await sh.page.keyboard.press('Control+Shift+K');
    await sh.page.locator('[data-picker="launcher"] input').waitFor();
    await sh.page.keyboard.type('scratch');
    await sh.page.keyboard.press('Enter');
    const made = await until(sh.page, 'the launched pane', new Function(`const ps = Object.keys(window.pane.store.getState().panes).map(Number); return ps.find((n) => !${JSON.stringify(before)}.includes(n)) ?? false`) as () => number);
    expect(row(made).cwd).toBe(row(from).cwd);
    sh.cli('close', '-t', String(made));
    expect(sh.cli('focus', '-t', String(from)).code).toBe(0);
    await focusedIs(from);
  });

  it('names a pane by its foreground command while one runs', async () => {
    const n = (await view(sh.page)).focused!;
    await waitScreen(sh.page, n, /[$#]\s*$/m);
    await sh.page.keyboard.type('top\n');
    await expect.poll(() => tagName(n), { timeout: 15_000 }).toBe('top');
    await sh.page.keyboard.type('q');
    await expect.poll(() => tagName(n), { timeout: 15_000 }).toBe('/var/log');
  });
});
