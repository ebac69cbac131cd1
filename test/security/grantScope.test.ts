// A grant shows one session (issue 36): through the real daemon and its real socket,
// a guest of session `work` sees work's panes and nothing beyond them — not the
// person's other session, not its panes by number or by namespace path, not the
// agents, the hosts, the grants or the other clients — and hears no event about
// them. Its defaults (the focused pane, the first session) are its session's, the
// pane a person types `pane grant new` in names the session shared, and when the
// session ends the grant and its guests end with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reachServer } from '../../kits/node/cli/reach';
import type { Connection } from '../../kits/client/index';
import { buildOnce, cleanEnv, serve, type Served } from '../cli/harness';

let s: Served;
type Issued = { id: string; token: string; session: { id: string; name: string } };
const grant = (args: string[], env?: Record<string, string>): Issued => {
  const r = s.pane(['grant', 'new', '--json', ...args], env ? { env: cleanEnv(env) } : {});
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as Issued;
};
const asGuest = (token: string, args: string[]) => s.pane(args, { env: cleanEnv({ PANE_GRANT: token }) });
const closed = (c: Connection) => new Promise<string>((res) => c.onError((e) => res(e.message)));
/** The pane numbers `pane ls --json` lists for whoever runs it. */
const numbers = (out: string) => (JSON.parse(out) as { n: number }[]).map((p) => p.n).sort((a, b) => a - b);

describe('a grant shows its session alone', () => {
  let mine: number; // pane 1, in the first session (the person's)
  let work: number; // the pane of session "work", shared
  beforeAll(async () => {
    buildOnce();
    s = await serve();
    mine = 1;
    expect(s.pane(['session', 'new', 'work']).status).toBe(0);
    work = numbers(s.pane(['ls', '--json']).stdout).find((n) => n !== mine)!;
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('lists, reads and types within its session, and is refused every pane, file and listing beyond it, by name', async () => {
    const g = grant(['--session', 'work', '--rw', '--name', 'for bob']);
    expect(g.session.name).toBe('work');
    expect(numbers(asGuest(g.token, ['ls', '--json']).stdout)).toEqual([work]);
    expect(asGuest(g.token, ['session', 'ls']).stdout).not.toMatch(/^ *main|0 /m);
    expect(asGuest(g.token, ['session', 'ls']).stdout).toMatch(/work/);
    // Its own pane: screen, namespace file, typing.
    expect(asGuest(g.token, ['screen', '-t', String(work)]).status).toBe(0);
    expect(asGuest(g.token, ['cat', `/${work}/tag`]).status).toBe(0);
    expect(asGuest(g.token, ['send', '-t', String(work), 'echo guest-was-here']).status).toBe(0);
    // The person's pane, by number, by address, by namespace path, by session: refused, naming the session it shows.
    for (const args of [
      ['screen', '-t', String(mine)],
      ['send', '-t', String(mine), 'touch /tmp/never'],
      ['output', '-t', String(mine), '--from', '0'],
      ['cat', `/${mine}/tag`],
      ['cat', `/by-session/main/${mine}/tag`],
      ['cat', '/log'],
      ['cat', '/server/panes'],
      ['ls', '--session', 'main'],
      ['agent', 'ls'],
      ['host', 'ls'],
    ]) {
      const r = asGuest(g.token, args);
      expect(r.status, args.join(' ')).not.toBe(0);
      expect(r.stderr, args.join(' ')).toMatch(/may not call [a-z/]+: it shows session work's panes alone|refused: grant .* may not call/);
    }
    // It waits on its session's panes alone.
    expect(asGuest(g.token, ['wait', '-t', String(work), '--quiet', '200ms']).stdout).toBe('quiet for 0.2 s\n');
    const peek = asGuest(g.token, ['wait', '-t', String(mine), '--exit', '--timeout', '1s']);
    expect(peek.status).not.toBe(0);
    expect(peek.stderr).toMatch(/may not call pane\/wait: it shows session work's panes alone/);
    // finger lists no agent to a guest, and does not tell it to add one.
    expect(asGuest(g.token, ['finger']).stdout.trim()).toBe('No agents here for a guest: an attach grant shows one session’s panes, not its agents.');
    // The focused pane a request leaves to its default is the session's, not the first session's.
    const c = await reachServer(s.socket, { grant: g.token });
    expect((await c.call('pty/grid', { rows: 1 })).pane).toBe(work);
    expect((await c.call('session/get', {})).name).toBe('work');
    // Its fellow clients: its own grant's alone.
    expect((await c.call('client/list', {})).clients.every((x) => x.user === `grant ${g.id}`)).toBe(true);
    // Binary keys into the person's pane are refused as JSON ones are.
    await expect(c.call('pty/attach', { pane: mine })).rejects.toThrow(/shows session work's panes alone/);
    c.close();
  });

  it('its snapshot and its events hold its session alone', async () => {
    const g = grant(['--session', 'work']);
    const c = await reachServer(s.socket, { grant: g.token });
    const heard: string[] = [];
    c.onEvent((event, _rev, data) => heard.push(`${event} ${JSON.stringify(data)}`));
    const snap = await c.call('events/subscribe', {});
    expect(snap.sessions.map((x) => x.name)).toEqual(['work']);
    expect(snap.panes.map((p) => p.n)).toEqual([work]);
    // The person splits their own session and renames a tag there; then one in work.
    expect(s.pane(['split', '-t', String(mine)]).status).toBe(0);
    expect(s.pane(['tag', '-t', String(mine), '--user', 'SECRET-TAG']).status).toBe(0);
    expect(s.pane(['split', '-t', String(work)]).status).toBe(0);
    const deadline = Date.now() + 5_000;
    while (!heard.some((h) => h.startsWith('pane/created')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    const created = heard.filter((h) => h.startsWith('pane/created'));
    expect(created).toHaveLength(1);
    expect(created[0]).toContain(`"session":"${g.session.id}"`);
    expect(heard.join('\n')).not.toContain('SECRET-TAG');
    expect(heard.filter((h) => /^(agent|host|grant|client|awareness)\//.test(h))).toEqual([]);
    c.close();
  });

  it('a pane moved out of its session leaves its guests at once: its stream and files end, it is heard as closed, and no request reaches it; one moved in is theirs', async () => {
    const g = grant(['--session', 'work', '--rw']);
    const before = numbers(s.pane(['ls', '--json', '--session', 'work']).stdout);
    expect(s.pane(['split', '-t', String(work), '--', 'sh']).status).toBe(0);
    const leaving = numbers(s.pane(['ls', '--json', '--session', 'work']).stdout).find((n) => !before.includes(n))!;
    const c = await reachServer(s.socket, { grant: g.token });
    const heard: string[] = [];
    c.onEvent((event, _rev, data) => heard.push(`${event} ${JSON.stringify(data)}`));
    await c.call('events/subscribe', {});
    let seen = '';
    c.onOutput((pane, _offset, data) => {
      if (pane === leaving) seen += Buffer.from(data).toString();
    });
    await c.call('pty/attach', { pane: leaving, mode: 'from' });
    const file = await c.call('ns/open', { path: `/${leaving}/body` });
    // While shared, the guest sees what it prints.
    expect(s.pane(['send', '-t', String(leaving), 'echo SHARED-$((6*7))']).status).toBe(0);
    for (const end = Date.now() + 5_000; !seen.includes('SHARED-42') && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
    expect(seen).toContain('SHARED-42');

    // The person moves it into their own session.
    const moved = s.pane(['move', '-t', String(leaving), 'main']);
    expect(moved.status, moved.stderr).toBe(0);
    for (const end = Date.now() + 5_000; !heard.some((h) => h.startsWith(`pane/closed {"pane":${leaving},`)) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
    expect(heard.filter((h) => h.startsWith('pane/closed')).map((h) => JSON.parse(h.slice(h.indexOf(' ') + 1)))).toEqual([{ pane: leaving, session: g.session.id, id: expect.stringMatching(new RegExp(`:${leaving}$`)) }]);
    // Nothing it prints there reaches the guest, by its stream or its open file; no event names the session it went to.
    seen = '';
    expect(s.pane(['send', '-t', String(leaving), 'echo PRIVATE-$((6*7))']).status).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(s.pane(['screen', '-t', String(leaving)]).stdout).toContain('PRIVATE-42');
    expect(seen).not.toContain('PRIVATE-42');
    await expect(c.call('ns/read', { path: `/${leaving}/body`, fid: file.fid })).rejects.toThrow();
    expect(heard.join('\n')).not.toContain('PRIVATE-42');
    const mainId = (JSON.parse(s.pane(['session', 'ls', '--json']).stdout) as { id: string; name: string }[]).find((x) => x.name === 'main')!.id;
    expect(heard.join('\n')).not.toContain(mainId);
    for (const call of [() => c.call('pty/attach', { pane: leaving }), () => c.call('pty/screen', { pane: leaving }), () => c.call('ns/open', { path: `/${leaving}/body` })]) {
      await expect(call()).rejects.toThrow(/shows session work's panes alone/);
    }
    expect(asGuest(g.token, ['send', '-t', String(leaving), 'touch /tmp/never']).stderr).toMatch(/shows session work's panes alone/);

    // Moved back in: the guest hears of it and may read it again.
    heard.length = 0;
    expect(s.pane(['move', '-t', String(leaving), 'work']).status).toBe(0);
    for (const end = Date.now() + 5_000; !heard.some((h) => h.startsWith('pane/changed')) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
    expect(heard.find((h) => h.startsWith('pane/changed'))).toContain(`"session":"${g.session.id}"`);
    expect((await c.call('pty/screen', { pane: leaving })).pane).toBe(leaving);
    expect(s.pane(['close', '-t', String(leaving)]).status).toBe(0);
    c.close();
  });

  it('typed inside a pane, pane grant new shares that pane’s session; the grant ends with its session', async () => {
    expect(s.pane(['session', 'new', 'brief']).status).toBe(0);
    const brief = numbers(s.pane(['ls', '--json', '--session', 'brief']).stdout)[0]!;
    const g = grant([], { PANE_ID: String(brief), PANE_SOCKET: s.socket });
    expect(g.session.name).toBe('brief');
    expect(s.pane(['grant', 'ls']).stdout).toMatch(new RegExp(`${g.id} +ro +brief `));
    const c = await reachServer(s.socket, { grant: g.token });
    const gone = closed(c);
    expect(s.pane(['session', 'kill', 'brief']).status).toBe(0);
    expect(await gone).toMatch(/session brief, which grant g[0-9a-f]{8} showed, has ended/);
    expect(asGuest(g.token, ['ls']).stderr).toMatch(/no such grant/);
    expect(s.pane(['grant', 'ls']).stdout).not.toContain(g.id);
  });

  it('takes the issue’s spelling: pane grant --session S --read-only --expires D --name L is pane grant new', () => {
    const r = s.pane(['grant', '--session', 'work', '--read-only', '--expires', '10m', '--name', 'for carol', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const g = JSON.parse(r.stdout) as Issued & { mode: string };
    expect(g).toMatchObject({ mode: 'ro', session: { name: 'work' } });
    expect(s.pane(['grant', 'ls']).stdout).toMatch(new RegExp(`${g.id} +ro +work .*for carol`));
    const both = s.pane(['grant', 'new', '--for', '1h', '--expires', '2h']);
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/--for and --expires say the same/);
  });

  it('names a session that does not exist, and a metrics grant takes none', () => {
    const r = s.pane(['grant', 'new', '--session', 'nope']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/nope/);
    const m = s.pane(['grant', 'new', '--metrics', '--session', 'work']);
    expect(m.status).toBe(2);
    expect(m.stderr).toMatch(/a metrics grant shows no session/);
  });
});
