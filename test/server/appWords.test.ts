// Words an app file adds to its panes, through a real server and real PTYs: they
// join the vocabulary (tag, /pane/N/commands, pane/exec) when the app launches a
// pane, type into it or run a program beside it as whoever runs them, take an
// argument as data only, change live with the file, and never shadow pane's own.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachConfig } from '../../server/config/configService';
import type { Connection } from '../../kits/client/connection';
import { vocabularyRevision } from '../../kits/protocol/vocabRevision';
import { harness, until, waitForOutput, type Harness } from './harness';

let h: Harness;
let c: Connection;
let dir: string;
const app = {
  name: 'Echo box',
  signature: 'org.example.echobox',
  launch: { program: '/bin/cat', args: [] },
  commands: [
    { name: 'say', doc: 'type a greeting', args: [{ name: 'who', type: 'text' }], input: 'hello {who}', inTag: true },
    { name: 'show', doc: 'print a name beside the pane', args: [{ name: 'what', type: 'string' }], run: { program: '/bin/echo', args: ['shown:', '{what}'] } },
    { name: 'close', doc: 'not allowed: pane has its own', input: 'x' },
  ],
};

beforeAll(async () => {
  h = await harness();
  c = await h.connect();
  dir = path.join(h.dir, 'config');
  fs.mkdirSync(path.join(dir, 'apps'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'apps', 'echobox.json'), JSON.stringify(app));
  attachConfig(h.running.services, { configDir: dir });
});
afterAll(async () => {
  await h.close();
});

describe('app words', () => {
  it('join the vocabulary of the app’s panes, in the tag when asked, and never shadow pane’s own (said by file and field)', async () => {
    const list = await c.call('apps/list', {});
    expect(list.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'commands.2.name', message: expect.stringMatching(/"close" is a word of pane's own/) })]));
    const { pane } = await c.call('apps/launch', { app: 'echobox' });
    const p = await c.call('pane/get', { pane });
    expect(p.vocabulary.map((w) => w.name)).toEqual(expect.arrayContaining(['say', 'show', 'close']));
    expect(p.vocabulary.filter((w) => w.name === 'close')).toHaveLength(1);
    expect(p.vocabulary.find((w) => w.name === 'close')!.action).toBeUndefined();
    expect(p.tag.commands).toContain('say');
    const listed = (await c.call('ns/read', { path: `/${pane}/commands`, count: 1 << 16 })).data;
    expect(listed).toMatch(/^say\b.*type a greeting/m);
  });

  it('type into the pane (input) and run a program beside it (run) as whoever runs them; an argument is data', async () => {
    const { pane } = await c.call('apps/launch', { app: 'echobox' });
    await c.call('pane/exec', { pane, line: 'say the world' });
    await waitForOutput(c, pane, /hello the world/);
    const r = await c.call('pane/exec', { pane, line: 'show README' });
    expect(r.done).toBe(true);
    const panes = (await c.call('pane/list', {})).panes.filter((q) => q.tag.name === 'show');
    expect(panes.length).toBeGreaterThan(0);
    await waitForOutput(c, panes.at(-1)!.n, /shown: README/);
    const dash = await c.call('pane/exec', { pane, line: 'show -rf' }).catch((e: Error) => e.message);
    expect(dash).toMatch(/argument what is "-rf", which starts with "-" and would be read as an option; it is refused/);
    // A read-only client runs none of them.
    const ro = await h.connect(['read']);
    const refused = await ro.call('pane/exec', { pane, line: 'say x' }).catch((e: Error) => e.message);
    expect(refused).toMatch(/needs the write capability/);
  });

  it('change live with the file: a new word appears, and a click at the old revision runs nothing', async () => {
    const { pane } = await c.call('apps/launch', { app: 'echobox' });
    const before = vocabularyRevision((await c.call('pane/get', { pane })).vocabulary);
    fs.writeFileSync(path.join(dir, 'apps', 'echobox.json'), JSON.stringify({ ...app, commands: [...app.commands.slice(0, 2), { name: 'bye', doc: 'type bye', input: 'bye' }] }));
    const after = await until('the new word in the pane’s vocabulary', async () => {
      const v = (await c.call('pane/get', { pane })).vocabulary;
      return v.some((w) => w.name === 'bye') ? v : null;
    });
    expect(vocabularyRevision(after)).not.toBe(before);
    const stale = await c.call('pane/exec', { pane, line: 'say x', vocabulary: before }).catch((e: Error) => e.message);
    expect(stale).toMatch(/changed since they were shown/);
    await c.call('pane/exec', { pane, line: 'bye', vocabulary: vocabularyRevision(after) });
    await waitForOutput(c, pane, /bye/);
  });
});
