// Plumbing in real Chromium, as a person clicks: a compiler error printed in a pane
// is underlined under the mouse and a click lands on its line in an editor pane
// (vim, beside the pane); a traceback line clicked next goes to the same editor
// pane (reused, at that line); a URL opens in a new browser page. The rules are
// pane's shipped ones; the clicks are real mouse events on the cells.
/* eslint-disable @typescript-eslint/no-explicit-any */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, shot, until, waitScreen, type Shell } from './shell';

const vim = spawnSync('vi', ['--version']).status === 0;
let sh: Shell;

/** The page coordinates of the middle of `needle`'s first cell on pane n's screen, on the lowest row that has it (the output, not the command line that printed it). */
async function cellOf(n: number, needle: string): Promise<{ x: number; y: number }> {
  return sh.page.evaluate(
    ([p, s]) => {
      const t = (window as any).pane.term(p);
      const buf = t.buffer.active;
      for (let y = t.rows - 1; y >= 0; y--) {
        const text: string = buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '';
        const x = text.indexOf(s as string);
        if (x < 0) continue;
        const r = t.element.querySelector('.xterm-screen').getBoundingClientRect();
        const w = r.width / t.cols;
        const h = r.height / t.rows;
        return { x: r.left + (x + 1.5) * w, y: r.top + (y + 0.5) * h };
      }
      throw new Error(`${s as string} is not on pane ${p as number}'s screen`);
    },
    [n, needle] as const,
  );
}

/** Rounds of hover: the mouse comes over the text, and the link is looked for for HOVER_WAIT_MS before the mouse moves off and back, as a person's does. */
const HOVER_ROUNDS = 6;
const HOVER_WAIT_MS = 2500;

/**
 * The mouse comes over (x, y) until the link there is underlined (once the server
 * says a rule takes it). xterm asks its link providers again only when the mouse
 * moves: on a page busy enough that the first answer comes after xterm stopped
 * waiting, a person moves the mouse again, and so does this (bounded).
 */
async function hoverLink(x: number, y: number): Promise<void> {
  for (let round = 1; ; round++) {
    if (round > 1) await sh.page.mouse.move(x, y + 30);
    await sh.page.mouse.move(x, y);
    try {
      await sh.page.waitForFunction(() => [...document.querySelectorAll('.xterm, .xterm-screen')].some((e) => e.classList.contains('xterm-cursor-pointer')), undefined, { timeout: HOVER_WAIT_MS });
      return;
    } catch (e) {
      if (round === HOVER_ROUNDS) throw new Error(`no link under the mouse at ${x},${y} after ${HOVER_ROUNDS} hovers of ${HOVER_WAIT_MS} ms: ${(e as Error).message}`);
    }
  }
}

/** A person's click on a link: the mouse comes over it, then clicks. */
async function clickLink(x: number, y: number): Promise<void> {
  await hoverLink(x, y);
  await sh.page.mouse.click(x, y);
}

const focused = () => sh.page.evaluate(() => (window as any).pane.store.getState().sessions[(window as any).pane.store.getState().sessionId].focused as number);
const paneNumbers = () => sh.page.evaluate(() => Object.keys((window as any).pane.store.getState().panes).map(Number));

describe.skipIf(chromiumMissing || !vim)(`plumbing in the window${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : !vim ? ' (skipped: no vi; apt-get install vim)' : ''}`, () => {
  let src: number;
  beforeAll(async () => {
    sh = await openShell({ viewport: { width: 1200, height: 700 } });
    fs.mkdirSync(path.join(sh.dir, 'proj', 'src'), { recursive: true });
    fs.writeFileSync(path.join(sh.dir, 'proj', 'src', 'app.ts'), Array.from({ length: 300 }, (_, i) => `const row${i + 1} = ${i + 1};`).join('\n') + '\n');
    fs.writeFileSync(path.join(sh.dir, 'proj', 'tool.py'), Array.from({ length: 80 }, (_, i) => `x${i + 1} = ${i + 1}`).join('\n') + '\n');
    src = await focused();
    sh.cli('send', '-t', String(src), `cd ${path.join(sh.dir, 'proj')} && clear`);
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('underlines a compiler error under the mouse, and a click opens vim beside the pane at its line and column', async () => {
    sh.cli('send', '-t', String(src), `printf 'src/app.ts:150:7 - error TS2322: Type "string" is not assignable\\n'`);
    await waitScreen(sh.page, src, /^src\/app\.ts:150:7 - error/m);
    const before = await paneNumbers();
    // A plain word is no link, though a bare-path pattern matches it: the server says no rule takes it.
    const word = await cellOf(src, 'assignable');
    await sh.page.mouse.move(word.x, word.y);
    await new Promise((r) => setTimeout(r, 600));
    expect(await sh.page.evaluate(() => [...document.querySelectorAll('.xterm, .xterm-screen')].some((e) => e.classList.contains('xterm-cursor-pointer')))).toBe(false);
    const at = await cellOf(src, 'src/app.ts:150');
    // xterm draws a link's underline while the mouse is over it: the link the rules made is there.
    await hoverLink(at.x, at.y);
    await shot(sh.page, 'plumb-hover');
    await sh.page.evaluate((b) => ((window as any).before = b), before);
    await sh.page.mouse.click(at.x, at.y);
    const editor = (await until(sh.page, 'an editor pane', () => Object.keys((window as any).pane.store.getState().panes).map(Number).find((n) => !(window as any).before.includes(n)) ?? null))!;
    // vim's ruler says line 150, column 7, and the line is on screen. Both in one wait, on the
    // screen that matched: vim draws again after its first draw (as its start-up answers come
    // in), and a read during that redraw holds the ruler over rows not yet drawn again.
    await waitScreen(sh.page, editor, /const row150 = 150;[\s\S]*150,7\s+\d+%/);
    await shot(sh.page, 'plumb-editor');
    const r = sh.cli('cat', '/log');
    expect(r.stdout).toMatch(new RegExp(`^${src} plumb the_person \\(shipped\\):\\d+ opened .*app\\.ts:150:7 with vi in pane ${editor}$`, 'm'));
  });

  it('a traceback line clicked next lands in the same editor pane, at its line', async () => {
    const editors = (await paneNumbers()).filter((n) => n !== src);
    expect(editors).toHaveLength(1);
    sh.cli('send', '-t', String(src), `printf 'Traceback (most recent call last):\\n  File "tool.py", line 42, in <module>\\nNameError: nope\\n'`);
    await waitScreen(sh.page, src, /^ {2}File "tool\.py", line 42/m); // the output's line, not the typed command's
    const at = await cellOf(src, 'File "tool.py"');
    await clickLink(at.x + 8, at.y);
    await waitScreen(sh.page, editors[0]!, /"tool\.py"|x42 = 42/);
    await waitScreen(sh.page, editors[0]!, /42,1\s+\d+%/);
    expect(await paneNumbers()).toHaveLength(2);
  });

  it('by keyboard: copy mode’s o on an error line opens it at its line; Ctrl+Shift+B plumbs a selection', async () => {
    const editor = (await paneNumbers()).find((n) => n !== src)!;
    await sh.page.evaluate((n) => (window as any).pane.client.act('pane/focus', { pane: n }), src);
    sh.cli('send', '-t', String(src), `clear; printf 'lib/ok\\n  --> src/app.ts:222:4\\n'`);
    await waitScreen(sh.page, src, /^ {2}--> src\/app\.ts:222:4/m); // the output's line: the typed one holds it too, before `clear` runs
    await until(sh.page, 'pane focused', () => (window as any).pane.store.getState().sessions[(window as any).pane.store.getState().sessionId].focused !== null);
    await sh.page.keyboard.press('Control+Shift+Y');
    await sh.page.waitForSelector('.copybar');
    // The copy cursor starts at the prompt: up to the error line, onto its path, then o.
    const rowsUp = await sh.page.evaluate((p) => {
      const t = (window as any).pane.term(p);
      const b = t.buffer.active;
      for (let y = b.baseY + b.cursorY; y >= 0; y--) if ((b.getLine(y)?.translateToString(true) ?? '').includes('--> src/app.ts')) return b.baseY + b.cursorY - y;
      return -1;
    }, src);
    expect(rowsUp).toBeGreaterThan(0);
    for (let i = 0; i < rowsUp; i++) await sh.page.keyboard.press('k');
    await sh.page.keyboard.press('0');
    for (let i = 0; i < 8; i++) await sh.page.keyboard.press('l');
    await sh.page.keyboard.press('o');
    await waitScreen(sh.page, editor, /222,4\s+\d+%/);
    // The editor took the focus; back to the pane with the text. A selection, plumbed by the key.
    await sh.page.evaluate((n) => (window as any).pane.client.act('pane/focus', { pane: n }), src);
    await until(sh.page, 'the source pane focused', new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].focused === ${src}`) as () => boolean);
    sh.cli('send', '-t', String(src), `clear; printf 'see tool.py\\n'`);
    await waitScreen(sh.page, src, /^see tool\.py$/m);
    await sh.page.evaluate((p) => {
      const t = (window as any).pane.term(p);
      const b = t.buffer.active;
      for (let y = b.baseY + b.cursorY; y >= 0; y--) {
        const x = (b.getLine(y)?.translateToString(true) ?? '').indexOf('tool.py');
        if (x >= 0 && (b.getLine(y)?.translateToString(true) ?? '').startsWith('see')) return t.select(x, y, 'tool.py'.length);
      }
    }, src);
    await sh.page.keyboard.press('Control+Shift+B');
    // vim says it (re)opened the file, at the line it was last on there.
    await waitScreen(sh.page, editor, /"~\/proj\/tool\.py" 80 lines/);
    expect(await sh.page.evaluate((p) => (window as any).pane.term(p).hasSelection(), src)).toBe(false);
  });

  it('a URL clicked opens in a new browser page', async () => {
    // The page the window opens is answered here: nothing leaves the machine.
    await sh.context.route('https://example.invalid/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>guide</title>' }));
    sh.cli('send', '-t', String(src), `clear; printf 'docs at https://example.invalid/guide/plumb.html, read them\\n'`);
    await waitScreen(sh.page, src, /^docs at https:\/\/example\.invalid/m); // the output's line: the typed one holds it too, before `clear` runs
    const popup = sh.context.waitForEvent('page', { timeout: 15_000 });
    const at = await cellOf(src, 'https://example.invalid');
    await clickLink(at.x + 20, at.y);
    const page = await popup;
    expect(page.url()).toBe('https://example.invalid/guide/plumb.html');
    await page.close().catch(() => undefined);
    // Back to the window, as a person returning from the browser.
    await sh.page.bringToFront();
  });

  it('an OSC 8 link a program prints is plumbed too: a file:// one opens the file in the editor pane', async () => {
    const editor = (await paneNumbers()).find((n) => n !== src)!;
    sh.cli('send', '-t', String(src), `clear; printf '\\e]8;;file://%s\\e\\\\open-the-link\\e]8;;\\e\\\\ after\\n' "$PWD/src/app.ts"`);
    await waitScreen(sh.page, src, /^open-the-link after$/m);
    const at = await cellOf(src, 'open-the-link after');
    // The mouse comes from elsewhere on the screen, as a hand's does.
    await sh.page.mouse.move(at.x + 10, at.y + 200);
    await clickLink(at.x + 10, at.y);
    const log = await (async () => {
      for (let i = 0; i < 100; i++) {
        const l = sh.cli('cat', '/log').stdout;
        if (/plumb the_person \(shipped\):\d+ opened \S*\/proj\/src\/app\.ts in the editor in pane/.test(l)) return l;
        await new Promise((r) => setTimeout(r, 100));
      }
      return sh.cli('cat', '/log').stdout;
    })();
    expect(log).toMatch(new RegExp(`plumb the_person \\(shipped\\):\\d+ opened \\S*/proj/src/app\\.ts in the editor in pane ${editor}$`, 'm'));
    await waitScreen(sh.page, editor, /^const row\d+ = \d+;$/m);
  });
});
