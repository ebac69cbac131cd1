// One state, many views: a change made through one view (ctl file, protocol,
// tag write) reads back through the others (protocol, index, ctl, event, log).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../../kits/client/connection';
import { harness, until, type Harness } from '../server/harness';
import { bytes, cat, fault, put, closeHarness } from './nsClient';

let h: Harness;
let c: Connection;

beforeAll(async () => {
  h = await harness();
  c = await h.connect();
});
afterAll(async () => {
  await closeHarness(h);
});

const indexIds = async () => (await cat(c, '/index')).trimEnd().split('\n').filter(Boolean).map((l) => Number(l.split(' ')[0]));

describe('consistency across views', () => {
  it('a pane closed through ctl leaves the protocol list, the index, the root listing and the views', async () => {
    const p = await c.call('pane/split', { launch: { program: '/bin/sleep', args: ['60'] } });
    expect(await indexIds()).toContain(p.pane);
    await put(c, `/${p.pane}/ctl`, 'close');
    expect((await c.call('pane/list', {})).panes.map((x) => x.n)).not.toContain(p.pane);
    expect(await indexIds()).not.toContain(p.pane);
    expect((await c.call('ns/list', { path: '/' })).entries.map((e) => e.name)).not.toContain(String(p.pane));
    expect((await c.call('ns/list', { path: '/by-sig/com.pane.terminal' })).entries.map((e) => e.name)).not.toContain(String(p.pane));
    expect((await fault(cat(c, `/${p.pane}/ctl`))).code).toBe('pane-not-found');
  });

  it('index and the protocol list agree pane for pane, in the same order', async () => {
    await c.call('float/create', { kind: 'text', name: 'extra' });
    const panes = (await c.call('pane/list', {})).panes;
    expect(await indexIds()).toEqual(panes.map((p) => p.n));
  });

  it('a tag edited through the protocol reads back from the tag file and the index', async () => {
    const n = (await c.call('pane/list', {})).panes[0]!.n;
    await c.call('pane/tag', { pane: n, name: 'edited', user: 'from the window' });
    expect(await cat(c, `/${n}/tag`)).toMatch(/^edited .*\| from the window\n$/);
    expect((await cat(c, '/index')).split('\n').find((l) => l.startsWith(`${n} `))).toContain('edited');
  });

  it('geometry and quadrant computed by the server show in attrs and ctl, and nobody else writes the quadrant', async () => {
    const n = (await c.call('pane/list', {})).panes[0]!.n;
    await expect(c.call('pane/attrs', { pane: n, set: { quadrant: 'top-left' } })).rejects.toThrow(/quadrant is computed by the server/);
    const q = (await c.call('pane/get', { pane: n })).attrs.quadrant!;
    expect(q).toMatch(/^(full|left|right|top|bottom|(top|bottom)-(left|right))$/);
    expect(await cat(c, `/${n}/attrs`)).toContain(`quadrant=${q}\n`);
    expect((await cat(c, `/${n}/ctl`)).trimEnd().endsWith(` ${q}`)).toBe(true);
    const { rects } = await c.call('pane/geometry', {});
    const r = rects[String(n)]!;
    expect(await cat(c, `/${n}/ctl`)).toContain(` ${r.x},${r.y},${r.w},${r.h} `);
  });

  it('a ctl write shows in the protocol state and as a line on the pane’s event file and the log', async () => {
    const n = (await c.call('pane/list', {})).panes[0]!.n;
    const path = `/${n}/event`;
    const { fid } = await c.call('ns/open', { path, mode: 'r' });
    await put(c, `/${n}/ctl`, 'name via-ctl');
    expect((await c.call('pane/get', { pane: n })).tag.name).toBe('via-ctl');
    const got = bytes(await c.call('ns/read', { path, fid, wait: true })).toString();
    expect(got).toMatch(/ executed ctl \S+ name via-ctl\n/);
    expect(await cat(c, '/log')).toContain(`${n} exec ctl `);
    await c.call('ns/close', { fid });
  });

  it('a command executed from the window (pane/exec, origin tag) appears on the event file', async () => {
    const n = (await c.call('pane/list', {})).panes[0]!.n;
    await c.call('pane/exec', { pane: n, line: 'name clicked', origin: 'tag' });
    await until('the executed line', async () => (await cat(c, `/${n}/event`)).includes(' executed tag '));
  });
});
