// The everyday comforts in the real window (`npm start`'s server, Debian's Chromium):
// a narrow tag folds its command words into a … menu the keyboard reaches; the
// tag-toolbar key goes there and back; zoom shows in the tag and the status line;
// the session switcher creates, renames, switches and closes; copy mode searches,
// selects and copies to the clipboard; settings.json changes the font live (and a
// bad one is named by field); zoom keys; find counts its matches.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, region, shot, until, view, waitScreen, type Shell } from './shell';

/* eslint-disable @typescript-eslint/no-explicit-any */

let sh: Shell;
const st = <T,>(f: string) => sh.page.evaluate(new Function(`const st = window.pane.store.getState(); const s = st.sessions[st.sessionId]; return (${f});`) as () => T);
const active = () => sh.page.evaluate(() => ({ cls: document.activeElement?.className ?? '', text: document.activeElement?.textContent ?? '', role: document.activeElement?.getAttribute('role') ?? '' }));
const fontSize = (n: number) => sh.page.evaluate((p) => (window as any).pane.term(p).options.fontSize as number, n);

describe.skipIf(chromiumMissing)(`comforts${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell({ viewport: { width: 1280, height: 800 } });
    await sh.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(sh.url).origin });
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('folds the command words of a narrow tag into a … menu that the keyboard reaches, and the toolbar key goes there and back', async () => {
    const first = (await view(sh.page)).focused!;
    // A sliver: the new pane gets 12% of the width.
    expect(sh.cli('split', '-t', String(first), '-d', 'h', '-r', '88').code).toBe(0);
    await until(sh.page, 'two tiles', () => {
      const st = (window as any).pane.store.getState();
      return st.sessions[st.sessionId].focused !== null && Object.keys(st.panes).length === 2;
    });
    const narrow = (await view(sh.page)).tiles.find((t) => t !== first)!;
    await sh.page.evaluate((p) => (window as any).pane.client.act('pane/focus', { pane: p }), narrow);
    const tag = region(sh.page, narrow).getByRole('toolbar');
    const more = tag.locator('.tag-more');
    await expect.poll(() => more.count(), { timeout: 10_000 }).toBe(1);
    const folded = await tag.locator('.tag-word[data-folded]').allTextContents();
    expect(folded).toContain('zoom');

    // The toolbar key puts the keyboard on the tag; arrows walk to the … button.
    await sh.page.keyboard.press('Control+Shift+G');
    await expect.poll(async () => (await active()).cls).toMatch(/tag-word|tag-more/);
    for (let i = 0; i < 10 && !(await active()).cls.includes('tag-more'); i++) await sh.page.keyboard.press('ArrowRight');
    expect((await active()).cls).toContain('tag-more');
    await sh.page.keyboard.press('Enter');
    const menu = sh.page.getByRole('menu', { name: /more commands for/ });
    await expect.poll(() => menu.count()).toBe(1);
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^zoom/)]));
    // The narrow pane is at the window's right edge: its menu opens leftwards, whole on screen.
    await expect.poll(async () => {
      const b = (await menu.boundingBox())!;
      return b.x >= 0 && b.y >= 0 && b.x + b.width <= 1280 && b.y + b.height <= 800;
    }).toBe(true);
    await shot(sh.page, 'comforts-01-narrow-tag-menu');
    for (let i = 0; i < folded.length && !(await active()).text.startsWith('zoom'); i++) await sh.page.keyboard.press('ArrowDown');
    await sh.page.keyboard.press('Enter');
    await until(sh.page, 'the narrow pane zoomed from its menu', new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].zoomed === ${narrow};`) as () => boolean);
    // The zoom shows in the zoomed pane's tag and in the status line.
    await expect.poll(() => region(sh.page, narrow).locator('.tag-zoom').textContent()).toBe('ZOOM');
    expect(await sh.page.locator('.sl-zoom').textContent()).toMatch(/^ZOOM /);
    await shot(sh.page, 'comforts-02-zoomed');
    await sh.page.keyboard.press('Control+Shift+Z');
    await until(sh.page, 'unzoomed', () => {
      const st = (window as any).pane.store.getState();
      return st.sessions[st.sessionId].zoomed === null;
    });
    expect(await sh.page.locator('.sl-zoom').count()).toBe(0);

    // Toolbar key, then again: back in the terminal.
    await sh.page.keyboard.press('Control+Shift+G');
    await expect.poll(async () => (await active()).cls).toMatch(/tag-word|tag-more/);
    await sh.page.keyboard.press('Control+Shift+G');
    await expect.poll(async () => (await active()).cls).toContain('xterm-helper-textarea');
    expect(sh.cli('close', '-t', String(narrow)).code).toBe(0);
  }, 60_000);

  it('creates, renames, switches and closes sessions from the switcher', async () => {
    const dialog = sh.page.getByRole('dialog', { name: 'sessions' });
    await sh.page.keyboard.press('Control+Shift+D');
    await expect.poll(() => dialog.count()).toBe(1);
    await sh.page.keyboard.type('work');
    await shot(sh.page, 'comforts-03-sessions');
    await sh.page.keyboard.press('Enter');
    await expect.poll(() => st<string>('s?.name'), { timeout: 10_000 }).toBe('work');
    expect(new URL(sh.page.url()).searchParams.get('session')).toBe('work');
    await until(sh.page, 'the new session’s shell', () => {
      const st = (window as any).pane.store.getState();
      const s = st.sessions[st.sessionId];
      return s?.focused != null && (window as any).pane.screen(s.focused) !== null;
    });

    // Rename it (F2 on the chosen session).
    await sh.page.keyboard.press('Control+Shift+D');
    await sh.page.keyboard.type('wor');
    await sh.page.keyboard.press('F2');
    // Its name is selected: typing replaces it (it had appended: "workmain"). The one row says what Enter does.
    await sh.page.keyboard.type('main');
    await expect.poll(() => dialog.locator('[role=option]').allTextContents()).toEqual([expect.stringMatching(/rename “work” to “main”.*a session is named “main”: choose another name/)]);
    await sh.page.keyboard.press('Enter'); // refused here, not sent: the dialog stays
    await sh.page.keyboard.press('Control+A');
    await sh.page.keyboard.type('review');
    expect(await dialog.locator('[role=option]').allTextContents()).toEqual([expect.stringMatching(/rename “work” to “review”.*Enter renames/)]);
    await sh.page.keyboard.press('Enter');
    await expect.poll(() => st<string>('s?.name'), { timeout: 10_000 }).toBe('review');
    expect(sh.cli('session', 'ls').stdout).toMatch(/review/);
    await sh.page.keyboard.press('Escape');

    // Switch back through the palette's "Sessions" action.
    await sh.page.keyboard.press('Control+Shift+P');
    await sh.page.keyboard.type('Sessions: switch');
    await sh.page.keyboard.press('Enter');
    await expect.poll(() => dialog.count()).toBe(1);
    await sh.page.keyboard.type('main');
    await sh.page.keyboard.press('Enter');
    await expect.poll(() => st<string>('s?.name'), { timeout: 10_000 }).toBe('main');

    // Close "review": Delete, then Delete again to confirm.
    await sh.page.keyboard.press('Control+Shift+D');
    await sh.page.keyboard.type('review');
    await sh.page.keyboard.press('Delete');
    expect(await dialog.textContent()).toMatch(/press Delete again/);
    await sh.page.keyboard.press('Delete');
    await expect.poll(() => st<string[]>('Object.values(st.sessions).map((x) => x.name)'), { timeout: 10_000 }).toEqual(['main']);
    await sh.page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  }, 60_000);

  it('copy mode moves through scrollback, searches, selects and copies to the clipboard', async () => {
    const n = (await view(sh.page)).focused!;
    expect(sh.cli('send', '-t', String(n), "printf 'needle-%s\\n' one two three; seq 1 120").code).toBe(0);
    await waitScreen(sh.page, n, /\n120\n/);
    await sh.page.keyboard.press('Control+Shift+Y');
    const bar = region(sh.page, n).locator('.copybar');
    await expect.poll(() => bar.count()).toBe(1);
    // The cursor starts at the prompt, on the pane's last rows: the bar sits at the top
    // then, clear of the cursor's row (over the last rows, it hid the prompt).
    const clear = () =>
      sh.page.evaluate((p) => {
        const term = (window as any).pane.term(p);
        const screen = document.querySelector(`[data-pane="${p}"] .xterm-screen`)!.getBoundingClientRect();
        const barBox = document.querySelector(`[data-pane="${p}"] .copybar`)!.getBoundingClientRect();
        const b = term.buffer.active;
        const rowH = screen.height / term.rows;
        const at = Number(/line (\d+)\//.exec(document.querySelector(`[data-pane="${p}"] .cb-where`)!.textContent!)![1]) - 1 - b.viewportY;
        const top = screen.top + at * rowH;
        return barBox.bottom <= top + 0.5 || barBox.top >= top + rowH - 0.5;
      }, n);
    await expect.poll(() => bar.getAttribute('data-edge')).toBe('top');
    expect(await clear()).toBe(true);
    // g: the top of the scrollback.
    await sh.page.keyboard.press('g');
    await expect.poll(() => bar.locator('.cb-where').textContent()).toMatch(/^line 1\//);
    await expect.poll(() => bar.getAttribute('data-edge')).toBe('bottom');
    expect(await clear()).toBe(true);
    // G, then ? searches backward: the last "needle-two" above.
    await sh.page.keyboard.press('Shift+G');
    await sh.page.keyboard.press('?');
    await sh.page.keyboard.type('needle-two');
    await sh.page.keyboard.press('Enter');
    await expect.poll(() => sh.page.evaluate((p) => (window as any).pane.selection(p), n)).toBe('needle-two');
    // v selects from the match; $ to the end of the line; y copies and leaves.
    await sh.page.keyboard.press('v');
    await sh.page.keyboard.press('Shift+Digit4');
    await expect.poll(() => sh.page.evaluate((p) => (window as any).pane.selection(p), n)).toBe('needle-two');
    await sh.page.keyboard.press('b');
    await sh.page.keyboard.press('j');
    await sh.page.keyboard.press('Shift+Digit4');
    await expect.poll(() => sh.page.evaluate((p) => (window as any).pane.selection(p), n)).toBe('needle-two\nneedle-three');
    await shot(sh.page, 'comforts-04-copy-mode');
    await sh.page.keyboard.press('y');
    await expect.poll(() => bar.count()).toBe(0);
    expect(await sh.page.evaluate(() => navigator.clipboard.readText())).toBe('needle-two\nneedle-three');
    // q (and Esc) leave without copying.
    await sh.page.keyboard.press('Control+Shift+Y');
    await expect.poll(() => bar.count()).toBe(1);
    await sh.page.keyboard.press('q');
    await expect.poll(() => bar.count()).toBe(0);
  }, 60_000);

  it('copy mode keeps every key from the program under it: Ctrl+U/D move half pages, Ctrl+C leaves; V selects lines, e and E to word ends', async () => {
    const n = (await view(sh.page)).focused!;
    // cat reads the terminal: a Ctrl+D reaching it ends it, a Ctrl+C interrupts it (both did, from tmux habit).
    expect(sh.cli('send', '-t', String(n), "seq 1 80; printf 'at /src/app.ts:12 here\\n'; cat").code).toBe(0);
    await waitScreen(sh.page, n, /^at \/src\/app\.ts:12 here$/m);
    await sh.page.keyboard.press('Control+Shift+Y');
    const bar = region(sh.page, n).locator('.copybar');
    await expect.poll(() => bar.count()).toBe(1);
    const line = async () => Number(/line (\d+)\//.exec((await bar.locator('.cb-where').textContent()) ?? '')?.[1]);
    const start = await line();
    await sh.page.keyboard.press('Control+U');
    const rows = await sh.page.evaluate((p) => (window as any).pane.term(p).rows as number, n);
    await expect.poll(line).toBe(start - Math.floor(rows / 2));
    await sh.page.keyboard.press('Control+D');
    await expect.poll(line).toBe(start);
    // k up to the path's line; E to the end of "at", then of the path as one WORD; e stops at punctuation.
    await sh.page.keyboard.press('k');
    await sh.page.keyboard.press('0');
    await sh.page.keyboard.press('v');
    await sh.page.keyboard.press('Shift+E');
    await sh.page.keyboard.press('Shift+E');
    await expect.poll(() => sh.page.evaluate((p) => (window as any).pane.selection(p), n)).toBe('at /src/app.ts:12');
    // V: the whole line (and the one above with k).
    await sh.page.keyboard.press('Shift+V');
    await expect.poll(() => bar.locator('.cb-mode').textContent()).toBe('COPY · LINES');
    await sh.page.keyboard.press('k');
    await expect.poll(() => sh.page.evaluate((p) => ((window as any).pane.selection(p) as string).trimEnd(), n)).toBe('80\nat /src/app.ts:12 here');
    // Ctrl+C leaves copy mode, as tmux's does; cat never saw any of it.
    await sh.page.keyboard.press('Control+C');
    await expect.poll(() => bar.count()).toBe(0);
    // cat still reads: a line typed now comes back twice (the terminal's echo, then cat's).
    await sh.page.keyboard.type('still-cat\n');
    const after = await waitScreen(sh.page, n, /^still-cat\nstill-cat$/m);
    expect(after).not.toMatch(/\^C|\^D/);
    // Out of copy mode, keys reach the program again: Ctrl+D ends cat, and the prompt is back.
    await sh.page.keyboard.press('Control+D');
    await waitScreen(sh.page, n, /^still-cat\n[^\n]*[$#] $/m);
  }, 60_000);

  it('draws emoji and CJK with the Noto fallback fonts', async () => {
    const n = (await view(sh.page)).focused!;
    expect(sh.cli('send', '-t', String(n), 'echo "emoji 😀🚀 cjk 日本語 한국어"').code).toBe(0);
    await waitScreen(sh.page, n, /^emoji 😀🚀 cjk 日本語 한국어/m);
    const family = await sh.page.evaluate((p) => (window as any).pane.term(p).options.fontFamily as string, n);
    expect(family).toMatch(/"Noto Color Emoji".*"Noto Sans Mono CJK SC"/);
    // The fonts are installed (fonts-noto-color-emoji, fonts-noto-cjk) and the page can use them.
    expect(await sh.page.evaluate(() => document.fonts.check('13px "Noto Color Emoji"', '😀') && document.fonts.check('13px "Noto Sans Mono CJK SC"', '日本'))).toBe(true);
    await region(sh.page, n).screenshot({ path: path.join(process.cwd(), 'test-results', 'comforts-06-emoji-cjk.png') });
  }, 30_000);

  it('find shows which match of how many', async () => {
    const n = (await view(sh.page)).focused!;
    await sh.page.keyboard.press('Control+Shift+F');
    await sh.page.keyboard.type('needle');
    const count = region(sh.page, n).getByRole('status', { name: 'matches' });
    await expect.poll(() => count.textContent(), { timeout: 10_000 }).toMatch(/^\d+ of \d+$/);
    const [, of] = /of (\d+)/.exec((await count.textContent()) ?? '')!;
    expect(Number(of)).toBeGreaterThanOrEqual(4); // the command line and three lines of output
    await sh.page.keyboard.press('Enter');
    await expect.poll(() => count.textContent()).toMatch(/^\d+ of \d+$/);
    await sh.page.keyboard.press('Escape');
  }, 30_000);

  it('applies settings.json live, names a bad field while keeping the last good settings, and zooms with Ctrl+= / Ctrl+- / Ctrl+0', async () => {
    const n = (await view(sh.page)).focused!;
    const file = path.join(sh.configDir, 'settings.json');
    const cellBefore = await sh.page.evaluate(() => (window as any).pane.store.getState().cell.h as number);
    fs.writeFileSync(file, JSON.stringify({ fontSize: 18, theme: 'light' }));
    await expect.poll(() => fontSize(n), { timeout: 10_000 }).toBe(18);
    await expect.poll(() => sh.page.evaluate(() => (window as any).pane.store.getState().cell.h as number)).toBeGreaterThan(cellBefore);
    expect(await sh.page.evaluate((p) => (window as any).pane.term(p).options.theme.background, n)).toBe('#fafafa');
    await shot(sh.page, 'comforts-05-settings-light-18');

    fs.writeFileSync(file, JSON.stringify({ fontSize: 'huge' }));
    const err = sh.page.locator('.sl-error');
    await expect.poll(() => err.textContent(), { timeout: 10_000 }).toMatch(/settings error: .*settings\.json: fontSize: .* previous settings kept/);
    expect(await fontSize(n)).toBe(18);

    await sh.page.keyboard.press('Control+Equal');
    await expect.poll(() => fontSize(n)).toBe(19);
    expect(await sh.page.locator('.sl-font').textContent()).toBe('font 19px');
    await sh.page.keyboard.press('Control+Minus');
    await sh.page.keyboard.press('Control+Minus');
    await expect.poll(() => fontSize(n)).toBe(17);
    await sh.page.keyboard.press('Control+Digit0');
    await expect.poll(() => fontSize(n)).toBe(18);
    expect(await sh.page.locator('.sl-font').count()).toBe(0);
    fs.rmSync(file);
    await expect.poll(() => fontSize(n), { timeout: 10_000 }).toBe(13);
  }, 60_000);
});
