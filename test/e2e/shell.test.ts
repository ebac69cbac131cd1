// The desktop shell end to end: a real server (the `npm start` entry), real bash,
// Debian's Chromium. One window is driven from the keyboard through the flows a
// person uses; each step leaves a screenshot in test-results/.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, region, screen, shot, until, view, waitScreen, type Shell } from './shell';

/* eslint-disable @typescript-eslint/no-explicit-any */
let sh: Shell;

const regions = async () => sh.page.locator('section[role="region"]').count();
const focused = async () => (await view(sh.page)).focused!;
const waitView = (what: string, f: string) =>
  until(sh.page, what, new Function(`const st = window.pane.store.getState(); const s = st.sessions[st.sessionId]; return (${f});`) as () => unknown);
const panesJson = () => {
  const r = sh.cli('ls', '--json');
  expect(r.code, r.stderr).toBe(0);
  const j = JSON.parse(r.stdout);
  return (Array.isArray(j) ? j : j.panes) as { n: number; attrs: Record<string, string>; signature: string }[];
};

describe.skipIf(chromiumMissing)(`the desktop shell in Chromium${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM}; .ci/run installs Debian's chromium)` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell();
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('shows `echo hello` typed in the first terminal', async () => {
    const first = await focused();
    await sh.page.keyboard.type('echo hello\n');
    await waitScreen(sh.page, first, /^hello$/m);
    await shot(sh.page, 'e2e-01-echo-hello');
    // The server's own screen model agrees with what the page drew.
    expect(sh.cli('screen', '-t', String(first)).stdout).toMatch(/^hello$/m);
  });

  it('splits from the keyboard into two, then three regions', async () => {
    const first = await focused();
    await sh.page.keyboard.press('Control+Shift+E');
    await waitView('a side-by-side split', 's.layout && s.layout.type === "split" && s.layout.direction === "horizontal"');
    expect(await regions()).toBe(2);
    const second = await focused();
    expect(second).not.toBe(first);
    await sh.page.keyboard.press('Control+Shift+O');
    await waitView('a stacked split on the right', 's.layout.b.type === "split" && s.layout.b.direction === "vertical"');
    expect(await regions()).toBe(3);
    await shot(sh.page, 'e2e-02-split');
  });

  it('reports each pane’s quadrant, which `pane ls` shows', async () => {
    const v = await view(sh.page);
    const [left, topRight, bottomRight] = v.tiles as [number, number, number];
    const want: Record<number, string> = { [left]: 'left', [topRight]: 'top-right', [bottomRight]: 'bottom-right' };
    for (let i = 0; i < 100; i++) {
      const got = Object.fromEntries(panesJson().map((p) => [p.n, p.attrs.quadrant]));
      if (Object.entries(want).every(([n, q]) => got[Number(n)] === q)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(Object.fromEntries(panesJson().map((p) => [p.n, p.attrs.quadrant]))).toMatchObject(want);
    expect(sh.cli('ls').stdout).toMatch(/top-right/);
    await expect.poll(() => region(sh.page, left).getByRole('note', { name: 'quadrant left' }).count()).toBe(1);
  });

  it('moves focus by direction, and the keyboard follows it', async () => {
    const v = await view(sh.page);
    const [left, topRight, bottomRight] = v.tiles as [number, number, number];
    expect(v.focused).toBe(bottomRight);
    await sh.page.keyboard.press('Alt+Shift+ArrowUp');
    await waitView('focus up', `s.focused === ${topRight}`);
    await sh.page.keyboard.press('Alt+Shift+ArrowLeft');
    await waitView('focus left', `s.focused === ${left}`);
    await sh.page.keyboard.type('echo typed-in-left\n');
    await waitScreen(sh.page, left, /^typed-in-left$/m);
    expect(await screen(sh.page, topRight)).not.toContain('typed-in-left');
    // The focused pane is visibly marked, and its terminal holds the keyboard.
    await expect.poll(() => region(sh.page, left).getAttribute('class')).toContain('focused');
    expect(await sh.page.evaluate((n) => document.activeElement?.closest('section')?.getAttribute('data-pane'), left)).toBe(String(left));
    await shot(sh.page, 'e2e-03-focus-left');
  });

  it('resizes from the keyboard and by dragging a divider', async () => {
    const ratio = () => sh.page.evaluate(() => {
      const st = (window as any).pane.store.getState();
      return st.sessions[st.sessionId].layout.ratio as number;
    });
    const before = await ratio();
    await sh.page.keyboard.press('Control+Shift+ArrowRight');
    await expect.poll(ratio).toBeGreaterThan(before);
    const box = (await sh.page.locator('[data-divider=""]').boundingBox())!;
    const ws = (await sh.page.locator('main.workspace').boundingBox())!;
    // A quarter of the way down: mid-height is where the right side's own divider meets it.
    const y = box.y + box.height / 4;
    await sh.page.mouse.move(box.x + box.width / 2, y);
    await sh.page.mouse.down();
    await sh.page.mouse.move(ws.x + ws.width * 0.45, y, { steps: 5 });
    await sh.page.mouse.move(ws.x + ws.width * 0.3, y, { steps: 5 });
    await sh.page.mouse.up();
    await expect.poll(ratio).toBeCloseTo(30, 0);
    await shot(sh.page, 'e2e-04-resized');
  });

  it('zooms and unzooms the focused pane', async () => {
    const f = await focused();
    await sh.page.keyboard.press('Control+Shift+Z');
    await waitView('zoom', `s.zoomed === ${f}`);
    expect(await regions()).toBe(1);
    await shot(sh.page, 'e2e-05-zoomed');
    await sh.page.keyboard.press('Control+Shift+Z');
    await waitView('unzoom', 's.zoomed === null');
    expect(await regions()).toBe(3);
  });

  it('opens the palette with key bindings and runs a command from it', async () => {
    const f = await focused();
    await sh.page.keyboard.press('Control+Shift+P');
    const dialog = sh.page.getByRole('dialog', { name: 'command palette' });
    await dialog.waitFor();
    await sh.page.keyboard.type('zoom');
    await expect.poll(() => dialog.innerText()).toContain('Ctrl+Shift+Z');
    await shot(sh.page, 'e2e-06-palette');
    await sh.page.keyboard.press('Enter');
    await waitView('zoom from the palette', `s.zoomed === ${f}`);
    expect(await dialog.count()).toBe(0);
    // A word with arguments, typed whole: the pane's "name" command renames its tag.
    await sh.page.keyboard.press('Control+Shift+P');
    await dialog.waitFor();
    await sh.page.keyboard.type('name build');
    await sh.page.keyboard.press('Enter');
    await until(sh.page, 'the tag renamed', new Function(`return window.pane.store.getState().panes[${f}].tag.name === 'build'`) as () => boolean);
    await sh.page.keyboard.press('Control+Shift+Z');
    await waitView('unzoom', 's.zoomed === null');
  });

  it('executes a tag word on click and on middle-click', async () => {
    const f = await focused();
    const tag = sh.page.getByRole('toolbar', { name: 'tag of build' });
    await tag.getByRole('button', { name: 'zoom', exact: true }).click({ button: 'middle' });
    await waitView('zoom by middle-click', `s.zoomed === ${f}`);
    await sh.page.getByRole('toolbar', { name: 'tag of build' }).getByRole('button', { name: 'zoom', exact: true }).click();
    await waitView('unzoom by click', 's.zoomed === null');
    const n = (await view(sh.page)).tiles.length;
    await sh.page.getByRole('toolbar', { name: 'tag of build' }).getByRole('button', { name: 'split', exact: true }).click();
    await waitView('split by click', `(function l(n){return !n?0:n.type==='leaf'?1:l(n.a)+l(n.b)})(s.layout) === ${n + 1}`);
    await shot(sh.page, 'e2e-07-tag-click');
  });

  it('saves tag text typed by the user', async () => {
    const f = await focused();
    const text = region(sh.page, f).locator('.tag-user');
    await text.click();
    await sh.page.keyboard.type('deploy notes');
    await sh.page.keyboard.press('Enter');
    await until(sh.page, 'the tag text saved', new Function(`return window.pane.store.getState().panes[${f}].tag.user === 'deploy notes'`) as () => boolean);
    expect(sh.cli('tag', '-t', String(f)).stdout).toContain('deploy notes');
  });

  it('closes a pane from the keyboard', async () => {
    const f = await focused();
    const n = await regions();
    await sh.page.keyboard.press('Control+Shift+X');
    // The server says the close first and moves focus in the next event: wait for both, so the
    // next step's "focused pane" is the one the keyboard now acts on, not the closed one.
    await waitView('the pane to close and focus to move on', `!st.panes[${f}] && s.focused !== null && s.focused !== ${f} && !!st.panes[s.focused]`);
    expect(await regions()).toBe(n - 1);
    expect(await region(sh.page, f).count()).toBe(0);
  });

  it('floats a pane, drags it, snaps it to the left half and resizes it', async () => {
    const f = await focused();
    await sh.page.keyboard.press('Control+Shift+L');
    await waitView('the pane to float', `s.floating.some((x) => x.pane === ${f})`);
    const fl = async () => (await view(sh.page)).floating.find((x) => x.pane === f)!;
    const start = await fl();
    const handle = sh.page.locator('.float-window .tag-name');
    const hb = (await handle.boundingBox())!;
    await sh.page.mouse.move(hb.x + 5, hb.y + 5);
    await sh.page.mouse.down();
    await sh.page.mouse.move(hb.x + 60, hb.y + 40, { steps: 4 });
    await sh.page.mouse.move(hb.x + 125, hb.y + 65, { steps: 4 });
    await sh.page.mouse.up();
    await expect.poll(async () => (await fl()).x).toBeGreaterThan(start.x + 5);
    expect((await fl()).y).toBeGreaterThan(start.y);
    await shot(sh.page, 'e2e-08-float-moved');

    // Drag to the left edge: the left-half zone is previewed, then taken.
    const hb2 = (await handle.boundingBox())!;
    await sh.page.mouse.move(hb2.x + 5, hb2.y + 5);
    await sh.page.mouse.down();
    await sh.page.mouse.move(200, 300, { steps: 4 });
    await sh.page.mouse.move(3, 300, { steps: 6 });
    expect(await sh.page.locator('.snap-preview').count()).toBe(1);
    await shot(sh.page, 'e2e-09-float-snap-preview');
    await sh.page.mouse.up();
    const vp = (await view(sh.page)).viewport;
    await expect.poll(async () => (await fl()).x).toBe(0);
    const snapped = await fl();
    expect(snapped).toMatchObject({ x: 0, y: 0, h: vp.rows });
    expect(Math.abs(snapped.w - vp.cols / 2)).toBeLessThanOrEqual(1);

    // Resize from the bottom-right corner.
    const br = (await sh.page.locator('.float-window .resize-br').boundingBox())!;
    // Inside the corner: the handle straddles the window's edge, which clips its outer half.
    await sh.page.mouse.move(br.x + br.width * 0.3, br.y + br.height * 0.3);
    await sh.page.mouse.down();
    await sh.page.mouse.move(br.x - 100, br.y - 150, { steps: 6 });
    await sh.page.mouse.up();
    await expect.poll(async () => (await fl()).h).toBeLessThan(snapped.h);
    expect((await fl()).w).toBeLessThan(snapped.w);
    await shot(sh.page, 'e2e-10-float-resized');
    // A float reports its quadrant too.
    await expect.poll(() => panesJson().find((p) => p.n === f)?.attrs.quadrant).toMatch(/left/);
  });

  it('launches an app from the launcher (beside the focused pane; it floats, so the app floats too)', async () => {
    const before = new Set((await view(sh.page)).tiles);
    await sh.page.keyboard.press('Control+Shift+K');
    const dialog = sh.page.getByRole('dialog', { name: 'launcher' });
    await dialog.waitFor();
    await sh.page.keyboard.type('termnl');
    await expect.poll(() => dialog.getByRole('option').first().innerText()).toContain('Terminal');
    await shot(sh.page, 'e2e-11-launcher');
    await sh.page.keyboard.press('Enter');
    const ps = (await until(sh.page, 'the app pane', () => {
      const st = (window as any).pane.store.getState();
      const found = Object.values(st.panes).filter((p: any) => p.attrs.app === 'terminal').map((p: any) => p.n) as number[];
      return found.length > 0 ? found : null;
    }))!;
    const n = ps[0]!;
    expect(before.has(n)).toBe(false);
    expect(panesJson().find((p) => p.n === n)?.signature).toBe('com.pane.terminal');
    await waitView('the app pane focused', `s.focused === ${n}`);
  });

  it('cycles panes with a visible switcher and focuses the choice on release', async () => {
    const from = await focused();
    await sh.page.keyboard.down('Control');
    await sh.page.keyboard.down('Shift');
    await sh.page.keyboard.press('KeyS');
    const sw = sh.page.getByRole('dialog', { name: 'switch pane' });
    await sw.waitFor();
    expect(await sw.getByRole('option').count()).toBeGreaterThan(1);
    await shot(sh.page, 'e2e-12-switcher');
    await sh.page.keyboard.up('Shift');
    await sh.page.keyboard.up('Control');
    await waitView('focus to move', `s.focused !== ${from}`);
    expect(await sw.count()).toBe(0);
    // Opened from the prefix (w), it stays up with no key held. Keys it does not take stay with it: a number
    // read off its list, a letter, were typed into the shell under it.
    const here = await focused();
    const before = await sh.page.evaluate((p) => (window as any).pane.screen(p) as string, here);
    await sh.page.keyboard.press('Control+Shift+Space');
    await sh.page.keyboard.press('w');
    await sw.waitFor();
    await sh.page.keyboard.type('2q');
    await sh.page.keyboard.press('Escape');
    await expect.poll(() => sw.count()).toBe(0);
    await sh.page.keyboard.type('echo switcher-done\n');
    const after = await waitScreen(sh.page, here, /^switcher-done$/m);
    expect(after).toContain('echo switcher-done');
    expect(after).not.toContain('2qecho');
    expect(before.length).toBeGreaterThan(0);
  });

  it('finds text in the scrollback', async () => {
    const f = await focused();
    await sh.page.keyboard.type('echo needle-in-haystack\n');
    await waitScreen(sh.page, f, /^needle-in-haystack$/m);
    await sh.page.keyboard.press('Control+Shift+F');
    await sh.page.getByRole('search').waitFor();
    await sh.page.keyboard.type('needle-in');
    await expect.poll(() => sh.page.evaluate((p) => (window as any).pane.selection(p), f)).toBe('needle-in');
    await shot(sh.page, 'e2e-13-find');
    await sh.page.keyboard.press('Escape');
    expect(await sh.page.getByRole('search').count()).toBe(0);
    // In a narrow pane (28 columns) the bar stays inside it, its box shrinking: it had run off the pane's left edge, its box cut to a letter.
    const was = await sh.page.evaluate((p) => { const st = (window as any).pane.store.getState(); return st.sessions[st.sessionId].floating.find((x: { pane: number }) => x.pane === p) ?? null; }, f);
    expect(sh.cli('float', '-t', String(f), '--w', '28', '--h', '12').code).toBe(0);
    await expect.poll(() => sh.page.evaluate((p) => { const st = (window as any).pane.store.getState(); return st.sessions[st.sessionId].floating.find((x: { pane: number }) => x.pane === p)?.w ?? null; }, f)).toBe(28);
    try {
      await sh.page.keyboard.press('Control+Shift+F');
      const bar = sh.page.getByRole('search');
      await bar.waitFor();
      const inside = async () => {
        const b = (await bar.boundingBox())!;
        const frame = (await bar.locator('xpath=..').boundingBox())!;
        const box = (await bar.getByRole('textbox', { name: 'find' }).boundingBox())!;
        return b.x >= frame.x && b.x + b.width <= frame.x + frame.width && box.x >= frame.x && box.width >= 40;
      };
      await expect.poll(inside).toBe(true);
      await shot(sh.page, 'e2e-13b-find-narrow');
      await sh.page.keyboard.press('Escape');
    } finally {
      // Back as it was: the float's rectangle, or the tiling.
      if (was) sh.cli('float', '-t', String(f), '--x', String(was.x), '--y', String(was.y), '--w', String(was.w), '--h', String(was.h));
      else sh.cli('float', '-t', String(f), '--tile');
    }
  });

  it('toggles screen-reader mode from the palette', async () => {
    await sh.page.keyboard.press('Control+Shift+P');
    await sh.page.keyboard.type('screen-reader');
    await sh.page.keyboard.press('Enter');
    await expect.poll(() => sh.page.locator('.xterm-accessibility-tree').count()).toBeGreaterThan(0);
    await sh.page.keyboard.press('Control+Shift+P');
    await sh.page.keyboard.type('screen-reader');
    await sh.page.keyboard.press('Enter');
    await expect.poll(() => sh.page.locator('.xterm-accessibility-tree').count()).toBe(0);
  });

  it('shows the terminal’s title in its tag, and marks a bell rung in another pane', async () => {
    const v = await view(sh.page);
    const f = v.focused!;
    await sh.page.keyboard.type("printf '\\033]0;my-title\\007'\n");
    await expect.poll(() => region(sh.page, f).locator('.tag-title').innerText().catch(() => '')).toBe('my-title');
    const other = v.tiles.find((n) => n !== f)!;
    sh.cli('send', '-t', String(other), "sleep 0.3; printf '\\a'");
    await expect.poll(() => region(sh.page, other).getByRole('status', { name: 'bell rang' }).count(), { timeout: 10_000 }).toBe(1);
    await shot(sh.page, 'e2e-15-title-and-bell');
  });

  it('applies keymap.json edits live, and shows a bad one by file and field while keeping the old keymap', async () => {
    const file = path.join(sh.configDir, 'keymap.json');
    fs.writeFileSync(file, JSON.stringify({ bindings: { 'Ctrl+Shfit+E': 'pane.new' } }));
    const status = sh.page.getByRole('contentinfo', { name: 'status' });
    await expect.poll(() => status.innerText(), { timeout: 10_000 }).toContain('bindings["Ctrl+Shfit+E"]');
    expect(await status.innerText()).toContain('keymap.json');
    // The notice stands until the file is fixed (not only a few seconds), and goes with the fix.
    const notice = () => sh.page.evaluate(() => (window as any).pane.store.getState().notices.filter((x: { text: string }) => x.text.includes('Ctrl+Shfit+E')).length);
    expect(await notice()).toBe(1);
    await shot(sh.page, 'e2e-14-keymap-error');
    const n = (await view(sh.page)).tiles.length;
    await sh.page.keyboard.press('Control+Shift+E'); // still bound: the previous keymap is kept
    await until(sh.page, 'a split', new Function(`const st = window.pane.store.getState(); const s = st.sessions[st.sessionId]; return (function l(n){return !n?0:n.type==='leaf'?1:l(n.a)+l(n.b)})(s.layout) === ${n + 1}`) as () => boolean);
    fs.writeFileSync(file, JSON.stringify({ bindings: { 'Alt+Shift+N': 'pane.zoom' } }));
    await expect.poll(() => status.innerText(), { timeout: 10_000 }).not.toContain('keymap error');
    expect(await notice()).toBe(0);
    const f = await focused();
    await sh.page.keyboard.press('Alt+Shift+KeyN');
    await waitView('zoom via the new binding', `s.zoomed === ${f}`);
    await sh.page.keyboard.press('Alt+Shift+KeyN');
    await waitView('unzoom', 's.zoomed === null');
    fs.rmSync(file);
  });

  it('offers a tmux-style prefix mode: the prefix chord, then one key', async () => {
    await until(sh.page, 'the default keymap back', () => (window as any).pane.store.getState().keymap.sources.length === 0);
    const f = await focused();
    await sh.page.keyboard.press('Control+Shift+Space');
    await expect.poll(() => sh.page.getByRole('contentinfo', { name: 'status' }).innerText()).toContain('PREFIX');
    await shot(sh.page, 'e2e-16-prefix');
    await sh.page.keyboard.press('z');
    await waitView('zoom via the prefix', `s.zoomed === ${f}`);
    await sh.page.keyboard.press('Control+Shift+Space');
    await sh.page.keyboard.press('z');
    await waitView('unzoom via the prefix', 's.zoomed === null');
    // The prefix swallowed its key: no stray "z" reached the shell.
    expect(await screen(sh.page, f)).not.toMatch(/# z\s*$/m);
    // `;` goes back to the pane focused before, as tmux's last-pane; again, forth. The history is the
    // server's: focus moved at the CLI is focus the window goes back from.
    const split = (from: number) => {
      const r = sh.cli('split', '-t', String(from));
      expect(r.code, r.stderr).toBe(0);
      return Number(r.stdout.trim());
    };
    const other = split(f);
    const third = split(other);
    expect(sh.cli('focus', '-t', String(other)).code).toBe(0);
    await waitView('the middle pane focused', `s.focused === ${other}`);
    // In reading order [f, other, third] the previous pane is f; the one focused before is third.
    await sh.page.keyboard.press('Control+Shift+Space');
    await sh.page.keyboard.press(';');
    await waitView('back via the prefix', `s.focused === ${third}`);
    await sh.page.keyboard.press('Control+Shift+Space');
    await sh.page.keyboard.press(';');
    await waitView('forth via the prefix', `s.focused === ${other}`);
    expect(await screen(sh.page, third)).not.toMatch(/;\s*$/m);
    // Space lays the tiles out in the next preset, as tmux's next-layout; Shift+E spreads them evenly.
    const leavesOf = 'function l(n){return !n?[]:n.type===\'leaf\'?[n]:[...l(n.a),...l(n.b)]}';
    await sh.page.keyboard.press('Control+Shift+Space');
    await sh.page.keyboard.press('Space');
    await waitView('the tiles side by side', `(${leavesOf})(s.layout).length >= 3 && s.placements.filter((p) => !p.floating).every((p) => p.y === s.placements[0].y && p.h === s.placements[0].h)`);
    await shot(sh.page, 'e2e-16b-layout-even-horizontal');
    await sh.page.keyboard.press('Control+Shift+Space');
    await sh.page.keyboard.press('Space');
    await waitView('the tiles stacked', `s.placements.filter((p) => !p.floating).every((p) => p.x === s.placements[0].x && p.w === s.placements[0].w)`);
    await sh.page.keyboard.press('Control+Shift+Space');
    await sh.page.keyboard.press('Space');
    // main-horizontal: the focused pane on top, across the whole view.
    await waitView('the focused tile large on top', `s.layout.type === 'split' && s.layout.direction === 'vertical' && s.layout.a.type === 'leaf' && s.layout.a.pane === s.focused`);
    await shot(sh.page, 'e2e-16c-layout-main-horizontal');
    // Lopsided by hand, then spread: the tiles under the main one get the same width again.
    expect(sh.cli('resize', '-t', String(third), '-d', 'left', '-n', '20').code).toBe(0);
    await waitView('the tiles lopsided', `(() => { const w = s.placements.filter((p) => !p.floating && p.pane !== s.focused).map((p) => p.w); return Math.max(...w) - Math.min(...w) > 10; })()`);
    await sh.page.keyboard.press('Control+Shift+Space');
    await sh.page.keyboard.press('Shift+E');
    await waitView('the tiles spread', `(() => { const w = s.placements.filter((p) => !p.floating && p.pane !== s.focused).map((p) => p.w); return w.length >= 2 && Math.max(...w) - Math.min(...w) <= 1; })()`);
  });
});

describe.skipIf(chromiumMissing)("the window's WebSocket", () => {
  // Counts the page's sockets, with when each was made (before the page's own scripts run).
  const COUNT_SOCKETS = `(() => {
    const made = [];
    window.__sockets = made;
    window.WebSocket = class extends window.WebSocket {
      constructor(...a) {
        super(...a);
        made.push(performance.now());
      }
    };
  })();`;

  it('is opened once, as the page starts loading, and the app adopts it', async () => {
    const s = await openShell({ init: COUNT_SOCKETS });
    try {
      const seen = await s.page.evaluate(() => {
        const w = window as any;
        return { made: w.__sockets as number[], main: performance.getEntriesByName('pane:main')[0]?.startTime ?? null, left: w.paneEarlySocket !== undefined, conn: w.pane.store.getState().conn.state };
      });
      expect(seen.conn).toBe('open');
      // One socket: public/early-socket.js made it before the app's modules ran (the pane:main mark), and the app took it over.
      expect(seen.made).toHaveLength(1);
      expect(seen.main).not.toBeNull();
      expect(seen.made[0]!).toBeLessThan(seen.main!);
      expect(seen.left).toBe(false);
      // And it carries the session: a command typed now echoes.
      const n = (await view(s.page)).focused!;
      await s.page.keyboard.type('echo adopted\n');
      await waitScreen(s.page, n, /^adopted$/m);
    } finally {
      await s.close();
    }
  });
});
