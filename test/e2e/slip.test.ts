// Nothing lost by a slip, in the real window (Chromium, real bash, real vim): a
// close that would end a program asks first, naming it, while an idle shell closes
// at once and the CLI never asks; a program that dies says so in its tag and body,
// and Enter runs it again. Screenshots of the prompt and the dead pane are kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, region, shot, until, view, waitScreen, type Shell } from './shell';

/* eslint-disable @typescript-eslint/no-explicit-any */
let sh: Shell;

type PaneRow = { n: number; pid: number | null; state: string; cwd: string; tag: { name: string } };
const panes = (): PaneRow[] => {
  const r = sh.cli('ls', '--json');
  expect(r.code, r.stderr).toBe(0);
  const j = JSON.parse(r.stdout);
  return (Array.isArray(j) ? j : j.panes) as PaneRow[];
};
const tagName = (n: number) => region(sh.page, n).locator('.tag-name').textContent();
const hasPane = (n: number) => until(sh.page, `pane ${n} on screen`, new Function(`return !!window.pane.store.getState().panes[${n}]`) as () => boolean);
/** Waits for text in pane n however the pane's width wrapped it. */
const waitText = (n: number, re: RegExp) =>
  until(sh.page, `pane ${n} to show ${re}`, new Function(`return ${re}.test((window.pane.screen(${n}) ?? '').replace(/\\n/g, ''))`) as () => boolean);
const gone = (n: number) => until(sh.page, `pane ${n} closed`, new Function(`return !window.pane.store.getState().panes[${n}]`) as () => boolean);

describe.skipIf(chromiumMissing)(`closing and dead panes in Chromium${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell();
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('asks before Ctrl+Shift+X ends vim, naming it; n keeps the pane, y closes it', async () => {
    const first = (await view(sh.page)).focused!;
    await sh.page.keyboard.press('Control+Shift+E');
    // The new pane's creation and the focus moving to it are separate events: wait for both.
    await until(sh.page, 'a second pane, focused', new Function(`const st = window.pane.store.getState(); return Object.keys(st.panes).length === 2 && st.sessions[st.sessionId].focused !== ${first};`) as () => boolean);
    const n = (await view(sh.page)).focused!;
    expect(n).not.toBe(first);
    await waitScreen(sh.page, n, /[$#]\s*$/m);
    await sh.page.keyboard.type('vim\n');
    await expect.poll(() => tagName(n), { timeout: 15_000 }).toBe('vim');
    await sh.page.keyboard.press('Control+Shift+X');
    const dialog = sh.page.getByRole('alertdialog');
    await expect.poll(() => dialog.getAttribute('aria-label')).toBe(`vim is running in pane ${n} — close it?`);
    await shot(sh.page, 'slip-01-close-prompt');
    // Enter keeps the pane (a second slip must not lose the work either), and so does n.
    await sh.page.keyboard.press('Enter');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(panes().some((p) => p.n === n)).toBe(true);
    await sh.page.keyboard.press('Control+Shift+X');
    await expect.poll(() => dialog.count()).toBe(1);
    await sh.page.keyboard.press('n');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(panes().some((p) => p.n === n)).toBe(true);
    // The key went nowhere near vim: its buffer holds no "n".
    expect(sh.cli('screen', '-t', String(n)).stdout).not.toMatch(/^n$/m);
    await sh.page.keyboard.press('Control+Shift+X');
    await expect.poll(() => dialog.count()).toBe(1);
    await sh.page.keyboard.press('y');
    await gone(n);
  });

  it('closes an idle shell at once, without asking', async () => {
    const first = (await view(sh.page)).focused!;
    await sh.page.keyboard.press('Control+Shift+E');
    // The new pane's creation and the focus moving to it are separate events: wait for both.
    await until(sh.page, 'a second pane, focused', new Function(`const st = window.pane.store.getState(); return Object.keys(st.panes).length === 2 && st.sessions[st.sessionId].focused !== ${first};`) as () => boolean);
    const n = (await view(sh.page)).focused!;
    await waitScreen(sh.page, n, /[$#]\s*$/m);
    await sh.page.keyboard.press('Control+Shift+X');
    await gone(n);
    expect(await sh.page.getByRole('alertdialog').count()).toBe(0);
  });

  it('never asks a script: `pane close` ends a pane running vim at once', async () => {
    const r = sh.cli('split', '--', 'vim');
    expect(r.code, r.stderr).toBe(0);
    const n = panes().at(-1)!.n;
    await hasPane(n);
    await waitScreen(sh.page, n, /~/);
    const c = sh.cli('close', '-t', String(n));
    expect(c.code, c.stderr).toBe(0);
    await gone(n);
    expect(await sh.page.getByRole('alertdialog').count()).toBe(0);
  });

  it('a program killed by SIGKILL says so in its tag and body; keys get a hint and Enter runs it again', async () => {
    const r = sh.cli('split', '--', 'sleep', '1000');
    expect(r.code, r.stderr).toBe(0);
    const row = panes().find((p) => p.tag.name === 'sleep')!;
    const n = row.n;
    await hasPane(n);
    await until(sh.page, 'the sleep pane focused', new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].focused === ${n}`) as () => boolean);
    process.kill(row.pid!, 'SIGKILL');
    await expect.poll(() => region(sh.page, n).locator('.tag-exit').textContent(), { timeout: 15_000 }).toBe('killed (SIGKILL)');
    await waitText(n, /\[sleep killed \(SIGKILL\) at \d\d:\d\d:\d\d\] — Enter to run again/);
    expect(sh.cli('ls').stdout).toMatch(new RegExp(`^${n}\\s.*killed \\(SIGKILL\\)`, 'm'));
    await shot(sh.page, 'slip-02-killed-pane');
    // A key that is not Enter is answered, not dropped.
    await sh.page.keyboard.type('q');
    await waitText(n, /program has ended: Enter runs it again/);
    await sh.page.keyboard.press('Enter');
    await expect.poll(() => panes().find((p) => p.n === n)?.state, { timeout: 15_000 }).toBe('running');
    const again = panes().find((p) => p.n === n)!;
    expect(again.pid).not.toBe(row.pid);
    await expect.poll(() => region(sh.page, n).locator('.tag-exit').count()).toBe(0);
    sh.cli('close', '-t', String(n));
    await gone(n);
  });
});
