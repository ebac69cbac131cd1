// Attach grants through the real daemon and its real socket: `pane grant` issues a
// token, a client that says hello with it is that grant's guest — read-only sees
// screens and no mail, read-write types but starts nothing — and a grant that is
// revoked or expires closes its guests and lets no one in again.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reachServer } from '../../kits/node/cli/reach';
import type { Connection } from '../../kits/client/index';
import { buildOnce, cleanEnv, serve, type Served } from '../cli/harness';

let s: Served;
const asGuest = (token: string, args: string[]) => s.pane(args, { env: cleanEnv({ PANE_GRANT: token }) });
const grant = (args: string[] = []) => {
  const r = s.pane(['grant', 'new', '--json', ...args]);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as { id: string; token: string; mode: string; expiresAt: number };
};
/** Why the server closed `c`: the error frame it sent first (its reason in words). */
const closed = (c: Connection) => new Promise<string>((res) => c.onError((e) => res(e.message)));

describe('attach grants', () => {
  beforeAll(async () => {
    buildOnce();
    s = await serve();
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('a read-only grant sees panes and screens, and types, splits, mails and grants nothing', async () => {
    const g = grant(['--note', 'for bob']);
    expect(g.mode).toBe('ro');
    expect(asGuest(g.token, ['ls']).stdout).toMatch(/^ *1 /m);
    for (const [args, why] of [
      [['send', '-t', '1', 'echo hi'], /needs the write capability/],
      [['split', '-t', '1'], /needs the write capability/],
      [['grant', 'new'], /needs the admin capability/],
      [['agent', 'add', 'ada'], /needs the admin capability/],
    ] as const) {
      const r = asGuest(g.token, [...args]);
      expect(r.status, args.join(' ')).not.toBe(0);
      expect(r.stderr, args.join(' ')).toMatch(why);
    }
    // It is listed with its use and note; its token is not in the state file, only its hash.
    const ls = s.pane(['grant', 'ls']).stdout;
    expect(ls).toMatch(new RegExp(`${g.id} +ro .* for bob`));
    const file = fs.readFileSync(path.join(s.dir, '.local/state/pane/grants.json'), 'utf8');
    expect(file).toContain(g.id);
    expect(file).not.toContain(g.token);
    expect(fs.statSync(path.join(s.dir, '.local/state/pane/grants.json')).mode & 0o077).toBe(0);
  });

  it('a read-write grant types into panes, and starts no program, reshapes nothing, runs no line of its own', async () => {
    const g = grant(['--rw', '--for', '10m']);
    expect(g.mode).toBe('rw');
    const marker = path.join(s.dir, 'typed-by-guest');
    expect(asGuest(g.token, ['send', '-t', '1', `touch ${marker}`]).status).toBe(0);
    const deadline = Date.now() + 10_000;
    while (!fs.existsSync(marker) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(fs.existsSync(marker)).toBe(true);
    // Its typing is in /pane/log under the grant's name (once a connection and pane, not per key).
    const typed = s.pane(['cat', '/log']).stdout.split('\n').filter((l) => / typed /.test(l));
    expect(typed.length, s.pane(['cat', '/log']).stdout).toBe(1);
    expect(typed[0]).toContain(`grant_${g.id}_(read-write)`); // a log field holds no space
    for (const [args, why] of [
      [['split', '-t', '1'], /refused: grant g[0-9a-f]{8} \(read-write\) may not call pane\/launch|may not call pane\/split/],
      [['exec', '-t', '1', '--shell', 'touch /tmp/nope'], /refused: grant g[0-9a-f]{8} \(read-write\) may not run a line in a shell here/],
      [['grant', 'ls'], /needs the admin capability/],
      [['stop'], /may not call server\/stop|needs the admin capability/],
    ] as const) {
      const r = asGuest(g.token, [...args]);
      expect(r.status, args.join(' ')).not.toBe(0);
      expect(r.stderr, args.join(' ')).toMatch(why);
    }
    expect(s.pane(['ls']).stdout.trim().split('\n').length).toBe(2); // the header and pane 1: nothing was split
    // `pane clients` names the guest's principal.
    const c = await reachServer(s.socket, { grant: g.token });
    expect(c.welcome?.grant).toEqual({ id: g.id, mode: 'rw', expiresAt: g.expiresAt, session: (g as unknown as { session: { id: string } }).session.id });
    expect(s.pane(['clients', '--json']).stdout).toContain(`grant ${g.id} (read-write)`);
    c.close();
  });

  it('revoking a grant closes its guests now and lets no one in again', async () => {
    const g = grant();
    const c = await reachServer(s.socket, { grant: g.token });
    const gone = closed(c);
    expect(s.pane(['grant', 'revoke', g.id]).stdout).toMatch(new RegExp(`revoked ${g.id}; closed 1 guest`));
    expect(await gone).toMatch(/revoked/);
    const again = asGuest(g.token, ['ls']);
    expect(again.status).not.toBe(0);
    expect(again.stderr).toMatch(/no such grant: it was revoked, it expired, or the token is mistyped/);
    expect(s.pane(['cat', '/log']).stdout).toMatch(new RegExp(`^- grant ${g.id} revoked \\(1 closed\\)$`, 'm'));
  });

  it('an expired grant closes its guest at its end, and is refused after', async () => {
    const g = grant(['--for', '2s']);
    const c = await reachServer(s.socket, { grant: g.token });
    const why = await Promise.race([closed(c), new Promise<string>((r) => setTimeout(() => r('still open'), 6_000))]);
    expect(why).toMatch(/expired/);
    expect(asGuest(g.token, ['ls']).stderr).toMatch(/no such grant|expired/);
  });

  it('refuses a made-up token, a grant with an agent’s token, and bad durations, naming each; no guest hears of mail', async () => {
    expect(asGuest('A'.repeat(32), ['ls']).stderr).toMatch(/no such grant/);
    const g = grant();
    expect(s.pane(['agent', 'add', 'ada']).status).toBe(0);
    const token = fs.readFileSync(path.join(s.dir, '.local/share/pane/agents/ada/.token'), 'utf8').trim();
    const both = s.pane(['ls'], { env: cleanEnv({ PANE_GRANT: g.token, PANE_TOKEN: token }) });
    expect(both.status).not.toBe(0);
    expect(both.stderr).toMatch(/a hello carries an agent’s token or a grant, not both/);
    // Neither guest hears of mail, nor of agents at all: subscribed to every event, it hears its session's panes alone.
    const guests = await Promise.all([g.token, grant(['--rw']).token].map((t) => reachServer(s.socket, { grant: t })));
    const heard: string[][] = [[], []];
    await Promise.all(guests.map(async (c, i) => {
      for (const e of ['agent/mailed', 'agent/changed'] as const) c.events.on(e, () => heard[i]!.push(e));
      await c.call('events/subscribe', {});
    }));
    expect(s.pane(['mail', '-s', 'SECRET-SUBJECT', 'ada'], { input: 'the body\n' }).status).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    for (const h of heard) expect(h).not.toContain('agent/mailed');
    for (const h of heard) expect(h).not.toContain('agent/changed');
    for (const c of guests) c.close();
    for (const d of ['0s', '9d', 'soon']) {
      const r = s.pane(['grant', 'new', '--for', d]);
      expect(r.status, d).toBe(2);
      expect(r.stderr).toMatch(/--for: /);
    }
  });
});
