// A pane too small to split, over the protocol with a real server: pane/split refuses
// it by reason (the model's own cases are in server/model/session/session.test.ts), and
// a launch that can float (an app from the launcher) opens floating instead of failing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../../kits/client/connection';
import { PaneFault } from '../../kits/protocol/error';
import { NO_ROOM } from '../../server/model/session/index';
import { harness, type Harness } from './harness';

let h: Harness;
let c: Connection;

beforeAll(async () => {
  h = await harness();
  c = await h.connect();
});
afterAll(async () => {
  await h?.close();
});

describe('a pane too small to split', () => {
  it('is refused by pane/split with its reason, the layout unchanged; apps/launch beside it opens the app floating', async () => {
    let last = (await c.call('pane/list', {})).panes[0]!.n;
    let refused: PaneFault | null = null;
    // A headless session is 160 columns: halving the newest pane side by side runs out within ten.
    for (let i = 0; i < 10 && refused === null; i++) {
      try {
        last = (await c.call('pane/split', { pane: last, direction: 'horizontal', launch: { program: 'sleep', args: ['600'] } })).pane;
      } catch (e) {
        if (!(e instanceof PaneFault)) throw e;
        refused = e;
      }
    }
    expect(refused?.code).toBe('failed');
    expect(refused?.reason).toBe(NO_ROOM);
    expect(refused?.message).toMatch(new RegExp(`^pane ${last} has no room to split side by side`));
    const before = await c.call('session/get', {});
    const app = await c.call('apps/launch', { app: 'terminal', pane: last });
    const after = await c.call('session/get', {});
    expect(after.layout).toEqual(before.layout);
    expect(after.floating.map((f) => f.pane)).toContain(app.pane);
  });
});
