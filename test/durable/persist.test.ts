// The daemon's state survives its stop: layout, focus (and its history), zoom, tags, cwd and history
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
    // The focus history too: `pane focus last` and a close go back where they would have before the stop.
    expect(before.recent).toHaveLength(2);
    expect(s.recent).toEqual(before.recent);
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
    // Its label does not say it was restarted: it waits for Enter.
    expect((await c2.call('pty/screen', { pane: catPane.n })).text.replace(/\s/g, '')).toMatch(/historysaved[^─]*·theprogramwasnotrestarted──Entertorun:cat-n/);
    await b.stop();
  }, 60_000);

  it('a restored tag follows its program again unless someone named it; a pane waiting behind Enter to run closes without asking', async () => {
    h = home();
    const proj = path.join(h.dir, 'proj');
    fs.mkdirSync(proj);
    const a = await h.start();
    const c = await a.connect();
    const shell = a.server.pane().n;
    const cat = (await c.call('pane/split', { pane: shell, launch: { program: 'cat', args: ['-n'] } })).pane;
    const named = (await c.call('pane/split', { pane: shell, direction: 'vertical', cwd: proj })).pane;
    await c.call('pane/tag', { pane: named, name: 'mine' });
    // The shell's tag follows its foreground: sleep, saved as the tag's name.
    await c.call('pane/input', { pane: shell, data: `cd '${proj}' && sleep 300\r` });
    await until('the shell pane named by its job', () => a.server.panes.get(shell)!.tag.name === 'sleep');
    await a.stop();

    const b = await h.start();
    const c2 = await b.connect();
    // The shell came back at its prompt: its tag follows again (its directory), where it had stayed "sleep" for good.
    await until('the restored shell named by its directory', () => b.server.panes.get(shell)!.tag.name === '~/proj');
    expect(b.server.panes.get(named)!.tag.name).toBe('mine');
    await until('the Enter-to-run banner', async () => (await c2.call('pty/screen', { pane: cat })).text.includes('Enter to run: cat -n'));
    expect(b.server.panes.get(cat)!.tag.name).toBe('cat');
    // Nothing runs until Enter: the window's close does not ask (it had said "sh is running").
    await c2.call('pane/close', { pane: cat, unlessBusy: true });
    expect(b.server.panes.has(cat)).toBe(false);
    // A name someone gave survives a second restore too; the shell's, named by its job again, follows it.
    await c2.call('pane/input', { pane: shell, data: 'sleep 300\r' });
    await until('the restored shell named by its new job', () => b.server.panes.get(shell)!.tag.name === 'sleep');
    await b.stop();
    const d = await h.start();
    expect(d.server.panes.get(named)!.tag.name).toBe('mine');
    await until('the shell named by its directory after a second restore', () => d.server.panes.get(shell)!.tag.name === '~/proj');
    await d.stop();
  }, 60_000);

  it('says in the pane when a directory or a program is gone, and offers a shell there instead', async () => {
    h = home();
    const gone = path.join(h.dir, 'gone');
    fs.mkdirSync(gone);
    const tool = path.join(h.dir, 'mytool');
    fs.writeFileSync(tool, '#!/bin/sh\nexec sleep 300\n', { mode: 0o755 });
    const a = await h.start();
    const c = await a.connect();
    const first = a.server.pane().n;
    const inGone = await c.call('pane/split', { pane: first, cwd: gone });
    const toolPane = await c.call('pane/split', { pane: first, launch: { program: tool, args: ['--flag'], cwd: h.dir } });
    await a.stop();
    fs.rmSync(gone, { recursive: true });
    fs.rmSync(tool);

    const b = await h.start();
    const c2 = await b.connect();
    // Long notices wrap, and a wrap at a blank loses it: compare without whitespace.
    const text = async (n: number) => (await c2.call('pty/screen', { pane: n })).text.replace(/\s/g, '');
    const said = (s: string) => s.replace(/\s/g, '');
    await until('the missing directory stated', async () => (await text(inGone.pane)).includes(said(`the directory ${gone} no longer exists`)));
    await until('the missing program stated', async () => (await text(toolPane.pane)).includes(said(`${tool} is not installed here (it ran: ${tool} --flag); this is a shell in ${h!.dir} instead`)));
    // Both still panes, each running a shell; the tool pane still stands for the tool it ran.
    expect(b.server.panes.get(inGone.pane)!.cwd).toBe(h.dir);
    expect(b.server.panes.get(toolPane.pane)!.launch?.program).toBe(tool);
    expect(b.server.terminals.get(toolPane.pane)!.running).toBe(true);
    await b.stop();
  }, 60_000);

  it('restarts a shell the person named at once, where its prompt was; gone, in the home directory', async () => {
    h = home();
    const moved = path.join(h.dir, 'moved');
    const doomed = path.join(h.dir, 'doomed');
    fs.mkdirSync(moved);
    fs.mkdirSync(doomed);
    const a = await h.start();
    const c = await a.connect();
    const first = a.server.pane().n;
    // `pane split -- bash --norc` in the home directory, then cd elsewhere at its prompt.
    const named = (await c.call('pane/split', { pane: first, launch: { program: '/bin/bash', args: ['--norc'], cwd: h.dir } })).pane;
    const lost = (await c.call('pane/split', { pane: first, launch: { program: '/bin/bash', args: ['--norc'], cwd: h.dir } })).pane;
    await c.call('pane/input', { pane: named, data: `cd '${moved}'\r` });
    await c.call('pane/input', { pane: lost, data: `cd '${doomed}'\r` });
    await until('both shells’ directories tracked', () => a.server.panes.get(named)!.cwd === moved && a.server.panes.get(lost)!.cwd === doomed);
    await a.stop();
    fs.rmSync(doomed, { recursive: true });

    const b = await h.start();
    const c2 = await b.connect();
    // Before: "Enter to run: bash --norc" in the directory it was launched in, the cd forgotten.
    expect(b.server.panes.get(named)!.launch).toMatchObject({ program: '/bin/bash', args: ['--norc'], cwd: moved });
    expect(b.server.panes.get(named)!.cwd).toBe(moved);
    await c2.call('pane/input', { pane: named, data: 'pwd\r' });
    await until('the shell running at once, in the directory it had', async () => new RegExp(`^${moved}$`, 'm').test((await c2.call('pty/screen', { pane: named })).text));
    expect((await c2.call('pty/screen', { pane: named })).text).not.toContain('Enter to run');
    // Its directory gone: the same shell in the home directory, and the pane says so.
    expect(b.server.panes.get(lost)!.launch).toMatchObject({ program: '/bin/bash', args: ['--norc'], cwd: h.dir });
    await until('the gone directory stated', async () => (await c2.call('pty/screen', { pane: lost })).text.replace(/\s/g, '').includes(`thedirectory${doomed}nolongerexists;/bin/bashstartsin${h!.dir}`.replace(/\s/g, '')));
    await b.stop();
  }, 60_000);

  it('refuses a second server on the same state, naming the first', async () => {
    h = home();
    const a = await h.start();
    await expect(h.start()).rejects.toThrow(/in use by another pane daemon \(pid \d+\)/);
    await a.stop();
  }, 60_000);
});

describe('a widget pane across a restart', () => {
  it('comes back as the same widget of the same app, its body the tree with values read now', async () => {
    h = home();
    const a = await h.start();
    const c = await a.connect();
    const w = await c.call('apps/launch', { app: 'pane-monitor' });
    expect(a.server.panes.get(w.pane)?.kind).toBe('widgets');
    await a.stop();

    const b = await h.start();
    const back = b.server.panes.get(w.pane)!;
    expect(back.kind).toBe('widgets');
    expect(back.attrs['app']).toBe('pane-monitor');
    expect(back.tag.name).toBe('Pane monitor');
    const c2 = await b.connect();
    const body = (await c2.call('ns/read', { path: `/${w.pane}/body` })).data;
    expect(body).toMatch(/^  table Panes: 2 rows$/m);
    expect(body).toMatch(new RegExp(`^    ${w.pane}\\twidgets\\t`, 'm'));
    await b.stop();
  }, 60_000);
});
