import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_HOSTS } from '../../kits/protocol/limits';
import { sshArgv, sshExitArgv } from './hostArgv';
import { loadHosts } from './hostFiles';

const dirs: string[] = [];
function hostsDir(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-hosts-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('host files', () => {
  it('reads each good file and reports each bad one by file and field, keeping the rest', () => {
    const dir = hostsDir({
      'box.json': JSON.stringify({ how: { via: 'ssh', destination: 'ada@box.example', port: 2222 } }),
      'vm.json': JSON.stringify({ how: { via: 'command', argv: ['docker', 'exec', '-i', 'vm', 'pane', 'serve', '--stdio'] }, readOnly: true }),
      'bad.json': JSON.stringify({ how: { via: 'ssh', destination: '-oProxyCommand=evil' } }),
      'opt.json': JSON.stringify({ how: { via: 'ssh', destination: 'h', options: { ProxyCommand: 'sh -c evil' } } }),
      'junk.json': '{ not json',
      'other.json': JSON.stringify({ name: 'else', how: { via: 'command', argv: ['x'] } }),
    });
    const { hosts, errors } = loadHosts(dir);
    expect([...hosts.keys()].sort()).toEqual(['box', 'vm']);
    expect(hosts.get('vm')?.readOnly).toBe(true);
    const by = (f: string) => errors.filter((e) => e.file === path.join(dir, f));
    expect(by('bad.json')[0]?.field).toBe('how.destination');
    expect(by('opt.json')[0]?.field).toMatch(/^how\.options/);
    expect(by('opt.json')[0]?.message).toMatch(/IdentityFile/);
    expect(by('junk.json')[0]?.field).toBe('(json)');
    expect(by('other.json')[0]?.field).toBe('name');
  });

  it('reads at most MAX_HOSTS files and says so', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i <= MAX_HOSTS; i++) files[`h${String(i).padStart(3, '0')}.json`] = JSON.stringify({ how: { via: 'command', argv: ['true'] } });
    const { hosts, errors } = loadHosts(hostsDir(files));
    expect(hosts.size).toBe(MAX_HOSTS);
    expect(errors[0]?.message).toMatch(/MAX_HOSTS/);
  });

  it('runs the system ssh in batch mode with reuse, the destination after --', () => {
    const argv = sshArgv({ via: 'ssh', destination: 'ada@box', port: 2222, options: { IdentityFile: '/k' } }, '/run/pane/hosts-ssh');
    expect(argv[0]).toBe('ssh');
    expect(argv).toContain('BatchMode=yes');
    expect(argv.find((a) => a.startsWith('ControlPath='))).toMatch(/^ControlPath=\/run\/pane\/hosts-ssh\/[0-9a-f]{16}$/);
    expect(argv.slice(argv.indexOf('--'))).toEqual(['--', 'ada@box', 'pane', 'serve', '--stdio']);
  });

  it('gives two host files for one account but other keys or ssh_config their own master connection, and one reach the same', () => {
    const cp = (how: Parameters<typeof sshArgv>[0]) => sshArgv(how, '/run/pane/hosts-ssh').find((a) => a.startsWith('ControlPath='));
    const a = cp({ via: 'ssh', destination: 'ada@box', options: { IdentityFile: '/k1' } });
    expect(cp({ via: 'ssh', destination: 'ada@box', options: { IdentityFile: '/k2' } })).not.toBe(a);
    expect(cp({ via: 'ssh', destination: 'ada@box', configFile: '/c', options: { IdentityFile: '/k1' } })).not.toBe(a);
    expect(cp({ via: 'ssh', destination: 'ada@box', options: { IdentityFile: '/k1' }, pane: '/opt/pane' })).toBe(a);
    // And `ssh -O exit` names the same socket as the dial.
    expect(sshExitArgv({ via: 'ssh', destination: 'ada@box', options: { IdentityFile: '/k1' } }, '/run/pane/hosts-ssh')).toContain(a);
  });
});
