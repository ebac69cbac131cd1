// acme's event interception over the protocol: a reader holding event open
// read-write is offered command executions instead of them being performed,
// handles some itself and writes back the others to have them done by default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../../kits/client/connection';
import { harness, until, type Harness } from '../server/harness';
import { bytes, cat, fault, put, closeHarness } from './nsClient';

let h: Harness;
let user: Connection;
let app: Connection;
let n: number;

beforeAll(async () => {
  h = await harness();
  user = await h.connect(undefined, 'user');
  app = await h.connect(undefined, 'app');
  n = (await user.call('pane/list', {})).panes[0]!.n;
});
afterAll(async () => {
  await closeHarness(h);
});

const pending = new Map<number, string[]>();

/** Reads the app's event handle until a line matching `re` arrives (lines read past it are kept for the next call). */
async function nextLine(c: Connection, path: string, fid: number, re: RegExp): Promise<string> {
  const queue = pending.get(fid) ?? [];
  pending.set(fid, queue);
  for (;;) {
    while (queue.length > 0) {
      const l = queue.shift()!;
      if (re.test(l)) return l;
    }
    const r = await c.call('ns/read', { path, fid, wait: true, count: 4096 });
    if (r.count === 0) throw new Error(`event handle ended before a line matching ${re}`);
    queue.push(...bytes(r).toString('utf8').split('\n').filter(Boolean));
  }
}

describe('event interception', () => {
  it('offers executions to the reader, which handles one and passes another back to the default', async () => {
    const path = `/${n}/event`;
    const { fid } = await app.call('ns/open', { path, mode: 'rw' });
    const zoomedBefore = (await user.call('session/get', {})).zoomed;

    // A word the app extends the vocabulary with: offered, not refused.
    const r1 = await user.call('pane/exec', { pane: n, line: 'deploy staging', origin: 'tag' });
    expect(r1.output).toContain(`/pane/${n}/event`);
    const offered1 = await nextLine(app, path, fid, / offered tag \S+ deploy staging$/);
    // The app handles it itself: nothing is performed by default.
    await app.call('pane/attrs', { pane: n, set: { deployed: 'staging' } });
    expect(offered1).toMatch(/^\d+ offered tag /);

    // A word it does not want: written back by number, then performed by default with its origin kept.
    await user.call('pane/exec', { pane: n, line: 'zoom', origin: 'palette' });
    expect((await user.call('session/get', {})).zoomed).toBe(zoomedBefore);
    const offered2 = await nextLine(app, path, fid, / offered palette \S+ zoom$/);
    await app.call('ns/write', { path, fid, data: offered2 + '\n' });
    expect((await user.call('session/get', {})).zoomed).toBe(n);
    await nextLine(app, path, fid, / executed palette \S+ zoom$/);
    expect((await user.call('pane/get', { pane: n })).attrs.deployed).toBe('staging');

    // A number that was never offered (or was performed already) is refused by name.
    const seq = Number(offered2.split(' ')[0]);
    expect((await fault(app.call('ns/write', { path, fid, data: `${seq}\n` }))).message).toContain(`no offered command ${seq}`);
    await app.call('ns/close', { fid });
    await user.call('pane/zoom', { pane: n, zoom: false });
  });

  it('offers ctl writes too, and skips their up-front check so app words get through', async () => {
    const path = `/${n}/event`;
    const { fid } = await app.call('ns/open', { path, mode: 'rw' });
    await put(user, `/${n}/ctl`, 'deploy prod\nname from-ctl\n');
    await nextLine(app, path, fid, / offered ctl \S+ deploy prod$/);
    await nextLine(app, path, fid, / offered ctl \S+ name from-ctl$/);
    expect((await user.call('pane/get', { pane: n })).tag.name).not.toBe('from-ctl');
    await app.call('ns/close', { fid });
  });

  it('lets one reader intercept a pane at a time; read-only readers just watch', async () => {
    const path = `/${n}/event`;
    const { fid } = await app.call('ns/open', { path, mode: 'rw' });
    const e = await fault(user.call('ns/open', { path, mode: 'rw' }));
    expect(e.code).toBe('busy');
    const watch = await user.call('ns/open', { path, mode: 'r' });
    await user.call('ns/close', { fid: watch.fid });
    await app.call('ns/close', { fid });
  });

  it('stops intercepting when the handle closes or its connection ends, and blocked reads then end', async () => {
    const path = `/${n}/event`;
    const { fid } = await app.call('ns/open', { path, mode: 'rw' });
    const blocked = app.call('ns/read', { path, fid, wait: true, count: 4096 });
    await app.call('ns/close', { fid });
    expect((await blocked).count).toBe(0);
    await user.call('pane/exec', { pane: n, line: 'name direct' });
    expect((await user.call('pane/get', { pane: n })).tag.name).toBe('direct');

    const gone = await h.connect(undefined, 'short-lived');
    await gone.call('ns/open', { path, mode: 'rw' });
    gone.close();
    await until('the interceptor to be released', async () => {
      await user.call('pane/exec', { pane: n, line: 'name after-disconnect' });
      return (await user.call('pane/get', { pane: n })).tag.name === 'after-disconnect';
    });
  });

  it('needs the write capability to intercept', async () => {
    const ro = await h.connect(['read'], 'read-only');
    expect((await fault(ro.call('ns/open', { path: `/${n}/event`, mode: 'rw' }))).code).toBe('not-permitted');
    expect(await cat(ro, `/${n}/event`)).toContain(' executed ');
  });
});

describe('words a reader adds', () => {
  it('appear in the tag, commands and the vocabulary while the reader holds the file, run as offers with their arguments checked, and vanish when it lets go', async () => {
    const path = `/${n}/event`;
    const { fid } = await app.call('ns/open', { path, mode: 'rw' });
    await app.call('ns/write', { path, fid, data: 'word deploy <env:staging|prod> [tag] -- Deploy the build\nword note <text...>\n' });
    const p = await user.call('pane/get', { pane: n });
    expect(p.tag.commands).toEqual(expect.arrayContaining(['deploy', 'note']));
    expect(p.vocabulary.find((w) => w.name === 'deploy')).toEqual({
      name: 'deploy', doc: 'Deploy the build', inTag: true, reader: true,
      args: [{ name: 'env', type: 'enum', values: ['staging', 'prod'] }, { name: 'tag', type: 'string', optional: true }],
    });
    expect(await cat(user, `/${n}/commands`)).toMatch(/^deploy staging\|prod \[tag\]\tDeploy the build$/m);
    // Run: offered to the reader, with its line; a bad argument is refused before it is offered.
    await user.call('pane/exec', { pane: n, line: 'deploy prod v2', origin: 'tag' });
    expect(await nextLine(app, path, fid, / offered tag \S+ deploy prod v2$/)).toMatch(/^\d+ offered /);
    const bad = await fault(user.call('pane/exec', { pane: n, line: 'deploy qa', origin: 'tag' }));
    expect(bad.code).toBe('bad-request');
    expect(bad.message).toBe('deploy: env must be one of staging, prod, not "qa"; usage: deploy staging|prod [tag]');
    // Only the interceptor adds words; none shadows the pane's own; a bad spec is named.
    expect((await fault(user.call('ns/write', { path, data: 'word sneaky\n' }))).code).toBe('not-permitted');
    expect((await fault(app.call('ns/write', { path, fid, data: 'word zoom\n' }))).message).toMatch(/"zoom" is a word pane \d+ has already/);
    expect((await fault(app.call('ns/write', { path, fid, data: 'word x <a\n' }))).message).toMatch(/"<a" is not an argument/);
    // unword takes one back; closing the handle takes the rest.
    await app.call('ns/write', { path, fid, data: 'unword note\n' });
    expect((await user.call('pane/get', { pane: n })).tag.commands).not.toContain('note');
    await app.call('ns/close', { fid });
    const after = await user.call('pane/get', { pane: n });
    expect(after.vocabulary.some((w) => w.reader)).toBe(false);
    expect(after.tag.commands).not.toContain('deploy');
  });

  it('go when the reader’s connection ends', async () => {
    const path = `/${n}/event`;
    const gone = await h.connect(undefined, 'word-reader');
    const { fid } = await gone.call('ns/open', { path, mode: 'rw' });
    await gone.call('ns/write', { path, fid, data: 'word build\n' });
    expect((await user.call('pane/get', { pane: n })).tag.commands).toContain('build');
    gone.close();
    await until('the reader’s words to go', async () => !(await user.call('pane/get', { pane: n })).tag.commands.includes('build'));
  });
});
