import { describe, expect, it } from 'vitest';
import { interactiveShell } from './paneTracker';

// Which launches are a shell waiting at its prompt (a pane that is idle when the shell holds
// the terminal) and which are a shell given work (busy while its own group holds it).
describe('interactiveShell', () => {
  it.each([
    [['/bin/bash']],
    [['bash', '-l']],
    [['-zsh']],
    [['bash', '--login', '-i']],
    [['bash', '--rcfile', '/tmp/rc', '-l']],
    [['bash', '-o', 'vi']],
    [['fish', '-C', 'set -g x 1']],
    [['sh', '-']],
    [['sh', '--']],
    [['elvish', '-norc']],
    [['elvish', '-rc', '/tmp/rc.elv', '-i']],
    [['/usr/bin/elvish', '--norc', '-log', '/tmp/l']],
  ])('%j waits at a prompt', (argv) => {
    expect(interactiveShell(argv)).toBe(true);
  });

  it.each([
    [['sh', '-c', 'make']],
    [['/bin/bash', '-lc', 'npm run build']],
    [['bash', '-ic', 'htop']],
    [['zsh', '-e', '-c', 'sleep 9']],
    [['fish', '--command', 'sleep 9']],
    [['fish', '--command=sleep 9']],
    [['nu', '--commands', 'ls']],
    [['elvish', '-c', 'sleep 9']],
    [['elvish', '-norc', '--c', 'sleep 9']],
    [['elvish', '-rc', '/tmp/rc.elv', 'build.elv']],
    [['bash', 'build.sh']],
    [['sh', '-e', './ci.sh', 'arg']],
    [['bash', '--', 'build.sh']],
    [['bash', '-o', 'vi', 'build.sh']],
    [['make']],
    [[]],
  ])('%j does not', (argv) => {
    expect(interactiveShell(argv)).toBe(false);
  });
});
