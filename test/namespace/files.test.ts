// Every file of the table, read and written over the protocol against a real
// server with real shells: the semantics docs/namespace.md promises.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../../kits/client/connection';
import { NAMESPACE_TABLE, PANE_FILES } from '../../server/namespace/table';
import { harness, until, waitForOutput, type Harness } from '../server/harness';
import { cat, fault, put, readAll, closeHarness } from './nsClient';

let h: Harness;
let c: Connection;
let shell: number;

beforeAll(async () => {
  h = await harness();
  c = await h.connect();
  shell = (await c.call('pane/list', {})).panes[0]!.n;
  await until('the shell to run', async () => (await c.call('pane/get', { pane: shell })).state === 'running');
});
afterAll(async () => {
  await closeHarness(h);
});

/** A concrete path for a table row, using pane `n`. */
function concrete(pattern: string, n: number): string {
  return pattern.replace('<n>', String(n)).replace('<sig>', 'com.pane.terminal').replace('<owner>', 'root').replace('<session>', 'main').replace(/\/$/, '') || '/';
}

describe('the table', () => {
  it('holds every file with a mode that says what read and write do', () => {
    for (const r of NAMESPACE_TABLE) {
      expect(r.doc, r.path).not.toBe('');
      if (r.type === 'dir') expect(r.list, r.path).toBeTypeOf('function');
      else {
        expect((r.mode & 0o444) !== 0, `${r.path} readable`).toBe(r.read !== '');
        expect((r.mode & 0o222) !== 0, `${r.path} writable`).toBe(r.write !== '');
        if (r.read !== '') expect(r.content ?? r.feed, r.path).toBeTypeOf('function');
        if (r.write !== '') expect(r.put, r.path).toBeTypeOf('function');
      }
    }
  });

  it('refuses to read what has no read and to write what has no write, naming the path', async () => {
    for (const r of NAMESPACE_TABLE) {
      const path = concrete(r.path, shell);
      if (r.type === 'dir') {
        expect((await fault(c.call('ns/read', { path }))).code, path).toBe('is-directory');
        expect((await c.call('ns/list', { path })).entries.length, path).toBeGreaterThan(0);
        continue;
      }
      if (r.read === '') {
        const e = await fault(c.call('ns/read', { path }));
        expect(e.code, path).toBe('not-permitted');
        expect(e.message).toContain(path);
      }
      if (r.write === '') expect((await fault(put(c, path, 'x'))).code, path).toBe('not-permitted');
      expect((await fault(c.call('ns/list', { path }))).code, path).toBe('not-directory');
    }
  });

  it('lists a pane directory with exactly the pane files of the table', async () => {
    const names = (await c.call('ns/list', { path: `/${shell}` })).entries.map((e) => e.name);
    expect(names).toEqual(PANE_FILES.map((r) => r.path.slice('/<n>/'.length)));
  });
});

describe('pane files', () => {
  it('tag reads as acme’s tag line and a write appends to the user text', async () => {
    // An idle shell's tag name is its directory (server/model/paneTracker.ts).
    const name = (await c.call('pane/get', { pane: shell })).tag.name;
    expect(await cat(c, `/${shell}/tag`)).toBe(`${name} close zoom split float restart |\n`);
    await put(c, `/${shell}/tag`, 'build\n');
    await put(c, `/${shell}/tag`, 'logs\n');
    expect((await c.call('pane/get', { pane: shell })).tag.user).toBe('build logs');
    expect(await cat(c, `/${shell}/tag`)).toBe(`${name} close zoom split float restart | build logs\n`);
  });

  it('body of a terminal is scrollback + screen as plain text, trailing blanks trimmed', async () => {
    await c.call('pane/input', { pane: shell, data: 'printf "one   \\n\\033[1mtwo\\033[0m\\n"\r' });
    await waitForOutput(c, shell, 'two');
    const body = await until('the body to show the output', async () => {
      const b = await cat(c, `/${shell}/body`);
      return b.includes('\ntwo\n') ? b : undefined;
    });
    expect(body).toContain('\none\ntwo\n');
    expect(body).not.toMatch(/[ \t]+\n/);
    expect(body).not.toContain('\x1b');
  });

  it('body of a pane whose program ended closes with how and when it ended, once it has', async () => {
    const p = await c.call('pane/split', { pane: shell, launch: { program: '/bin/sh', args: ['-c', 'echo last-words; read x; exit 3'] } });
    await waitForOutput(c, p.pane, 'last-words');
    // Read while it runs (the body is cached by stream offset), then end it with no more output.
    expect((await cat(c, `/${p.pane}/body`)).trimEnd()).toBe('last-words');
    await c.call('pane/input', { pane: p.pane, data: '\r' });
    await until('sh to exit', async () => (await c.call('pane/get', { pane: p.pane })).state === 'exited');
    const body = await cat(c, `/${p.pane}/body`);
    expect(body).toMatch(/^last-words\n\n?\[sh exited 3 at \d\d:\d\d:\d\d\]\n$/);
    await c.call('pane/close', { pane: p.pane });
  });

  it('serves a 10,000-line scrollback in pieces of at most the asked count, joining into the whole text', async () => {
    const p = await c.call('pane/split', { pane: shell, launch: { program: '/usr/bin/seq', args: ['1', '10000'] } });
    await until('seq to finish', async () => (await c.call('pane/get', { pane: p.pane })).state === 'exited');
    const { text, pieces, largest } = await readAll(c, `/${p.pane}/body`, 16 << 10);
    const lines = text.trimEnd().split('\n');
    expect(lines.at(-2)).toBe('10000');
    expect(lines.at(-1)).toMatch(/^\[seq exited 0 at \d\d:\d\d:\d\d\]$/);
    expect(lines.length).toBeGreaterThanOrEqual(10_000);
    expect(largest).toBeLessThanOrEqual(16 << 10);
    expect(pieces).toBeGreaterThan(text.length / (16 << 10));
    await c.call('pane/close', { pane: p.pane });
  });

  it('body of a text pane appends writes and reads them back; a terminal body refuses writes', async () => {
    const t = await c.call('float/create', { kind: 'text', name: 'notes' });
    await put(c, `/${t.pane}/body`, 'first\n');
    await put(c, `/${t.pane}/body`, 'second\n');
    expect(await cat(c, `/${t.pane}/body`)).toBe('first\nsecond\n');
    const e = await fault(put(c, `/${shell}/body`, 'x'));
    expect(e.code).toBe('not-permitted');
    expect(e.message).toContain('input');
    await c.call('pane/close', { pane: t.pane });
  });

  it('input types bytes into the terminal, behind the write permission', async () => {
    await put(c, `/${shell}/input`, 'echo via-""input\n');
    await waitForOutput(c, shell, 'via-input');
    const ro = await h.connect(['read']);
    expect((await fault(ro.call('ns/write', { path: `/${shell}/input`, data: 'x' }))).code).toBe('denied');
  });

  it('ctl reads one status line and runs commands, one per line', async () => {
    const line = await cat(c, `/${shell}/ctl`);
    expect(line).toMatch(new RegExp(`^${shell} main com\\.pane\\.terminal running \\d+x\\d+ \\d+,\\d+,\\d+,\\d+ full\\n$`));
    await put(c, `/${shell}/ctl`, 'name renamed\nzoom\n');
    expect((await c.call('pane/get', { pane: shell })).tag.name).toBe('renamed');
    expect((await c.call('session/get', {})).zoomed).toBe(shell);
    await put(c, `/${shell}/ctl`, 'zoom');
    expect((await c.call('session/get', {})).zoomed).toBe(null);
  });

  it('fails a ctl write with an unknown or malformed command before doing any of it, naming the line', async () => {
    const before = (await c.call('pane/get', { pane: shell })).tag.name;
    const e = await fault(put(c, `/${shell}/ctl`, 'name never\nfrobnicate\n'));
    expect(e.code).toBe('bad-request');
    expect(e.message).toContain('line 2 ("frobnicate")');
    expect(e.message).toContain('unknown command "frobnicate"');
    expect((await c.call('pane/get', { pane: shell })).tag.name).toBe(before);
    const m = await fault(put(c, `/${shell}/ctl`, 'resize sideways 3'));
    expect(m.message).toContain('direction must be one of');
  });

  it('commands lists the vocabulary the tag and ctl use: usage, tab, doc', async () => {
    const text = await cat(c, `/${shell}/commands`);
    const pane = await c.call('pane/get', { pane: shell });
    const lines = text.trimEnd().split('\n');
    expect(lines.map((l) => l.split(/[ \t]/)[0])).toEqual(pane.vocabulary.map((v) => v.name));
    expect(lines).toContain('split [h|v] [ratio]\tSplit the pane (h: side by side, v: stacked) at a ratio');
  });

  it('attrs reads computed keys then the pane’s own; writes set and delete user keys and refuse computed ones', async () => {
    await put(c, `/${shell}/attrs`, 'color=blue\nmood=calm\n');
    let text = await cat(c, `/${shell}/attrs`);
    expect(text.split('\n').slice(0, 12).map((l) => l.split('=')[0])).toEqual(['id', 'sig', 'kind', 'owner', 'session', 'cwd', 'pid', 'quadrant', 'geometry', 'state', 'exit', 'size']);
    expect(text).toContain('id=testhost:');
    expect(text).toContain('color=blue\n');
    await put(c, `/${shell}/attrs`, 'mood=\n');
    text = await cat(c, `/${shell}/attrs`);
    expect(text).not.toContain('mood=');
    const e = await fault(put(c, `/${shell}/attrs`, 'pid=1\n'));
    expect(e.code).toBe('not-permitted');
    expect(e.message).toContain('pid is computed');
    expect((await fault(put(c, `/${shell}/attrs`, 'no equals sign'))).code).toBe('bad-request');
  });

  it('event lists what happened to the pane, one "SEQ KIND ORIGIN BY TEXT" line each', async () => {
    await put(c, `/${shell}/ctl`, 'name evented');
    const text = await cat(c, `/${shell}/event`);
    const lines = text.trimEnd().split('\n');
    expect(lines.every((l) => /^\d+ [a-z-]+ \S+ \S+/.test(l))).toBe(true);
    expect(lines).toContainEqual(expect.stringMatching(/^\d+ executed ctl \S+ name evented$/));
    expect(lines).toContainEqual(expect.stringMatching(/^\d+ tag - - evented /));
  });
});

describe('the root files', () => {
  it('index has one fixed-width line per pane: id host session signature owner quadrant state cwd, then the tag', async () => {
    const panes = (await c.call('pane/list', {})).panes;
    const lines = (await cat(c, '/index')).trimEnd().split('\n');
    expect(lines).toHaveLength(panes.length);
    const f = lines[0]!.split(/ +/);
    expect(f.slice(0, 8)).toEqual([String(panes[0]!.n), 'testhost', 'main', 'com.pane.terminal', panes[0]!.owner, 'full', 'running', panes[0]!.cwd.replace(/\s+/g, '_')]);
    expect(lines[0]!.indexOf('testhost')).toBe(7);
  });

  it('log records pane operations, one "ID OP TEXT" line each', async () => {
    const t = await c.call('float/create', { kind: 'text', name: 'logged' });
    await c.call('pane/close', { pane: t.pane });
    const log = await cat(c, '/log');
    expect(log).toContain(`${t.pane} new main com.pane.text logged\n`);
    expect(log).toContain(`${t.pane} close main\n`);
  });

  it('new/ctl runs a program line in a new pane and reads back its ctl line, id first, through the same handle', async () => {
    const { fid } = await c.call('ns/open', { path: '/new/ctl', mode: 'rw' });
    expect((await c.call('ns/read', { path: '/new/ctl', fid })).data).toBe('');
    const w = await c.call('ns/write', { path: '/new/ctl', fid, data: "/bin/sh -c 'sleep 30'\nname sleeper\n" });
    expect(w.pane).toBeGreaterThan(0);
    const back = (await c.call('ns/read', { path: '/new/ctl', fid, offset: 0 })).data;
    expect(back.startsWith(`${w.pane} main `)).toBe(true);
    const p = await c.call('pane/get', { pane: w.pane! });
    expect(p.launch).toMatchObject({ program: '/bin/sh', args: ['-c', 'sleep 30'] });
    expect(p.tag.name).toBe('sleeper');
    await c.call('ns/close', { fid });
    expect((await fault(put(c, '/new/ctl', 'echo "unclosed\n'))).message).toContain('unclosed');
    await c.call('pane/close', { pane: w.pane! });
  });

  it('server files say version, clients and metrics', async () => {
    expect(await cat(c, '/server/version')).toMatch(/^pane \d+\.\d+\.\d+ protocol \d+ host testhost\n$/);
    expect(await cat(c, '/server/clients')).toContain(' in-process ');
    expect(await cat(c, '/server/stats')).toMatch(/^panes \d+\nsessions 1\n/);
  });

  it('views hold the same pane directories, and a pane outside a view is not found there', async () => {
    expect((await c.call('ns/list', { path: '/by-sig' })).entries.map((e) => e.name)).toContain('com.pane.terminal');
    expect((await c.call('ns/list', { path: '/by-session/main' })).entries.map((e) => e.name)).toContain(String(shell));
    expect(await cat(c, `/by-sig/com.pane.terminal/${shell}/ctl`)).toBe(await cat(c, `/${shell}/ctl`));
    expect(await cat(c, `/by-owner/${(await c.call('pane/get', { pane: shell })).owner}/${shell}/tag`)).toBe(await cat(c, `/${shell}/tag`));
    expect((await fault(cat(c, `/by-sig/com.example.none/${shell}/ctl`))).code).toBe('not-found');
    const t = await c.call('float/create', { kind: 'text' });
    expect((await fault(cat(c, `/by-sig/com.pane.terminal/${t.pane}/ctl`))).code).toBe('not-found');
    await c.call('pane/close', { pane: t.pane });
  });

  it('accepts HOST:n for a pane and refuses other hosts and gone panes as not found', async () => {
    expect(await cat(c, `/testhost:${shell}/ctl`)).toBe(await cat(c, `/${shell}/ctl`));
    expect((await fault(cat(c, `/elsewhere:${shell}/ctl`))).code).toBe('pane-not-found');
    expect((await fault(cat(c, '/99999/body'))).code).toBe('pane-not-found');
    expect((await fault(cat(c, `/${shell}/nothing`))).code).toBe('not-found');
    expect((await fault(cat(c, '/nothing'))).code).toBe('not-found');
  });
});
