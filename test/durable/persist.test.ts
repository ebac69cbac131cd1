// The daemon's state survives its stop: layout, focus, zoom, tags, cwd and history
// come back from the state dir; shells restart where they were; other programs wait
// behind "Enter to run"; a second daemon on the same state is refused.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { home, until, type Home } from './helpers';

let h: Home | undefined;
afterEach(() => h?.cleanup());

describe('a server with a state dir', () => {
  it('brings back layout, focus, zoom, tags, cwd and history after a stop', async () => {
    h = home();
    const proj = path.join(h.dir, 'proj');
    fs.mkdirSync(proj);
    const a = await h.start();
    const c = await a.connect();
    const first = a.server.pane();
    const second = await c.call('pane/split', { pane: first.n, direction: 'horizontal', ratio: 60, cwd: proj });
    await c.call('pane/split', { pane: second.pane, direction: 'vertical', launch: { program: 'cat', args: ['-n'] } });
    await c.call('pane/tag', { pane: second.pane, user: 'my notes' }).catch(() => undefined);
    await c.call('pane/focus', { pane: second.pane });
    const moved = path.join(h.dir, 'moved here');
    fs.mkdirSync(moved);
    await c.call('pane/input', { pane: first.n, data: `cd '${moved}' && echo remembered-line\n` });
    await until('the echo in the first pane', async () => (await c.call('pty/screen', { pane: first.n })).text.includes('remembered-line\n'));
    const before = structuredClone(a.server.session());
    await a.stop();

    const b = await h.start();
    expect(b.restored).toBe(1);
    const s = b.server.session();
    expect(s.layout).toEqual(before.layout);
    expect(s.focused).toBe(before.focused);
    expect(s.id).toBe(before.id);
    const c2 = await b.connect();
    const p2 = b.server.panes.get(second.pane)!;
    expect(p2.cwd).toBe(proj);
    const screen1 = await until('history restored in pane 1', async () => {
      const t = (await c2.call('pty/screen', { pane: first.n })).text;
      return /remembered-line/.test(t) && /history saved .* the program was restarted/.test(t) ? t : '';
    });
    expect(screen1.indexOf('remembered-line')).toBeLessThan(screen1.indexOf('history saved'));
    // The shell restarted where it was at the stop (not where it was launched), below the label.
    expect(b.server.panes.get(first.n)!.cwd).toBe(moved);
    await until('the new prompt under the label', async () => /history saved[^\n]*\n[^\n]*[$#] ?$/.test((await c2.call('pty/screen', { pane: first.n })).text));
    const catPane = [...b.server.panes.values()].find((p) => p.launch?.program === 'cat')!;
    await until('the Enter-to-run banner', async () => (await c2.call('pty/screen', { pane: catPane.n })).text.includes('Enter to run: cat -n'));
    await b.stop();
  }, 60_000);

  it('refuses a second server on the same state, naming the first', async () => {
    h = home();
    const a = await h.start();
    await expect(h.start()).rejects.toThrow(/in use by another pane daemon \(pid \d+\)/);
    await a.stop();
  }, 60_000);
});
