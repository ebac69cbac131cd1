// The principal table (kits/protocol/authority.ts): every method has a row, and the
// dispatcher applies it to every principal whatever door it came through. Walked
// method by method for the person, an agent (even one whose .access grants admin),
// a read-only client and a joined host; then through real connections of the
// server for the rows that matter most. docs/authority.md is generated from it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, checkResults } from '../../kits/client/index';
import { memoryPair } from '../../kits/client/memoryTransport';
import { AUTHORITY } from '../../kits/protocol/authority';
import { PaneFault } from '../../kits/protocol/error';
import { methods, type MethodName } from '../../kits/protocol/index';
import type { Capability } from '../../kits/protocol/method';
import type { Principal } from '../../kits/protocol/principal';
import { refuseByPrincipal } from '../../server/handlers/registry';
import type { HandlerContext } from '../../server/handlers/types';
import { ClientConn } from '../../server/transport/clientConn';
import { agentHarness, type AgentHarness } from '../agents/helpers';

const ALL: Capability[] = ['read', 'write', 'attach', 'admin'];
const names = Object.keys(methods).filter((m) => m !== 'hello') as Exclude<MethodName, 'hello'>[];

/** What refuseByPrincipal says for `method` asked by `who` with `caps`: null when the table lets it through. */
function verdict(method: Exclude<MethodName, 'hello'>, who: Principal, caps: Capability[]): string | null {
  const ctx = { client: { principal: who, readOnly: !caps.includes('write') && !caps.includes('admin') } } as unknown as HandlerContext;
  try {
    refuseByPrincipal(method, ctx);
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(PaneFault);
    expect((e as PaneFault).code).toBe('denied');
    return (e as PaneFault).message;
  }
}

/** docs/authority.md: the table in words, one row per method. */
export function renderAuthorityDoc(): string {
  const agent = { access: 'by its .access', self: 'only for itself', never: 'never' } as const;
  const rows = names.map((m) => {
    const r = AUTHORITY[m];
    return `| \`${m}\` | ${methods[m].cap} | yes | ${agent[r.agent]} | ${r.readOnly ? 'yes' : 'no'} | ${r.host ? 'yes' : 'no'} | ${r.guest ? (r.readOnly ? 'yes' : 'read-write only') : 'no'} |`;
  });
  return [
    '# Who may call what',
    '',
    'Generated from `kits/protocol/authority.ts` by `npm run docs`; the dispatcher applies it to every request on every door',
    '(server/handlers/registry.ts, `refuseByPrincipal`), after the capability check. See docs/security.md for the doors.',
    '',
    '| method | capability | the person | an agent | a read-only client | a joined host | a grant\'s guest |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

describe('the principal table', () => {
  it('has one row for every method of the protocol, and no row for a method that is not one', () => {
    expect(Object.keys(AUTHORITY).sort()).toEqual([...names].sort());
  });

  it('is applied to every method for every principal', () => {
    for (const m of names) {
      const row = AUTHORITY[m];
      expect(verdict(m, { kind: 'person' }, ALL), m).toBeNull();
      const asAgent = verdict(m, { kind: 'agent', name: 'ada' }, ALL);
      if (row.agent === 'never') expect(asAgent, m).toMatch(new RegExp(`^refused: agent ada may not call ${m}: .*whatever an \\.access grants`));
      else expect(asAgent, m).toBeNull();
      const ro = verdict(m, { kind: 'person' }, ['read', 'attach']);
      if (row.readOnly) expect(ro, m).toBeNull();
      else expect(ro, m).toMatch(/^refused: the person may not call .*(read-only)/);
      const host = verdict(m, { kind: 'host', name: 'box' }, ALL);
      if (row.host) expect(host, m).toBeNull();
      else expect(host, m).toMatch(new RegExp(`^refused: host box may not call ${m}: a joined host shows its own panes`));
      // A read-write grant: the guest column; a read-only grant: the guest and the read-only columns both.
      const rw = verdict(m, { kind: 'grant', id: 'g00000001', mode: 'rw', session: 's' }, ['read', 'write', 'attach']);
      if (row.guest) expect(rw, m).toBeNull();
      else expect(rw, m).toMatch(new RegExp(`^refused: grant g00000001 \\(read-write\\) may not call ${m}: `));
      const roGrant = verdict(m, { kind: 'grant', id: 'g00000002', mode: 'ro', session: 's' }, ['read', 'attach']);
      if (row.guest && row.readOnly) expect(roGrant, m).toBeNull();
      else expect(roGrant, m).toMatch(new RegExp(`^refused: grant g00000002 \\(read-only\\) may not call ${m}: `));
    }
  });

  it('lets a grant\'s guest do nothing the person alone may, nor start a program, nor read mail', () => {
    for (const m of names) if (AUTHORITY[m].agent === 'never') expect(AUTHORITY[m].guest, m).toBe(false);
    for (const m of ['pane/split', 'pane/launch', 'apps/launch', 'agent/launch', 'float/create', 'pane/restart', 'agent/inbox', 'awareness/messages', 'ns/write', 'session/viewport', 'pty/resize', 'server/stop', 'host/connect'] as const) expect(AUTHORITY[m].guest, m).toBe(false);
  });

  it('keeps mail and messages from read-only clients, and the person’s own doors from agents', () => {
    for (const m of ['agent/inbox', 'awareness/inbox', 'awareness/messages'] as const) expect(AUTHORITY[m].readOnly).toBe(false);
    for (const m of ['stdio/adopt', 'server/launch-url', 'client/permission'] as const) expect(AUTHORITY[m].agent).toBe('never');
  });

  it('is what docs/authority.md says (run `npm run docs` after changing it)', () => {
    const file = path.resolve(__dirname, '../../docs/authority.md');
    const want = renderAuthorityDoc();
    if (process.env.PANE_UPDATE_DOCS === '1') fs.writeFileSync(file, want);
    expect(fs.readFileSync(file, 'utf8')).toBe(want);
  });
});

describe('the principal table through real connections', () => {
  let h: AgentHarness;
  beforeAll(async () => {
    h = await agentHarness({ shell: '/bin/cat' });
    const c = await h.connect();
    await c.call('agent/add', { name: 'ada', access: { capabilities: ['read', 'write', 'attach', 'admin'] } });
    await c.call('agent/add', { name: 'bob' });
    await c.call('agent/mail', { to: 'bob', subject: 'private', body: 'for bob only' });
  }, 60_000);
  afterAll(async () => h?.close());

  /** A client of the server whose door decided `grant`. */
  async function door(grant: { capabilities: Capability[]; principal?: Principal }): Promise<Connection> {
    const [a, b] = memoryPair();
    new ClientConn(h.running.services, b, (hello) => ({ capabilities: hello.capabilities.filter((x) => grant.capabilities.includes(x)), ...(grant.principal ? { principal: grant.principal } : {}) }));
    const c = new Connection(a, { checkResult: checkResults });
    await c.hello({ client: { name: 'probe', kind: 'test' }, capabilities: ALL });
    return c;
  }

  it('refuses an agent whose .access grants admin the person’s own doors, naming the rule', async () => {
    const ada = await h.as('ada');
    for (const m of ['server/launch-url', 'client/permission', 'stdio/adopt'] as const) {
      const e = (await ada.call(m, {} as never).catch((x: Error) => x)) as Error;
      expect(e.message, m).toMatch(new RegExp(`refused: agent ada may not call ${m}`));
    }
    // Logged once a spell: asked again, the refusal is said to the caller but not written again.
    await ada.call('server/launch-url', {} as never).catch(() => undefined);
    const logged = h.events.filter((e) => e.event === 'client/refused' && String(e.data.reason).includes('may not call server/launch-url'));
    expect(logged).toHaveLength(1);
    expect(String(logged[0]!.data.reason)).toMatch(/^refused: agent ada may not call server\/launch-url: it mints a window token/);
    // A row the agent may use still goes to its .access: pane/list with panes.read * is fine.
    expect((await ada.call('pane/list', {})).panes.length).toBeGreaterThan(0);
  });

  it('shows a read-only client screens and events, not mail or messages', async () => {
    const ro = await door({ capabilities: ['read', 'attach'] });
    expect((await ro.call('pane/list', {})).panes.length).toBeGreaterThan(0);
    for (const [m, p] of [['agent/inbox', { name: 'bob' }], ['awareness/inbox', { agent: 'bob' }], ['awareness/messages', {}]] as const) {
      const e = (await ro.call(m, p as never).catch((x: Error) => x)) as Error;
      expect(e.message, m).toMatch(/read-only client sees screens and events, not mail or messages/);
    }
    // Its event stream carries no mail: a mail sent while it listens does not reach it.
    const seen: string[] = [];
    ro.onEvent((event, _rev, data) => seen.push(`${event} ${JSON.stringify(data)}`));
    await ro.call('events/subscribe', {});
    const c = await h.connect();
    await c.call('agent/mail', { to: 'bob', subject: 'second', body: 'SECRET-BODY' });
    await c.call('pane/tag', { user: 'after-the-letter' });
    const deadline = Date.now() + 5_000;
    while (!seen.some((s) => s.includes('after-the-letter')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(seen.some((s) => s.includes('after-the-letter'))).toBe(true);
    expect(seen.filter((s) => /SECRET-BODY|second|agent\/mail|mail/.test(s))).toEqual([]);
  });

  it('lets a joined host cause nothing here', async () => {
    const host = await door({ capabilities: ALL, principal: { kind: 'host', name: 'box' } });
    for (const m of ['pane/list', 'pane/input', 'pane/exec', 'ns/read'] as const) {
      const e = (await host.call(m, {} as never).catch((x: Error) => x)) as Error;
      expect(e.message, m).toMatch(new RegExp(`refused: host box may not call ${m}`));
    }
  });
});
