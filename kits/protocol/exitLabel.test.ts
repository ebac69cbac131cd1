// The dead pane's notice as a terminal draws it: below the program's last output,
// whether or not the program used the alternate screen.
import xtermHeadless from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { exitNotice } from './exitLabel';

const { Terminal } = xtermHeadless;
const exit = { code: 3, signal: null, at: Date.UTC(2026, 0, 1, 14, 3, 7) };

async function drawn(output: string): Promise<string[]> {
  const t = new Terminal({ cols: 80, rows: 8, allowProposedApi: true });
  await new Promise<void>((r) => t.write(output + exitNotice('sh', exit), r));
  const b = t.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < 8; i++) lines.push(b.getLine(i)?.translateToString(true) ?? '');
  t.dispose();
  return lines.filter((l) => l.trim() !== '');
}

describe('exitNotice', () => {
  it('lands below the output of a program that never used the alternate screen', async () => {
    // 1049's cursor restore put the cursor at the top-left here, so the notice overwrote 'two'.
    const lines = await drawn('one\r\ntwo\r\nthree\r\n');
    expect(lines.slice(0, 3)).toEqual(['one', 'two', 'three']);
    expect(lines[3]).toMatch(/^\[sh exited 3 at \d\d:\d\d:\d\d\] — Enter to run again/);
  });

  it('leaves a killed full-screen program\'s alternate screen and shows the output from before it', async () => {
    const lines = await drawn('before\r\n\x1b[?1049h\x1b[2J\x1b[Hvim screen');
    expect(lines[0]).toBe('before');
    expect(lines.some((l) => l.includes('vim screen'))).toBe(false);
    expect(lines.at(-1)).toMatch(/^\[sh exited 3/);
  });
});

describe('programOf', () => {
  it('names the agent CLI a sandboxed pane runs, not the node that carries its sandbox', async () => {
    const { programOf } = await import('./exitLabel');
    const tag = { name: 'cl', commands: [], user: '' };
    const launch = { program: '/usr/bin/node', args: ['/x/dist/pane.mjs', 'sandbox', '--settings', '{}', '--', '/home/p/.local/bin/claude', '--settings', 'f.json'] };
    expect(programOf({ launch, tag })).toBe('claude');
    expect(programOf({ launch: { program: '/usr/bin/make', args: ['-j4'] }, tag })).toBe('make');
    expect(programOf({ launch: null, tag })).toBe('cl');
  });
});

describe('exitLine', () => {
  it('escapes a program name that holds control characters: the line goes to a person’s terminal', async () => {
    const { exitLine, programOf } = await import('./exitLabel');
    // A tag a program titled, or a joined host's pane, names it: never a sequence the terminal runs.
    const name = programOf({ launch: null, tag: { name: 'x\x1b]52;c;ZXZpbA==\x07\x1b[2J', commands: [], user: '' } });
    const line = exitLine(name, exit);
    expect(line).not.toMatch(/[\x00-\x1f]/);
    expect(line).toMatch(/^\[x\\e\]52;c;ZXZpbA==\\x07\\e\[2J exited 3 at \d\d:\d\d:\d\d\]$/);
  });
});
