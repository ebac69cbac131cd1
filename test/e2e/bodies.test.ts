// Each pane's body is drawn by the component its kind chose in the window's one
// registry (renderer/src/bodies/): a terminal is an xterm, and a kind the window
// has no component for (a text pane today) is a placeholder naming the kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, region, until, view, type Shell } from './shell';

/* eslint-disable @typescript-eslint/no-explicit-any */
let sh: Shell;

describe.skipIf(chromiumMissing)(`pane bodies in Chromium${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell();
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('draws a terminal pane as a terminal and a text pane as a placeholder naming its kind', async () => {
    const shell = (await view(sh.page)).focused!;
    const text = await sh.page.evaluate(async () => ((await (window as any).pane.client.call('float/create', { kind: 'text', name: 'notes' })) as { pane: number }).pane);
    await until(sh.page, 'the text pane on screen', new Function(`return document.querySelector('section[data-pane="${text}"] .pane-body-undrawn') !== null`) as () => boolean);
    expect(await region(sh.page, text).locator('.pane-body-undrawn[role="note"]').textContent()).toBe('This window has no component for a “text” body.');
    expect(await region(sh.page, text).locator('.xterm').count()).toBe(0);
    expect(await region(sh.page, shell).locator('.xterm').count()).toBe(1);
  });
});
