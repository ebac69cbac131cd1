// Agent accounts and .access through the protocol, on a real server: lifecycle,
// bad .access files (fail closed, live), and refusals with a log line and an event.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PaneFault } from '../../kits/protocol/error';
import { agentHarness, type AgentHarness } from './helpers';

let h: AgentHarness;
beforeEach(async () => {
  h = await agentHarness();
});
afterEach(async () => {
  await h.close();
});

async function refusal(p: Promise<unknown>): Promise<PaneFault> {
  try {
    await p;
  } catch (e) {
    return e as PaneFault;
  }
  throw new Error('expected a refusal, but the request succeeded');
}

describe('agent accounts', () => {
  it('creates a home with .plan, .access, .project, Maildir and a 0600 token, lists it, and removes it keeping the home', async () => {
    const c = await h.connect();
    const info = await c.call('agent/add', { name: 'ada', project: '/src/shop', plan: 'hi\n' });
    expect(info).toMatchObject({ name: 'ada', account: true, project: '/src/shop', plan: 'hi\n', unread: 0, state: 'idle' });
    const home = info.home!;
    for (const f of ['.plan', '.access', '.project', 'Maildir/new', 'Maildir/cur', 'Maildir/tmp', 'log']) expect(fs.existsSync(path.join(home, f))).toBe(true);
    expect(fs.statSync(path.join(home, '.token')).mode & 0o777).toBe(0o600);
    expect((await c.call('agent/list', {})).agents.map((a) => a.name)).toEqual(['ada']);
    await expect(c.call('agent/add', { name: 'ada' })).rejects.toThrow(/already exists/);
    expect(await c.call('agent/remove', { name: 'ada' })).toEqual({ name: 'ada', home, kept: true });
    expect(fs.readFileSync(path.join(home, '.plan'), 'utf8')).toBe('hi\n');
    expect((await c.call('agent/list', {})).agents).toEqual([]);
    // Re-adding reuses the kept home: its plan survives.
    expect((await c.call('agent/add', { name: 'ada' })).plan).toBe('hi\n');
    await c.call('agent/remove', { name: 'ada', purge: true });
    expect(fs.existsSync(home)).toBe(false);
  });

  it('refuses bad names and names the rule', async () => {
    const c = await h.connect();
    await expect(c.call('agent/add', { name: 'Ada Lovelace' })).rejects.toThrow(/agent name is a lowercase letter/);
    await expect(c.call('agent/remove', { name: 'ghost' })).rejects.toThrow(/no agent named ghost/);
    // An agent named like the human would act as the human, unchecked.
    const human = h.running.server.user;
    if (/^[a-z][a-z0-9-]*$/.test(human)) {
      await expect(c.call('agent/add', { name: human })).rejects.toThrow(/human user's name/);
      await expect(c.call('pane/split', { kind: 'agent', attrs: { agent: human }, launch: { program: '/bin/cat', args: [] } })).rejects.toThrow(/human user's name/);
    }
  });

  it('rejects an --access that breaks the schema before creating anything', async () => {
    const c = await h.connect();
    await expect(c.call('agent/add', { name: 'ada', access: { panes: { write: ['everything'] } } as never })).rejects.toThrow(/access\.panes\.write\.0/);
    expect((await c.call('agent/list', {})).agents).toEqual([]);
  });
});

describe('.access enforcement', () => {
  it('lets an agent write its own pane and refuses another pane, with a typed error, a log line and an agent/denied event', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'ada' });
    const mine = await c.call('pane/split', { kind: 'agent', attrs: { agent: 'ada' }, launch: { program: '/bin/cat', args: [] } });
    const human = (await c.call('pane/list', {})).panes.find((p) => p.signature === 'com.pane.terminal')!;
    const ada = await h.as('ada');
    expect(ada.welcome?.user).toBe('ada');
    await ada.call('pane/input', { pane: mine.pane, data: 'hi\n' });
    const e = await refusal(ada.call('pane/close', { pane: human.n }));
    expect(e.code).toBe('denied');
    expect(e.message).toMatch(/agent ada may not write pane \d+ \(com\.pane\.terminal\) with pane\/close/);
    expect(fs.readFileSync(path.join(h.svc.store.home('ada'), 'log'), 'utf8')).toMatch(/denied pane\/close: write pane/);
    expect(h.events.some((x) => x.event === 'agent/denied' && x.data.name === 'ada' && x.data.method === 'pane/close')).toBe(true);
    // Reading any pane is allowed by default; stopping the server never is.
    await ada.call('pty/screen', { pane: human.n });
    expect((await refusal(ada.call('server/stop', {}))).code).toBe('denied');
  });

  it('holds namespace access to its globs: reads anywhere, writes only its own panes’ files (by number or through by-sig)', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'ada' });
    const mine = await c.call('pane/split', { kind: 'agent', attrs: { agent: 'ada' }, launch: { program: '/bin/cat', args: [] } });
    const human = (await c.call('pane/list', {})).panes.find((p) => p.signature === 'com.pane.terminal')!;
    const ada = await h.as('ada');
    await ada.call('ns/read', { path: `/${human.n}/tag` });
    const e = await refusal(ada.call('ns/write', { path: `/${human.n}/ctl`, data: 'close\n' }));
    expect(e.message).toMatch(new RegExp(`may not write /pane/${human.n}/ctl \\(\\.access namespace\\)`));
    await ada.call('ns/write', { path: `/${mine.pane}/attrs`, data: 'note=mine\n' });
    await ada.call('ns/write', { path: `/by-sig/com.pane.ai.agent.ada/${mine.pane}/attrs`, data: 'via=by-sig\n' });
    expect((await c.call('pane/get', { pane: mine.pane })).attrs).toMatchObject({ note: 'mine', via: 'by-sig' });
    expect((await c.call('pane/list', {})).panes.some((p) => p.n === human.n)).toBe(true);
  });

  it('owns the panes it creates, whatever owner it asks for', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'ada' });
    const ada = await h.as('ada');
    const made = await ada.call('pane/split', { launch: { program: '/bin/cat', args: [] }, owner: 'root' });
    expect((await c.call('pane/get', { pane: made.pane })).owner).toBe('ada');
    await ada.call('pane/close', { pane: made.pane });
  });

  it('ends its stream of a pane that moved out of the session its .access names (session:NAME), at the move, and of every pane of that session when it is renamed', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'ada' });
    fs.writeFileSync(path.join(h.svc.store.home('ada'), '.access'), JSON.stringify({ panes: { read: ['session:main', 'self'] } }));
    const human = (await c.call('pane/list', {})).panes.find((p) => p.signature === 'com.pane.terminal')!;
    await c.call('pane/split', { pane: human.n, launch: { program: '/bin/cat', args: [] } });
    await new Promise((r) => setTimeout(r, 600));
    const ada = await h.as('ada');
    let seen = '';
    ada.onOutput((pane, _o, data) => {
      if (pane === human.n) seen += Buffer.from(data).toString();
    });
    await ada.call('pty/attach', { pane: human.n, mode: 'from' });
    await c.call('pane/input', { pane: human.n, data: 'echo SHOWN-$((6*7))\n' });
    for (const end = Date.now() + 5_000; !seen.includes('SHOWN-42') && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
    expect(seen).toContain('SHOWN-42');
    await c.call('pane/move', { pane: human.n, newSession: true, name: 'private' });
    expect(h.events.some((x) => x.event === 'client/detached' && x.data.pane === human.n && String(x.data.name).includes('ada'))).toBe(true);
    expect(h.events.some((x) => x.event === 'agent/denied' && x.data.name === 'ada' && x.data.method === 'pty/attach')).toBe(true);
    seen = '';
    await c.call('pane/input', { pane: human.n, data: 'echo HIDDEN-$((6*7))\n' });
    await new Promise((r) => setTimeout(r, 400));
    expect(seen).not.toContain('HIDDEN-42');
    expect((await refusal(ada.call('pty/screen', { pane: human.n }))).code).toBe('denied');
    // The session renamed: session:main covers none of it any more, and its stream of the pane left there ends too.
    const away = (await c.call('pane/get', { pane: human.n })).session;
    const cat = (await c.call('pane/list', {})).panes.find((p) => p.n !== human.n && p.session !== away)!;
    await ada.call('pty/attach', { pane: cat.n, mode: 'from' });
    await c.call('session/rename', { session: cat.session, name: 'elsewhere' });
    expect(h.events.some((x) => x.event === 'client/detached' && x.data.pane === cat.n && String(x.data.name).includes('ada'))).toBe(true);
  });

  it('follows edits of .access live, and refuses everything while the file is invalid', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'ada' });
    const file = path.join(h.svc.store.home('ada'), '.access');
    const ada = await h.as('ada');
    await ada.call('pane/list', {});
    fs.writeFileSync(file, JSON.stringify({ panes: { read: ['self'] } }));
    await new Promise((r) => setTimeout(r, 600));
    expect((await refusal(ada.call('pane/list', {}))).message).toMatch(/list every pane/);
    fs.writeFileSync(file, '{ "panes": { "read": ["*"], }');
    await new Promise((r) => setTimeout(r, 600));
    expect((await refusal(ada.call('pane/list', {}))).message).toMatch(/its \.access is invalid \(\(json\): not valid JSON/);
    const report = await c.call('agent/access', { name: 'ada' });
    expect(report.errors[0]).toMatch(/not valid JSON/);
    expect(report.summary[0]).toMatch(/INVALID/);
    // An agent can still report hooks and read its own mail with a broken .access.
    await ada.call('agent/hook', { input: { hook_event_name: 'Stop', session_id: 's1' } });
    await ada.call('agent/inbox', {});
    fs.writeFileSync(file, '{}');
    await new Promise((r) => setTimeout(r, 600));
    await ada.call('pane/list', {});
  });

  it('limits commands and capabilities by .access', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'ro', access: { capabilities: ['read'], commands: { allow: ['pane/*', 'pty/*'], deny: ['pane/input'] } } });
    const ro = await h.as('ro');
    await ro.call('pane/list', {});
    expect((await refusal(ro.call('session/list', {}))).message).toMatch(/may not call session\/list/);
    const any = (await c.call('pane/list', {})).panes[0]!;
    expect((await refusal(ro.call('pane/tag', { pane: any.n, name: 'x' }))).message).toMatch(/use the write capability/);
    expect((await refusal(ro.call('pane/input', { pane: any.n, data: 'x' }))).message).toMatch(/may not call pane\/input/);
  });

  it('refuses a token that no longer belongs to an agent', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'ada' });
    const token = h.svc.store.token('ada');
    await c.call('agent/remove', { name: 'ada' });
    h.svc.store.token = () => token; // what a stale $PANE_TOKEN would send
    await expect(h.as('ada')).rejects.toThrow(/agent token is not valid/);
  });

  it('lets an agent set only its own plan and read only its own mail', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'ada' });
    await c.call('agent/add', { name: 'bob' });
    const ada = await h.as('ada');
    expect(await ada.call('agent/plan', { text: 'mine\n' })).toEqual({ name: 'ada', plan: 'mine\n' });
    expect((await refusal(ada.call('agent/plan', { name: 'bob', text: 'x' }))).code).toBe('denied');
    expect((await refusal(ada.call('agent/inbox', { name: 'bob' }))).code).toBe('denied');
    await c.call('agent/plan', { name: 'bob', text: 'set by the human\n' });
    expect((await c.call('agent/get', { name: 'bob' })).plan).toBe('set by the human\n');
  });
});
