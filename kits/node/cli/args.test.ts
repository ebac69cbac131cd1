// The parser's contract: what it accepts, and that every mistake is a UsageError
// (exit 2) whose message names the flag, value or word at fault.
import { describe, expect, it } from 'vitest';
import { parseArgs, usageLine, type ArgSpec } from './args';
import { UsageError, exitCodeOf } from './errors';

const split: ArgSpec = {
  command: 'split',
  flags: [
    { name: 'target', short: 't', type: 'pane', value: 'ID', doc: '' },
    { name: 'direction', short: 'd', type: 'enum', value: 'h|v', values: ['horizontal', 'vertical'], aliases: { h: 'horizontal', v: 'vertical' }, doc: '' },
    { name: 'ratio', short: 'r', type: 'int', value: 'PCT', min: 1, max: 99, doc: '' },
    { name: 'json', type: 'bool', doc: '' },
  ],
  program: true,
};
const send: ArgSpec = {
  command: 'send',
  flags: [
    { name: 'target', short: 't', type: 'pane', value: 'ID', doc: '' },
    { name: 'raw', type: 'bool', doc: '', conflicts: ['no-newline'] },
    { name: 'no-newline', type: 'bool', doc: '' },
  ],
  positionals: [{ name: 'TEXT', required: true, variadic: true }],
};
const resize: ArgSpec = {
  command: 'resize',
  flags: [
    { name: 'direction', short: 'd', type: 'enum', values: ['left', 'right'], required: true, doc: '' },
    { name: 'cells', short: 'n', type: 'int', min: 1, required: true, doc: '' },
  ],
};

function usageError(spec: ArgSpec, argv: string[]): UsageError {
  try {
    parseArgs(spec, argv);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    expect(exitCodeOf(e)).toBe(2);
    return e as UsageError;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
}

describe('parseArgs', () => {
  it('reads long, short and --name=value flags, converting ints and enum aliases', () => {
    const a = parseArgs(split, ['-t', 'devbox:3', '--direction=v', '-r', '30', '--json']);
    expect(a.flags).toMatchObject({ target: 'devbox:3', direction: 'vertical', ratio: 30, json: true });
  });

  it('takes the words after -- as the program, flags and all', () => {
    const a = parseArgs(split, ['-d', 'h', '--', 'htop', '-d', '5']);
    expect(a.program).toEqual(['htop', '-d', '5']);
    expect(a.flags.direction).toBe('horizontal');
  });

  it('takes the words after -- as positionals for commands without a program', () => {
    expect(parseArgs(send, ['-t', '3', '--', '-v', '--raw']).positionals).toEqual(['-v', '--raw']);
  });

  it('keeps positionals between flags, and a lone - as a word', () => {
    expect(parseArgs(send, ['hello', '-t', '3', 'world', '-']).positionals).toEqual(['hello', 'world', '-']);
  });

  it('accepts the global --socket and --help on any command', () => {
    const a = parseArgs(split, ['--socket', '/tmp/s.sock', '-h']);
    expect(a.flags).toMatchObject({ socket: '/tmp/s.sock', help: true });
  });

  it('skips required checks when --help is asked for', () => {
    expect(parseArgs(resize, ['--help']).flags.help).toBe(true);
  });

  it('names an unknown flag', () => {
    expect(usageError(split, ['--bogus']).message).toBe('unknown flag --bogus');
    expect(usageError(split, ['-x']).message).toBe('unknown flag -x');
  });

  it('refuses bundled short flags, naming them', () => {
    expect(usageError(split, ['-t3']).message).toMatch(/unknown flag -t3/);
  });

  it('names a flag that is missing its value', () => {
    expect(usageError(split, ['-t']).message).toBe('-t needs a value (ID)');
  });

  it('names a bad number and the flag it was given to', () => {
    expect(usageError(split, ['-r', 'half']).message).toBe("-r: 'half' is not a whole number");
    expect(usageError(split, ['-r', '2.5']).message).toBe("-r: '2.5' is not a whole number");
    expect(usageError(split, ['--ratio=100']).message).toBe('--ratio: 100 is above the maximum 99');
    expect(usageError(resize, ['-d', 'left', '-n', '0']).message).toBe('-n: 0 is below the minimum 1');
  });

  it('names a word that is not one of an enum, listing the choices', () => {
    expect(usageError(split, ['-d', 'diagonal']).message).toBe("-d: 'diagonal' is not one of h, v, horizontal, vertical");
  });

  it('names a malformed pane id', () => {
    expect(usageError(split, ['-t', 'abc']).message).toMatch(/-t: 'abc' is not a pane id \(N or HOST:N/);
    expect(usageError(split, ['-t', '0']).message).toMatch(/is not a pane id/);
  });

  it('refuses a value for a boolean flag', () => {
    expect(usageError(split, ['--json=yes']).message).toBe('--json takes no value');
  });

  it('refuses a flag given twice', () => {
    expect(usageError(split, ['-t', '1', '--target', '2']).message).toBe('--target given twice');
  });

  it('names a missing required flag', () => {
    expect(usageError(resize, ['-d', 'left']).message).toBe('missing -n');
  });

  it('names flags that cannot go together', () => {
    expect(usageError(send, ['--raw', '--no-newline', 'x']).message).toBe('--raw and --no-newline cannot be used together');
  });

  it('names a missing positional', () => {
    expect(usageError(send, ['-t', '3']).message).toBe('missing TEXT');
  });

  it('names an unexpected argument, hinting at -- for programs', () => {
    expect(usageError(split, ['htop']).message).toBe("unexpected argument 'htop' (put a program after --, e.g. -- htop)");
    expect(usageError(resize, ['-d', 'left', '-n', '2', 'extra']).message).toBe("unexpected argument 'extra'");
  });

  it('refuses an empty program after --', () => {
    expect(usageError(split, ['--']).message).toMatch(/nothing after --/);
  });

  it('records the command on every usage error so the usage line can be shown', () => {
    expect(usageError(split, ['--bogus']).command).toBe('split');
  });
});

describe('usageLine', () => {
  it('shows required flags bare, optional ones in brackets, and the program slot', () => {
    expect(usageLine(split)).toBe('pane split [-t ID] [-d h|v] [-r PCT] [--json] [-- PROGRAM ARGS...]');
    expect(usageLine(resize)).toBe('pane resize -d left|right -n INT');
    expect(usageLine(send)).toBe('pane send [-t ID] [--raw] [--no-newline] TEXT...');
  });
});
