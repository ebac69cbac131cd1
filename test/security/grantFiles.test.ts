// /server/grants through the real daemon's socket: the person issues a grant by
// writing to it and reads the token back through the same handle alone (any other
// read lists grants without a token), revokes by writing, and is told by name what
// a bad line is; a guest and a default agent cannot read the file at all.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reachServer } from '../../kits/node/cli/reach';
import { buildOnce, cleanEnv, serve, type Served } from '../cli/harness';

let s: Served;
const text = (r: { data: string; encoding: string }) => Buffer.from(r.data, r.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8');

describe('/server/grants', () => {
  beforeAll(async () => {
    buildOnce();
    s = await serve();
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('issues through a handle that alone reads the token back, lists without tokens, revokes, and names a bad line', async () => {
    const c = await reachServer(s.socket);
    const { fid } = await c.call('ns/open', { path: '/server/grants', mode: 'rw' });
    await c.call('ns/write', { path: '/server/grants', fid, data: 'new rw session main for 10m name for bob\n' });
    const issued = JSON.parse(text(await c.call('ns/read', { path: '/server/grants', fid, offset: 0, count: 4096 }))) as { id: string; token: string; mode: string; session: { name: string } };
    expect(issued).toMatchObject({ mode: 'rw', session: { name: 'main' } });
    expect(issued.token.length).toBeGreaterThan(20);
    // Any other read lists it without the token.
    const listed = s.pane(['cat', '/server/grants']).stdout;
    expect(listed).toContain(`"id":"${issued.id}"`);
    expect(listed).toContain('"note":"for bob"');
    expect(listed).not.toContain(issued.token);
    // The token lets a guest in; the guest reads no /server/grants.
    const guest = s.pane(['cat', '/server/grants'], { env: cleanEnv({ PANE_GRANT: issued.token }) });
    expect(guest.status).not.toBe(0);
    expect(guest.stderr).toMatch(/shows session main's panes alone/);
    // Bad lines are named, and nothing is issued by them.
    for (const [line, why] of [
      ['new xx', /"xx" is not ro, rw, session NAME, context NAME, for DURATION or name LABEL/],
      ['new for 9d', /for: 9d is outside 1s\.\.7d/],
      ['new session nope', /nope/],
      ['grant everything', /takes "new \[ro\|rw\]/],
    ] as const) {
      const r = s.pane(['write', '/server/grants', line]);
      expect(r.status, line).not.toBe(0);
      expect(r.stderr, line).toMatch(why);
    }
    expect(s.pane(['cat', '/server/grants']).stdout.trim().split('\n')).toHaveLength(1);
    expect(s.pane(['write', '/server/grants', `revoke ${issued.id}`]).status).toBe(0);
    expect(s.pane(['cat', '/server/grants']).stdout).toBe('');
    c.close();
  });

  it('an agent reads it only as its .access allows grant/list (by default, not at all)', () => {
    expect(s.pane(['agent', 'add', 'ada']).status).toBe(0);
    const token = fs.readFileSync(path.join(s.dir, '.local/share/pane/agents/ada/.token'), 'utf8').trim();
    const r = s.pane(['cat', '/server/grants'], { env: cleanEnv({ PANE_AGENT: 'ada', PANE_TOKEN: token }) });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/denied: .*grant\/list/);
  });
});
