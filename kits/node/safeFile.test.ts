import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendBelow, createBelow, listBelow, mkdirBelow, PathRefused, readBelow, renameBelow, writeBelow } from './safeFile';

let root: string;
let outside: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-safe-'));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-safe-out-'));
  fs.writeFileSync(path.join(outside, 'secret'), 'secret\n');
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

const refusal = (f: () => unknown): PathRefused => {
  try {
    f();
  } catch (e) {
    if (e instanceof PathRefused) return e;
    throw e;
  }
  throw new Error('not refused');
};

describe('safeFile', () => {
  it('reads a regular file below the root, and null for one that is not there', () => {
    fs.mkdirSync(path.join(root, 'a'));
    fs.writeFileSync(path.join(root, 'a', 'f'), 'hi');
    expect(readBelow(root, 'a/f')).toBe('hi');
    expect(readBelow(root, 'a/none')).toBeNull();
    expect(readBelow(root, 'none/f')).toBeNull();
  });

  it('refuses a link at the file and at a directory on the way, naming the file and the rule', () => {
    fs.symlinkSync(path.join(outside, 'secret'), path.join(root, '.plan'));
    const e = refusal(() => readBelow(root, '.plan', { where: "an agent's home" }));
    expect(e.rule).toBe('link');
    expect(e.message).toBe(`refused ${path.join(root, '.plan')}: it is a symbolic link; pane does not follow links or open anything but regular files of a bounded size in an agent's home (remove it, or put a regular file there)`);
    fs.symlinkSync(outside, path.join(root, 'd'));
    expect(refusal(() => readBelow(root, 'd/secret')).rule).toBe('link');
    expect(refusal(() => writeBelow(root, 'd/x', 'no')).rule).toBe('link');
    expect(fs.existsSync(path.join(outside, 'x'))).toBe(false);
  });

  it('refuses a FIFO without blocking, and a file over the bound', () => {
    execFileSync('mkfifo', [path.join(root, 'fifo')]);
    const t = Date.now();
    expect(refusal(() => readBelow(root, 'fifo')).message).toContain('it is a FIFO');
    expect(refusal(() => appendBelow(root, 'fifo', 'x')).rule).toBe('type');
    expect(Date.now() - t).toBeLessThan(1000);
    fs.writeFileSync(path.join(root, 'big'), Buffer.alloc(2000));
    expect(refusal(() => readBelow(root, 'big', { maxBytes: 1000 })).rule).toBe('size');
  });

  it('writes through a fresh temp file: a link at the target is replaced, never written through', () => {
    fs.symlinkSync(path.join(outside, 'secret'), path.join(root, '.plan'));
    writeBelow(root, '.plan', 'mine');
    expect(fs.readFileSync(path.join(outside, 'secret'), 'utf8')).toBe('secret\n');
    expect(fs.lstatSync(path.join(root, '.plan')).isFile()).toBe(true);
    expect(readBelow(root, '.plan')).toBe('mine');
    expect(fs.readdirSync(root)).toEqual(['.plan']);
  });

  it('creates only what is missing, appends only to regular files, lists and renames below the root', () => {
    expect(createBelow(root, 'log', 'a')).toBe(true);
    expect(createBelow(root, 'log', 'b')).toBe(false);
    appendBelow(root, 'log', 'c');
    expect(readBelow(root, 'log')).toBe('ac');
    fs.symlinkSync(path.join(outside, 'secret'), path.join(root, 'l'));
    expect(refusal(() => appendBelow(root, 'l', 'x')).rule).toBe('link');
    expect(createBelow(root, 'l', 'x')).toBe(false);
    fs.linkSync(path.join(outside, 'secret'), path.join(root, 'hard'));
    expect(refusal(() => appendBelow(root, 'hard', 'x')).message).toContain('it is a hard link (2 names)');
    expect(fs.readFileSync(path.join(outside, 'secret'), 'utf8')).toBe('secret\n');
    mkdirBelow(root, 'M/new');
    mkdirBelow(root, 'M/cur');
    writeBelow(root, 'M/new/1', 'm');
    renameBelow(root, 'M/new/1', 'M/cur/1:2,S');
    expect(listBelow(root, 'M/cur')).toEqual(['1:2,S']);
    fs.symlinkSync(outside, path.join(root, 'M', 'tmp'));
    expect(refusal(() => mkdirBelow(root, 'M/tmp')).rule).toBe('link');
    expect(refusal(() => readBelow(root, '../x')).rule).toBe('name');
  });
});
