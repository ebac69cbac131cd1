import { describe, expect, it } from 'vitest';
import { AccessSchema } from '../../kits/protocol/agent';
import { hookRelay, keepTerminal } from '../../kits/node/cli/commands/sandbox';
import { runtimeDir, stateDir } from '../../kits/node/paths';
import { sandboxSettings, unwrapSandbox } from './sandbox';
import { typable, type AgentService } from './service';
import { LAUNCHER, LAUNCHER_NAME, launcherArgs } from '../../kits/node/sandboxHelper';

// The parts of a service the settings read: where homes, data and the socket are.
const svc = {
  options: { dataDir: '/h/.local/share/pane' },
  store: { home: (n: string) => `/h/.local/share/pane/agents/${n}` },
  server: { env: { HOME: '/h' }, socketPath: '/run/user/1/pane/pane.sock' },
  deps: { persistDir: () => '/srv/state/pane' },
} as unknown as AgentService;

describe('sandbox settings from .access', () => {
  it('lets it write its project, home and extra paths, never its account files, and hides state, socket and secrets', () => {
    const access = AccessSchema.parse({ sandbox: { write: ['~/.npm'], network: ['example.org'] } });
    const s = sandboxSettings(svc, 'ada', access, '/src/shop');
    expect(s.filesystem.allowWrite).toEqual(['/src/shop', '/h/.local/share/pane/agents/ada', '/h/.npm']);
    expect(s.filesystem.denyWrite).toContain('/h/.local/share/pane/agents/ada/.access');
    expect(s.filesystem.denyRead).toEqual(expect.arrayContaining(['/h/.local/share/pane', '/run/user/1/pane/pane.sock', '/h/.ssh', '/srv/state/pane', stateDir(), runtimeDir(false)]));
    expect(s.filesystem.denyWrite).toContain('/h/.local/share/pane/agents/ada/hook.sock');
    expect(s.filesystem.allowRead[0]).toBe('/h/.local/share/pane/agents/ada');
    expect(s.network.allowedDomains).toEqual(['example.org']);
  });

  it('does not make the person’s home or / writable because an agent was started there', () => {
    const access = AccessSchema.parse({});
    expect(sandboxSettings(svc, 'ada', access, '/h').filesystem.allowWrite).toEqual(['/h/.local/share/pane/agents/ada']);
    expect(sandboxSettings(svc, 'ada', access, '/').filesystem.allowWrite).toEqual(['/h/.local/share/pane/agents/ada']);
  });
});

describe('what reaches a terminal', () => {
  it('keeps the pane as the sandboxed program’s terminal (no bubblewrap --new-session)', () => {
    expect(keepTerminal("bwrap --new-session --die-with-parent -- bash -c 'x'")).toBe("bwrap --die-with-parent -- bash -c 'x'");
    expect(keepTerminal("/usr/bin/bwrap --new-session -- x")).toBe('/usr/bin/bwrap -- x');
  });

  it('starts the hook relay in a session of its own, only for a plain PORT:SOCKET', () => {
    expect(hookRelay('41457:/h/agents/ada/hook.sock')).toMatch(/^setsid socat TCP4-LISTEN:41457,bind=127\.0\.0\.1,fork,[^ ]* UNIX-CONNECT:\/h\/agents\/ada\/hook\.sock .*&\n.*A1F1:0A/);
    for (const bad of [undefined, '', 'x:/a', '0:/a', '70000:/a', '1:relative', '1:/a,b', "1:/a b", '1:/a:b']) expect(hookRelay(bad)).toBe('');
  });

  it('types text without control bytes: line ends become spaces, ^C, ESC and C1 go', () => {
    expect(typable('one\r\ntwo\rthree\x03\x1b[2J\x9bX\tend')).toBe('one two three[2JX end');
  });
});

describe('a launch brought back from a snapshot', () => {
  it('is unwrapped to the program it sandboxed, so walls are never nested', () => {
    const wrapped = { program: '/usr/bin/node', args: ['/opt/pane/dist/pane.mjs', 'sandbox', '--settings', '{}', '--', 'claude', '--settings', 'x.json'], env: { PANE_AGENT_TMPDIR: '/h/tmp', PANE_HOOK_RELAY: '4:/h/hook.sock', FOO: '1' } };
    expect(unwrapSandbox(wrapped)).toEqual({ program: 'claude', args: ['--settings', 'x.json'], env: { FOO: '1' } });
  });

  it('is unwrapped from the helper’s launcher too (the form every sandboxed pane runs now)', () => {
    const access = AccessSchema.parse({});
    const req = { argv: ['claude', '--settings', 'x.json'], settings: sandboxSettings(svc, 'ada', access, '/src/shop'), cwd: '/src/shop', tmp: '/h/tmp' };
    const launched = { program: '/bin/sh', args: launcherArgs('/run/user/1/pane/sandbox-helper-9.sock', req), env: { FOO: '1' }, cwd: '/src/shop' };
    expect(unwrapSandbox(launched)).toEqual({ program: 'claude', args: ['--settings', 'x.json'], env: { FOO: '1' }, cwd: '/src/shop' });
    // A launcher whose request is not one (edited in a saved file) is left as it is: no program is made up from it.
    const bad = { program: '/bin/sh', args: ['-c', LAUNCHER, LAUNCHER_NAME, '/s', '{"argv":[]}'] };
    expect(unwrapSandbox(bad)).toBe(bad);
  });

  it('leaves any other launch as it is', () => {
    const plain = { program: 'bash', args: ['-l'] };
    expect(unwrapSandbox(plain)).toBe(plain);
  });
});
