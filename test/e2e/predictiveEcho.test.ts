// Predictive local echo in a real Chromium (issue 26.5): a pane runs a program that
// echoes each key only after ECHO_DELAY_MS (as a distant host would), and mis-echoes
// digits. With settings.json `predictiveEcho: 'always'`, typed letters show at once,
// underlined, in a layer over the terminal; the echo confirms them (the layer empties,
// the buffer holds them); a wrong echo drops the guesses and the screen shows only the
// program's own output.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREDICT_MIN_RTT_MS } from '../../renderer/src/term/predict';
import { ARTIFACTS, chromiumMissing, CHROMIUM, openShell, region, until, view, waitScreen, type Shell } from './shell';

/* eslint-disable @typescript-eslint/no-explicit-any */
let sh: Shell;

/** How long the program sits on each key before echoing it: a slow link, and long enough to look at the guess. */
const ECHO_DELAY_MS = 800;

/** The slow echo: raw stdin (no tty echo), each byte echoed after the delay; digits echoed as '#'; '!' enters or leaves the alternate screen; Ctrl-C ends it. */
const SLOW_ECHO = `
process.stdin.setRawMode(true);
process.stdout.write('slow> ');
let alt = false;
process.stdin.on('data', (b) => {
  for (const c of b.toString('latin1')) {
    if (c === '\\x03') process.exit(0);
    setTimeout(() => {
      if (c === '!') process.stdout.write((alt = !alt) ? '\\x1b[?1049hALT> ' : '\\x1b[?1049l');
      else if (c === '\\x7f') process.stdout.write('\\b \\b');
      else if (c === '\\r') process.stdout.write('\\r\\nslow> ');
      else process.stdout.write(/[0-9]/.test(c) ? '#' : c);
    }, ${ECHO_DELAY_MS});
  }
});
`;

type Echo = { shown: string; pending: number; rttMs: number | null; lastDrop: string | null; lastReset: string | null; drops: number; dropsBy: Record<string, number>; lastMismatch: string | null; mode: string };
/** Drops a contradicting echo or an expiry made: all but a reset, which comes from outside the keys (a resize, a re-attach) and is said apart. */
const contradicted = (e: Echo) => e.drops - (e.dropsBy.reset ?? 0);
const echo = (n: number): Promise<Echo> => sh.page.evaluate((p) => (window as any).pane.echo(p), n);
/** The guess layer's cells as drawn: their text and computed underline. */
const cells = (n: number) =>
  region(sh.page, n)
    .locator('.pane-predict .pane-predict-cell')
    .evaluateAll((els) => els.map((e) => ({ ch: e.textContent, line: getComputedStyle(e).textDecorationLine })));
const promptLine = async (n: number) => ((await sh.page.evaluate((p) => (window as any).pane.screen(p) as string, n)).split('\n').reverse().find((l) => l.startsWith('slow> ')) ?? '').trimEnd();

describe.skipIf(chromiumMissing)(`predictive local echo in Chromium${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell();
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('is off by default', async () => {
    const n = (await view(sh.page)).focused!;
    expect((await echo(n)).mode).toBe('off');
  });

  it("confirms every guess at a real bash prompt, a backspace included, and drops none ('always')", async () => {
    const n = (await view(sh.page)).focused!;
    fs.writeFileSync(path.join(sh.configDir, 'settings.json'), JSON.stringify({ predictiveEcho: 'always' }));
    await until(sh.page, 'the setting in force', () => (window as any).pane.store.getState().settings.settings.predictiveEcho === 'always');
    await sh.page.locator(`section[data-pane="${n}"] .xterm`).click();
    const before = await echo(n);
    await sh.page.keyboard.type('e');
    await expect.poll(async () => (await echo(n)).pending).toBe(0);
    await sh.page.keyboard.type('cho pX');
    await sh.page.keyboard.press('Backspace');
    await sh.page.keyboard.type('redicted');
    await waitScreen(sh.page, n, /[$#] echo predicted$/m);
    await expect.poll(async () => (await echo(n)).pending).toBe(0);
    const e = await echo(n);
    expect(contradicted(e), `no guess was contradicted or left unconfirmed (${e.lastDrop}: ${e.lastMismatch})`).toBe(contradicted(before));
    // Guesses a window event dropped meanwhile (on a loaded machine: a resize as a late font changes the cell) are no echo's doing.
    const resets = (e.dropsBy.reset ?? 0) - (before.dropsBy.reset ?? 0);
    if (resets > 0) console.log(`predictive echo at a bash prompt: ${resets} reset(s) while typing, the last by ${e.lastReset}`);
    expect(e.rttMs).not.toBeNull();
    await sh.page.keyboard.press('Enter');
    await waitScreen(sh.page, n, /^predicted$/m);
    expect(await cells(n)).toEqual([]);
    console.log(`predictive echo at a local bash prompt: echo-delay estimate ${e.rttMs!.toFixed(1)} ms`);
  }, 30_000);

  it("draws typed keys underlined before a slow echo, confirms them when it comes, drops them when the echo differs, makes none on the alternate screen ('always'), and guesses on this slow pane in 'auto'", async () => {
    const n = (await view(sh.page)).focused!;
    fs.writeFileSync(path.join(sh.configDir, 'settings.json'), JSON.stringify({ predictiveEcho: 'always' }));
    await until(sh.page, 'the setting in force', () => (window as any).pane.store.getState().settings.settings.predictiveEcho === 'always');
    const script = path.join(sh.dir, 'slowEcho.cjs');
    fs.writeFileSync(script, SLOW_ECHO);
    expect(sh.cli('send', '-t', String(n), `${process.execPath} ${script}`).code).toBe(0);
    await waitScreen(sh.page, n, /^slow> $/m);
    await sh.page.locator(`section[data-pane="${n}"] .xterm`).click();

    // A new run is not drawn until the program echoes one of its keys.
    await sh.page.keyboard.type('e');
    expect((await echo(n)).pending).toBe(1);
    expect(await cells(n)).toEqual([]);
    await expect.poll(() => promptLine(n), { timeout: 10_000 }).toBe('slow> e');
    await expect.poll(async () => (await echo(n)).pending).toBe(0);

    // The run is proven: the next keys show at once, underlined, before any echo.
    const dropsBefore = (await echo(n)).drops;
    const t0 = Date.now();
    await sh.page.keyboard.type('cho');
    const drawn = await cells(n);
    const before = await promptLine(n);
    const drawnAfterMs = Date.now() - t0;
    const pic = path.join(ARTIFACTS, 'e2e-predictive-echo.png');
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await region(sh.page, n).screenshot({ path: pic });
    expect(drawnAfterMs, 'the check ran before the echo could come').toBeLessThan(ECHO_DELAY_MS);
    expect(before).toBe('slow> e');
    expect(drawn).toEqual(['c', 'h', 'o'].map((ch) => ({ ch, line: 'underline' })));

    // The echo confirms them: the layer empties and xterm's buffer holds the text.
    await expect.poll(() => promptLine(n), { timeout: 10_000 }).toBe('slow> echo');
    await expect.poll(async () => (await echo(n)).pending, { timeout: 5000 }).toBe(0);
    expect(await cells(n)).toEqual([]);
    const confirmed = await echo(n);
    expect(confirmed.drops, `nothing dropped (${confirmed.lastDrop}: ${confirmed.lastMismatch})`).toBe(dropsBefore);
    // The moving estimate (which began at bash's fast echo) has climbed past 'auto''s threshold.
    expect(confirmed.rttMs!).toBeGreaterThan(PREDICT_MIN_RTT_MS);

    // A guess the echo contradicts: drawn, then dropped; only the program's '#' remains.
    await sh.page.keyboard.type('12');
    expect((await cells(n)).map((c) => c.ch)).toEqual(['1', '2']);
    await expect.poll(async () => (await echo(n)).lastDrop, { timeout: 10_000 }).toBe('mismatch');
    expect(await cells(n)).toEqual([]);
    await expect.poll(() => promptLine(n), { timeout: 10_000 }).toBe('slow> echo##');
    expect((await echo(n)).shown).toBe('');

    // The alternate screen (a full-screen program): the guesses are dropped and none are made there.
    await sh.page.keyboard.type('!');
    const buffer = () => sh.page.evaluate((p) => (window as any).pane.term(p).buffer.active.type as string, n);
    await expect.poll(buffer, { timeout: 10_000 }).toBe('alternate');
    await sh.page.keyboard.type('vi');
    expect(await echo(n)).toMatchObject({ pending: 0, shown: '' });
    expect(await cells(n)).toEqual([]);
    await waitScreen(sh.page, n, /ALT> vi$/m);
    await sh.page.keyboard.type('!');
    await expect.poll(buffer, { timeout: 10_000 }).toBe('normal');
    expect(await promptLine(n)).toBe('slow> echo##');

    // 'auto' guesses here: the pane's measured echo delay is far above the threshold.
    fs.writeFileSync(path.join(sh.configDir, 'settings.json'), JSON.stringify({ predictiveEcho: 'auto' }));
    await until(sh.page, "'auto' in force", () => (window as any).pane.store.getState().settings.settings.predictiveEcho === 'auto');
    await sh.page.keyboard.type('x');
    await expect.poll(() => promptLine(n), { timeout: 10_000 }).toBe('slow> echo##x');
    await expect.poll(async () => (await echo(n)).pending).toBe(0);
    await sh.page.keyboard.type('yz');
    expect((await cells(n)).map((c) => c.ch)).toEqual(['y', 'z']);
    await expect.poll(() => promptLine(n), { timeout: 10_000 }).toBe('slow> echo##xyz');
    await expect.poll(() => cells(n)).toEqual([]);

    console.log(`predictive echo: guesses drawn ${drawnAfterMs} ms after typing (echo after ${ECHO_DELAY_MS} ms); echo-delay estimate ${Math.round(confirmed.rttMs!)} ms; screenshot ${pic}`);

    await sh.page.keyboard.press('Control+C');
    await waitScreen(sh.page, n, /[$#] $/m);
  }, 60_000);
});
