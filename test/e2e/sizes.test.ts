// Exact sizes end to end: every program's PTY (what `stty size` says) equals the
// cells its xterm draws, the drawn terminal lies wholly inside its frame, and each
// layout change resizes a PTY once — through splits, resize keys, zoom, floats,
// keyboard moves, closes and window resizes larger and smaller. Also: floats
// cascade, and the quadrant is right with no window open.
/* eslint-disable @typescript-eslint/no-explicit-any */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, region, serve, shot, until, view, waitScreen, type Shell } from './shell';

/**
 * A program that prints its terminal size at start and at every SIGWINCH (bash runs
 * the trap as soon as `wait` is interrupted). Two resizes closer together than the
 * trap takes to run (a few ms) would print once; the window's old second resize
 * came a round trip later, which this sees.
 */
const WINCH = `trap 'echo "size $(stty size)"' WINCH\necho "size $(stty size)"\nwhile :; do sleep 60 & wait $!; kill $! 2>/dev/null; done\n`;

let sh: Shell;
let probe = '';

interface Seen {
  pane: number;
  term: { cols: number; rows: number };
  placed: { cols: number; rows: number } | null;
  /** Every size the program was told, in order. */
  sizes: string[];
  /** The terminal's drawn screen lies inside its frame (nothing clipped). */
  inside: boolean;
}

/** What every shown pane's terminal draws, what its program was told, and whether it fits its frame. */
function seen(page: Page): Promise<Seen[]> {
  return page.evaluate(() => {
    const w = window as any;
    const st = w.pane.store.getState();
    const s = st.sessions[st.sessionId];
    return s.placements
      .filter((p: any) => p.shown)
      .map((p: any) => {
        const t = w.pane.term(p.pane);
        const frame = document.querySelector(`section[data-pane="${p.pane}"]`)?.getBoundingClientRect();
        const scr = t?.element?.querySelector('.xterm-screen')?.getBoundingClientRect();
        const inside = !!frame && !!scr && scr.width > 0 && scr.left >= frame.left && scr.top >= frame.top && scr.right <= frame.right + 0.01 && scr.bottom <= frame.bottom + 0.01;
        const text: string = w.pane.screen(p.pane) ?? '';
        return { pane: p.pane, term: { cols: t?.cols ?? 0, rows: t?.rows ?? 0 }, placed: { cols: p.cols, rows: p.rows }, sizes: [...text.matchAll(/^size (\d+ \d+)$/gm)].map((m) => m[1]), inside };
      });
  });
}

/**
 * Waits until every shown pane's xterm draws its placement, wholly inside its
 * frame, and every pane running the size probe was last told exactly that size.
 */
async function exact(what: string, page: Page = sh.page): Promise<Seen[]> {
  const ok = (x: Seen) => x.inside && (x.sizes.length === 0 || x.sizes.at(-1) === `${x.term.rows} ${x.term.cols}`) && x.term.cols === x.placed?.cols && x.term.rows === x.placed?.rows;
  let last: Seen[] = [];
  for (const end = Date.now() + 15_000; Date.now() < end; ) {
    last = await seen(page);
    if (last.length > 0 && last.every(ok)) return last;
    await page.waitForTimeout(100);
  }
  throw new Error(`${what}: sizes never agreed: ${JSON.stringify(last.filter((x) => !ok(x)).map((x) => ({ ...x, sizes: x.sizes.slice(-3) })))}`);
}

/** Waits until no program hears of another size for a while (a late second resize would show here). */
async function settled(): Promise<Map<number, string[]>> {
  let prev = '';
  let same = 0;
  for (let i = 0; i < 100 && same < 6; i++) {
    const now = JSON.stringify((await seen(sh.page)).map((x) => [x.pane, x.sizes.length]));
    same = now === prev ? same + 1 : 0;
    prev = now;
    await sh.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
  }
  return new Map((await seen(sh.page)).map((x) => [x.pane, x.sizes]));
}

/** Does `act`, then holds that every pane's PTY was resized at most once, and exactly once where its size changed. */
async function oncePer(what: string, act: () => Promise<unknown>): Promise<Seen[]> {
  const before = await settled();
  await act();
  const after = await exact(what);
  const now = await settled();
  for (const x of after) {
    const was = before.get(x.pane);
    if (!was) continue; // a pane born in this step
    const added = now.get(x.pane)!.length - was.length;
    const changed = was.at(-1) !== now.get(x.pane)!.at(-1);
    expect(added, `${what}: pane ${x.pane} heard ${added} sizes (${now.get(x.pane)!.slice(was.length).join(', ')})`).toBe(changed ? 1 : 0);
  }
  return after;
}

/**
 * The window's cell (at the look's font size) and measureCell's (at others) beside an xterm
 * probe terminal's at the same size, in the page's current pixel ratio.
 */
function cellPairs(page: Page): Promise<{ size: number; window: { w: number; h: number } | null; xterm: { w: number; h: number } }[]> {
  return page.evaluate(() => {
    const w = window as any;
    const st = w.pane.store.getState();
    const term = w.pane.term(st.sessions[st.sessionId].focused);
    const Terminal = term.constructor;
    const family = term.options.fontFamily;
    return [term.options.fontSize, 9, 11.5, 13, 17, 24].map((size: number) => {
      const host = document.createElement('div');
      host.style.cssText = 'position:absolute;left:-100000px;top:0;width:10px;height:10px;overflow:hidden';
      document.body.appendChild(host);
      const t = new Terminal({ fontFamily: family, fontSize: size, cols: 1000, rows: 2 });
      t.open(host);
      const d = t._core._renderService.dimensions.css.cell;
      t.dispose();
      host.remove();
      return { size, window: size === term.options.fontSize ? st.cell : w.pane.measureCell({ fontFamily: family, fontSize: size }), xterm: { w: d.width, h: d.height } };
    });
  });
}

const winch = async (n: number) => {
  const r = sh.cli('send', '-t', String(n), `exec bash ${probe}`);
  expect(r.code, r.stderr).toBe(0);
  await waitScreen(sh.page, n, /^size \d+ \d+$/m);
};
const focused = async () => (await view(sh.page)).focused!;
const waitView = (what: string, f: string) =>
  until(sh.page, what, new Function(`const st = window.pane.store.getState(); const s = st.sessions[st.sessionId]; return (${f});`) as () => unknown);

describe.skipIf(chromiumMissing)(`exact sizes in Chromium${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell({ viewport: { width: 1280, height: 800 } });
    probe = path.join(sh.dir, 'winch.sh');
    fs.writeFileSync(probe, WINCH);
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('gives the first pane of a fresh session exactly the size it draws', async () => {
    await winch(await focused());
    await exact('fresh session');
    await shot(sh.page, 'e2e-60-sizes-fresh');
  });

  it("measures the cell as xterm does, without opening a terminal, at every font size", async () => {
    // measureCell reproduces xterm's arithmetic from canvas metrics; an xterm probe terminal
    // (the page's own Terminal class) is the reference. Checked at the look's size and others.
    const pairs = await cellPairs(sh.page);
    for (const p of pairs) expect(p.window, `font size ${p.size}`).toEqual(p.xterm);
  });

  it('resizes each PTY once per split, and the new panes start at their size', async () => {
    await oncePer('split side by side', async () => {
      await sh.page.keyboard.press('Control+Shift+E');
      await waitView('two tiles', 's.placements.length === 2');
    });
    await winch(await focused());
    await oncePer('split stacked', async () => {
      await sh.page.keyboard.press('Control+Shift+O');
      await waitView('three tiles', 's.placements.length === 3');
    });
    await winch(await focused());
    await exact('three panes');
  });

  it('resizes once per resize key and per zoom, and the zoomed pane fills the view', async () => {
    await oncePer('resize key', () => sh.page.keyboard.press('Control+Shift+ArrowLeft'));
    // A pane against the window's right border cannot grow that way: the window says so in words, no protocol names.
    await sh.page.keyboard.press('Control+Shift+ArrowRight');
    const notice = sh.page.locator('.notice').first();
    await expect.poll(() => notice.innerText()).toMatch(/touches the window border/);
    expect(await notice.innerText()).not.toMatch(/[a-z]+\/[a-z]+:/);
    await notice.getByRole('button').first().click();
    const f = await focused();
    await oncePer('zoom', async () => {
      await sh.page.keyboard.press('Control+Shift+Z');
      await waitView('zoomed', `s.zoomed === ${f}`);
    });
    await shot(sh.page, 'e2e-61-sizes-zoomed');
    await oncePer('unzoom', async () => {
      await sh.page.keyboard.press('Control+Shift+Z');
      await waitView('unzoomed', 's.zoomed === null');
    });
  });

  it('floats, moves and resizes a float from the keyboard; new floats cascade from the last', async () => {
    const f = await focused();
    const fl = async (n: number) => (await view(sh.page)).floating.find((x) => x.pane === n)!;
    await oncePer('float', async () => {
      await sh.page.keyboard.press('Control+Shift+L');
      await waitView('floating', `s.floating.some((x) => x.pane === ${f})`);
    });
    const start = await fl(f);
    // The swap keys move a float; no size changes, so no PTY hears of one.
    await oncePer('float moved by keys', async () => {
      await sh.page.keyboard.press('Control+Alt+Shift+ArrowRight');
      await sh.page.keyboard.press('Control+Alt+Shift+ArrowDown');
      await expect.poll(async () => (await fl(f)).y).toBeGreaterThan(start.y);
    });
    const moved = await fl(f);
    expect(moved).toMatchObject({ x: start.x + 4, y: start.y + 2, w: start.w, h: start.h });
    // The resize keys resize it: its bottom-right corner follows the arrow.
    await oncePer('float resized by keys', async () => {
      await sh.page.keyboard.press('Control+Shift+ArrowLeft');
      await expect.poll(async () => (await fl(f)).w).toBe(moved.w - 4);
    });
    // No internal error text reached the window.
    expect(await sh.page.locator('.notice').allInnerTexts()).toEqual([]);

    // A second float opens offset from the first rather than over it.
    const tiles = (await view(sh.page)).tiles;
    await region(sh.page, tiles[0]!).locator('.tag-name').click();
    await waitView('a tile focused', `s.focused === ${tiles[0]}`);
    const g = await focused();
    await oncePer('second float', async () => {
      await sh.page.keyboard.press('Control+Shift+L');
      await waitView('second float', `s.floating.length === 2`);
    });
    const first = await fl(f);
    const second = await fl(g);
    expect([second.x - first.x, second.y - first.y]).toEqual([3, 2]);
    await shot(sh.page, 'e2e-62-sizes-floats-cascade');
    await oncePer('tile it back', async () => {
      await sh.page.keyboard.press('Control+Shift+L');
      await waitView('one float', `s.floating.length === 1`);
    });
  });

  it('drags a float by any part of its tag, not only its name', async () => {
    const f = (await view(sh.page)).floating[0]!;
    const tag = sh.page.locator(`.float-window section[data-pane="${f.pane}"] .tag-user`);
    const b = (await tag.boundingBox())!;
    await sh.page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
    await sh.page.mouse.down();
    await sh.page.mouse.move(b.x + b.width / 2 - 60, b.y + b.height / 2 + 40, { steps: 4 });
    await sh.page.mouse.move(b.x + b.width / 2 - 120, b.y + b.height / 2 + 80, { steps: 4 });
    await sh.page.mouse.up();
    await expect.poll(async () => (await view(sh.page)).floating[0]!.x).toBeLessThan(f.x - 5);
    await exact('after a drag');
    // A click that does not move still edits the tag's text.
    await tag.click();
    await sh.page.keyboard.type('dragged');
    await sh.page.keyboard.press('Enter');
    await until(sh.page, 'the float’s tag text saved', new Function(`return window.pane.store.getState().panes[${f.pane}].tag.user === 'dragged'`) as () => boolean);
  });

  it('keeps a float inside a window made narrower than where it sits, and puts it back when the window grows', async () => {
    const f = (await view(sh.page)).floating[0]!;
    const size = sh.page.viewportSize()!;
    // Its right edge, in pixels: the window is made narrower than that.
    const right = await sh.page.evaluate((p) => document.querySelector(`.float-window section[data-pane="${p}"]`)!.getBoundingClientRect().right, f.pane);
    await sh.page.setViewportSize({ width: Math.max(320, Math.floor(right * 0.6)), height: size.height });
    try {
      const inWindow = () =>
        sh.page.evaluate((p) => {
          const r = document.querySelector(`.float-window section[data-pane="${p}"]`)!.getBoundingClientRect();
          const ws = document.querySelector('.float-window')!.parentElement!.getBoundingClientRect();
          return r.left >= ws.left - 0.5 && r.right <= ws.right + 0.5 && r.bottom <= ws.bottom + 0.5;
        }, f.pane);
      // Before, it ran past the window's right edge (its resize handle out of reach), its program sized for columns no one saw.
      await expect.poll(inWindow, { timeout: 10_000 }).toBe(true);
      await exact('a float in a narrower window');
      await shot(sh.page, 'e2e-63-sizes-float-narrow-window');
      // The float's own rectangle is kept: nothing moved it.
      expect((await view(sh.page)).floating[0]).toMatchObject({ x: f.x, y: f.y, w: f.w, h: f.h });
    } finally {
      await sh.page.setViewportSize(size);
    }
    const placed = () => sh.page.evaluate((p) => { const st = (window as any).pane.store.getState(); return st.sessions[st.sessionId].placements.find((x: { pane: number }) => x.pane === p); }, f.pane);
    await expect.poll(placed).toMatchObject({ x: f.x, y: f.y, w: f.w, h: f.h });
    await exact('the window wide again');
  });

  it('resizes once when a pane closes', async () => {
    const v = await view(sh.page);
    await oncePer('close', async () => {
      const r = sh.cli('close', '-t', String(v.floating[0]!.pane));
      expect(r.code, r.stderr).toBe(0);
      await waitView('the float closed', 's.floating.length === 0');
    });
    const t = (await view(sh.page)).tiles;
    await oncePer('close a tile', async () => {
      const r = sh.cli('close', '-t', String(t[t.length - 1]));
      expect(r.code, r.stderr).toBe(0);
      await waitView('a tile closed', `s.placements.length === ${t.length - 1}`);
    });
  });

  it('resizes every PTY once when the window shrinks and grows, to any size', async () => {
    for (const size of [{ width: 900, height: 600 }, { width: 1500, height: 950 }, { width: 1013, height: 701 }, { width: 1280, height: 800 }]) {
      await oncePer(`window ${size.width}×${size.height}`, async () => {
        await sh.page.setViewportSize(size);
        await waitView('the new viewport', `s.viewport.cols === Math.floor(document.querySelector('main.workspace').clientWidth / window.pane.store.getState().cell.w)`);
      });
    }
    await shot(sh.page, 'e2e-63-sizes-window');
  });

  it('shows vim’s last line', async () => {
    const n = (await view(sh.page)).tiles[0]!;
    const r = sh.cli('split', '-t', String(n), '-d', 'v', '--', 'vim', '-u', 'NONE', '-N', '-c', 'set laststatus=2', path.join(sh.dir, 'notes.txt'));
    expect(r.code, r.stderr).toBe(0);
    const v = Number(r.stdout.trim().split(':').pop());
    const last = () =>
      sh.page.evaluate((p) => {
        const t = (window as any).pane.term(p);
        const b = t.buffer.active;
        return { status: b.getLine(b.baseY + t.rows - 2)?.translateToString(true) ?? '', message: b.getLine(b.baseY + t.rows - 1)?.translateToString(true) ?? '' };
      }, v);
    // The status line is the last but one row, the message line the last: nothing wrapped, nothing hidden.
    // (vim may draw its status line a write before its message: wait for both.)
    await expect.poll(last, { timeout: 10_000 }).toMatchObject({ status: expect.stringMatching(/notes\.txt/), message: expect.stringMatching(/notes\.txt" \[New\]/) });
    await exact('vim');
    await shot(sh.page, 'e2e-64-sizes-vim');
  });
});

describe.skipIf(chromiumMissing)('exact sizes on screens of other pixel ratios', () => {
  // A window opened on a HiDPI panel or a fractional-scaling desktop. xterm lays its cells out in
  // whole device pixels, so a cell's CSS size depends on the ratio (the default 13 px font here
  // is 15 px tall at 1× and 2×, 15.5 at 1.5×): the window must measure it as xterm does there, or the last row
  // is clipped or the PTY told a size its xterm does not draw.
  for (const dpr of [1.25, 1.5, 2]) {
    it(`at ${dpr}× the window's cell is xterm's at every font size, and the sizes are exact`, async () => {
      const s = await openShell({ viewport: { width: 1013, height: 701 }, deviceScaleFactor: dpr });
      try {
        expect(await s.page.evaluate(() => window.devicePixelRatio)).toBe(dpr);
        const pairs = await cellPairs(s.page);
        for (const p of pairs) expect(p.window, `font size ${p.size} at ${dpr}×`).toEqual(p.xterm);
        const r = s.cli('split', '-d', 'v');
        expect(r.code, r.stderr).toBe(0);
        await until(s.page, 'two panes', () => {
          const st = (window as any).pane.store.getState();
          return st.sessions[st.sessionId].placements.length === 2;
        });
        await exact(`split at ${dpr}×`, s.page);
        await shot(s.page, `e2e-65-sizes-dpr-${dpr}`);
      } finally {
        await s.close();
      }
    }, 60_000);
  }
});

describe(`quadrants with no window open`, () => {
  it('`pane ls` and /index show each pane’s quadrant headless', async () => {
    const sv = await serve({ entry: 'cli' });
    try {
      const ls = () => JSON.parse(sv.cli('ls', '--json').stdout) as { n: number; attrs: Record<string, string> }[];
      if (ls().length === 0) expect(sv.cli('new').code).toBe(0);
      expect(ls()).toHaveLength(1);
      const first = ls()[0]!.n;
      expect(ls()[0]!.attrs.quadrant).toBe('full');
      const r = sv.cli('split', '-t', String(first), '-d', 'h');
      expect(r.code, r.stderr).toBe(0);
      const q = Object.fromEntries(ls().map((p) => [p.n, p.attrs.quadrant]));
      expect(Object.values(q).sort()).toEqual(['left', 'right']);
      expect(sv.cli('ls').stdout).toMatch(/\bleft\b/);
      expect(sv.cli('cat', '/index').stdout).toMatch(/\bright\b/);
    } finally {
      await sv.stop();
    }
  }, 60_000);
});
