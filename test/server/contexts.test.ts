// Contexts (issue 36.3) through the real daemon and socket: a client that follows a
// context focuses and zooms in it, and the session's own focus and layout — what the
// person's windows show — do not move; the events say which context moved. A grant's
// guest is always in a context of its own, so its clicks never move the person's
// focus, and it may not take the session's own view. A closed pane leaves every context.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reachServer } from '../../kits/node/cli/reach';
import { buildOnce, serve, type Served } from '../cli/harness';

let s: Served;
let one: number;
let two: number;

describe('contexts: a view of a session with its own focus and zoom', () => {
  beforeAll(async () => {
    buildOnce();
    s = await serve();
    one = 1;
    two = Number(s.pane(['split', '-t', '1']).stdout.trim().split(':').pop());
    expect(s.pane(['focus', '-t', String(one)]).status).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('focus and zoom move the context alone; the session keeps its own, and the events name the context', async () => {
    const person = await reachServer(s.socket);
    const heard: string[] = [];
    person.onEvent((event, _rev, data) => {
      if (event === 'focus/changed' || event === 'layout/changed') heard.push(`${event} ${JSON.stringify(data).slice(0, 200)}`);
    });
    await person.call('events/subscribe', {});
    const before = await person.call('session/get', {});
    const viewer = await reachServer(s.socket);
    const c = await viewer.call('session/context', { context: 'review' });
    expect(c).toMatchObject({ context: 'review', focused: one, zoomed: null });
    await viewer.call('pane/focus', { pane: two });
    await viewer.call('pane/zoom', {});
    const after = await person.call('session/get', {});
    expect(after.focused).toBe(one);
    expect(after.zoomed).toBeNull();
    expect(after.placements).toEqual(before.placements);
    await new Promise((r) => setTimeout(r, 200));
    expect(heard.filter((h) => h.startsWith('layout/changed'))).toEqual([]);
    expect(heard.at(-1)).toContain(`"focused":${two},"zoomed":${two},"context":"review"`);
    // Following the context again from another client finds it where it was left.
    const again = await reachServer(s.socket);
    expect(await again.call('session/context', { context: 'review' })).toMatchObject({ focused: two, zoomed: two });
    // Back to the session's own view: its focus moves the session again.
    await again.call('session/context', { context: null });
    await again.call('pane/focus', { pane: two });
    expect((await person.call('session/get', {})).focused).toBe(two);
    await again.call('pane/focus', { pane: one });
    // A closed pane leaves the context.
    const three = Number(s.pane(['split', '-t', String(one)]).stdout.trim().split(':').pop());
    await viewer.call('pane/focus', { pane: three });
    expect(s.pane(['close', '-t', String(three)]).status).toBe(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(await again.call('session/context', { context: 'review' })).toMatchObject({ focused: null });
    const bad = await viewer.call('session/context', { context: '-rm -rf' }).catch((e: Error) => e.message);
    expect(bad).toMatch(/a context is named by a word/);
    for (const x of [person, viewer, again]) x.close();
  });

  it("a grant's guest focuses and zooms in a context of its own, never the person's", async () => {
    const g = JSON.parse(s.pane(['grant', 'new', '--rw', '--json']).stdout) as { id: string; token: string };
    const guest = await reachServer(s.socket, { grant: g.token });
    await guest.call('pane/focus', { pane: two });
    await guest.call('pane/zoom', { pane: two });
    const own = await reachServer(s.socket);
    const sess = await own.call('session/get', {});
    expect(sess.focused).toBe(one);
    expect(sess.zoomed).toBeNull();
    expect(await guest.call('session/context', {})).toMatchObject({ context: `grant:${g.id}`, focused: two, zoomed: two });
    await expect(guest.call('session/context', { context: null })).rejects.toThrow(/a grant's guest follows a context of its own/);
    // A float: the guest focuses it in its own view; the stacking every window shares is not the guest's to change.
    const fl = Number(s.pane(['split', '-t', String(one), '--', 'cat']).stdout.trim().split(':').pop());
    expect(s.pane(['float', '-t', String(fl)]).status).toBe(0);
    // A second float above it: focusing the first the person's way would raise it over this one.
    const top = Number(s.pane(['split', '-t', String(one), '--', 'cat']).stdout.trim().split(':').pop());
    expect(s.pane(['float', '-t', String(top)]).status).toBe(0);
    const z = (await own.call('session/get', {})).floating.find((f) => f.pane === fl)!.z;
    expect(z).toBeLessThan((await own.call('session/get', {})).floating.find((f) => f.pane === top)!.z);
    expect(s.pane(['focus', '-t', String(one)]).status).toBe(0);
    await guest.call('float/focus', { pane: fl });
    expect(await guest.call('session/context', {})).toMatchObject({ focused: fl });
    const after = await own.call('session/get', {});
    expect(after.focused).toBe(one);
    expect(after.floating.find((f) => f.pane === fl)!.z).toBe(z);
    await expect(guest.call('float/raise', { pane: fl })).rejects.toThrow(/denied|grant/i);
    for (const f of [fl, top]) expect(s.pane(['close', '-t', String(f)]).status).toBe(0);
    guest.close();
    own.close();
  });

  it('a grant naming a context puts its guest in that one: the person following it shares one focus with the guest', async () => {
    const g = JSON.parse(s.pane(['grant', 'new', '--rw', '--context', 'pair', '--json']).stdout) as { id: string; token: string };
    const person = await reachServer(s.socket);
    await person.call('session/context', { context: 'pair' });
    const guest = await reachServer(s.socket, { grant: g.token });
    expect(await guest.call('session/context', {})).toMatchObject({ context: 'pair' });
    await guest.call('pane/focus', { pane: two });
    expect(await person.call('session/context', { context: 'pair' })).toMatchObject({ focused: two });
    const own = await reachServer(s.socket);
    expect((await own.call('session/get', {})).focused).toBe(one);
    const bad = s.pane(['grant', 'new', '--context', 'no spaces']);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/a context is named by a word/);
    // Its times as the rest of the CLI says them, local and with what is left (they were UTC ISO: "… 18:40:25Z").
    const said = s.pane(['grant', 'new', '--for', '90m']);
    expect(said.stdout).toMatch(/^grant g[0-9a-f]{8} \(read-only\) of session \S+ until \d{4}-\d\d-\d\d \d\d:\d\d \(in 1h(29|30)m\)\n/);
    expect(s.pane(['grant', 'ls']).stdout).toMatch(/^g[0-9a-f]{8}\s+ro\s+\S+\s+\d{4}-\d\d-\d\d \d\d:\d\d \(in 1h(29|30)m\)/m);
    for (const x of [person, guest, own]) x.close();
  });
});
