// The line formats of the namespace's small files, alone.
import { describe, expect, it } from 'vitest';
import { decodeName, encodeName, field, splitProgramLine, tagLine } from './lines';

describe('namespace lines', () => {
  it('splits a program line into argv with quotes and escapes, and never runs a shell', () => {
    expect(splitProgramLine(`sh -c 'echo "hi there"' a\\ b "x\\"y"`)).toEqual(['sh', '-c', 'echo "hi there"', 'a b', 'x"y']);
    expect(splitProgramLine('   ')).toEqual([]);
    expect(splitProgramLine('echo $HOME *')).toEqual(['echo', '$HOME', '*']);
    expect(splitProgramLine("echo 'open")).toBe("unclosed ' in program line");
  });

  it('writes a field with no blanks and never empty, so lines split on blanks', () => {
    expect(field('my session')).toBe('my_session');
    expect(field('')).toBe('-');
    expect(field(null)).toBe('-');
  });

  it('escapes / and % in names so any session or owner is one path element, and reads them back', () => {
    for (const s of ['a/b', '100%', 'plain', '%2F']) expect(decodeName(encodeName(s))).toBe(s);
    expect(encodeName('a/b')).toBe('a%2Fb');
  });

  it('writes the tag as acme does: name, words, bar, user text, on one line', () => {
    expect(tagLine({ tag: { name: 'bash', commands: ['close', 'zoom'], user: 'notes\nmore' } })).toBe('bash close zoom | notes more');
    expect(tagLine({ tag: { name: 'bash', commands: [], user: '' } })).toBe('bash |');
  });
});
