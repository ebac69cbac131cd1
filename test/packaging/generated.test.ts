// packaging/man/pane.1 and packaging/completions/* are generated from the CLI's
// command table; this keeps the committed files in step (`npm run docs` rewrites
// them) and checks that each one works in the program that reads it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bashCompletion, fishCompletion, zshCompletion } from '../../kits/node/cli/completions';
import { commandTable } from '../../kits/node/cli/main';
import { renderManPage } from '../../kits/node/cli/manPage';
import { paneVersion } from '../../kits/node/version';

const root = path.resolve(__dirname, '../..');
const table = commandTable({ serve: async () => 0, start: async () => 0 });

/** Every generated file: its path in the checkout and what the command table says it holds. */
export const GENERATED: Record<string, () => string> = {
  'packaging/man/pane.1': () => renderManPage(table, paneVersion(path.join(root, 'kits/node/version.ts'))),
  'packaging/completions/pane.bash': () => bashCompletion(table),
  'packaging/completions/_pane': () => zshCompletion(table),
  'packaging/completions/pane.fish': () => fishCompletion(table),
};

const has = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

describe('generated man page and completions', () => {
  for (const [rel, make] of Object.entries(GENERATED)) {
    it(`${rel} matches the command table (run \`npm run docs\` after changing a command)`, () => {
      const file = path.join(root, rel);
      const want = make();
      if (process.env.PANE_UPDATE_DOCS === '1') {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, want);
      }
      expect(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : `(missing ${rel})`).toBe(want);
    });
  }

  it.skipIf(!has('man'))('pane(1) renders without a warning and lists every command', () => {
    const r = spawnSync('man', ['--warnings', '-E', 'UTF-8', '-l', '-Tutf8', '-Z', path.join(root, 'packaging/man/pane.1')], { encoding: 'utf8', env: { ...process.env, MANWIDTH: '80' } });
    expect(r.stderr).toBe('');
    const text = spawnSync('man', ['-l', path.join(root, 'packaging/man/pane.1')], { encoding: 'utf8', env: { ...process.env, MANWIDTH: '100', MANPAGER: 'cat', PAGER: 'cat' } }).stdout.replace(/.\x08/g, '');
    for (const c of table) expect(text).toContain(`pane ${c.command}`);
  });

  /** What bash offers for `pane WORDS…` with the cursor after the last word. */
  function bashOffers(words: string[]): string[] {
    const line = ['pane', ...words];
    const script = `source ${JSON.stringify(path.join(root, 'packaging/completions/pane.bash'))}
COMP_WORDS=(${line.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${line.length - 1}; _pane; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = spawnSync('bash', ['--norc', '--noprofile', '-c', script], { encoding: 'utf8', cwd: root });
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter(Boolean);
  }

  it('bash completes commands, subcommands, flags and flag values', () => {
    expect(bashOffers(['se'])).toEqual(['send', 'session', 'serve', 'service']);
    expect(bashOffers(['session', ''])).toEqual(['new', 'ls', 'kill', 'attach', 'rename', 'save', 'restore']);
    expect(bashOffers(['split', '--d'])).toEqual(['--direction']);
    expect(bashOffers(['split', '-d', ''])).toEqual(['h', 'v', 'horizontal', 'vertical']);
    expect(bashOffers(['--socket', '/tmp/x', 'watch', 'lay'])).toEqual(['layout']);
    expect(bashOffers(['--v'])).toEqual(['--version']);
  });

  it.skipIf(!has('fish'))('fish loads the completions and offers the commands and a flag’s values', () => {
    const file = path.join(root, 'packaging/completions/pane.fish');
    const r = spawnSync('fish', ['--no-config', '-c', `source ${file}; complete -C 'pane sess'; complete -C 'pane split -d '`], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^session\tsession commands: new, ls/m);
    expect(r.stdout).toMatch(/^horizontal/m);
  });

  it.skipIf(!has('zsh'))('zsh parses the completion function', () => {
    const r = spawnSync('zsh', ['-n', path.join(root, 'packaging/completions/_pane')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
