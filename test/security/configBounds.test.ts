// Attack class: config files too large or too many. At f0f52cf nothing bounded the
// number of key bindings, the length of an argv or of its elements, the app files
// of a directory, or a config file's size, and a FIFO put where keymap.json goes
// blocked the server's main loop. Now each is a named bound in kits/protocol/limits.ts
// (the schemas use them), reported by file and field; the server goes on serving.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../../kits/client/connection';
import type { PaneFault } from '../../kits/protocol/fault';
import { MAX_ACTION_LENGTH, MAX_APPS_PER_DIR, MAX_ARG_LENGTH, MAX_ARGS, MAX_CHORD_LENGTH, MAX_CONFIG_FILE_BYTES, MAX_ENV_ENTRIES, MAX_KEY_BINDINGS } from '../../kits/protocol/limits';
import { attachConfig } from '../../server/config/configService';
import { harness, type Harness } from '../server/harness';

let h: Harness;
let c: Connection;
let cfg: string;
let apps: string;
beforeAll(async () => {
  h = await harness({ shell: '/bin/cat' });
  cfg = path.join(h.dir, 'config');
  apps = path.join(cfg, 'apps');
  fs.mkdirSync(apps, { recursive: true });
  attachConfig(h.running.services, { configDir: cfg, appsDir: null });
  c = await h.connect();
});
afterAll(() => h?.close());

const keymapErrors = async (want: RegExp) => {
  await expect.poll(async () => (await c.call('keymap/get', {})).errors.map((e) => `${e.field}: ${e.message}`).join('\n'), { timeout: 10_000 }).toMatch(want);
  return (await c.call('keymap/get', {})).errors;
};
const appErrors = async (want: RegExp) => {
  await expect.poll(async () => (await c.call('apps/list', {})).errors.map((e) => `${path.basename(e.file)} ${e.field}: ${e.message}`).join('\n'), { timeout: 10_000 }).toMatch(want);
};
const app = (name: string, launch: object) => JSON.stringify({ name, signature: `org.example.${name}`, launch });

describe('config files within their bounds', () => {
  it(`reports a keymap past MAX_KEY_BINDINGS (${MAX_KEY_BINDINGS}), a chord past MAX_CHORD_LENGTH and an action past MAX_ACTION_LENGTH by file and field, keeping the keymap in force`, async () => {
    const bindings: Record<string, string> = {};
    for (let i = 0; i < MAX_KEY_BINDINGS + 1; i++) bindings[`Ctrl+Alt+${String.fromCharCode(97 + (i % 26))}${i}`] = 'pane.new';
    fs.writeFileSync(path.join(cfg, 'keymap.json'), JSON.stringify({ bindings }));
    const errors = await keymapErrors(new RegExp(`^bindings: at most ${MAX_KEY_BINDINGS} bindings \\(MAX_KEY_BINDINGS\\); this has ${MAX_KEY_BINDINGS + 1}$`, 'm'));
    expect(errors[0]!.file).toBe(path.join(cfg, 'keymap.json'));
    fs.writeFileSync(path.join(cfg, 'keymap.json'), JSON.stringify({ bindings: { [`Ctrl+${'x'.repeat(MAX_CHORD_LENGTH)}`]: 'pane.new' }, prefixBindings: { a: `exec ${'x'.repeat(MAX_ACTION_LENGTH)}` } }));
    await keymapErrors(new RegExp(`a key of at most ${MAX_CHORD_LENGTH} characters \\(MAX_CHORD_LENGTH\\)[\\s\\S]*prefixBindings\\.a: an action of at most ${MAX_ACTION_LENGTH} characters \\(MAX_ACTION_LENGTH\\)`));
    // The defaults stay in force.
    expect((await c.call('keymap/get', {})).bindings).toContainEqual({ chord: 'Ctrl+Shift+P', action: 'palette.open' });
    fs.rmSync(path.join(cfg, 'keymap.json'));
  });

  it(`reports a config file past MAX_CONFIG_FILE_BYTES (${MAX_CONFIG_FILE_BYTES}) without parsing it, and a FIFO as keymap.json without blocking`, async () => {
    fs.writeFileSync(path.join(cfg, 'keymap.json'), `{"bindings":{}, "x": "${'y'.repeat(MAX_CONFIG_FILE_BYTES)}"}`);
    await keymapErrors(/^\(file\): \d+ bytes, over the 1048576-byte limit for a config file \(MAX_CONFIG_FILE_BYTES\); make it smaller$/m);
    fs.rmSync(path.join(cfg, 'keymap.json'));
    expect(spawnSync('mkfifo', [path.join(cfg, 'keymap.json')]).status).toBe(0);
    await keymapErrors(/^\(file\): not a regular file/m);
    const t0 = Date.now();
    expect((await c.call('session/list', {})).sessions.length).toBeGreaterThan(0);
    expect(Date.now() - t0).toBeLessThan(2000);
    fs.rmSync(path.join(cfg, 'keymap.json'));
  });

  it(`reports an app file whose argv passes MAX_ARGS (${MAX_ARGS}) or MAX_ARG_LENGTH (${MAX_ARG_LENGTH}), or whose env passes MAX_ENV_ENTRIES, and lists the rest`, async () => {
    fs.writeFileSync(path.join(apps, 'ok.json'), app('ok', { program: '/bin/true', args: [] }));
    fs.writeFileSync(path.join(apps, 'many.json'), app('many', { program: '/bin/true', args: Array.from({ length: MAX_ARGS + 1 }, () => 'a') }));
    fs.writeFileSync(path.join(apps, 'long.json'), app('long', { program: '/bin/true', args: ['a', 'x'.repeat(MAX_ARG_LENGTH + 1)] }));
    fs.writeFileSync(path.join(apps, 'env.json'), app('env', { program: '/bin/true', args: [], env: Object.fromEntries(Array.from({ length: MAX_ENV_ENTRIES + 1 }, (_, i) => [`V${i}`, '1'])) }));
    await appErrors(/env\.json launch\.env: at most 256 environment entries \(MAX_ENV_ENTRIES\); this has 257/);
    await appErrors(/long\.json launch\.args\[1\]: at most 16384 characters \(MAX_ARG_LENGTH\); this is 16385/);
    await appErrors(/many\.json launch\.args: at most 1024 arguments \(MAX_ARGS\); this has 1025/);
    expect((await c.call('apps/list', {})).apps.map((a) => a.id)).toEqual(['ok']);
    for (const f of fs.readdirSync(apps)) fs.rmSync(path.join(apps, f));
  });

  it(`reads at most MAX_APPS_PER_DIR (${MAX_APPS_PER_DIR}) app files from a directory and says so`, async () => {
    for (let i = 0; i < MAX_APPS_PER_DIR + 10; i++) fs.writeFileSync(path.join(apps, `a${String(i).padStart(4, '0')}.json`), app(`a${i}`, { program: '/bin/true', args: [] }));
    await appErrors(new RegExp(`apps \\(directory\\): ${MAX_APPS_PER_DIR + 10} app files, over the ${MAX_APPS_PER_DIR} one directory may hold \\(MAX_APPS_PER_DIR\\); only the first ${MAX_APPS_PER_DIR} by name are read: remove some`));
    expect((await c.call('apps/list', {})).apps.length).toBe(MAX_APPS_PER_DIR);
    for (const f of fs.readdirSync(apps)) fs.rmSync(path.join(apps, f));
  });

  it('refuses a pane/split whose argv passes MAX_ARGS with bad-request naming the field', async () => {
    const e = await c.call('pane/split', { launch: { program: '/bin/true', args: Array.from({ length: MAX_ARGS + 1 }, () => 'a') } }).then(
      () => null,
      (x: PaneFault) => x,
    );
    expect(e?.code).toBe('bad-request');
    expect(e?.message).toMatch(/launch\.args.*at most 1024 arguments \(MAX_ARGS\)/);
  });

  it('names every bound of kits/protocol/limits.ts in docs/security.md', async () => {
    const doc = fs.readFileSync(path.join(__dirname, '../../docs/security.md'), 'utf8');
    const limits = await import('../../kits/protocol/limits');
    const named = Object.entries(limits).filter(([k, v]) => /^MAX_[A-Z0-9_]+$/.test(k) && typeof v === 'number').map(([k]) => k);
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((k) => !doc.includes(`\`${k}\``))).toEqual([]);
  });
});
