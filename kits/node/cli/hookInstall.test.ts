import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../../../test/tempDirs';
import { installMcp } from '../mcp/install';
import { commandHook, hasHttpHooks, HOOK_EVENTS, httpHook, installHooks, isPaneHook, uninstallHooks } from './hookInstall';

const tmp = tempDirs('pane-hookinst-');

describe('pane hook install / uninstall', () => {
  it('adds pane to every event without touching the hooks and keys already there, once', () => {
    const d = tmp();
    const file = path.join(d, '.claude', 'settings.json');
    fs.mkdirSync(path.dirname(file));
    const mine = { matcher: 'Bash', hooks: [{ type: 'command', command: './check.sh' }] };
    fs.writeFileSync(file, JSON.stringify({ model: 'opus', hooks: { PreToolUse: [mine] } }));
    expect(installHooks(file, 'pane hook')).toEqual([...HOOK_EVENTS]);
    expect(installHooks(file, 'pane hook')).toEqual([]);
    const s = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(s.model).toBe('opus');
    expect(s.hooks.PreToolUse[0]).toEqual(mine);
    expect(s.hooks.PreToolUse).toHaveLength(2);
    expect(Object.keys(s.hooks).sort()).toEqual([...HOOK_EVENTS].sort());
  });

  it('removes only its own entries', () => {
    const d = tmp();
    const file = path.join(d, 'settings.json');
    const theirs = { hooks: [{ type: 'command', command: 'notify-send done' }] };
    fs.writeFileSync(file, JSON.stringify({ hooks: { Stop: [theirs] } }));
    installHooks(file, '"/usr/bin/node" "/opt/pane/dist/pane.mjs" hook');
    expect(uninstallHooks(file).sort()).toEqual([...HOOK_EVENTS].sort());
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ hooks: { Stop: [theirs] } });
  });

  it('leaves a file that is not JSON alone and says so', () => {
    const file = path.join(tmp(), 'settings.json');
    fs.writeFileSync(file, '{ broken');
    expect(() => installHooks(file, 'pane hook')).toThrow(/not valid JSON.*will not overwrite/);
    expect(fs.readFileSync(file, 'utf8')).toBe('{ broken');
  });

  it('recognises pane hook commands and nothing else', () => {
    expect(['pane hook', '"/x/node" "/y/pane.mjs" hook', '/usr/local/bin/pane hook'].every(isPaneHook)).toBe(true);
    expect(['mypane hook', 'pane hooks', 'pane hook --x', undefined].some(isPaneHook)).toBe(false);
  });
});

describe('pane mcp install', () => {
  it('merges a pane server into .mcp.json, keeping the servers already there', () => {
    const d = tmp();
    fs.writeFileSync(path.join(d, '.mcp.json'), JSON.stringify({ mcpServers: { db: { command: 'db-mcp' } }, extra: 1 }));
    expect(installMcp(d)).toMatch(/added/);
    expect(installMcp(d)).toMatch(/already has/);
    expect(JSON.parse(fs.readFileSync(path.join(d, '.mcp.json'), 'utf8'))).toEqual({ mcpServers: { db: { command: 'db-mcp' }, pane: { command: 'pane', args: ['mcp'] } }, extra: 1 });
  });

  it('creates .mcp.json when there is none and refuses to rewrite a broken one', () => {
    const d = tmp();
    installMcp(d);
    expect(JSON.parse(fs.readFileSync(path.join(d, '.mcp.json'), 'utf8')).mcpServers.pane.args).toEqual(['mcp']);
    fs.writeFileSync(path.join(d, '.mcp.json'), '[1,');
    expect(() => installMcp(d)).toThrow(/not valid JSON/);
  });

  it('writes HTTP hooks that send the agent’s token from allowed env vars, replaces command hooks with them and back, and removes them', () => {
    const d = tmp();
    const file = path.join(d, 'settings.json');
    const theirs = { hooks: [{ type: 'http', url: 'http://127.0.0.1:9/x', headers: { A: '$B' }, allowedEnvVars: ['B'] }] };
    fs.writeFileSync(file, JSON.stringify({ hooks: { Stop: [theirs] } }));
    expect(installHooks(file, 'pane hook')).toEqual([...HOOK_EVENTS]);
    const spec = httpHook('http://127.0.0.1:23456/hook');
    expect(installHooks(file, spec)).toEqual([...HOOK_EVENTS]);
    const s = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(s.hooks.Stop).toEqual([theirs, { hooks: [spec] }]);
    expect(s.hooks.PreToolUse).toEqual([{ matcher: '*', hooks: [spec] }]);
    expect(spec.headers!.Authorization).toBe('Bearer $PANE_TOKEN');
    for (const v of Object.values(spec.headers!)) expect(spec.allowedEnvVars).toContain(/\$(\w+)/.exec(v)![1]);
    expect(installHooks(file, spec)).toEqual([]);
    expect(installHooks(file, commandHook('pane hook'))).toEqual([...HOOK_EVENTS]);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).hooks.Stop).toEqual([theirs, { hooks: [commandHook('pane hook')] }]);
    installHooks(file, spec);
    expect(uninstallHooks(file).sort()).toEqual([...HOOK_EVENTS].sort());
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ hooks: { Stop: [theirs] } });
  });

  it('chooses HTTP hooks from Claude Code 2.1.63 on', () => {
    expect([null, [2, 1, 62], [2, 0, 99], [1, 9, 9]].map((v) => hasHttpHooks(v))).toEqual([false, false, false, false]);
    expect([[2, 1, 63], [2, 1, 100], [2, 2, 0], [3, 0, 0]].map((v) => hasHttpHooks(v))).toEqual([true, true, true, true]);
  });
});
