// An agent's home as its CLI's home, on a real server: the person's login file for its
// CLI copied in at launch (only as the .access allows, never over a fresher copy of the
// agent's), its CLI's hooks merged into its settings there, HOME set to it; and the
// server, which writes these as the person, never writes through a link the agent planted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { attachConfig } from '../../server/config/configService';
import { buildOnce } from '../cli/harness';
import { waitForOutput } from '../server/harness';
import { agentHarness, type AgentHarness } from './helpers';

let h: AgentHarness;
let person: string;
const gemini = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../apps/gemini.json'), 'utf8')) as { agent: Record<string, unknown> };
const creds = '{"access_token":"person-token","refresh_token":"r"}';

beforeAll(() => buildOnce(), 120_000);
beforeEach(async () => {
  person = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-person-'));
  fs.mkdirSync(path.join(person, '.gemini'));
  fs.writeFileSync(path.join(person, '.gemini', 'oauth_creds.json'), creds, { mode: 0o600 });
  fs.writeFileSync(path.join(person, '.gemini', 'settings.json'), '{"person":true}');
  h = await agentHarness({ env: { PATH: process.env.PATH!, HOME: person, LANG: 'C.UTF-8' } });
  const apps = path.join(h.dir, 'apps');
  fs.mkdirSync(apps);
  // Gemini's agent block (dialect, login files), with a program that shows what it was given.
  fs.writeFileSync(path.join(apps, 'gem.json'), JSON.stringify({ name: 'Gem', signature: 'com.x.gem', kind: 'agent', launch: { program: '/bin/sh', args: ['-c', 'echo "home=$HOME"; exec cat'] }, agent: gemini.agent }));
  attachConfig(h.running.services, { configDir: path.join(h.dir, 'config'), appsDir: apps });
});
afterEach(async () => {
  await h.close();
  fs.rmSync(person, { recursive: true, force: true });
});

describe('an agent’s home as its CLI’s home', () => {
  it('runs with HOME at its home, gets a 0600 copy of the person’s login and its hooks there, and keeps its own fresher copy', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'gem' });
    const home = h.svc.store.home('gem');
    const r = await c.call('agent/launch', { name: 'gem', app: 'gem' });
    await waitForOutput(c, r.pane, new RegExp(`home=${home}`));
    const copy = path.join(home, '.gemini', 'oauth_creds.json');
    expect(fs.readFileSync(copy, 'utf8')).toBe(creds);
    expect(fs.statSync(copy).mode & 0o777).toBe(0o600);
    const settings = JSON.parse(fs.readFileSync(path.join(home, '.gemini', 'settings.json'), 'utf8'));
    expect(settings.hooks.BeforeAgent[0].hooks[0]).toMatchObject({ name: 'pane', env: { PANE_AGENT: 'gem' } });
    // The person's own files are untouched.
    expect(fs.readFileSync(path.join(person, '.gemini', 'settings.json'), 'utf8')).toBe('{"person":true}');
    // Its CLI refreshed its login: a later launch keeps it.
    fs.writeFileSync(copy, '{"access_token":"agent-refreshed"}');
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(copy, later, later);
    await c.call('pane/close', { pane: r.pane });
    await c.call('agent/launch', { name: 'gem', app: 'gem' });
    expect(fs.readFileSync(copy, 'utf8')).toBe('{"access_token":"agent-refreshed"}');
  });

  it('copies nothing of the person’s where its .access says credentials: none', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'gem', access: { sandbox: { credentials: 'none' } } });
    await c.call('agent/launch', { name: 'gem', app: 'gem' });
    expect(fs.existsSync(path.join(h.svc.store.home('gem'), '.gemini', 'oauth_creds.json'))).toBe(false);
  });

  it('never writes through a link the agent planted: not its settings dir, not its settings file, not its login copy', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'gem' });
    const home = h.svc.store.home('gem');
    // 1. ~/.gemini a link to the person's ~/.gemini: pane would write its hooks into the person's settings.
    fs.symlinkSync(path.join(person, '.gemini'), path.join(home, '.gemini'));
    const r = await c.call('agent/launch', { name: 'gem', app: 'gem' });
    await waitForOutput(c, r.pane, /home=/);
    expect(fs.readFileSync(path.join(person, '.gemini', 'settings.json'), 'utf8')).toBe('{"person":true}');
    expect(fs.readFileSync(path.join(person, '.gemini', 'oauth_creds.json'), 'utf8')).toBe(creds);
    expect(fs.readdirSync(path.join(person, '.gemini')).sort()).toEqual(['oauth_creds.json', 'settings.json']);
    expect(fs.readFileSync(path.join(home, 'log'), 'utf8')).toMatch(/refused .*\.gemini: it is a symbolic link/);
    await c.call('pane/close', { pane: r.pane });
    // 2. The files themselves links to files of the person's: replaced by the agent's own, the person's unchanged.
    fs.unlinkSync(path.join(home, '.gemini'));
    fs.mkdirSync(path.join(home, '.gemini'));
    const bashrc = path.join(person, '.bashrc');
    fs.writeFileSync(bashrc, 'echo person\n');
    fs.symlinkSync(bashrc, path.join(home, '.gemini', 'oauth_creds.json'));
    fs.symlinkSync(path.join(person, '.gemini', 'settings.json'), path.join(home, '.gemini', 'settings.json'));
    await c.call('agent/launch', { name: 'gem', app: 'gem' });
    expect(fs.readFileSync(bashrc, 'utf8')).toBe('echo person\n');
    expect(fs.readFileSync(path.join(person, '.gemini', 'settings.json'), 'utf8')).toBe('{"person":true}');
    expect(fs.lstatSync(path.join(home, '.gemini', 'oauth_creds.json')).isFile()).toBe(true);
    expect(fs.readFileSync(path.join(home, '.gemini', 'oauth_creds.json'), 'utf8')).toBe(creds);
  });
});
