// The runtime contract end to end over the protocol, with real bash panes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { leaves } from '../../kits/layout/tree';
import { vocabularyRevision } from '../../kits/protocol/vocabRevision';
import { setAttrs, setVocabulary } from '../../server/model/paneOps';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../../kits/client/connection';
import { PaneFault } from '../../kits/protocol/error';
import { NO_ROOM } from '../../server/model/session/index';
import { harness, until, waitForOutput, type Harness } from './harness';

let h: Harness;
let c: Connection;

beforeAll(async () => {
  h = await harness();
  c = await h.connect();
});
afterAll(async () => {
  await h.close();
});

async function fault(p: Promise<unknown>): Promise<PaneFault> {
  try {
    await p;
  } catch (e) {
    if (e instanceof PaneFault) return e;
    throw e;
  }
  throw new Error('expected a typed error, got success');
}

describe('sessions and panes', () => {
  it('starts with a session "main" holding one running shell', async () => {
    const { sessions } = await c.call('session/list', {});
    expect(sessions.map((s) => s.name)).toEqual(['main']);
    const { panes } = await c.call('pane/list', {});
    expect(panes).toHaveLength(1);
    expect(panes[0]).toMatchObject({ host: 'testhost', signature: 'com.pane.terminal', kind: 'terminal' });
    await until('the shell to run', async () => (await c.call('pane/get', { pane: panes[0]!.n })).state === 'running');
  });

  it('echoes typed input and reads it back by offset', async () => {
    const p = (await c.call('pane/list', {})).panes[0]!;
    await c.call('pane/input', { pane: p.n, data: 'echo hel""lo-pane\r' });
    const text = await waitForOutput(c, p.n, 'hello-pane');
    expect(text).toContain('hello-pane');
    const all = await c.call('pty/read', { pane: p.n, from: 0 });
    const tail = await c.call('pty/read', { pane: p.n, from: all.to - 5 });
    expect(tail.from).toBe(all.to - 5);
    expect(all.data.endsWith(tail.data)).toBe(true);
  });

  it('accepts HOST:n and refuses another host by name', async () => {
    const p = (await c.call('pane/list', {})).panes[0]!;
    expect((await c.call('pane/get', { pane: `testhost:${p.n}` })).n).toBe(p.n);
    const e = await fault(c.call('pane/get', { pane: `elsewhere:${p.n}` }));
    expect(e.code).toBe('pane-not-found');
    expect(e.message).toContain('elsewhere');
  });

  it('splits, focuses by direction, resizes, swaps, zooms and closes', async () => {
    const first = (await c.call('pane/list', {})).panes[0]!.n;
    const right = await c.call('pane/split', { pane: first, direction: 'horizontal', ratio: 50 });
    const below = await c.call('pane/split', { pane: right.pane, direction: 'vertical', ratio: 150 });
    let s = await c.call('session/get', {});
    expect(s.focused).toBe(below.pane);
    expect(s.layout).toMatchObject({ type: 'split', direction: 'horizontal', b: { type: 'split', direction: 'vertical', ratio: 90 } });

    expect((await c.call('pane/focus', { direction: 'left' })).pane).toBe(first);
    expect((await c.call('pane/focus', { direction: 'right' })).pane).toBe(right.pane);
    expect((await c.call('pane/focus', { direction: 'down' })).pane).toBe(below.pane);
    expect((await c.call('pane/focus', { direction: 'next' })).pane).toBe(first);
    expect((await fault(c.call('pane/focus', { direction: 'left' }))).message).toMatch(/no pane left of pane/);

    const g0 = (await c.call('pane/geometry', {})).rects;
    await c.call('pane/resize', { pane: first, direction: 'right', cells: 8 });
    const g1 = (await c.call('pane/geometry', {})).rects;
    expect(g1[String(first)]!.w).toBe(g0[String(first)]!.w + 8);
    expect((await fault(c.call('pane/resize', { pane: first, direction: 'left', cells: 1 }))).code).toBe('failed');

    await c.call('pane/swap', { pane: first, with: right.pane });
    s = await c.call('session/get', {});
    expect(s.layout).toMatchObject({ a: { type: 'leaf', pane: right.pane } });
    await c.call('pane/swap', { pane: first, with: right.pane });

    await c.call('pane/zoom', { pane: right.pane });
    s = await c.call('session/get', {});
    expect(s.zoomed).toBe(right.pane);
    expect(Object.keys((await c.call('pane/geometry', {})).rects)).toEqual([String(right.pane)]);
    await c.call('pane/zoom', { pane: right.pane });
    expect((await c.call('session/get', {})).zoomed).toBeNull();

    await c.call('pane/close', { pane: below.pane });
    s = await c.call('session/get', {});
    expect(s.layout).toMatchObject({ type: 'split', a: { type: 'leaf', pane: first }, b: { type: 'leaf', pane: right.pane } });
    const gone = await fault(c.call('pane/close', { pane: below.pane }));
    expect([gone.code, gone.message]).toEqual(['pane-not-found', `pane ${below.pane} not found`]);
    await c.call('pane/close', { pane: right.pane });
  });

  it('floats a pane and drives the floating layer', async () => {
    const first = (await c.call('pane/list', {})).panes[0]!.n;
    const f = await c.call('float/create', { x: 5, y: 3, w: 40, h: 12, launch: { program: '/bin/cat', args: [] } });
    const g = await c.call('float/create', { launch: { program: '/bin/cat', args: [] } });
    expect(g.rect.z).toBeGreaterThan(f.rect.z);
    expect((await c.call('float/move', { pane: f.pane, x: 7, y: 4 })).rect).toMatchObject({ x: 7, y: 4 });
    expect((await c.call('float/resize', { pane: f.pane, w: 50, h: 10 })).rect).toMatchObject({ w: 50, h: 10 });
    expect((await c.call('float/raise', { pane: f.pane })).rect.z).toBeGreaterThan(g.rect.z);
    expect((await c.call('float/lower', { pane: f.pane })).rect.z).toBeLessThan(g.rect.z);
    expect((await c.call('float/z', { pane: f.pane, z: 42 })).rect.z).toBe(42);
    expect((await c.call('float/layer', { pane: f.pane, layer: 'overlay' })).rect.layer).toBe('overlay');
    expect((await c.call('float/focus', { pane: g.pane })).pane).toBe(g.pane);
    expect((await c.call('session/get', {})).focused).toBe(g.pane);
    // toggle: tiled <-> floating
    await c.call('pane/float', { pane: g.pane, mode: 'tile' });
    let s = await c.call('session/get', {});
    expect(s.floating.map((x) => x.pane)).toEqual([f.pane]);
    expect(JSON.stringify(s.layout)).toContain(`"pane":${g.pane}`);
    await c.call('pane/float', { pane: first });
    s = await c.call('session/get', {});
    expect(s.floating.map((x) => x.pane).sort()).toEqual([first, f.pane].sort());
    await c.call('pane/float', { pane: first });
    await c.call('float/close', { pane: f.pane });
    await c.call('pane/close', { pane: g.pane });
    expect((await fault(c.call('float/move', { pane: first, x: 1, y: 1 }))).message).toMatch(/is not floating/);
  });

  it('names a hidden pane\'s quadrant "hidden" (not the corner its put-away float would take), and its place again when shown', async () => {
    const first = (await c.call('pane/list', {})).panes[0]!.n;
    const second = (await c.call('pane/split', { pane: first, direction: 'horizontal' })).pane;
    const quadrant = async (n: number) => (await c.call('pane/get', { pane: n })).attrs.quadrant;
    expect(await quadrant(second)).toBe('right');
    await c.call('pane/hide', { pane: second });
    expect(await quadrant(second)).toBe('hidden');
    expect(await quadrant(first)).toBe('full');
    await c.call('pane/hide', { pane: second, hidden: false });
    expect(await quadrant(second)).toBe('right');
    // A float put away reads the same, and its corner again when it is back.
    const f = (await c.call('float/create', { x: 0, y: 0, w: 30, h: 8, launch: { program: '/bin/cat', args: [] } })).pane;
    expect(await quadrant(f)).toBe('top-left');
    await c.call('float/visible', { pane: f, visible: false });
    expect(await quadrant(f)).toBe('hidden');
    await c.call('float/visible', { pane: f, visible: true });
    expect(await quadrant(f)).toBe('top-left');
    await c.call('float/close', { pane: f });
    await c.call('pane/close', { pane: second });
  });

  it('executes command words from the vocabulary and names what was wrong otherwise', async () => {
    const first = (await c.call('pane/list', {})).panes[0]!;
    expect(first.vocabulary.map((v) => v.name)).toEqual(expect.arrayContaining(['close', 'zoom', 'split', 'restart', 'float']));
    expect(first.tag.commands).toContain('split');
    await c.call('pane/exec', { pane: first.n, line: 'split v 40' });
    const s = await c.call('session/get', {});
    expect(s.layout).toMatchObject({ type: 'split', direction: 'vertical', ratio: 40 });
    const bad = await fault(c.call('pane/exec', { pane: first.n, line: 'frobnicate now' }));
    expect(bad.message).toMatch(/unknown command "frobnicate"/);
    const badArg = await fault(c.call('pane/exec', { pane: first.n, line: 'split diagonal' }));
    expect(badArg.message).toMatch(/direction must be one of h, v/);
    await c.call('pane/exec', { pane: s.focused!, line: 'close' });
  });

  it('runs a word outside the vocabulary as a shell command into one +Errors pane when asked (acme)', async () => {
    const first = (await c.call('pane/list', {})).panes[0]!;
    const r1 = await c.call('pane/exec', { pane: first.n, line: 'echo shell-ran-$((6*7))', origin: 'tag', fallback: 'shell' });
    expect(r1.output).toMatch(/output in \+Errors \(pane (\d+)\)/);
    const errors = Number(/pane (\d+)\)/.exec(r1.output!)![1]);
    await waitForOutput(c, errors, /^shell-ran-42/m);
    await c.call('pane/exec', { pane: first.n, line: 'pwd', origin: 'tag', fallback: 'shell' });
    await waitForOutput(c, errors, new RegExp(`^${first.cwd}\r?$`, 'm'));
    const panes = (await c.call('pane/list', {})).panes;
    expect(panes.filter((p) => p.attrs.errors === '1')).toHaveLength(1);
    expect((await c.call('session/get', {})).focused).toBe(first.n);
    await c.call('pane/close', { pane: errors });
  });

  it('refuses a word named at a vocabulary revision that is gone, running nothing, and runs one named at the current one', async () => {
    const p = (await c.call('pane/list', {})).panes[0]!;
    const seen = vocabularyRevision(p.vocabulary);
    // Its words change under the caller (as a joined host's do when the host withdraws one): `echo` becomes a word.
    const server = h.running.server;
    setVocabulary(server, server.pane(p.n), [...p.vocabulary, { name: 'echo', doc: 'a word that was not there', args: [] }]);
    const now = (await c.call('pane/get', { pane: p.n })).vocabulary;
    expect(vocabularyRevision(now)).not.toBe(seen);
    const e = await c.call('pane/exec', { pane: p.n, line: 'echo stale-$((6*7))', origin: 'tag', fallback: 'shell', vocabulary: seen }).catch((x: Error) => x);
    expect((e as Error).message).toMatch(new RegExp(`refused: the words of pane ${p.n} changed since they were shown \\(revision ${seen}, now [0-9a-f]{8}\\); nothing was run`));
    expect((await c.call('pane/list', {})).panes.filter((q) => q.attrs.errors === '1')).toHaveLength(0);
    setVocabulary(server, server.pane(p.n), p.vocabulary);
    const r = await c.call('pane/exec', { pane: p.n, line: 'zoom', vocabulary: seen });
    expect(r.done).toBe(true);
    await c.call('pane/exec', { pane: p.n, line: 'zoom', vocabulary: seen });
  });

  it('gives a window of rows (the last ones, or from a top), and nothing when nothing changed since the caller\'s base', async () => {
    const a = await c.call('pane/launch', { launch: { program: '/bin/sh', args: ['-c', 'for i in $(seq 1 300); do echo row-$i; done; exec sleep 60'] } });
    await waitForOutput(c, a.pane, /row-300/);
    const last = await until('all 300 rows on the screen model', async () => {
      const g = await c.call('pty/grid', { pane: a.pane, rows: 5 });
      return g.lines.at(-1) === 'row-300' ? g : null;
    });
    expect(last.lines).toEqual(['row-296', 'row-297', 'row-298', 'row-299', 'row-300']);
    expect(last.total).toBe(300);
    expect(last.top).toBe(295);
    expect(last.unchanged).toBe(false);
    const first = await c.call('pty/grid', { pane: a.pane, rows: 3, top: 0 });
    expect(first.lines).toEqual(['row-1', 'row-2', 'row-3']);
    const again = await c.call('pty/grid', { pane: a.pane, rows: 5, base: last.offset });
    expect(again).toMatchObject({ unchanged: true, lines: [], offset: last.offset, total: 300 });
    const tooMany = await c.call('pty/grid', { pane: a.pane, rows: 5000 }).catch((e: Error) => e.message);
    expect(tooMany).toMatch(/invalid params for pty\/grid: rows: .*1000/);
    await c.call('pane/close', { pane: a.pane });
  });

  it('answers a grid delta from the caller\'s base: the shift and the changed rows rebuild exactly what a whole answer holds', async () => {
    const a = await c.call('pane/launch', { launch: { program: '/bin/sh', args: ['-c', 'for i in $(seq 1 40); do echo start-$i; done; exec cat'] } });
    await waitForOutput(c, a.pane, /start-40/);
    const first = await until('the first window with all rows', async () => {
      const g = await c.call('pty/grid', { pane: a.pane, rows: 10, delta: true });
      return g.lines.includes('start-40') ? g : null;
    });
    expect(first.desynced).toBe(true);
    let mine = first.lines;
    let base = first.offset;
    for (const text of ['one more', 'and another', 'x']) {
      await c.call('pane/input', { pane: a.pane, data: `${text}\r` });
      const g = await until(`"${text}" echoed`, async () => {
        const d = await c.call('pty/grid', { pane: a.pane, rows: 10, delta: true, base });
        return d.unchanged ? null : d;
      });
      expect(g.desynced).toBe(false);
      expect(g.lines).toEqual([]);
      // Apply it as a viewer would: drop `shift` rows from the top, then set each changed row.
      mine = mine.slice(g.shift ?? 0);
      for (const ch of g.changed ?? []) mine[ch.row] = ch.text;
      mine = mine.slice(0, 10);
      base = g.offset;
      const whole = await c.call('pty/grid', { pane: a.pane, rows: 10 });
      expect(mine.join('\n').trimEnd()).toBe(whole.lines.join('\n').trimEnd());
      expect((g.changed ?? []).length).toBeLessThan(10); // less than the whole window went over the wire
    }
    // A base this client was never given: every row, said so.
    const wrong = await c.call('pty/grid', { pane: a.pane, rows: 10, delta: true, base: 1 });
    expect(wrong.desynced).toBe(true);
    expect(wrong.lines.length).toBe(10);
    await c.call('pane/close', { pane: a.pane });
  });

  it('restarts a pane with a new process and continues its stream offsets', async () => {
    const p = (await c.call('pane/list', {})).panes[0]!;
    const before = await c.call('pty/read', { pane: p.n, from: 0 });
    await c.call('pane/restart', { pane: p.n });
    const after = await until('a new pid', async () => {
      const q = await c.call('pane/get', { pane: p.n });
      return q.pid !== null && q.pid !== p.pid && q.state === 'running' ? q : null;
    });
    expect(after.n).toBe(p.n);
    await c.call('pane/input', { pane: p.n, data: 'echo again-$((40+2))\r' });
    await waitForOutput(c, p.n, 'again-42');
    const r = await c.call('pty/read', { pane: p.n, from: before.to });
    expect(r.from).toBe(before.to);
    expect(r.gap).toBe(false);
  });

  it('reports exit with its status and keeps a non-shell pane to read', async () => {
    const a = await c.call('pane/launch', { launch: { program: '/bin/sh', args: ['-c', 'echo bye; exit 3'] } });
    const p = await until('exit', async () => {
      const q = await c.call('pane/get', { pane: a.pane });
      return q.state === 'exited' ? q : null;
    });
    expect(p.exit?.code).toBe(3);
    expect((await c.call('pty/read', { pane: a.pane, from: 0 })).data).toContain('bye');
    await c.call('pane/close', { pane: a.pane });
  });

  it('launches argv without a shell and fails plainly for a missing program or cwd', async () => {
    const a = await c.call('pane/launch', { launch: { program: '/bin/echo', args: ['$HOME', ';', 'not-expanded'] } });
    await waitForOutput(c, a.pane, '$HOME ; not-expanded');
    await c.call('pane/close', { pane: a.pane });
    const e = await fault(c.call('pane/launch', { launch: { program: '/bin/echo', args: [], cwd: '/no/such/dir' } }));
    expect(e.message).toMatch(/working directory \/no\/such\/dir does not exist/);
  });

  it('sets tags (append like acme) and attrs, publishing events', async () => {
    const sub = await h.connect(['read'], 'watcher');
    const seen: string[] = [];
    sub.events.on('pane/tag-changed', (d) => seen.push(`tag:${d.tag.user}`));
    sub.events.on('pane/attrs-changed', (d) => seen.push(`attrs:${d.attrs.k ?? '-'}`));
    await sub.call('events/subscribe', {});
    const p = (await c.call('pane/list', {})).panes[0]!;
    await c.call('pane/tag', { pane: p.n, user: 'Get' });
    await c.call('pane/tag', { pane: p.n, append: ' Put' });
    await c.call('pane/attrs', { pane: p.n, set: { k: 'v' } });
    await c.call('pane/attrs', { pane: p.n, set: { k: null } });
    await until('events', () => seen.length >= 4);
    expect(seen).toEqual(['tag:Get', 'tag:Get Put', 'attrs:v', 'attrs:-']);
    expect((await c.call('pane/get', { pane: p.n })).tag.user).toBe('Get Put');
  });

  it("bounds a client's attrs: key length and shape, value length, and a new pane's count", async () => {
    const p = (await c.call('pane/list', {})).panes[0]!;
    const big = await fault(c.call('pane/attrs', { pane: p.n, set: { ['k'.repeat(2_000_000)]: 'v' } }));
    expect(big.code).toBe('bad-request');
    expect(big.message).toMatch(/attr key "k{40}…" is 2000000 characters; a key is at most 100 \(MAX_ATTR_KEY_LENGTH\)/);
    expect(big.message.length).toBeLessThan(1000);
    expect((await fault(c.call('pane/attrs', { pane: p.n, set: { '-x': 'v' } }))).message).toMatch(/start with a letter, digit or "_"/);
    expect((await fault(c.call('pane/attrs', { pane: p.n, set: { k: 'v'.repeat(4097) } }))).message).toMatch(/MAX_PANE_ATTR_VALUE_LENGTH/);
    const many = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, 'v']));
    expect((await fault(c.call('pane/split', { pane: p.n, attrs: many }))).message).toMatch(/at most 256 attrs on a pane \(MAX_CLIENT_ATTRS\); this gives 300/);
    expect((await fault(c.call('pane/split', { pane: p.n, attrs: { ['a'.repeat(101)]: 'v' } }))).message).toMatch(/MAX_ATTR_KEY_LENGTH/);
    // Nothing was set, nothing opened, and the server serves on.
    expect(Object.keys((await c.call('pane/get', { pane: p.n })).attrs).every((k) => k.length < 100 && !k.startsWith('-'))).toBe(true);
    expect((await c.call('pane/list', {})).panes).toHaveLength(1);
  });

  it('lets a client delete an attr set before the bounds, which it could no longer write', async () => {
    const p = (await c.call('pane/list', {})).panes[0]!;
    // As a state file from before the bounds brings it back.
    const old = { ['k'.repeat(5000)]: 'v', '-x': 'v' };
    const server = h.running.server;
    setAttrs(server, server.pane(p.n), old);
    await c.call('pane/attrs', { pane: p.n, set: { ['k'.repeat(5000)]: null, '-x': null } });
    const attrs = (await c.call('pane/get', { pane: p.n })).attrs;
    expect(Object.keys(attrs).filter((k) => k.length > 100 || k.startsWith('-'))).toEqual([]);
    // A write of that key is refused as before.
    expect((await fault(c.call('pane/attrs', { pane: p.n, set: { '-x': 'v' } }))).message).toMatch(/start with a letter, digit or "_"/);
  });
});

describe('events', () => {
  it('gives the state first and then every change with increasing revs and no gap', async () => {
    const sub = await h.connect(['read'], 'sub');
    const revs: number[] = [];
    const names: string[] = [];
    sub.events.on('pane/created', (_d, rev) => {
      revs.push(rev);
      names.push('created');
    });
    sub.events.on('layout/changed', (_d, rev) => {
      revs.push(rev);
      names.push('layout');
    });
    sub.events.on('focus/changed', (_d, rev) => {
      revs.push(rev);
      names.push('focus');
    });
    sub.events.on('pane/closed', (_d, rev) => {
      revs.push(rev);
      names.push('closed');
    });
    // Fire a change concurrently with the subscription: it must land either in
    // the snapshot or as an event after it, never in neither.
    const splitting = c.call('pane/split', { direction: 'vertical' });
    const snap = await sub.call('events/subscribe', { families: ['pane', 'layout', 'focus'] });
    const a = await splitting;
    const inSnap = snap.panes.some((p) => p.n === a.pane);
    await until('events after subscribe', () => inSnap || names.includes('created'));
    await c.call('pane/close', { pane: a.pane });
    await until('close event', () => names.includes('closed'));
    for (const r of revs) expect(r).toBeGreaterThan(snap.rev);
    expect([...revs].sort((x, y) => x - y)).toEqual(revs);
    expect(new Set(revs).size).toBe(revs.length);
  });
});

describe('permissions', () => {
  it('refuses a mutation without the write capability', async () => {
    const ro = await h.connect(['read'], 'readonly');
    const e = await fault(ro.call('pane/split', {}));
    expect(e.code).toBe('denied');
    expect(e.message).toMatch(/needs the write capability/);
  });

  it('revokes and restores one client’s write permission', async () => {
    const w = await h.connect(['read', 'write'], 'writer');
    const id = w.welcome!.client;
    const p = (await c.call('pane/list', {})).panes[0]!;
    await c.call('client/permission', { client: id, canWrite: false });
    expect((await fault(w.call('pane/input', { pane: p.n, data: 'x' }))).code).toBe('denied');
    await c.call('client/permission', { client: id, canWrite: true });
    expect((await w.call('pane/input', { pane: p.n, data: '' })).bytes).toBe(0);
    expect((await fault(w.call('client/permission', { client: id, canWrite: true }))).message).toMatch(/admin/);
  });
});

describe('snapshot and restore', () => {
  it('restores a session from its snapshot with the same layout shape and programs', async () => {
    await c.call('session/new', { name: 'work' });
    const p0 = (await c.call('pane/list', { session: 'work' })).panes[0]!.n;
    await c.call('pane/launch', { pane: p0, direction: 'vertical', ratio: 30, name: 'sleeper', launch: { program: '/bin/sleep', args: ['600'] } });
    await c.call('pane/tag', { pane: p0, user: 'keep me' });
    const snap = await c.call('session/snapshot', { session: 'work' });
    // The shell's tag followed its program; the sleeper's was given.
    expect(snap.panes.map((p) => p.autoName)).toEqual([true, undefined]);
    // Saved while the shell ran vim: restored at its prompt, its name follows again (its directory), not "vim" for good.
    const saved = JSON.parse(JSON.stringify(snap)) as typeof snap;
    saved.panes[0]!.tag.name = 'vim';
    const r = await c.call('session/restore', { snapshot: saved });
    expect(r.name).toBe('work-2');
    const restored = await c.call('session/get', { session: r.session });
    expect(restored.layout).toMatchObject({ type: 'split', direction: 'vertical', ratio: 30 });
    const panes = (await c.call('pane/list', { session: r.session })).panes;
    expect(panes.map((p) => p.tag.name)).toEqual([snap.panes[0]!.tag.name, 'sleeper']);
    expect(panes[0]!.tag.user).toBe('keep me');
    expect(panes[1]!.launch).toMatchObject({ program: '/bin/sleep', args: ['600'] });
    expect(panes.every((p) => !snap.panes.some((q) => q.n === p.n))).toBe(true);
    // A snapshot from before autoName keeps every name as it was.
    const old = JSON.parse(JSON.stringify(saved)) as typeof snap;
    delete old.panes[0]!.autoName;
    const r2 = await c.call('session/restore', { snapshot: old });
    expect((await c.call('pane/list', { session: r2.session })).panes.map((p) => p.tag.name)).toEqual(['vim', 'sleeper']);
    await c.call('session/kill', { session: r2.session });
    await c.call('session/kill', { session: r.session });
    await c.call('session/kill', { session: 'work' });
    expect((await fault(c.call('session/kill', { session: 'work' }))).code).toBe('session-not-found');
  });

  it('brings a named shell back where its prompt was, and a pane whose directory is gone to the home directory, saying so', async () => {
    await c.call('session/new', { name: 'shells' });
    const p0 = (await c.call('pane/list', { session: 'shells' })).panes[0]!.n;
    // `pane split -- bash --norc`: a shell the person named, started in the home directory.
    await c.call('pane/launch', { pane: p0, direction: 'horizontal', launch: { program: '/bin/bash', args: ['--norc'], cwd: h.dir } });
    const snap = await c.call('session/snapshot', { session: 'shells' });
    // Its prompt had moved to another directory (cd, reported by OSC 7 or read from /proc)…
    const there = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-there-'));
    const saved = JSON.parse(JSON.stringify(snap)) as typeof snap;
    saved.panes[1]!.cwd = there;
    const r = await c.call('session/restore', { snapshot: saved });
    const back = (await c.call('pane/list', { session: r.session })).panes;
    // …and it comes back there, running the same shell with its arguments (before: in the directory it started in).
    expect(back[1]!.launch).toMatchObject({ program: '/bin/bash', args: ['--norc'], cwd: there });
    await c.call('pane/input', { pane: back[1]!.n, data: 'pwd\r' });
    await waitForOutput(c, back[1]!.n, new RegExp(`^${there}\\r?$`, 'm'));
    // A snapshot naming directories this machine lacks: each pane starts in the home directory and says why;
    // before, the whole restore failed on the first one ("working directory … does not exist").
    const gone = JSON.parse(JSON.stringify(snap)) as typeof snap;
    for (const p of gone.panes) {
      p.cwd = '/nonexistent/pane-test';
      if (p.launch) p.launch.cwd = '/nonexistent/pane-test';
    }
    const r2 = await c.call('session/restore', { snapshot: gone });
    const homed = (await c.call('pane/list', { session: r2.session })).panes;
    expect(homed[1]!.launch).toMatchObject({ program: '/bin/bash', cwd: h.dir });
    await waitForOutput(c, homed[0]!.n, `the directory /nonexistent/pane-test does not exist here; this is a shell in ${h.dir}`);
    await waitForOutput(c, homed[1]!.n, `the directory /nonexistent/pane-test does not exist here; /bin/bash starts in ${h.dir}`);
    // The file's words are data: a directory named with an escape sequence is shown escaped, never run by the terminal.
    const evil = JSON.parse(JSON.stringify(snap)) as typeof snap;
    evil.panes[0]!.cwd = '/nonexistent/\x1b]52;c;ZXZpbA==\x07';
    const r3 = await c.call('session/restore', { snapshot: evil });
    const first = (await c.call('pane/list', { session: r3.session })).panes[0]!.n;
    await waitForOutput(c, first, 'the directory /nonexistent/\\e]52;c;ZXZpbA==\\x07 does not exist here');
    expect((await c.call('pty/read', { pane: first, from: 0 })).data).not.toContain('\x1b]52');
    for (const s of [r3.session, r2.session, r.session, 'shells']) await c.call('session/kill', { session: s });
    fs.rmSync(there, { recursive: true, force: true });
  });

  it('restores a snapshot naming a program this machine lacks, or one whose directory is gone, as shells saying what they ran', async () => {
    await c.call('session/new', { name: 'progs', launch: { program: '/bin/sleep', args: ['600'], cwd: h.dir } });
    const p0 = (await c.call('pane/list', { session: 'progs' })).panes[0]!.n;
    await c.call('pane/launch', { pane: p0, direction: 'horizontal', launch: { program: '/bin/sleep', args: ['601'], cwd: h.dir } });
    await c.call('pane/launch', { pane: p0, direction: 'vertical', launch: { program: '/bin/sleep', args: ['602'], cwd: h.dir } });
    const snap = await c.call('session/snapshot', { session: 'progs' });
    const other = JSON.parse(JSON.stringify(snap)) as typeof snap;
    const by = (arg: string) => other.panes.find((p) => p.launch?.args[0] === arg)!;
    // One program not installed here, one run in a directory this machine lacks, one as it was.
    const missing = by('600');
    const away = by('601');
    missing.launch = { program: 'pane-no-such-program', args: ['--flag'], cwd: h.dir };
    away.cwd = '/nonexistent/pane-prog';
    away.launch!.cwd = '/nonexistent/pane-prog';
    // Before, the first refused the whole restore: "cannot start pane-no-such-program: not found in PATH".
    const r = await c.call('session/restore', { snapshot: other });
    const back = (await c.call('session/get', { session: r.session }));
    const panes = (await c.call('pane/list', { session: r.session })).panes;
    expect(panes).toHaveLength(3);
    // Each comes back in its place in the layout.
    const mapped = (old: typeof missing) => leaves(back.layout)[leaves(snap.session.layout).indexOf(old.n)]!;
    await waitForOutput(c, mapped(missing), `pane-no-such-program is not installed here (it ran: pane-no-such-program --flag); this is a shell in ${h.dir} instead`);
    expect(panes.find((p) => p.n === mapped(missing))!.attrs['default-shell']).toBe('1');
    await waitForOutput(c, mapped(away), `the directory /nonexistent/pane-prog does not exist here, so nothing was started there; this is a shell in ${h.dir}`);
    await waitForOutput(c, mapped(away), 'it ran: /bin/sleep 601');
    const kept = panes.find((p) => p.n === mapped(by('602')))!;
    expect(kept.launch).toMatchObject({ program: '/bin/sleep', args: ['602'] });
    expect(kept.state).toBe('running');
    for (const s of [r.session, 'progs']) await c.call('session/kill', { session: s });
  });

  it('refuses a snapshot whose layout names a pane it does not list', async () => {
    const snap = await c.call('session/snapshot', {});
    snap.panes = [];
    const e = await fault(c.call('session/restore', { snapshot: snap }));
    expect(e.code).toBe('bad-request');
    expect((await c.call('session/list', {})).sessions.map((s) => s.name)).toEqual(['main']);
  });
});

describe('a pane too small to split', () => {
  it('is refused by pane/split with its reason, the layout unchanged; apps/launch beside it opens the app floating', async () => {
    const made = await c.call('session/new', { name: 'room', launch: { program: 'sleep', args: ['600'] } });
    let last = (await c.call('session/get', { session: made.session })).focused!;
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
    const before = await c.call('session/get', { session: made.session });
    const app = await c.call('apps/launch', { app: 'terminal', pane: last });
    const after = await c.call('session/get', { session: made.session });
    expect(after.layout).toEqual(before.layout);
    expect(after.floating.map((f) => f.pane)).toContain(app.pane);
  });
});
