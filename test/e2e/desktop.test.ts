// The desktop of seed 002 by keyboard (issue 37.4), in a real Chromium window on a
// real server: a tile minimised with one key and back from the dock; the status line's
// strip of hidden panes; the nine snap zones from the prefix's keypad digits; the
// scratch layer shown and hidden as one; `pane hide` / `pane show` from the CLI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, region, shot, until, view, waitScreen, type Shell } from './shell';

/* eslint-disable @typescript-eslint/no-explicit-any */
let sh: Shell;

const session = () =>
  sh.page.evaluate(() => {
    const st = (window as any).pane.store.getState();
    const s = st.sessions[st.sessionId];
    return { focused: s.focused as number, floating: s.floating as { pane: number; x: number; y: number; w: number; h: number; layer: string; visible: boolean }[], viewport: s.viewport as { cols: number; rows: number }, tiles: s.placements.filter((p: any) => !p.floating).map((p: any) => p.pane) as number[] };
  });

describe.skipIf(chromiumMissing)(`the desktop by keyboard${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  let first: number;
  let second: number;
  beforeAll(async () => {
    sh = await openShell({ viewport: { width: 1280, height: 800 } });
    first = (await view(sh.page)).focused!;
    await sh.page.keyboard.press('Control+Shift+E');
    // The split's pane and its focus are two events: wait for both (under load they arrive apart).
    await until(sh.page, 'a second pane, focused', new Function(`const st = window.pane.store.getState(); return Object.keys(st.panes).length === 2 && st.sessions[st.sessionId].focused !== ${first}`) as () => boolean);
    second = (await session()).focused;
    expect(second).not.toBe(first);
    expect(sh.cli('tag', '-t', String(first), '--name', 'builds').code).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('minimises a tile with one key, lists it on the status line, and brings it back from the dock', async () => {
    await sh.page.evaluate(async (n) => (window as any).pane.client.call('pane/focus', { pane: n }), first);
    await until(sh.page, 'the first focused', new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].focused === ${first}`) as () => boolean);
    await sh.page.keyboard.press('Control+Shift+M');
    await until(sh.page, 'the tile hidden', new Function(`const st = window.pane.store.getState(); const s = st.sessions[st.sessionId]; return s.floating.some((f) => f.pane === ${first} && !f.visible)`) as () => boolean);
    expect((await session()).tiles).toEqual([second]);
    await sh.page.locator('.sl-hidden button', { hasText: 'builds' }).waitFor();
    // The program runs on while hidden.
    expect(sh.cli('ls').stdout).toMatch(new RegExp(`^ *${first} .*running`, 'm'));

    await sh.page.keyboard.press('Alt+Shift+M');
    await sh.page.locator('.picker[data-picker="dock"]').waitFor();
    await sh.page.keyboard.type('builds');
    expect(await sh.page.locator('.picker[data-picker="dock"] [aria-selected="true"] .pk-kind').textContent()).toBe('hidden');
    await shot(sh.page, 'desktop-dock');
    await sh.page.keyboard.press('Enter');
    await until(sh.page, 'back in the tiling, focused', new Function(`const st = window.pane.store.getState(); const s = st.sessions[st.sessionId]; return s.focused === ${first} && !s.floating.some((f) => f.pane === ${first}) && s.placements.some((p) => p.pane === ${first} && !p.floating)`) as () => boolean);
    expect(await sh.page.locator('.sl-hidden').count()).toBe(0);
  }, 30_000);

  it('snaps the focused pane to each of the nine zones from the prefix keypad', async () => {
    const prefix = async (key: string) => {
      await sh.page.keyboard.press('Control+Shift+Space');
      await sh.page.keyboard.press(key);
    };
    await sh.page.evaluate(async (n) => (window as any).pane.client.call('pane/focus', { pane: n }), second);
    await until(sh.page, 'the second focused', new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].focused === ${second}`) as () => boolean);
    const { viewport } = await session();
    const half = (n: number) => Math.round(n / 2);
    const want: Record<string, { x: number; y: number; w: number; h: number }> = {
      '7': { x: 0, y: 0, w: half(viewport.cols), h: half(viewport.rows) },
      '8': { x: 0, y: 0, w: viewport.cols, h: half(viewport.rows) },
      '9': { x: half(viewport.cols), y: 0, w: viewport.cols - half(viewport.cols), h: half(viewport.rows) },
      '4': { x: 0, y: 0, w: half(viewport.cols), h: viewport.rows },
      '5': { x: 0, y: 0, w: viewport.cols, h: viewport.rows },
      '6': { x: half(viewport.cols), y: 0, w: viewport.cols - half(viewport.cols), h: viewport.rows },
      '1': { x: 0, y: half(viewport.rows), w: half(viewport.cols), h: viewport.rows - half(viewport.rows) },
      '2': { x: 0, y: half(viewport.rows), w: viewport.cols, h: viewport.rows - half(viewport.rows) },
      '3': { x: half(viewport.cols), y: half(viewport.rows), w: viewport.cols - half(viewport.cols), h: viewport.rows - half(viewport.rows) },
    };
    for (const [key, r] of Object.entries(want)) {
      await prefix(key);
      await until(sh.page, `zone ${key}`, new Function(`const st = window.pane.store.getState(); const f = st.sessions[st.sessionId].floating.find((x) => x.pane === ${second}); return f && f.x === ${r.x} && f.y === ${r.y} && f.w === ${r.w} && f.h === ${r.h}`) as () => boolean);
    }
    await shot(sh.page, 'desktop-snapped');
    await sh.page.evaluate(async (n) => (window as any).pane.client.call('pane/float', { pane: n, mode: 'tile' }), second);
  }, 30_000);

  it('shows and hides the scratch layer as one with one key', async () => {
    await sh.page.keyboard.press('Alt+Shift+S');
    await until(sh.page, 'a scratch float', () => (window as any).pane.store.getState().sessions[(window as any).pane.store.getState().sessionId].floating.some((f: any) => f.layer === 'scratch' && f.visible));
    const scratch = (await session()).floating.find((f) => f.layer === 'scratch')!.pane;
    // A second float joins the layer: the key hides and shows both.
    await sh.page.evaluate(async () => (window as any).pane.client.call('float/create', { layer: 'scratch', name: 'notes' }));
    await until(sh.page, 'two in the layer', () => (window as any).pane.store.getState().sessions[(window as any).pane.store.getState().sessionId].floating.filter((f: any) => f.layer === 'scratch').length === 2);
    await sh.page.keyboard.press('Alt+Shift+S');
    await until(sh.page, 'the layer hidden', () => (window as any).pane.store.getState().sessions[(window as any).pane.store.getState().sessionId].floating.filter((f: any) => f.layer === 'scratch').every((f: any) => !f.visible));
    await sh.page.keyboard.press('Alt+Shift+S');
    await until(sh.page, 'the layer shown', () => (window as any).pane.store.getState().sessions[(window as any).pane.store.getState().sessionId].floating.filter((f: any) => f.layer === 'scratch').every((f: any) => f.visible));
    expect((await session()).floating.find((f) => f.pane === scratch)?.visible).toBe(true);
    // Pressed while a tile is zoomed: the zoom ends and the layer shows, so what is typed next lands where it is seen
    // (the zoom had hidden the layer it focused: the keys went into a pane no one saw).
    await sh.page.keyboard.press('Alt+Shift+S');
    await until(sh.page, 'the layer hidden again', () => (window as any).pane.store.getState().sessions[(window as any).pane.store.getState().sessionId].floating.filter((f: any) => f.layer === 'scratch').every((f: any) => !f.visible));
    await sh.page.evaluate(async (n) => (window as any).pane.client.call('pane/zoom', { pane: n, zoom: true }), first);
    await until(sh.page, 'a tile zoomed', new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].zoomed === ${first}`) as () => boolean);
    await sh.page.keyboard.press('Alt+Shift+S');
    await until(sh.page, 'the layer shown, the zoom ended', () => {
      const s = (window as any).pane.store.getState().sessions[(window as any).pane.store.getState().sessionId];
      return s.zoomed === null && s.floating.filter((f: any) => f.layer === 'scratch').every((f: any) => f.visible);
    });
    const into = (await session()).focused!;
    await expect.poll(() => region(sh.page, into).isVisible()).toBe(true);
    await sh.page.keyboard.type('echo z$((40+2))');
    await sh.page.keyboard.press('Enter');
    await waitScreen(sh.page, into, /^z42$/m);
  }, 30_000);

  it('hides and shows from the CLI, and a pane hidden twice or shown twice stays as it is', async () => {
    expect(sh.cli('hide', '-t', String(first)).code).toBe(0);
    expect(sh.cli('hide', '-t', String(first)).code).toBe(0);
    await until(sh.page, 'hidden from the CLI', new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].floating.some((f) => f.pane === ${first} && !f.visible)`) as () => boolean);
    expect(sh.cli('cat', `/${first}/ctl`).stdout).toMatch(/ - /); // no geometry while hidden
    expect(sh.cli('show', '-t', String(first)).code).toBe(0);
    expect(sh.cli('show', '-t', String(first)).code).toBe(0);
    await until(sh.page, 'a tile again', new Function(`const st = window.pane.store.getState(); const s = st.sessions[st.sessionId]; return s.placements.some((p) => p.pane === ${first} && !p.floating)`) as () => boolean);
    expect(sh.cli('attr', '-t', String(first)).stdout).not.toMatch(/hidden\.tile/);
  }, 30_000);
});
