// The doors of a stand-in (a local pane of kind remote tiling a joined host's pane,
// server/hosts/standIns.ts) between two real in-process pane servers: an agent is
// refused host/show and every terminal request through a stand-in (its .access names
// this server's panes only); a read-only host's stand-in shows the pane and refuses
// keys, by name; no request makes a stand-in by hand (a split of kind remote, an attrs
// write re-pointing one); a saved stand-in comes back as one.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../../kits/client/connection';
import { borrowWords } from '../../server/hosts/standIns';
import type { RunningServer } from '../../server/main';
import { vocabularyFor } from '../../server/model/vocabulary';
import { agentConnection, joinedPair, until, type Gate, type Pair } from './pair';

let pair: Pair<Gate>;
let remote: RunningServer;
let local: RunningServer;
let c: Connection;
let dir: string;
/** The remote pane, the local pane, and stand-ins of the remote pane through `box` and through the read-only `ro`. */
let rn = 0;
let ln = 0;

beforeAll(async () => {
  pair = await joinedPair({ name: 'standin', hosts: { box: {}, ro: { readOnly: true } } });
  ({ remote, local, c, dir } = pair);
  expect((await c.call('host/connect', { name: 'box' })).state).toBe('connected');
  expect((await c.call('host/connect', { name: 'ro' })).state).toBe('connected');
  const far = await remote.connect();
  const fs1 = (await far.call('session/new', { name: 'far-work' })).session;
  rn = remote.server.panesOf(remote.server.session(fs1))[0]!.n;
  far.close();
  const ns1 = (await c.call('session/new', { name: 'near-work' })).session;
  ln = local.server.panesOf(local.server.session(ns1))[0]!.n;
}, 30_000);

afterAll(async () => {
  await pair?.stop();
});

const agent = () => agentConnection(local.services, 'ada', ['read', 'write', 'attach']);

describe('a stand-in\'s doors', () => {
  it('refuses an agent host/show, and every request that would reach the remote pane through a stand-in', async () => {
    const ada = await agent();
    try {
      await expect(ada.call('host/show', { remote: `box:${rn}`, pane: ln })).rejects.toThrow(/denied: host\/show of box:\d+: an agent's \.access names this server's panes only/);
      const s = (await c.call('host/show', { remote: `box:${rn}`, pane: ln })).pane;
      for (const call of [
        () => ada.call('pane/input', { pane: s, data: 'echo agent-was-here\n' }),
        () => ada.call('pty/attach', { pane: s, mode: 'from' }),
        () => ada.call('pty/screen', { pane: s }),
        () => ada.call('pty/read', { pane: s, from: 0 }),
        () => ada.call('pty/resize', { pane: s, cols: 20, rows: 5 }),
        () => ada.call('pane/restart', { pane: s }),
      ]) await expect(call()).rejects.toThrow(/denied: .* it stands in for box:\d+, and an agent's \.access names this server's panes only/);
      // Its keys as binary frames: an error frame, and nothing typed there.
      const errors: string[] = [];
      ada.onError((e) => errors.push(e.message));
      ada.sendInput(s, new TextEncoder().encode('echo agent-frame-was-here\n'));
      await new Promise((r) => setTimeout(r, 300));
      expect(errors.join(' ')).toMatch(/denied: pane\/input on pane \d+: it stands in for box/);
      expect((await c.call('pty/screen', { pane: s, form: 'text' })).serialized).not.toMatch(/agent-(frame-)?was-here/);
      await c.call('pane/close', { pane: s });
    } finally {
      ada.close();
    }
  });

  it('shows a read-only host\'s pane and refuses keys into it by name', async () => {
    const s = (await c.call('host/show', { remote: `ro:${rn}`, pane: ln })).pane;
    try {
      const a = await c.call('pty/attach', { pane: s, mode: 'snapshot' });
      expect(a.pane).toBe(s);
      await expect(c.call('pane/input', { pane: s, data: 'echo ro-was-written\n' })).rejects.toThrow(/denied: pane \d+ stands in for ro:\d+ and host ro is joined read-only \(readOnly in .*ro\.json\)/);
      await expect(c.call('pty/resize', { pane: s, cols: 30, rows: 8 })).rejects.toThrow(/joined read-only/);
      // Keys as the window types them (binary frames): refused visibly, one error frame and one /pane/log line for a run of them.
      const errors: string[] = [];
      const logged: string[] = [];
      c.onError((e) => errors.push(e.message));
      const off = local.server.listen((event, data) => void (event === 'client/refused' && logged.push((data as { reason: string }).reason)));
      try {
        for (const key of ['l', 's', '\r']) c.sendInput(s, new TextEncoder().encode(key));
        await new Promise((r) => setTimeout(r, 300));
      } finally {
        off();
      }
      expect(errors.filter((m) => /joined read-only/.test(m))).toHaveLength(1);
      expect(logged.filter((m) => /joined read-only/.test(m))).toHaveLength(1);
      expect(remote.server.panes.get(rn)?.cols).not.toBe(30);
    } finally {
      await c.call('pane/close', { pane: s });
    }
  });

  it('makes no stand-in from a request: a split of kind remote and an attrs write re-pointing one are refused', async () => {
    await expect(c.call('pane/split', { pane: ln, kind: 'remote' as never, attrs: { 'remote.host': 'box', 'remote.n': String(rn) } })).rejects.toThrow(/invalid params for pane\/split: kind/);
    await expect(c.call('float/create', { kind: 'remote' as never })).rejects.toThrow(/invalid params for float\/create: kind/);
    const s = (await c.call('host/show', { remote: `box:${rn}`, pane: ln })).pane;
    try {
      await expect(c.call('pane/attrs', { pane: s, set: { 'remote.n': '1' } })).rejects.toThrow(/remote\.n is set by the server for a stand-in/);
      await expect(c.call('pane/attrs', { pane: ln, set: { 'remote.host': 'box' } })).rejects.toThrow(/remote\.host is set by the server/);
    } finally {
      await c.call('pane/close', { pane: s });
    }
    // Closing the stand-in left the remote pane.
    expect(remote.server.panes.get(rn)?.state).toBe('running');
  });

  it('zooms, floats, tiles, focuses and splits a stand-in as a local pane; a split beside it is a local shell', async () => {
    const s = (await c.call('host/show', { remote: `box:${rn}`, pane: ln })).pane;
    try {
      const session = () => local.server.sessionOf(local.server.pane(s));
      await c.call('pane/zoom', { pane: s });
      expect(session().zoomed).toBe(s);
      await c.call('pane/zoom', { pane: s });
      await c.call('pane/float', { pane: s, mode: 'float' });
      expect(session().floating.map((f) => f.pane)).toContain(s);
      await c.call('pane/float', { pane: s, mode: 'tile' });
      await c.call('pane/focus', { pane: ln });
      await c.call('pane/focus', { pane: s });
      expect(session().focused).toBe(s);
      const split = (await c.call('pane/split', { pane: s })).pane;
      expect(local.server.pane(split).kind).toBe('terminal');
      expect(local.server.terminals.has(split)).toBe(true);
      expect(remote.server.panes.has(split) && remote.server.pane(split).session === local.server.pane(split).session).toBe(false);
      await c.call('pane/close', { pane: split });
    } finally {
      await c.call('pane/close', { pane: s });
    }
  });

  it('follows its remote pane: ended there with its exit status, and running again after a restart through it', async () => {
    const far = await remote.connect();
    try {
      // Ends with 3 on its first run; its second run stays.
      const mark = path.join(dir, 'ran-once');
      const ended = (await far.call('pane/split', { pane: rn, launch: { program: '/bin/sh', args: ['-c', `[ -e ${mark} ] && exec sleep 60; touch ${mark}; sleep 0.5; exit 3`] } })).pane;
      const s = (await c.call('host/show', { remote: `box:${ended}`, pane: ln })).pane;
      await until('the stand-in ended as its remote pane did', () => local.server.pane(s).state === 'exited', 15_000);
      expect(local.server.pane(s).exit?.code).toBe(3);
      expect(local.server.pane(s).attrs['remote.gone']).toBeUndefined();
      // Enter in the window asks pane/restart of the stand-in: the remote pane runs again, and so does the stand-in.
      await c.call('pane/restart', { pane: s });
      await until('the stand-in running again', () => local.server.pane(s).state === 'running', 15_000);
      await c.call('pane/close', { pane: s });
      await far.call('pane/close', { pane: ended });
    } finally {
      far.close();
    }
  });

  it("borrows its remote pane's own words, run there (restart); refused where the host is read-only and to agents", async () => {
    const far = await remote.connect();
    const ada = await agent();
    try {
      const mark = path.join(dir, 'borrowed-restart');
      const ended = (await far.call('pane/split', { pane: rn, launch: { program: '/bin/sh', args: ['-c', `echo run >> ${mark}; exit 4`] } })).pane;
      const s = (await c.call('host/show', { remote: `box:${ended}`, pane: ln })).pane;
      await until('the remote terminal pane\'s restart borrowed', () => local.server.pane(s).vocabulary.some((w) => w.name === 'restart' && w.remote === true), 15_000);
      const restart = local.server.pane(s).vocabulary.find((w) => w.name === 'restart')!;
      expect(restart.doc).toMatch(/\(on box\)$/);
      expect(local.server.pane(s).tag.commands).toContain('restart');
      // Its own words stay its own: close removes the stand-in, kill ends the remote pane.
      expect(local.server.pane(s).vocabulary.filter((w) => w.name === 'close' || w.name === 'kill').map((w) => w.remote)).toEqual([undefined, undefined]);
      await until('the remote program ended once', () => local.server.pane(s).state === 'exited', 15_000);
      // The tag's word, as the window and `pane exec` send it: run on box, where the program runs again.
      const done = await c.call('pane/exec', { pane: s, line: 'restart' });
      expect(done.done).toBe(true);
      await until('the remote program ran a second time', () => fs.readFileSync(mark, 'utf8') === 'run\nrun\n', 10_000);
      // An agent's pane/exec through the stand-in is refused as its other requests are.
      await expect(ada.call('pane/exec', { pane: s, line: 'restart' })).rejects.toThrow(/denied/);
      // A read-only host's stand-in has the word but may not run it.
      const ro = (await c.call('host/show', { remote: `ro:${ended}`, pane: ln })).pane;
      await until('the read-only stand-in borrowed it too', () => local.server.pane(ro).vocabulary.some((w) => w.name === 'restart' && w.remote === true), 15_000);
      await expect(c.call('pane/exec', { pane: ro, line: 'restart' })).rejects.toThrow(/read-only/);
      expect(fs.readFileSync(mark, 'utf8')).toBe('run\nrun\n');
      await c.call('pane/close', { pane: ro });
      await c.call('pane/close', { pane: s });
      await far.call('pane/close', { pane: ended });
    } finally {
      ada.close();
      far.close();
    }
  });

  it("does not borrow a remote agent pane's views (finger, mail, write, plan, access, review): they would open on that host, out of sight", () => {
    const stand = local.server.panesOf(local.server.session((local.server.pane(ln)).session))[0]!;
    const fake = { ...stand, kind: 'remote' as const, vocabulary: [...stand.vocabulary], tag: { ...stand.tag }, attrs: { ...stand.attrs } };
    const agentPane = { ...fake, kind: 'agent' as const, vocabulary: vocabularyFor('agent') };
    const changed: number[] = [];
    borrowWords({ paneChanged: (p: { n: number }) => changed.push(p.n), publish: () => undefined } as never, fake, agentPane, 'box');
    expect(fake.vocabulary.filter((w) => w.remote).map((w) => w.name)).toEqual(['restart']);
    expect(changed).toEqual([fake.n]);
    // Nothing changed, nothing published.
    borrowWords({ paneChanged: (p: { n: number }) => changed.push(p.n), publish: () => undefined } as never, fake, agentPane, 'box');
    expect(changed).toEqual([fake.n]);
  });

  it('brings a saved stand-in back as one (session/snapshot, session/restore), bound to its remote pane again', async () => {
    const s = (await c.call('host/show', { remote: `box:${rn}`, pane: ln })).pane;
    const snap = await c.call('session/snapshot', { session: local.server.pane(s).session });
    await c.call('pane/close', { pane: s });
    const restored = await c.call('session/restore', { snapshot: snap, name: 'near-again' });
    const back = local.server.panesOf(local.server.session(restored.session)).find((p) => p.kind === 'remote');
    expect(back?.attrs['remote.host']).toBe('box');
    expect(back?.attrs['remote.n']).toBe(String(rn));
    const a = await c.call('pty/attach', { pane: back!.n, mode: 'snapshot' });
    expect(a.pane).toBe(back!.n);
  });

  it('streams one remote pane to two stand-ins in one client (a restored session beside the live one), each at its own place', async () => {
    const s1 = (await c.call('host/show', { remote: `box:${rn}`, pane: ln })).pane;
    const snap = await c.call('session/snapshot', { session: local.server.pane(s1).session });
    const restored = await c.call('session/restore', { snapshot: snap, name: 'near-twice' });
    const s2 = local.server.panesOf(local.server.session(restored.session)).find((p) => p.kind === 'remote' && p.attrs['remote.n'] === String(rn))!.n;
    expect(s2).not.toBe(s1);
    const got = new Map<number, string>([[s1, ''], [s2, '']]);
    const off = c.onOutput((p, _o, data) => got.has(p) && got.set(p, got.get(p)! + Buffer.from(data).toString()));
    try {
      await c.call('pty/attach', { pane: s1, mode: 'from' });
      await c.call('pty/attach', { pane: s2, mode: 'from' });
      await c.call('pane/input', { pane: `box:${rn}`, data: 'echo BOTH-TILES-$((6*7))\r' });
      await until('the echo in both tiles', () => got.get(s1)!.includes('BOTH-TILES-42') && got.get(s2)!.includes('BOTH-TILES-42'), 10_000);
      // One tile leaving does not take the other's stream with it.
      await c.call('pty/detach', { pane: s2 });
      await c.call('pane/input', { pane: `box:${rn}`, data: 'echo ONE-TILE-$((6*7))\r' });
      await until('the echo in the tile still attached', () => got.get(s1)!.includes('ONE-TILE-42'), 10_000);
    } finally {
      off();
    }
  });
});
