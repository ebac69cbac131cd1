// The config service against a real server: keymap.json and app files are read,
// watched live, and a bad file is reported by file and field while the previous
// keymap stays in force.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../../kits/client/connection';
import type { KeymapState } from '../../kits/protocol/keymap';
import { harness, until, type Harness } from '../../test/server/harness';
import { attachConfig } from './configService';

let h: Harness;
let c: Connection;
let cfg: string;
const keymaps: KeymapState[] = [];

beforeAll(async () => {
  h = await harness();
  cfg = path.join(h.dir, 'config');
  fs.mkdirSync(cfg);
  attachConfig(h.running.services, { configDir: cfg, appsDir: path.resolve(__dirname, '../../apps') });
  c = await h.connect();
  c.events.on('keymap/changed', (k) => void keymaps.push(k));
  await c.call('events/subscribe', { families: ['config'] });
});
afterAll(async () => {
  await h.close();
});

const write = (name: string, body: unknown) => fs.writeFileSync(path.join(cfg, name), typeof body === 'string' ? body : JSON.stringify(body));

describe('keymap', () => {
  it('answers the defaults when there is no keymap.json', async () => {
    const k = await c.call('keymap/get', {});
    expect(k.sources).toEqual([]);
    expect(k.errors).toEqual([]);
    expect(k.bindings).toContainEqual({ chord: 'Ctrl+Shift+P', action: 'palette.open' });
  });

  it('applies a saved keymap.json live and announces it', async () => {
    write('keymap.json', { bindings: { 'Alt+Shift+N': 'pane.new' } });
    const k = await until('keymap/changed', () => keymaps.find((x) => x.bindings.some((b) => b.chord === 'Alt+Shift+N')));
    expect(k.errors).toEqual([]);
    expect(k.sources).toEqual([path.join(cfg, 'keymap.json')]);
  });

  it('reports a bad file by file and field and keeps the previous keymap', async () => {
    keymaps.length = 0;
    write('keymap.json', { bindings: { 'Ctrl+Shfit+E': 'pane.new' } });
    const k = await until('an error', () => keymaps.find((x) => x.errors.length > 0));
    expect(k.errors[0]).toMatchObject({ file: path.join(cfg, 'keymap.json'), field: 'bindings["Ctrl+Shfit+E"]' });
    expect(k.bindings).toContainEqual({ chord: 'Alt+Shift+N', action: 'pane.new' });
    expect((await c.call('keymap/get', {})).errors).toHaveLength(1);
  });

  it('goes back to the defaults when the file is deleted', async () => {
    keymaps.length = 0;
    fs.rmSync(path.join(cfg, 'keymap.json'));
    const k = await until('defaults', () => keymaps.find((x) => x.sources.length === 0));
    expect(k.errors).toEqual([]);
    expect(k.bindings.some((b) => b.chord === 'Alt+Shift+N')).toBe(false);
  });
});

describe('settings', () => {
  it('answers the defaults, with emoji and CJK fallback fonts, when there is no settings.json', async () => {
    const s = await c.call('settings/get', {});
    expect(s).toMatchObject({ sources: [], errors: [], settings: { fontSize: 13, theme: 'dark' } });
    expect(s.settings.fontFamily).toMatch(/Noto Color Emoji.*Noto Sans Mono CJK/);
  });

  it('applies a saved settings.json live, and names a bad field while the previous settings stay', async () => {
    const seen: { fontSize: number; errors: number }[] = [];
    c.events.on('settings/changed', (x) => void seen.push({ fontSize: x.settings.fontSize, errors: x.errors.length }));
    write('settings.json', { fontFamily: 'Hack', fontSize: 16, theme: 'light' });
    await until('settings/changed', () => seen.find((x) => x.fontSize === 16));
    const good = await c.call('settings/get', {});
    expect(good.settings).toMatchObject({ fontSize: 16, theme: 'light' });
    expect(good.settings.fontFamily).toMatch(/^Hack, "Noto Color Emoji"/);
    write('settings.json', { fontSize: 'huge', colors: { background: 'red' } });
    const bad = await until('an error', async () => {
      const x = await c.call('settings/get', {});
      return x.errors.length > 0 ? x : undefined;
    });
    expect(bad.errors.map((e) => e.field).sort()).toEqual(['colors.background', 'fontSize']);
    expect(bad.errors[0]!.file).toBe(path.join(cfg, 'settings.json'));
    expect(bad.settings.fontSize).toBe(16);
    fs.rmSync(path.join(cfg, 'settings.json'));
  });
});

describe('apps', () => {
  it('lists the built-in terminal app', async () => {
    const r = await c.call('apps/list', {});
    expect(r.apps.find((a) => a.id === 'terminal')).toMatchObject({ signature: 'com.pane.terminal', source: 'builtin' });
  });

  it('picks up a dropped user app file, and reports a bad one by field', async () => {
    fs.mkdirSync(path.join(cfg, 'apps'));
    write('apps/htop.json', { name: 'htop', signature: 'org.example.htop', launch: { program: 'htop', args: [] } });
    write('apps/bad.json', { name: 'bad', signature: 'no dots' });
    const r = await until('apps', async () => {
      const l = await c.call('apps/list', {});
      return l.apps.some((a) => a.id === 'htop') ? l : undefined;
    });
    expect(r.apps.find((a) => a.id === 'htop')?.source).toBe('user');
    expect(r.errors).toContainEqual(expect.objectContaining({ file: path.join(cfg, 'apps', 'bad.json'), field: 'signature' }));
  });

  it('launches an app beside the given pane with its signature and name', async () => {
    const before = await c.call('pane/list', {});
    const first = before.panes[0]!.n;
    const ack = await c.call('apps/launch', { app: 'terminal', pane: first, direction: 'vertical' });
    const p = await c.call('pane/get', { pane: ack.pane });
    expect(p).toMatchObject({ signature: 'com.pane.terminal', tag: expect.objectContaining({ name: 'Terminal' }) });
    expect(p.attrs.app).toBe('terminal');
  });

  it('names the apps it knows when asked for one it does not', async () => {
    await expect(c.call('apps/launch', { app: 'nope' })).rejects.toThrow(/no app "nope" \(known: .*terminal/);
  });
});
