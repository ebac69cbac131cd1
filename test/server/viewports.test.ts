// Several windows on one session, through a real server: the session is laid out in
// the size its windowSize policy picks among them — the latest window (resized or
// typed in), the smallest, or the largest — and a window that closes stops counting.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachConfig } from '../../server/config/configService';
import type { Connection } from '../../kits/client/connection';
import { harness, until, type Harness } from './harness';

let h: Harness;
let c: Connection;
beforeAll(async () => {
  h = await harness();
  c = await h.connect();
});
afterAll(async () => {
  await h.close();
});

const size = async () => {
  const s = await c.call('session/get', {});
  return `${s.viewport.cols}x${s.viewport.rows}`;
};

describe('window sizes', () => {
  it('latest (the default): the window last resized, or typed in, lays the session out; a closed one stops counting', async () => {
    const big = await h.connect(undefined, 'big window');
    const small = await h.connect(undefined, 'small window');
    await big.call('session/viewport', { cols: 160, rows: 48 });
    expect(await size()).toBe('160x48');
    await small.call('session/viewport', { cols: 80, rows: 24 });
    expect(await size()).toBe('80x24');
    // The person types in the big window: it is the latest again, and the panes take its size.
    const pane = (await c.call('session/get', {})).focused!;
    big.sendInput(pane, new TextEncoder().encode(' '));
    await until('the big window’s size again', async () => ((await size()) === '160x48' ? true : null));
    // The small window goes back to being latest by resizing, then closes: the big one's size holds.
    await small.call('session/viewport', { cols: 70, rows: 20 });
    expect(await size()).toBe('70x20');
    small.close();
    await until('the size of the window left', async () => ((await size()) === '160x48' ? true : null));
    big.close();
    // No window left: the session keeps the size it had.
    await new Promise((r) => setTimeout(r, 200));
    expect(await size()).toBe('160x48');
  });

  it('smallest: every window sees the session whole; largest: the biggest wins', async () => {
    const dir = path.join(h.dir, 'config');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ windowSize: 'smallest' }));
    attachConfig(h.running.services, { configDir: dir });
    expect((await c.call('settings/get', {})).settings.windowSize).toBe('smallest');
    const a = await h.connect(undefined, 'a');
    const b = await h.connect(undefined, 'b');
    await a.call('session/viewport', { cols: 150, rows: 30 });
    await b.call('session/viewport', { cols: 100, rows: 40 });
    expect(await size()).toBe('100x30');
    fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ windowSize: 'largest' }));
    await until('largest in force', async () => ((await c.call('settings/get', {})).settings.windowSize === 'largest' ? true : null));
    await a.call('session/viewport', { cols: 150, rows: 30 });
    expect(await size()).toBe('150x40');
    a.close();
    b.close();
  });

  it('an absurd size is clamped to what a terminal holds, and the reply says what was taken', async () => {
    const w = await h.connect(undefined, 'absurd window');
    const r = await w.call('session/viewport', { cols: 1_000_000, rows: -5 });
    expect(r.clamped).toMatch(/^1000000x-5 is outside 2x2\.\.\d+x\d+: taken as \d+x2$/);
    expect(r.viewport?.rows).toBeGreaterThanOrEqual(2);
    const ok = await w.call('session/viewport', { cols: 100, rows: 30 });
    expect(ok.clamped).toBeUndefined();
    w.close();
  });
});
