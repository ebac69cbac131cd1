// axe-core (the accessibility engine browsers' tools use) run in the real window:
// the main view and every overlay a key opens show no violation (issue 37: at 5769189
// the palette had 42 colour-contrast findings and the launcher 30).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, until, view, type Shell } from './shell';

/* eslint-disable @typescript-eslint/no-explicit-any */
const require = createRequire(import.meta.url);
let sh: Shell;
/** The window's first pane: its shell's tag name follows its foreground (the float made beside it has a given name). */
let first: number;

async function findings(): Promise<string[]> {
  await sh.page.evaluate(fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  return sh.page.evaluate(async () => {
    const r = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    // A contrast finding names its colours and ratio, so the fix is in the message.
    const detail = (x: { any: { data?: { fgColor?: string; bgColor?: string; contrastRatio?: number } }[] }) => {
      const d = x.any[0]?.data;
      return d?.fgColor ? ` [${d.fgColor} on ${d.bgColor}: ${d.contrastRatio}]` : '';
    };
    return r.violations.map((v: { id: string; impact: string; nodes: { target: string[]; any: { data?: object }[] }[] }) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 5).map((x) => x.target.join(' ') + detail(x as never)).join(', ')}${v.nodes.length > 5 ? ` and ${v.nodes.length - 5} more` : ''}`);
  });
}

describe.skipIf(chromiumMissing)(`accessibility of the window${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell({ viewport: { width: 1280, height: 800 } });
    first = (await view(sh.page)).focused!;
    sh.cli('new', '--float', '--name', 'scratch');
    sh.cli('tag', '-t', String(first), '--user', 'notes here');
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('the main view', async () => {
    expect(await findings()).toEqual([]);
  });

  it('the switcher, while its keys are held', async () => {
    await sh.page.keyboard.down('Control');
    await sh.page.keyboard.down('Shift');
    await sh.page.keyboard.press('S');
    await sh.page.locator('.switcher').first().waitFor();
    const found = await findings();
    await sh.page.keyboard.up('Shift');
    await sh.page.keyboard.up('Control');
    await until(sh.page, 'the switcher closed', () => (window as any).pane.store.getState().overlay === null);
    expect(found).toEqual([]);
  });

  it('the close confirmation, over a pane running a program', async () => {
    // The first pane, focused: which pane the switcher above left focused depends on when the float's focus reached the window.
    const p = first;
    expect(sh.cli('focus', '-t', String(p)).code).toBe(0);
    await until(sh.page, `pane ${p} focused`, new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].focused === ${p}`) as () => boolean);
    const sent = sh.cli('send', '-t', String(p), 'sleep 300');
    expect(sent.code, sent.stderr).toBe(0);
    // Its tag names the foreground program once the shell has run it (a loaded machine takes longer to get there).
    await until(sh.page, 'sleep running', new Function(`return /sleep/.test(window.pane.store.getState().panes[${p}].tag.name)`) as () => boolean, 30_000);
    await sh.page.keyboard.press('Control+Shift+X');
    await sh.page.locator('[role="alertdialog"], .confirm-close').first().waitFor();
    const found = await findings();
    await sh.page.keyboard.press('Escape');
    await until(sh.page, 'the confirmation closed', () => (window as any).pane.store.getState().overlay === null);
    sh.cli('send', '-t', String(p), '--raw', '\u0003');
    expect(found).toEqual([]);
    // Its own budget above the 30 s the shell may take on a loaded machine to run `sleep`, plus the dialog's.
  }, 60_000);

  for (const [name, key, selector] of [
    ['the palette', 'Control+Shift+P', '.picker[data-picker="palette"]'],
    ['the launcher', 'Control+Shift+K', '.picker[data-picker="launcher"]'],
    ['the notice history', 'Control+Shift+H', '.history'],
    ['the sessions picker', 'Control+Shift+D', '.sessions'],
    ['the find bar', 'Control+Shift+F', '.findbar'],
    ['copy mode', 'Control+Shift+Y', '.copybar'],
    ['the dock', 'Alt+Shift+M', '.picker[data-picker="dock"]'],
  ] as const) {
    it(name, async () => {
      await sh.page.keyboard.press(key);
      await sh.page.locator(selector).first().waitFor();
      await new Promise((r) => setTimeout(r, 300));
      const found = await findings();
      await sh.page.keyboard.press('Escape');
      await until(sh.page, `${name} closed`, () => (window as any).pane.store.getState().overlay === null);
      expect(found).toEqual([]);
    });
  }
});
