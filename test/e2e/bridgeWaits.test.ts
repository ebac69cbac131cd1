// The window's bridge opens before the daemon answers (npm start starts the browser and
// the daemon together): a page that connects early is held until the daemon answers and
// then goes through; when the daemon fails to start, the page's socket is closed with why.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startBridge, type Bridge } from '../../electron/bridge';
import { paneServe, wsHello, type Served } from '../security/front';
import { root } from './shell';

const staticDir = path.join(root, 'dist/renderer');

describe('the bridge of a window opened while its daemon starts', () => {
  const open: { bridge?: Bridge; s?: Served }[] = [];
  afterAll(async () => {
    for (const o of open) {
      await o.bridge?.close();
      await o.s?.stop();
    }
  });

  it('holds a page that connects before the daemon answers, then lets it through', async () => {
    let daemonUp!: () => void;
    const upstream = new Promise<void>((r) => (daemonUp = r));
    // The server runs, but the bridge is told its daemon is still starting until daemonUp().
    const s = await paneServe();
    const o: { bridge?: Bridge; s?: Served } = { s };
    open.push(o);
    o.bridge = await startBridge(s.socket, { staticDir, upstream, log: () => undefined });
    let settled = false;
    const hello = wsHello(o.bridge.port, { token: o.bridge.secret }).then((r) => {
      settled = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toBe(false);
    daemonUp();
    expect(await hello).toEqual({ ok: true });
  }, 60_000);

  it('closes the page’s socket with the reason when the daemon does not start', async () => {
    const upstream = Promise.reject(new Error('the pane daemon did not start (exit 1)'));
    upstream.catch(() => undefined);
    const bridge = await startBridge('/nonexistent/pane.sock', { staticDir, upstream, log: () => undefined });
    open.push({ bridge });
    const r = await wsHello(bridge.port, { token: bridge.secret });
    expect(r.ok).toBe(false);
    expect(r.closed).toMatch(/^1011 no pane server at \/nonexistent\/pane\.sock: the pane daemon did not start/);
  });
});
